import Foundation
import XCTest

/// The real `emend lsp` over pipes: framing, the lifecycle and bad input.
final class ServerLifecycleTests: XCTestCase {
    func testInitializeOffersUTF16WhenTheClientNamesNoEncodingAndExitsZeroAfterShutdown() {
        let client = LSPTestClient()
        let result = client.initialize()
        let capabilities = result["capabilities"] as? [String: Any] ?? [:]
        XCTAssertEqual(capabilities["positionEncoding"] as? String, "utf-16")
        XCTAssertEqual((capabilities["textDocumentSync"] as? [String: Any])?["change"] as? Int, 2, "incremental sync")
        XCTAssertEqual((capabilities["codeActionProvider"] as? [String: Any])?["resolveProvider"] as? Bool, true)
        XCTAssertEqual((result["serverInfo"] as? [String: Any])?["name"] as? String, "emend")
        XCTAssertEqual(client.shutdownAndExit(), 0)
    }

    func testExitWithoutShutdownIsStatusOne() {
        let client = LSPTestClient()
        client.initialize()
        client.notify("exit")
        XCTAssertEqual(client.waitForExit(), 1)
    }

    func testExitSentAsARequestExitsZeroAfterShutdownAndOneWithout() {
        let afterShutdown = LSPTestClient()
        afterShutdown.initialize()
        XCTAssertTrue(afterShutdown.call("shutdown")?["result"] is NSNull)
        let id = afterShutdown.request("exit")
        XCTAssertTrue(afterShutdown.response(id)?["result"] is NSNull, "the exit request is answered, not refused")
        XCTAssertEqual(afterShutdown.waitForExit(), 0)

        let withoutShutdown = LSPTestClient()
        withoutShutdown.initialize()
        withoutShutdown.request("exit")
        XCTAssertEqual(withoutShutdown.waitForExit(), 1)

        let beforeInitialize = LSPTestClient()
        beforeInitialize.request("exit")
        XCTAssertEqual(beforeInitialize.waitForExit(), 1)
    }

    func testTheEndOfInputEndsTheServer() {
        let client = LSPTestClient()
        client.initialize()
        client.closeInput()
        XCTAssertEqual(client.waitForExit(), 1)
    }

    func testFramesTogetherInOneWriteAndOneFrameInPieces() {
        let client = LSPTestClient()
        client.initialize()
        let first = LSPTestClient.framed(["jsonrpc": "2.0", "id": 100, "method": "textDocument/codeAction",
                                          "params": ["textDocument": ["uri": "file:///none"], "range": lspRange(0, 0, 0, 0)]])
        let second = LSPTestClient.framed(["jsonrpc": "2.0", "id": 101, "method": "no/such/method", "params": [String: Any]()])
        client.sendRaw(first + second)
        let third = LSPTestClient.framed(["jsonrpc": "2.0", "id": "text-id", "method": "no/such/method"])
        for piece in [third[0..<7], third[7..<30], third[30...]] {
            client.sendRaw(Array(piece))
            usleep(20_000)
        }
        XCTAssertEqual((client.response(100)?["error"] as? [String: Any])?["code"] as? Int, -32602, "a document that is not open")
        XCTAssertEqual((client.response(101)?["error"] as? [String: Any])?["code"] as? Int, -32601)
        let textID = client.wait("response to a string id") { $0["id"] as? String == "text-id" }
        XCTAssertEqual((textID?["error"] as? [String: Any])?["code"] as? Int, -32601, "string ids are echoed as strings")
        XCTAssertEqual(client.shutdownAndExit(), 0)
    }

    func testBadInputGetsLSPErrorsAndTheServerGoesOn() {
        let client = LSPTestClient()
        // Before initialize: "server not initialized".
        XCTAssertEqual((client.call("textDocument/codeAction", [String: Any]())?["error"] as? [String: Any])?["code"] as? Int, -32002)
        client.initialize()
        func errorWithNullID(_ what: String) -> [String: Any]? {
            client.wait(what) { $0["id"] is NSNull && $0["error"] != nil }?["error"] as? [String: Any]
        }
        client.sendRaw(Array("Content-Length: 9\r\n\r\n{\"jsonrpc".utf8))
        XCTAssertEqual(errorWithNullID("parse error")?["code"] as? Int, -32700)
        let invalid: [UInt8] = Array("{\"jsonrpc\":\"2.0\",\"method\":\"x\",\"params\":{\"a\":\"".utf8) + [0xC3, 0x28] + Array("\"}}".utf8)
        client.sendRaw(Array("Content-Length: \(invalid.count)\r\n\r\n".utf8) + invalid)
        let utf8 = errorWithNullID("invalid UTF-8 error")
        XCTAssertEqual(utf8?["code"] as? Int, -32700)
        XCTAssertTrue((utf8?["message"] as? String ?? "").contains("UTF-8"), "\(String(describing: utf8))")
        client.send(["id": 77, "method": "initialize"])   // no "jsonrpc": "2.0"
        XCTAssertEqual((client.response(77)?["error"] as? [String: Any])?["code"] as? Int, -32600)
        client.sendRaw(Array("Content-Type: text\r\n\r\n".utf8))
        XCTAssertEqual(errorWithNullID("frame without length")?["code"] as? Int, -32700)
        // Out-of-range positions.
        client.open("file:///a.txt", "one line\n")
        let beyond = client.call("textDocument/codeAction", ["textDocument": ["uri": "file:///a.txt"], "range": lspRange(5, 0, 5, 1),
                                                             "context": ["diagnostics": []]])
        XCTAssertEqual((beyond?["error"] as? [String: Any])?["code"] as? Int, -32602)
        let backwards = client.call("textDocument/codeAction", ["textDocument": ["uri": "file:///a.txt"], "range": lspRange(0, 4, 0, 1),
                                                                "context": ["diagnostics": []]])
        XCTAssertEqual((backwards?["error"] as? [String: Any])?["code"] as? Int, -32602)
        XCTAssertEqual((client.call("initialize", ["capabilities": [String: Any]()])?["error"] as? [String: Any])?["code"] as? Int, -32600,
                       "a second initialize")
        XCTAssertEqual(client.shutdownAndExit(), 0, "still serving after all of it")
    }

    func testRequestsAfterShutdownAreRefused() {
        let client = LSPTestClient()
        client.initialize()
        XCTAssertTrue(client.call("shutdown")?["result"] is NSNull)
        XCTAssertEqual((client.call("textDocument/codeAction", [String: Any]())?["error"] as? [String: Any])?["code"] as? Int, -32600)
        client.notify("exit")
        XCTAssertEqual(client.waitForExit(), 0)
    }
}
