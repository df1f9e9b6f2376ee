import Foundation
import XCTest
import EmendCore
@testable import EmendProviders

/// The read paths of a plugin's sandbox: a declared `$EMEND_NAME` grants the file the user
/// names in that variable (the llama plugin's EMEND_LLAMA_MODEL: a model outside emend's data
/// directory failed with "Permission denied"), and nothing else of the environment.
final class SandboxPolicyTests: XCTestCase {
    private func record(declaring paths: [String]) -> ProviderRecord {
        var record = ProviderRecord(path: "/opt/p/llama.so", kind: .plugin, id: "org.emend.llama", name: "llama", version: "1",
                                    tools: [.rewriteConcise], languages: ["*"], outputs: 1, streams: true, usesNetwork: false,
                                    priority: 0)
        record.declaredPaths = paths
        return record
    }

    func testADeclaredVariableGrantsThePathTheUserNamesInIt() {
        let environment = ["HOME": "/home/u", "EMEND_LLAMA_MODEL": "/srv/models/tiny.gguf", "EMEND_OTHER": "~/m/x.gguf",
                           "SECRET": "/home/u/.ssh"]
        let declared = ScanReport.paths("$EMEND_LLAMA_MODEL\n$EMEND_OTHER\n$EMEND_UNSET\n$SECRET\n$HOME\nrelative\n/opt/shared")
        XCTAssertEqual(declared, ["$EMEND_LLAMA_MODEL", "$EMEND_OTHER", "$EMEND_UNSET", "/opt/shared"])
        let sandbox = HostSandbox.policy(record: record(declaring: declared), settings: TOMLTable(), enabled: true, userPaths: [],
                                         environment: environment)
        XCTAssertTrue(sandbox.readPaths.contains("/srv/models/tiny.gguf"), "\(sandbox.readPaths)")
        XCTAssertTrue(sandbox.readPaths.contains("/home/u/m/x.gguf"), "\(sandbox.readPaths)")
        XCTAssertFalse(sandbox.readPaths.contains { $0.contains("$") || $0.hasPrefix("/home/u/.ssh") || $0 == "/home/u" },
                       "\(sandbox.readPaths)")

        // Unset: nothing is granted for it.
        let unset = HostSandbox.policy(record: record(declaring: ["$EMEND_LLAMA_MODEL"]), settings: TOMLTable(), enabled: true,
                                       userPaths: [], environment: ["HOME": "/home/u"])
        XCTAssertEqual(unset.readPaths, ["/opt/p/llama.so", "/opt/p", "/home/u/.local/share/emend", "/home/u/.cache/emend"])
    }
}
