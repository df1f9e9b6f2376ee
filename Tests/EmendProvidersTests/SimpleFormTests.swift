import Foundation
import XCTest
import EmendCore
@testable import EmendProviders

final class SimpleFormTests: XCTestCase {
    private typealias Support = SimpleFormTestSupport

    private func provider(_ manifestPath: String, _ settings: [String: TOMLValue] = [:]) throws -> SimpleFormProvider {
        var table = TOMLTable()
        for (key, value) in settings.sorted(by: { $0.key < $1.key }) { table[key] = value }
        return try SimpleFormProvider(manifestPath: manifestPath, settings: table)
    }

    private func run(_ provider: SimpleFormProvider, _ request: ProviderRequest) -> (ProviderOutcome, [String]) {
        let sink = SimpleRecordingSink()
        let outcome = provider.run(request, sink: sink)
        return (outcome, sink.chunks)
    }

    private func failure(_ outcome: ProviderOutcome, file: StaticString = #filePath, line: UInt = #line) -> String {
        guard case .failed(let message) = outcome else {
            XCTFail("the run did not fail", file: file, line: line)
            return ""
        }
        return message
    }

    // MARK: The example (examples/plugins/simple, built with its build.sh)

    func testExamplePlainForm() throws {
        let dir = try Support.exampleDirectory.get()
        let shout = try provider(dir + "/shout.toml")
        XCTAssertEqual(shout.id, "org.emend.example.shout")
        XCTAssertEqual(shout.tools, [.rewriteDescribed, .followUp])
        let text = "Well, hello café and more"
        let request = ProviderRequest(tool: .rewriteDescribed, text: text, selection: 6..<21, prompt: "louder")
        XCTAssertEqual(request.selectedText, "hello café and")
        let (outcome, chunks) = run(shout, request)
        XCTAssertEqual(outcome, .finished)
        XCTAssertEqual(chunks, ["HELLO CAFé AND!"])
        // A second run reuses the binding.
        XCTAssertEqual(run(shout, Support.request("again")).1, ["AGAIN!"])
    }

    func testExampleSettingsOverrideTheManifest() throws {
        let dir = try Support.exampleDirectory.get()
        let louder = try provider(dir + "/shout.toml", ["level": .integer(3), "suffix": .string("?!")])
        XCTAssertEqual(louder.settings, ["level": .int(3), "suffix": .string("?!")])
        XCTAssertEqual(run(louder, Support.request("why")).1, ["WHY?!?!?!"])
        let plain = try provider(dir + "/shout.toml", ["level": .integer(0)])
        XCTAssertEqual(run(plain, Support.request("calm")).1, ["CALM"])
    }

    func testExampleStreamingFormEmitsWordByWord() throws {
        let dir = try Support.exampleDirectory.get()
        let stream = try provider(dir + "/shout-stream.toml")
        XCTAssertEqual(stream.tools, [.compose])
        let request = ProviderRequest(tool: .compose, text: "ignored", selection: 0..<0, prompt: "write a  short note")
        let (outcome, chunks) = run(stream, request)
        XCTAssertEqual(outcome, .finished)
        XCTAssertEqual(chunks, ["WRITE ", "A  ", "SHORT ", "NOTE"])
    }

    // MARK: Arguments and settings (Tests/Fixtures/simple/simple_fixture.c)

    func testEverySettingTypeWithDefaultsAndOverrides() throws {
        let manifest = try Support.fixtureManifest(
            symbol: "fx_types",
            arguments: ["text", "setting:s:string", "setting:i:int", "setting:d:double", "setting:b:bool"],
            settings: "s = \"def\"\ni = 7\nd = 1.5\nb = false")
        XCTAssertEqual(run(try provider(manifest), Support.request("sel")).1, ["sel|def|7|1.500|0"])

        // Every type overridden; an integer is accepted for a double; int is a 64-bit C long.
        let overridden = try provider(manifest, ["s": .string("über"), "i": .integer(-9_000_000_000), "d": .integer(3), "b": .boolean(true)])
        XCTAssertEqual(overridden.settings, ["s": .string("über"), "i": .int(-9_000_000_000), "d": .double(3), "b": .bool(true)])
        XCTAssertEqual(run(overridden, Support.request("sel")).1, ["sel|über|-9000000000|3.000|1"])

        // One override, the rest from the manifest.
        XCTAssertEqual(run(try provider(manifest, ["d": .float(0.25)]), Support.request("x")).1, ["x|def|7|0.250|0"])
    }

    func testSettingOverridesOfTheWrongTypeAreRefused() throws {
        let manifest = try Support.fixtureManifest(
            symbol: "fx_types", arguments: ["text", "setting:s:string", "setting:i:int", "setting:d:double", "setting:b:bool"],
            settings: "s = \"def\"\ni = 7\nd = 1.5\nb = false", id: "org.emend.test.types")
        let wrong: [(String, TOMLValue, String)] = [
            ("s", .integer(1), "s: is integer 1, but the argument is declared string"),
            ("i", .float(1.5), "i: is float 1.5, but the argument is declared int (C long)"),
            ("d", .string("1.5"), "d: is string 1.5, but the argument is declared double"),
            ("b", .integer(1), "b: is integer 1, but the argument is declared bool (C int)"),
            ("unknown", .integer(1), "unknown: not a setting of \(manifest) (settings: s, i, d, b)"),
        ]
        for (key, value, expected) in wrong {
            XCTAssertThrowsError(try provider(manifest, [key: value])) { error in
                let error = error as! EmendError
                XCTAssertEqual(error.status, .invalidArgument)
                XCTAssertTrue(error.message.hasPrefix("config.toml [providers.\"org.emend.test.types\"] "), error.message)
                XCTAssertTrue(error.message.contains(expected), "\(error.message)\n  lacks: \(expected)")
            }
        }
    }

    func testRequestArguments() throws {
        let manifest = try Support.fixtureManifest(symbol: "fx_request", arguments: ["text", "prompt", "language", "previous_result"])
        let shout = try provider(manifest)
        let followUp = ProviderRequest(tool: .followUp, text: "before THE RESULT after", selection: 7..<17,
                                       prompt: "shorter", previousResult: "THE RESULT", language: "de-CH")
        XCTAssertEqual(run(shout, followUp).1, ["THE RESULT|shorter|de-CH|THE RESULT"])
        // Absent prompt and previous result arrive as "", never NULL.
        XCTAssertEqual(run(shout, Support.request("plain")).1, ["plain||en-US|"])
    }

    func testTextWithANULByteIsNotPassedToC() throws {
        let shout = try provider(try Support.fixtureManifest(symbol: "fx_request", arguments: ["text", "prompt", "language", "previous_result"]))
        let (outcome, chunks) = run(shout, Support.request("cut\0here"))
        XCTAssertTrue(failure(outcome).contains("the text argument contains a NUL byte"), failure(outcome))
        XCTAssertEqual(chunks, [])
        let (promptOutcome, _) = run(shout, Support.request("fine", prompt: "a\0b"))
        XCTAssertTrue(failure(promptOutcome).contains("the prompt argument contains a NUL byte"))
        XCTAssertEqual(run(shout, Support.request("after")).1, ["after||en-US|"])
    }

    // MARK: Results

    func testNULLResultFailsTheRun() throws {
        let manifest = try Support.fixtureManifest(symbol: "fx_null", arguments: ["text"])
        let (outcome, chunks) = run(try provider(manifest), Support.request("x"))
        XCTAssertEqual(failure(outcome), "\(manifest): fx_null returned NULL")
        XCTAssertEqual(chunks, [])
    }

    func testInvalidUTF8ResultFailsTheRunAndIsStillFreed() throws {
        let manifest = try Support.fixtureManifest(symbol: "fx_invalid", arguments: ["text"])
        let shout = try provider(manifest)
        let before = try Support.fixtureFreeCount()
        let (outcome, chunks) = run(shout, Support.request("x"))
        XCTAssertEqual(failure(outcome), "\(manifest): the result of fx_invalid is not UTF-8 at byte 2")
        XCTAssertEqual(chunks, [])
        XCTAssertEqual(try Support.fixtureFreeCount(), before + 1)
    }

    func testEachResultIsFreedOnce() throws {
        let shout = try provider(try Support.fixtureManifest(symbol: "fx_request", arguments: ["text", "prompt", "language", "previous_result"]))
        let before = try Support.fixtureFreeCount()
        for _ in 0..<3 { XCTAssertEqual(run(shout, Support.request("x")).0, .finished) }
        XCTAssertEqual(try Support.fixtureFreeCount(), before + 3)
    }

    func testEmptyResultEmitsNothing() throws {
        let (outcome, chunks) = run(try provider(try Support.fixtureManifest(symbol: "fx_empty", arguments: ["text"])), Support.request("x"))
        XCTAssertEqual(outcome, .finished)
        XCTAssertEqual(chunks, [])
    }

    func testStreamingChunksArriveInOrderThroughTheClosure() throws {
        let stream = try provider(try Support.fixtureManifest(symbol: "fx_stream", returns: "void", free: nil, arguments: ["text", "emit"]))
        for word in ["first", "second"] {
            let (outcome, chunks) = run(stream, Support.request(word))
            XCTAssertEqual(outcome, .finished)
            XCTAssertEqual(chunks, ["\(word):", "one ", "two ", "three"])
        }
    }

    func testStreamingChunkThatIsNotUTF8FailsTheRun() throws {
        let manifest = try Support.fixtureManifest(symbol: "fx_stream_invalid", returns: "void", free: nil, arguments: ["text", "emit"])
        let (outcome, chunks) = run(try provider(manifest), Support.request("x"))
        XCTAssertEqual(failure(outcome), "\(manifest): fx_stream_invalid emitted text that is not UTF-8: chunk 2 is not UTF-8 at byte 1 (byte 6 of the output)")
        XCTAssertEqual(chunks, ["good "])
    }

    func testCancelledRunDoesNotCall() throws {
        let shout = try provider(try Support.fixtureManifest(symbol: "fx_request", arguments: ["text", "prompt", "language", "previous_result"]))
        let before = try Support.fixtureFreeCount()
        let sink = SimpleRecordingSink(cancelled: true)
        XCTAssertTrue(failure(shout.run(Support.request("x"), sink: sink)).hasSuffix("cancelled"))
        XCTAssertEqual(sink.chunks, [])
        XCTAssertEqual(try Support.fixtureFreeCount(), before)
    }

    // MARK: Loading failures

    func testMissingSymbolFailsTheRunNamingIt() throws {
        let manifest = try Support.fixtureManifest(symbol: "fx_absent", arguments: ["text"])
        let library = try Support.fixtureLibrary.get()
        let absent = try provider(manifest)
        for _ in 0..<2 {
            let (outcome, chunks) = run(absent, Support.request("x"))
            XCTAssertEqual(failure(outcome), "\(manifest): symbol \"fx_absent\" not found in \(library)")
            XCTAssertEqual(chunks, [])
        }
        // The free function is looked up too.
        let noFreeManifest = try Support.fixtureManifest(symbol: "fx_empty", free: "fx_release", arguments: ["text"])
        XCTAssertEqual(failure(run(try provider(noFreeManifest), Support.request("x")).0),
                       "\(noFreeManifest): symbol \"fx_release\" not found in \(library)")
    }

    func testMissingLibraryFailsTheRun() throws {
        let path = Support.writeManifest("""
        [provider]
        id = "org.emend.test.nolib"
        name = "No library"
        version = "1"
        tools = ["summary"]
        [function]
        library = "missing/libnothing.so"
        symbol = "nothing"
        returns = "string"
        free = "nothing_free"
        arguments = ["text"]
        """)
        let (outcome, _) = run(try provider(path), Support.request("x"))
        let message = failure(outcome)
        XCTAssertTrue(message.hasPrefix("\(path): cannot load \(SimplePath.directory(of: path))/missing/libnothing.so: "), message)
    }

    // MARK: Threads

    func testCallsIntoOneLibraryNeverOverlap() throws {
        // Two manifests over the same (deliberately not thread-safe) library.
        let first = try provider(try Support.fixtureManifest(symbol: "fx_slow", arguments: ["text"]))
        let second = try provider(try Support.fixtureManifest(symbol: "fx_slow_too", arguments: ["text"]))
        let results = SimpleRecordingSink()
        DispatchQueue.concurrentPerform(iterations: 16) { index in
            let sink = SimpleRecordingSink()
            let outcome = (index % 2 == 0 ? first : second).run(Support.request("call \(index)"), sink: sink)
            results.emitText(outcome == .finished ? sink.chunks.joined() : "failed")
        }
        XCTAssertEqual(results.chunks.count, 16)
        XCTAssertEqual(Set(results.chunks), Set((0..<16).map { "call \($0)" }))
    }
}
