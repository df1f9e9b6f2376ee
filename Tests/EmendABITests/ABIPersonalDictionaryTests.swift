import XCTest
import Foundation
import CEmend
import EmendCABI

/// emend_coordinator_add_word and emend_coordinator_ignore_rule write the user's
/// dictionary.txt and ignored-rules.txt in $XDG_CONFIG_HOME/emend, the files the `emend`
/// command and `emend lsp` write, and the next proofread leaves those words and rules alone.
final class ABIPersonalDictionaryTests: XCTestCase {
    private var home: URL!
    private var savedConfigHome: String?

    override func setUpWithError() throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("emend-abi-dictionary-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        savedConfigHome = ProcessInfo.processInfo.environment["XDG_CONFIG_HOME"]
        setenv("XDG_CONFIG_HOME", home.appendingPathComponent("config").path, 1)
    }

    override func tearDownWithError() throws {
        if let savedConfigHome { setenv("XDG_CONFIG_HOME", savedConfigHome, 1) } else { unsetenv("XDG_CONFIG_HOME") }
        try? FileManager.default.removeItem(at: home)
    }

    private func file(_ name: String) -> String? {
        try? String(contentsOf: home.appendingPathComponent("config/emend/\(name)"), encoding: .utf8)
    }

    /// Proofreads the engine's whole text and returns the originals of the suggestions, then
    /// puts the original back (revert) so the next proofread sees the same text.
    private func proofread(_ engine: CEngine, _ coordinator: OpaquePointer) -> [(original: String, rule: String)] {
        XCTAssertEqual(start(coordinator, EMEND_TOOL_PROOFREAD), EMEND_OK, lastError)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK, lastError)
        var found: [(String, String)] = []
        for index in 0..<suggestionCount(coordinator) {
            var s = emend_suggestion()
            s.struct_size = MemoryLayout<emend_suggestion>.size
            XCTAssertEqual(emend_session_get_suggestion(coordinator, index, &s), EMEND_OK)
            found.append((String(cString: s.original), String(cString: s.rule_id)))
        }
        if state(coordinator) != EMEND_STATE_INACTIVE {
            XCTAssertEqual(emend_session_revert(coordinator), EMEND_OK, lastError)
            XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK)
        }
        return found
    }

    func testAddedWordAndIgnoredRuleTakeEffectAtTheNextProofread() throws {
        let original = "It was a error, see you tomorow."
        let engine = CEngine(original)
        let coordinator = try engine.makeCoordinator()
        defer { emend_coordinator_destroy(coordinator) }
        let first = proofread(engine, coordinator)
        XCTAssertEqual(first.map(\.original), ["a error", "tomorow"])
        XCTAssertEqual(first.map(\.rule), ["A_AN", "SPELLING"])
        XCTAssertEqual(engine.text, original)

        // "Ignore rule" on the grammar suggestion, straight from the suggestion's own string.
        XCTAssertEqual(start(coordinator, EMEND_TOOL_PROOFREAD), EMEND_OK)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK)
        var s = emend_suggestion()
        s.struct_size = MemoryLayout<emend_suggestion>.size
        XCTAssertEqual(emend_session_get_suggestion(coordinator, 0, &s), EMEND_OK)
        XCTAssertEqual(emend_coordinator_ignore_rule(coordinator, s.rule_id), EMEND_OK, lastError)
        // The suggestion's strings stay valid after the call (it changes no session).
        XCTAssertEqual(String(cString: s.rule_id), "A_AN")
        XCTAssertEqual(emend_coordinator_ignore_rule(coordinator, s.rule_id), EMEND_OK, "a rule already there is fine")
        XCTAssertEqual(file("ignored-rules.txt"), "A_AN\n", "one line, in the file the CLI and LSP use")
        XCTAssertEqual(suggestionCount(coordinator), 2, "the session's suggestions stay as they are")
        XCTAssertEqual(emend_session_revert(coordinator), EMEND_OK)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK)
        XCTAssertEqual(proofread(engine, coordinator).map(\.original), ["tomorow"], "the ignored rule is gone next time")

        // "Add to dictionary": the word as the user wrote it (the suggestion's original).
        XCTAssertEqual(emend_coordinator_add_word(coordinator, "  tomorow\t"), EMEND_OK, lastError)
        XCTAssertEqual(file("dictionary.txt"), "tomorow\n", "trimmed, one word a line")
        XCTAssertEqual(proofread(engine, coordinator).count, 0, "nothing left to suggest")
        XCTAssertEqual(engine.text, original, "the document is the original")

        // Another coordinator (another view, another process) reads the same files.
        let other = CEngine("See you tomorow, it is a error.")
        let second = try other.makeCoordinator()
        defer { emend_coordinator_destroy(second) }
        XCTAssertEqual(proofread(other, second).count, 0)
    }

    func testAWordAddedInsideACallbackCountsToo() throws {
        let engine = CEngine("See you tomorow.")
        let coordinator = try engine.makeCoordinator()
        defer { emend_coordinator_destroy(coordinator) }
        nonisolated(unsafe) var inside = EMEND_E_INTERNAL
        engine.onStateChange = { coordinator, _ in
            if inside == EMEND_E_INTERNAL { inside = emend_coordinator_add_word(coordinator, "tomorow") }
        }
        XCTAssertEqual(start(coordinator, EMEND_TOOL_PROOFREAD), EMEND_OK)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK)
        XCTAssertEqual(inside, EMEND_OK, "allowed inside a callback: it changes no session")
        XCTAssertEqual(file("dictionary.txt"), "tomorow\n")
    }

    func testBadEntriesAreRefusedAndWriteNothing() throws {
        let engine = CEngine("See you tomorow.")
        let coordinator = try engine.makeCoordinator()
        defer { emend_coordinator_destroy(coordinator) }
        XCTAssertStatus(emend_coordinator_add_word(coordinator, nil), EMEND_E_INVALID_ARGUMENT, mentions: ["word"])
        XCTAssertStatus(emend_coordinator_ignore_rule(coordinator, nil), EMEND_E_INVALID_ARGUMENT, mentions: ["rule"])
        XCTAssertStatus(emend_coordinator_add_word(nil, "word"), EMEND_E_INVALID_ARGUMENT, mentions: ["coordinator"])
        XCTAssertStatus(emend_coordinator_add_word(coordinator, ""), EMEND_E_INVALID_ARGUMENT, mentions: ["empty"])
        XCTAssertStatus(emend_coordinator_add_word(coordinator, "two words"), EMEND_E_INVALID_ARGUMENT, mentions: ["white space"])
        XCTAssertStatus(emend_coordinator_add_word(coordinator, "line\nbreak"), EMEND_E_INVALID_ARGUMENT)
        XCTAssertStatus(emend_coordinator_add_word(coordinator, "#comment"), EMEND_E_INVALID_ARGUMENT, mentions: ["#"])
        XCTAssertStatus(emend_coordinator_ignore_rule(coordinator, "   "), EMEND_E_INVALID_ARGUMENT, mentions: ["empty"])
        let invalid: [CChar] = [0x61, CChar(bitPattern: 0xFF), 0x62, 0]
        XCTAssertStatus(emend_coordinator_add_word(coordinator, invalid), EMEND_E_INVALID_UTF8)
        XCTAssertNil(file("dictionary.txt"))
        XCTAssertNil(file("ignored-rules.txt"))

        // Another thread.
        nonisolated(unsafe) let handle = coordinator
        nonisolated(unsafe) var status = EMEND_OK
        let done = DispatchSemaphore(value: 0)
        Thread { status = emend_coordinator_add_word(handle, "word"); done.signal() }.start()
        XCTAssertEqual(done.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(status, EMEND_E_WRONG_THREAD)
        XCTAssertNil(file("dictionary.txt"))
    }

    func testAFileThatCannotBeWrittenIsRefused() throws {
        // Both files are directories here: open for appending fails (EISDIR), even as root.
        let directory = home.appendingPathComponent("config/emend")
        for name in ["dictionary.txt", "ignored-rules.txt"] {
            try FileManager.default.createDirectory(at: directory.appendingPathComponent(name), withIntermediateDirectories: true)
        }
        let engine = CEngine("See you tomorow.")
        let coordinator = try engine.makeCoordinator()
        defer { emend_coordinator_destroy(coordinator) }
        XCTAssertStatus(emend_coordinator_add_word(coordinator, "tomorow"), EMEND_E_REFUSED,
                        mentions: [directory.appendingPathComponent("dictionary.txt").path])
        XCTAssertStatus(emend_coordinator_ignore_rule(coordinator, "SPELLING"), EMEND_E_REFUSED,
                        mentions: [directory.appendingPathComponent("ignored-rules.txt").path])
        XCTAssertEqual(proofread(engine, coordinator).count, 1, "proofreading goes on")
    }
}
