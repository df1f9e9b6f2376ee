import XCTest
import EmendTestSupport

/// The model providers' prompts carry the host's guidance when it asks again (and a host
/// whose request has no guidance field is read as before).
final class PromptGuidanceTests: XCTestCase {
    func testGuidanceGoesIntoTheUserPromptOnlyWhenTheRequestHasIt() throws {
        let root = PluginBuilder.repoRoot
        let out = NSTemporaryDirectory() + "emend-prompts-\(getpid())"
        let build = "cc -std=c11 -Wall -Wextra -Werror -I \(root)/include -I \(root)/providers/common -I \(root)/providers/sdk "
            + "\(root)/Tests/Fixtures/prompts/guidance.c \(root)/providers/common/emend_prompts.c \(root)/providers/sdk/plugin_message.c -o \(out)"
        _ = try TestProcess.shell(build)
        defer { unlink(out) }
        let prompts = try TestProcess.shell(out).components(separatedBy: "\n---\n")
        XCTAssertGreaterThanOrEqual(prompts.count, 3, prompts.joined())
        XCTAssertFalse(prompts[0].contains("Keep these facts"), prompts[0])
        XCTAssertTrue(prompts[1].contains("Keep these facts exactly as the text states them: 'Friday'"), prompts[1])
        XCTAssertTrue(prompts[1].hasSuffix("We meet on Friday."), prompts[1])
        XCTAssertEqual(prompts[2], prompts[0], "a request of the first version has no guidance to read")
    }
}
