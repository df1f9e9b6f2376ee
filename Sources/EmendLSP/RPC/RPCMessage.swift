/// A request id: JSON-RPC allows a number or a string, and the answer must echo it as sent.
public enum RequestIdentifier: Sendable, Hashable {
    case number(Int)
    case text(String)

    init?(_ json: JSON) {
        if let number = json.int, case .int = json { self = .number(number); return }
        if case .string(let text) = json { self = .text(text); return }
        return nil
    }

    var json: JSON {
        switch self {
        case .number(let number): return .int(number)
        case .text(let text): return .string(text)
        }
    }
}

/// One JSON-RPC 2.0 message as the server reads it.
public enum RPCMessage: Sendable, Equatable {
    case request(id: RequestIdentifier, method: String, params: JSON)
    case notification(method: String, params: JSON)
    /// An answer to a request the server sent (workspace/configuration, progress create...).
    case response(id: RequestIdentifier, result: JSON?, error: JSON?)

    /// Reads the envelope. A message that is JSON but not a valid JSON-RPC message is an
    /// invalid request; its id (when readable) lets the error answer reach the client.
    static func from(_ json: JSON) -> Result<RPCMessage, InvalidMessage> {
        guard case .object(let members) = json else {
            return .failure(InvalidMessage(id: nil, error: .invalidRequest("a JSON-RPC message must be an object")))
        }
        let id = members["id"].flatMap(RequestIdentifier.init)
        guard members["jsonrpc"]?.string == "2.0" else {
            return .failure(InvalidMessage(id: id, error: .invalidRequest("\"jsonrpc\" must be \"2.0\"")))
        }
        if let methodValue = members["method"] {
            guard let method = methodValue.string else { return .failure(InvalidMessage(id: id, error: .invalidRequest("\"method\" must be a string"))) }
            let params = members["params"] ?? .null
            if case .object = params {} else if case .array = params {} else if params != .null {
                return .failure(InvalidMessage(id: id, error: .invalidRequest("\"params\" must be an object or an array")))
            }
            if let raw = members["id"] {
                guard let id else { return .failure(InvalidMessage(id: nil, error: .invalidRequest("\"id\" must be a number or a string"))) }
                _ = raw
                return .success(.request(id: id, method: method, params: params))
            }
            return .success(.notification(method: method, params: params))
        }
        guard let id else { return .failure(InvalidMessage(id: nil, error: .invalidRequest("a message needs a \"method\" or an \"id\""))) }
        return .success(.response(id: id, result: members["result"], error: members["error"]))
    }
}

/// A message that is JSON but not JSON-RPC: the error to answer with, and the id to answer
/// (when one could be read).
struct InvalidMessage: Error {
    let id: RequestIdentifier?
    let error: ResponseError
}
