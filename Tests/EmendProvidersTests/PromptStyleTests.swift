import XCTest
import EmendTestSupport

/// The model providers' prompt styles (providers/common/emend_prompts.c): the keep-facts
/// instruction, and the worked example given as an earlier chat turn only where it fits.
final class PromptStyleTests: XCTestCase {
    private struct Built {
        let user: String
        let exampleUser: String?
        let exampleAnswer: String?
    }

    /// "STYLE TOOL LANGUAGE" -> what was built, from Tests/Fixtures/prompts/styles.c.
    private func buildAll() throws -> [String: Built] {
        let root = PluginBuilder.repoRoot
        let out = NSTemporaryDirectory() + "emend-prompt-styles-\(getpid())"
        let build = "cc -std=c11 -Wall -Wextra -Werror -I \(root)/include -I \(root)/providers/common -I \(root)/providers/sdk "
            + "\(root)/Tests/Fixtures/prompts/styles.c \(root)/providers/common/emend_prompts.c \(root)/providers/sdk/plugin_message.c -o \(out)"
        _ = try TestProcess.shell(build)
        defer { unlink(out) }
        var built: [String: Built] = [:]
        for block in try TestProcess.shell(out).components(separatedBy: "\n===\n") {
            let lines = block.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
            guard lines.count == 2 else { continue }
            let body = String(lines[1])
            func part(_ label: String, until next: String?) -> String? {
                guard let start = body.range(of: label) else { return nil }
                let end = next.flatMap { body.range(of: $0, range: start.upperBound..<body.endIndex)?.lowerBound } ?? body.endIndex
                let value = String(body[start.upperBound..<end])
                return value == "(none)" ? nil : value
            }
            built[String(lines[0])] = Built(user: part("user: ", until: "\nexample user: ") ?? body,
                                            exampleUser: part("example user: ", until: "\nexample answer: "),
                                            exampleAnswer: part("example answer: ", until: nil))
        }
        return built
    }

    func testKeepFactsInstructionFollowsTheToolFamily() throws {
        let built = try buildAll()
        let keepEvery = "Keep every name, number, date and negation of the text"
        let useOnly = "Use only names, numbers and dates from the text, and keep its negations"
        for tool in [1, 2, 3, 4, 10] {
            XCTAssertFalse(built["0 \(tool) en-US"]!.user.contains(keepEvery), "plain style, tool \(tool)")
            XCTAssertTrue(built["1 \(tool) en-US"]!.user.contains(keepEvery), "tool \(tool)")
        }
        for tool in [5, 6, 7, 8] {
            XCTAssertTrue(built["1 \(tool) en-US"]!.user.contains(useOnly), "tool \(tool)")
            XCTAssertFalse(built["1 \(tool) en-US"]!.user.contains(keepEvery), "tool \(tool)")
        }
        XCTAssertFalse(built["1 0 en-US"]!.user.contains("Keep every"), "proofreading asks for JSON edits only")
        XCTAssertFalse(built["1 9 en-US"]!.user.contains("Keep every"), "compose writes new text")
        XCTAssertTrue(built["1 1 en-US"]!.user.hasSuffix("We meet on Friday at 10. Do not be late."))
    }

    func testWorkedExampleIsAnEarlierTurnForTheFixedToolsInEnglishOnly() throws {
        let built = try buildAll()
        for tool in [1, 2, 3, 5, 6, 7, 8] {
            let prompt = built["2 \(tool) en-US"]!
            let example = try XCTUnwrap(prompt.exampleUser, "tool \(tool) has a worked example")
            XCTAssertNotNil(prompt.exampleAnswer)
            // The example is asked with the very instruction the real request gets.
            let instruction = prompt.user.components(separatedBy: ":\n\n")[0]
            XCTAssertTrue(example.hasPrefix(instruction + ":\n\n"), "tool \(tool): \(example)")
            XCTAssertFalse(example.contains("We meet on Friday"), "the user's text is not in the example")
            XCTAssertNil(built["1 \(tool) en-US"]!.exampleUser, "keep-facts style has no example")
        }
        for tool in [0, 4, 9, 10] {
            XCTAssertNil(built["2 \(tool) en-US"]!.exampleUser, "tool \(tool): its instruction is the user's, or JSON")
        }
        XCTAssertNil(built["2 1 de-DE"]!.exampleUser, "an English example does not fit German text")
        let guided = built["2 5 en-GB"]!
        XCTAssertTrue(guided.user.contains("Keep these facts: 'Friday'"))
        XCTAssertFalse(try XCTUnwrap(guided.exampleUser).contains("Keep these facts"), "guidance is for the real text only")
    }

    func testDefaultStyleIsWhatMeasuredBestPerTool() throws {
        // benchmarks/facts: the worked example helped the tone rewrites and hurt key points.
        let built = try buildAll()
        for tool in [1, 2, 3] {
            XCTAssertEqual(built["3 \(tool) en-US"]!.exampleUser, built["2 \(tool) en-US"]!.exampleUser, "tool \(tool)")
            XCTAssertEqual(built["3 \(tool) en-US"]!.user, built["2 \(tool) en-US"]!.user, "tool \(tool)")
        }
        for tool in [0, 4, 5, 6, 7, 8, 9, 10] {
            XCTAssertEqual(built["3 \(tool) en-US"]!.user, built["0 \(tool) en-US"]!.user, "tool \(tool)")
            XCTAssertNil(built["3 \(tool) en-US"]!.exampleUser, "tool \(tool)")
        }
    }

    func testEveryExampleAnswerKeepsTheFactsOfItsInput() throws {
        // An example that changed a fact would teach the model to change facts.
        let built = try buildAll()
        for tool in [1, 2, 3, 5, 6, 7, 8] {
            let prompt = built["2 \(tool) en-US"]!
            let input = prompt.exampleUser!.components(separatedBy: ":\n\n").last!
            let answer = prompt.exampleAnswer!
            let numbers = { (text: String) in Set(text.split(whereSeparator: { !$0.isNumber }).map(String.init)) }
            XCTAssertTrue(numbers(answer).isSubset(of: numbers(input)), "tool \(tool) adds a number: \(answer)")
            if input.contains("not") || input.contains("n't") {
                XCTAssertTrue(answer.contains("not") || answer.contains("n't") || answer.contains("no "), "tool \(tool): \(answer)")
            }
        }
    }

    func testStyleNamesParse() throws {
        let root = PluginBuilder.repoRoot
        let out = NSTemporaryDirectory() + "emend-prompt-parse-\(getpid())"
        _ = try TestProcess.shell("cc -std=c11 -Wall -Wextra -Werror -I \(root)/include -I \(root)/providers/common -I \(root)/providers/sdk "
            + "\(root)/Tests/Fixtures/prompts/styles.c \(root)/providers/common/emend_prompts.c \(root)/providers/sdk/plugin_message.c -o \(out)")
        defer { unlink(out) }
        XCTAssertTrue(try TestProcess.shell(out).contains("parse: 1 1 1 -1"))
    }
}
