/// A JSON-RPC / LSP error answer. Codes are the ones LSP 3.17 names, so a client can tell a
/// broken message (parse error) from a bad position (invalid params) or a cancelled resolve.
public struct ResponseError: Error, Sendable, Equatable {
    public let code: Int
    public let message: String

    public init(_ code: Int, _ message: String) {
        self.code = code
        self.message = message
    }

    public static let parseErrorCode = -32700
    public static let invalidRequestCode = -32600
    public static let methodNotFoundCode = -32601
    public static let invalidParamsCode = -32602
    public static let internalErrorCode = -32603
    public static let serverNotInitializedCode = -32002
    public static let requestFailedCode = -32803
    public static let requestCancelledCode = -32800
    public static let contentModifiedCode = -32801

    public static func parseError(_ message: String) -> ResponseError { ResponseError(parseErrorCode, message) }
    public static func invalidRequest(_ message: String) -> ResponseError { ResponseError(invalidRequestCode, message) }
    public static func methodNotFound(_ method: String) -> ResponseError {
        ResponseError(methodNotFoundCode, "method not found: \(method)")
    }
    public static func invalidParams(_ message: String) -> ResponseError { ResponseError(invalidParamsCode, message) }
    public static func requestFailed(_ message: String) -> ResponseError { ResponseError(requestFailedCode, message) }
    public static let cancelled = ResponseError(requestCancelledCode, "the request was cancelled")

    var json: JSON { ["code": .int(code), "message": .string(message)] }
}
