import Foundation
import XCTest
import EmendCore
@testable import EmendProviders
import EmendTestSupport

/// The Harper provider (providers/harper): the process provider built with Harper's server as
/// its command, over harper-py installed into .deps/python by providers/harper/setup.sh. The
/// tests run setup.sh themselves (it does nothing when harper-py is there) and skip when it
/// cannot install the wheel (no network, no Python 3.10).
final class HarperProviderTests: XCTestCase {
    /// Run once per test process; CombinedProofreadingTests, which runs first, needs it too.
    static let setup: Result<String, any Error> = Result {
        try TestProcess.run("/bin/sh", [PluginBuilder.repoRoot + "/providers/harper/setup.sh"])
    }

    override func setUpWithError() throws {
        if case .failure(let error) = Self.setup {
            throw XCTSkip("providers/harper/setup.sh could not install harper-py: \(error.localizedDescription)")
        }
    }

    private func provider(logs: PluginLogCollector = PluginLogCollector()) throws -> PluginProvider {
        PluginProvider(record: try PluginLibrary.load(path: try ProcessPlugins.harper()).record, settings: [], logger: logs.logger)
    }

    private func request(_ text: String, selection: Range<Int>? = nil, protected: [Range<Int>] = [],
                         language: String = "en-US") -> ProviderRequest {
        ProviderRequest(tool: .proofread, text: text, selection: selection ?? 0..<text.utf8.count, protectedRanges: protected,
                        language: language)
    }

    /// An edit as the tests spell it: the text it replaces, the replacement, category, rule.
    private struct Found: Equatable, CustomStringConvertible {
        var original: String, replacement: String, category: String, rule: String
        var description: String { "\(original) -> \(replacement) (\(category), \(rule))" }
    }

    private func found(_ edits: [ProviderEdit], in text: String) -> [Found] {
        let bytes = Array(text.utf8)
        return edits.map { Found(original: String(decoding: bytes[$0.range], as: UTF8.self), replacement: $0.replacement,
                                 category: $0.category, rule: $0.ruleID) }
    }

    private static let sentences: [(wrong: String, right: String, expected: [Found])] = [
        ("Their going too the party tomorow, and they has brought there own snacks.",
         "They're going to the party tomorrow, and they have brought their own snacks.",
         // Harper 0.2.0 lets "Their going" pass.
         [Found(original: "too", replacement: "to", category: "grammar", rule: "ToTwoToo"),
          Found(original: "tomorow", replacement: "tomorrow", category: "spelling", rule: "SpellCheck"),
          Found(original: "has", replacement: "have", category: "grammar", rule: "PronounVerbAgreement"),
          Found(original: "there", replacement: "their", category: "grammar", rule: "ThereOwn")]),
        ("I could of done it better.", "I could have done it better.",
         [Found(original: "could of", replacement: "could have", category: "grammar", rule: "ModalOf")]),
        ("This is a example of an error.", "This is an example of an error.",
         [Found(original: "a", replacement: "an", category: "grammar", rule: "AnA")]),
        ("She dont like it.", "She doesn't like it.",
         [Found(original: "dont", replacement: "don't", category: "spelling", rule: "SpellCheck")]),
        ("The the cat sat.", "The cat sat.",
         [Found(original: "The the", replacement: "The", category: "grammar", rule: "RepeatedWords")]),
        ("Its a nice day, isnt it?", "It's a nice day, isn't it?",
         [Found(original: "Its", replacement: "It's", category: "punctuation", rule: "ItsContraction"),
          Found(original: "isnt", replacement: "isn't", category: "spelling", rule: "SpellCheck")]),
    ]

    func testTheSixSentencesAndTheirCorrectionsWithOneWarmProcess() throws {
        let logs = PluginLogCollector()
        let provider = try provider(logs: logs)
        var sinks: [PluginTestSink] = []
        for sentence in Self.sentences {
            let sink = PluginTestSink()
            XCTAssertEqual(provider.run(request(sentence.wrong), sink: sink), .finished, sentence.wrong)
            XCTAssertEqual(found(sink.edits, in: sentence.wrong), sentence.expected, sentence.wrong)
            XCTAssertTrue(sink.edits.allSatisfy { !$0.explanation.isEmpty }, "\(sink.edits)")
            sinks.append(sink)
        }
        // The ranges are where the words are.
        let first = Self.sentences[0].wrong
        XCTAssertEqual(sinks[0].edits.map(\.range), [byteRange(of: "too", in: first), byteRange(of: "tomorow", in: first),
                                                      byteRange(of: "has", in: first), byteRange(of: "there", in: first)])
        XCTAssertEqual(sinks[2].edits.map(\.range), [8..<9])
        XCTAssertEqual(sinks[0].edits[0].explanation,
                       "Use the infinitive marker `to` here instead of the adverb `too`, which indicates excess degree.")

        for sentence in Self.sentences {
            let sink = PluginTestSink()
            XCTAssertEqual(provider.run(request(sentence.right), sink: sink), .finished, sentence.right)
            XCTAssertEqual(sink.edits, [], "no suggestion on \"\(sentence.right)\"")
            sinks.append(sink)
        }

        // Twelve requests, one process: started once, ready once.
        let lines = sinks.flatMap(\.logs) + logs.all
        XCTAssertEqual(lines.filter { $0.hasPrefix("org.emend.harper: info: started the checker (pid ") }.count, 1, "\(lines)")
        XCTAssertEqual(lines.filter { $0.hasPrefix("org.emend.harper: info: stderr: harper server ready (pid ") }.count, 1, "\(lines)")
        XCTAssertFalse(lines.contains { $0.contains("warning") || $0.contains("error") }, "\(lines)")
    }

    /// Harper's linter is built on the first English request, not when the process starts:
    /// a request Harper refuses (German) finds the server ready and no linter built; the
    /// English one after it builds it, once.
    func testTheLinterIsBuiltOnTheFirstEnglishRequest() throws {
        let logs = PluginLogCollector()
        let provider = try provider(logs: logs)
        let german = PluginTestSink()
        XCTAssertNotEqual(provider.run(request("Das ist ein Test.", language: "de-DE"), sink: german), .finished)
        var lines = german.logs + logs.all
        XCTAssertEqual(lines.filter { $0.contains("harper server ready (pid ") }.count, 1, "\(lines)")
        XCTAssertEqual(lines.filter { $0.contains("linter in ") }, [], "a linter was built before an English request")

        let english = PluginTestSink()
        XCTAssertEqual(provider.run(request("I could of done it better."), sink: english), .finished)
        XCTAssertEqual(found(english.edits, in: "I could of done it better."),
                       [Found(original: "could of", replacement: "could have", category: "grammar", rule: "ModalOf")])
        let again = PluginTestSink()
        XCTAssertEqual(provider.run(request("She dont like it."), sink: again), .finished)
        lines = german.logs + english.logs + again.logs + logs.all
        XCTAssertEqual(lines.filter { $0.contains("built Harper's American linter in ") }.count, 1, "\(lines)")
    }

    func testSpansInCodePointsBecomeByteOffsets() throws {
        let provider = try provider()
        let text = "Café owners 😀 recieve the parcels tomorow."
        let sink = PluginTestSink()
        XCTAssertEqual(provider.run(request(text), sink: sink), .finished)
        XCTAssertEqual(sink.edits.map(\.range), [byteRange(of: "recieve", in: text), byteRange(of: "tomorow", in: text)])
        XCTAssertEqual(sink.edits.map(\.replacement), ["receive", "tomorrow"])
    }

    func testOnlyTheSelectionIsCheckedAndProtectedTextIsLeftAlone() throws {
        let provider = try provider()
        let text = "She dont like it. I could of done it better. This is a example."
        let selection = byteRange(of: "I could", in: text).lowerBound..<text.utf8.count
        let sink = PluginTestSink()
        XCTAssertEqual(provider.run(request(text, selection: selection, protected: [byteRange(of: "a example", in: text)]), sink: sink),
                       .finished)
        XCTAssertEqual(found(sink.edits, in: text), [Found(original: "could of", replacement: "could have", category: "grammar", rule: "ModalOf")])
    }

    /// Harper's RegularIrregulars lists its forms from a hash set, in an order that changed
    /// from process to process ("runned" → "ran" or "run"); the server puts the past form first
    /// in every process, so the same text gets the same first suggestion (issue 24).
    func testAnIrregularVerbsPastFormComesFirstInEveryProcess() throws {
        let text = "She runned to the station and sleeped on the train."
        for _ in 0..<4 {
            let sink = PluginTestSink()
            XCTAssertEqual(try provider().run(request(text), sink: sink), .finished)
            XCTAssertEqual(found(sink.edits, in: text).map(\.replacement), ["ran", "slept"])
        }
    }

    func testTheLanguagePicksHarpersDialect() throws {
        let provider = try provider()
        let text = "The colour of the centre is grey."
        let american = PluginTestSink()
        XCTAssertEqual(provider.run(request(text, language: "en-US"), sink: american), .finished)
        XCTAssertEqual(american.edits.map(\.replacement), ["color", "center", "gray"])
        let british = PluginTestSink()
        XCTAssertEqual(provider.run(request(text, language: "en-GB"), sink: british), .finished)
        XCTAssertEqual(british.edits, [])
        XCTAssertEqual(provider.run(request(text, language: "de-DE"), sink: PluginTestSink()),
                       .failed("org.emend.harper: Harper checks English only, not de-DE"))
    }

    /// A text linted before is answered from the warm checker's memory, not linted again (the
    /// next `emend proofread` of an unchanged file, an editor opening a document again): the
    /// same edits, the selection and protected text applied anew; a changed text is linted.
    func testATextLintedBeforeIsAnsweredFromMemoryWithTheSameEdits() throws {
        let logs = PluginLogCollector()
        let provider = try provider(logs: logs)
        let paragraph = "She dont like it. I could of done it better. This is a example of an error. "
        let text = (0..<60).map { "Paragraph \($0): " + paragraph }.joined(separator: "\n\n")
        XCTAssertGreaterThan(text.utf8.count, 4096, "the server logs remembered texts from 4096 characters")
        func run(_ text: String, selection: Range<Int>? = nil, protected: [Range<Int>] = []) -> PluginTestSink {
            let sink = PluginTestSink()
            XCTAssertEqual(provider.run(request(text, selection: selection, protected: protected), sink: sink), .finished)
            sinks.append(sink)
            return sink
        }
        var sinks: [PluginTestSink] = []
        /// How many requests so far were answered from memory (the server says so in the log).
        func remembered() -> Int {
            (sinks.flatMap(\.logs) + logs.all).filter { $0.contains("characters) were remembered") }.count
        }
        let first = run(text)
        XCTAssertEqual(first.edits.count, 60 * 3, "\(found(first.edits, in: text))")
        XCTAssertEqual(remembered(), 0)
        let second = run(text)
        XCTAssertEqual(second.edits, first.edits)
        XCTAssertEqual(remembered(), 1, "\(sinks.flatMap(\.logs) + logs.all)")

        // The selection and protected text are applied to the remembered lints as to new ones.
        let selection = byteRange(of: "Paragraph 5:", in: text).lowerBound..<byteRange(of: "Paragraph 6:", in: text).lowerBound
        let protected = [byteRange(of: "Paragraph 5: She dont", in: text)]
        let part = run(text, selection: selection, protected: protected)
        XCTAssertEqual(found(part.edits, in: text).map(\.original), ["could of", "a"])
        XCTAssertEqual(part.edits, first.edits.filter { selection.contains($0.range.lowerBound) && !protected[0].overlaps($0.range) })
        XCTAssertEqual(remembered(), 2)

        // A changed text is linted: the corrected paragraph has no edits any more.
        let changed = text.replacingOccurrences(of: "Paragraph 0: " + paragraph, with: "Paragraph 0: She does not like it. ")
        let after = run(changed)
        XCTAssertEqual(after.edits.count, 59 * 3, "\(found(after.edits, in: changed))")
        XCTAssertEqual(remembered(), 2, "a changed text was answered from memory")
    }

    /// A long text is cut at paragraph breaks into pieces (here of 300 code points, 16,000 by
    /// default), linted by one linter or, with --workers 2, by this checker and a helper
    /// process beside it (harper-py's linters of one process take turns): the same edits as the
    /// text linted whole, whichever process linted which piece; the helper lints pieces once it
    /// is ready; an edit relints the pieces around it (a cut follows paragraphs, so a changed
    /// paragraph can move the next cuts), not the whole text.
    func testALongTextIsLintedInPiecesOnTwoLintersWithTheEditsOfTheWholeText() throws {
        let paragraph = "She dont like it. I could of done it better. This is a example of an error."
        let text = (0..<60).map { "Paragraph \($0): " + paragraph }.joined(separator: "\n\n")
        let wholeLogs = PluginLogCollector(), twoLogs = PluginLogCollector(), oneLogs = PluginLogCollector()
        let whole = runLong(try piecesProvider("", logs: wholeLogs), text)
        XCTAssertEqual(whole.edits.count, 60 * 3, "\(found(whole.edits, in: text))")
        // A long idle time: the helper must still be there after the checker below is built
        // and lints (a minute or more on a loaded machine).
        let twoLinters = try piecesProvider("--piece-chars 300 --workers 2 --helper-idle-seconds 600", logs: twoLogs)
        let two = runLong(twoLinters, text)
        XCTAssertEqual(two.edits, whole.edits)
        let one = runLong(try piecesProvider("--piece-chars 300 --workers 1", logs: oneLogs), text)
        XCTAssertEqual(one.edits, whole.edits)

        let wholeLines = whole.logs + wholeLogs.all, oneLines = one.logs + oneLogs.all
        XCTAssertEqual(wholeLines.filter { $0.contains(" pieces of this text") }, [], "a text of \(text.count) characters was cut: \(wholeLines)")
        XCTAssertEqual(oneLines.filter { $0.contains("started helper process") }, [], "\(oneLines)")
        let first = try XCTUnwrap(pieceCounts(oneLines.first { $0.contains(" pieces of this text (\(text.count) characters)") }), "\(oneLines)")
        XCTAssertEqual(first.linted, first.of)
        XCTAssertGreaterThan(first.of, 4, "\(oneLines)")
        XCTAssertEqual(first.inHelpers, 0)

        // Once the helper is ready, it lints pieces of the next long text beside this checker.
        try waitForHelper(twoLinters, logs: twoLogs, sinks: [two])
        let other = text.replacingOccurrences(of: "Paragraph ", with: "Section ")
        let otherWhole = runLong(try piecesProvider("", logs: PluginLogCollector()), other)
        let shared = runLong(twoLinters, other)
        XCTAssertEqual(shared.edits, otherWhole.edits)
        let sharedLine = (shared.logs + twoLogs.all).first { $0.contains(" pieces of this text (\(other.count) characters)") }
        let split = try XCTUnwrap(pieceCounts(sharedLine), "\(shared.logs + twoLogs.all)")
        XCTAssertEqual(split.linted, split.of)
        XCTAssertGreaterThan(split.inHelpers, 0, "\(sharedLine ?? "")")
        XCTAssertLessThan(split.inHelpers, split.of, "\(sharedLine ?? "")")

        // An edit in the middle relints the pieces around it; the others are remembered.
        let changed = text.replacingOccurrences(of: "Paragraph 30: " + paragraph, with: "Paragraph 30: She does not like it.")
        let after = runLong(twoLinters, changed)
        XCTAssertEqual(after.edits.count, 59 * 3, "\(found(after.edits, in: changed))")
        let relinted = (after.logs + twoLogs.all).filter { $0.contains(" pieces of this text (\(changed.count) characters)") }
        let again = try XCTUnwrap(pieceCounts(relinted.first), "\(after.logs + twoLogs.all)")
        XCTAssertGreaterThan(again.linted, 0)
        XCTAssertLessThan(again.linted * 2, again.of, "\(relinted)")
    }

    /// A helper process killed (by the user, the kernel's OOM killer) while the checker lints a
    /// long text costs nothing but time: its piece is linted by the checker, the edits are those
    /// of one linter, and the next long text starts another helper. A helper given no piece for
    /// --helper-idle-seconds exits (its memory goes back).
    func testAKilledHelperIsSurvivedAndAnIdleOneExits() throws {
        let paragraph = "She dont like it. I could of done it better. This is a example of an error."
        let text = (0..<200).map { "Paragraph \($0): " + paragraph }.joined(separator: "\n\n")
        let logs = PluginLogCollector()
        let two = try piecesProvider("--piece-chars 300 --workers 2 --helper-idle-seconds 600", logs: logs)
        let first = runLong(two, text)
        XCTAssertEqual(first.edits.count, 200 * 3)
        let pid = try waitForHelper(two, logs: logs, sinks: [first])

        // Killed while the checker lints the next text: the helper's CPU time shows it linting.
        let other = text.replacingOccurrences(of: "Paragraph ", with: "Part ")
        let expected = runLong(try piecesProvider("--piece-chars 300 --workers 1", logs: PluginLogCollector()), other)
        let busyBefore = Self.cpuTicks(pid)
        let killer = Thread {
            let deadline = Date().addingTimeInterval(120)
            while Date() < deadline, let ticks = Self.cpuTicks(pid), ticks == busyBefore { usleep(2000) }
            kill(pid, SIGKILL)
        }
        killer.start()
        let survived = runLong(two, other)
        XCTAssertEqual(survived.edits, expected.edits)
        let lines = { first.logs + survived.logs + logs.all }
        XCTAssertEqual(lines().filter { $0.contains("helper process \(pid) failed") }.count, 1, "\(lines())")
        XCTAssertNil(Self.cpuTicks(pid), "the killed helper still runs")

        // The next long text starts another helper.
        let third = runLong(two, text.replacingOccurrences(of: "Paragraph ", with: "Chapter "))
        XCTAssertEqual(third.edits.count, 200 * 3)
        let started = (lines() + third.logs).filter { $0.contains("started helper process") }
        XCTAssertEqual(started.count, 2, "\(started)")

        // An idle helper exits.
        let idleLogs = PluginLogCollector()
        let idle = try piecesProvider("--piece-chars 300 --workers 2 --helper-idle-seconds 1", logs: idleLogs)
        let linted = runLong(idle, text)
        XCTAssertEqual(linted.edits.count, 200 * 3)
        let idlePid = try waitForHelper(idle, logs: idleLogs, sinks: [linted])
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, Self.cpuTicks(idlePid) != nil { usleep(50_000) }
        XCTAssertNil(Self.cpuTicks(idlePid), "a helper idle for 1 s still runs")
        let flush = runLong(idle, "She dont like it.")
        XCTAssertEqual((linted.logs + flush.logs + idleLogs.all).filter { $0.contains("helper process \(idlePid) exits: no piece to lint for 1 s") }.count, 1,
                       "\(linted.logs + flush.logs + idleLogs.all)")
        withExtendedLifetime(idle) {}
    }

    /// A provider whose command is Harper's server with `options`, a disk cache of its own (none
    /// may answer from another's).
    private func piecesProvider(_ options: String, logs: PluginLogCollector) throws -> PluginProvider {
        let root = PluginBuilder.repoRoot
        let cache = NSTemporaryDirectory() + "emend-harper-pieces-\(getpid())-\(UInt64.random(in: 0..<UInt64.max))"
        addTeardownBlock { try? FileManager.default.removeItem(atPath: cache) }
        let command = "python3 -u -I -B \(root)/providers/harper/harper_server.py --deps \(root)/.deps/python "
            + "--cache-dir \(cache) \(options)"
        return PluginProvider(record: try PluginLibrary.load(path: try ProcessPlugins.harper()).record,
                              settings: [(key: "command", value: command)], logger: logs.logger)
    }

    private func runLong(_ provider: PluginProvider, _ text: String) -> PluginTestSink {
        let sink = PluginTestSink()
        XCTAssertEqual(provider.run(request(text), sink: sink), .finished)
        return sink
    }

    /// (linted, of, in helpers) in "linted 3 of the 12 pieces of this text (...) in 1.0 s, 2 of them in helper processes".
    private func pieceCounts(_ line: String?) -> (linted: Int, of: Int, inHelpers: Int)? {
        guard let line, let tail = line.components(separatedBy: "linted ").last else { return nil }
        let words = tail.split(separator: " ")
        guard words.count > 3, let linted = Int(words[0]), let of = Int(words[3]) else { return nil }
        let helpers = line.components(separatedBy: " s, ").last?.split(separator: " ").first.flatMap { Int($0) } ?? 0
        return (linted, of, helpers)
    }

    /// The pid of the helper process `provider`'s checker started, once it said it built its
    /// linter (short requests bring the checker's log lines in); fails after two minutes.
    @discardableResult
    private func waitForHelper(_ provider: PluginProvider, logs: PluginLogCollector, sinks: [PluginTestSink]) throws -> pid_t {
        var lines: [String] = []
        let deadline = Date().addingTimeInterval(120)
        repeat {
            let probe = PluginTestSink()
            XCTAssertEqual(provider.run(request("She dont like it."), sink: probe), .finished)
            lines = sinks.flatMap(\.logs) + probe.logs + logs.all
            if let built = lines.last(where: { $0.contains("linter in ") && $0.contains("(helper process ") }),
               let pid = built.components(separatedBy: "(helper process ").last?.split(separator: ",").first.flatMap({ pid_t($0) }) {
                return pid
            }
            usleep(200_000)
        } while Date() < deadline
        throw XCTSkip("no helper process was ready within two minutes (a loaded machine?): \(lines)")
    }

    /// utime + stime of `pid` in clock ticks, nil when it no longer exists (or is a zombie).
    private static func cpuTicks(_ pid: pid_t) -> Int? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, fields[0] != "Z", let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
        return user + system
    }

    /// The lints of long pieces are kept on disk: a checker started again (the service exits
    /// when idle) answers an unchanged long text from there without building a linter, with the
    /// same edits; a damaged cache file is linted again; a short text is never written.
    func testAnotherCheckerReadsTheLintsOfALongTextFromTheDiskCache() throws {
        let root = PluginBuilder.repoRoot
        let cache = NSTemporaryDirectory() + "emend-harper-cache-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: cache) }
        func provider(logs: PluginLogCollector) throws -> PluginProvider {
            let command = "python3 -u -I -B \(root)/providers/harper/harper_server.py --deps \(root)/.deps/python "
                + "--piece-chars 300 --cache-dir \(cache)"
            return PluginProvider(record: try PluginLibrary.load(path: try ProcessPlugins.harper()).record,
                                  settings: [(key: "command", value: command)], logger: logs.logger)
        }
        func run(_ provider: PluginProvider, _ text: String) -> PluginTestSink {
            let sink = PluginTestSink()
            XCTAssertEqual(provider.run(request(text), sink: sink), .finished)
            return sink
        }
        func files() -> [String] {
            (FileManager.default.enumerator(atPath: cache)?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".json") }.sorted()
        }
        let short = "She dont like it."
        let paragraph = "She dont like it. I could of done it better. This is a example of an error."
        let text = (0..<40).map { "Paragraph \($0): " + paragraph }.joined(separator: "\n\n")

        let firstLogs = PluginLogCollector()
        let first = try provider(logs: firstLogs)
        XCTAssertEqual(run(first, short).edits.count, 1)
        XCTAssertEqual(files(), [], "a short text was cached on disk")
        let linted = run(first, text)
        XCTAssertEqual(linted.edits.count, 40 * 3, "\(found(linted.edits, in: text))")
        let cached = files()
        XCTAssertGreaterThan(cached.count, 3, "\(linted.logs + firstLogs.all)")

        let secondLogs = PluginLogCollector()
        let again = run(try provider(logs: secondLogs), text)
        XCTAssertEqual(again.edits, linted.edits)
        var lines = again.logs + secondLogs.all
        XCTAssertEqual(lines.filter { $0.contains("read the lints of \(cached.count) of the \(cached.count) pieces") }.count, 1, "\(lines)")
        XCTAssertEqual(lines.filter { $0.contains("linter in ") }, [], "a linter was built for cached lints")

        // A damaged file is a miss: its piece is linted again, with the same edits.
        try "[[0, 9999".write(toFile: cache + "/" + cached[0], atomically: false, encoding: .utf8)
        let thirdLogs = PluginLogCollector()
        let repaired = run(try provider(logs: thirdLogs), text)
        XCTAssertEqual(repaired.edits, linted.edits)
        lines = repaired.logs + thirdLogs.all
        XCTAssertEqual(lines.filter { $0.contains("ignored the cached lints in ") }.count, 1, "\(lines)")
        XCTAssertEqual(lines.filter { $0.contains("linted 1 of the \(cached.count) pieces") }.count, 1, "\(lines)")

        // A cache that cannot be written (Emend's sandbox allows it only where the user says)
        // is said once, and the edits are the same.
        let blocked = cache + "-file"
        try "".write(toFile: blocked, atomically: false, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: blocked) }
        let blockedLogs = PluginLogCollector()
        let command = "python3 -u -I -B \(root)/providers/harper/harper_server.py --deps \(root)/.deps/python "
            + "--piece-chars 300 --cache-dir \(blocked)/harper"
        let unwritable = PluginProvider(record: try PluginLibrary.load(path: try ProcessPlugins.harper()).record,
                                        settings: [(key: "command", value: command)], logger: blockedLogs.logger)
        let uncached = run(unwritable, text)
        XCTAssertEqual(uncached.edits, linted.edits)
        lines = uncached.logs + blockedLogs.all
        XCTAssertEqual(lines.filter { $0.contains("cannot keep lints on disk in \(blocked)/harper") && $0.contains("sandbox_write_paths") }.count,
                       1, "\(lines)")
    }

    /// In Emend the lints go to the provider's own cache directory, EMEND_PROVIDER_CACHE_DIR
    /// (the one its sandbox lets it write), which the process provider passes on to the server.
    func testTheLintsGoToTheProvidersOwnCacheDirectory() throws {
        let root = PluginBuilder.repoRoot
        let own = NSTemporaryDirectory() + "emend-harper-own-cache-\(getpid())"
        try FileManager.default.createDirectory(atPath: own, withIntermediateDirectories: true)
        setenv("EMEND_PROVIDER_CACHE_DIR", own, 1)
        defer {
            unsetenv("EMEND_PROVIDER_CACHE_DIR")
            try? FileManager.default.removeItem(atPath: own)
        }
        let command = "python3 -u -I -B \(root)/providers/harper/harper_server.py --deps \(root)/.deps/python --piece-chars 300"
        let provider = PluginProvider(record: try PluginLibrary.load(path: try ProcessPlugins.harper()).record,
                                      settings: [(key: "command", value: command)])
        let paragraph = "She dont like it. I could of done it better. This is a example of an error."
        let text = (0..<8).map { "Paragraph \($0): " + paragraph }.joined(separator: "\n\n")
        let sink = PluginTestSink()
        XCTAssertEqual(provider.run(request(text), sink: sink), .finished)
        XCTAssertEqual(sink.edits.count, 8 * 3)
        let files = (FileManager.default.enumerator(atPath: own)?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".json") }
        XCTAssertGreaterThan(files.count, 0, "\(sink.logs)")
    }

    /// A long request cancelled (its time ran out on a loaded machine) stops after the pieces
    /// being linted and keeps them: the next request lints only the pieces left, with the edits
    /// of a checker never cancelled.
    func testACancelledLongTextKeepsItsLintedPiecesForTheNextRequest() throws {
        let root = PluginBuilder.repoRoot
        let cache = NSTemporaryDirectory() + "emend-harper-cancel-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let logs = PluginLogCollector()
        let command = "python3 -u -I -B \(root)/providers/harper/harper_server.py --deps \(root)/.deps/python "
            + "--piece-chars 300 --workers 1 --cache-dir \(cache)"
        let provider = PluginProvider(record: try PluginLibrary.load(path: try ProcessPlugins.harper()).record,
                                      settings: [(key: "command", value: command)], logger: logs.logger)
        let paragraph = "She dont like it. I could of done it better. This is a example of an error."
        let text = (0..<400).map { "Paragraph \($0): " + paragraph }.joined(separator: "\n\n")
        // The checker started and its linter built first, so that the cancel reaches it linting.
        XCTAssertEqual(provider.run(request(paragraph), sink: PluginTestSink()), .finished)
        let cancelled = PluginTestSink(cancelAfterSeconds: 0.3)
        XCTAssertNotEqual(provider.run(request(text), sink: cancelled), .finished, "400 paragraphs linted within 0.3 s")
        // The next run waits for the checker to be done with the cancelled request; the lines
        // the checker wrote in between come to it.
        let next = PluginTestSink()
        XCTAssertEqual(provider.run(request(text), sink: next), .finished)
        XCTAssertEqual(next.edits.count, 400 * 3)
        let lines = cancelled.logs + next.logs + logs.all
        // "cancelled after K of the N pieces to lint ..."
        let stopped = lines.first { $0.contains("cancelled after ") }
        let words = try XCTUnwrap(stopped?.components(separatedBy: "cancelled after ").last?.split(separator: " "), "\(lines)")
        let kept = try XCTUnwrap(Int(words[0])), total = try XCTUnwrap(Int(words[3]))
        XCTAssertLessThan(kept, total)
        XCTAssertGreaterThan(kept, 0, "the cancel came before a piece was linted: \(lines)")
        XCTAssertEqual(lines.filter { $0.contains("linted \(total - kept) of the \(total) pieces") }.count, 1, "kept \(kept): \(lines)")
        let fresh = PluginTestSink()
        let other = PluginProvider(record: try PluginLibrary.load(path: try ProcessPlugins.harper()).record,
                                   settings: [(key: "command", value: command.replacingOccurrences(of: cache, with: cache + "-fresh"))],
                                   logger: { _ in })
        defer { try? FileManager.default.removeItem(atPath: cache + "-fresh") }
        XCTAssertEqual(other.run(request(text), sink: fresh), .finished)
        XCTAssertEqual(next.edits, fresh.edits)
    }

    /// `--rules-off` turns Harper's named rules off and `--rules-only` leaves only the named ones
    /// on (README: Harper's cost is its rules, spread evenly over them); a name Harper does not
    /// know is said in the log; the lints kept on disk are those of the rules chosen, so a
    /// checker with other rules does not read them.
    func testTheRuleChoiceTurnsHarpersRulesOffOrLeavesOnlyTheNamedOnes() throws {
        let root = PluginBuilder.repoRoot
        let cache = NSTemporaryDirectory() + "emend-harper-rules-\(getpid())-\(UInt64.random(in: 0..<UInt64.max))"
        addTeardownBlock { try? FileManager.default.removeItem(atPath: cache) }
        func checker(_ options: String, logs: PluginLogCollector = PluginLogCollector()) throws -> PluginProvider {
            let command = "python3 -u -I -B \(root)/providers/harper/harper_server.py --deps \(root)/.deps/python "
                + "--cache-dir \(cache) --piece-chars 300 --workers 1 \(options)"
            return PluginProvider(record: try PluginLibrary.load(path: try ProcessPlugins.harper()).record,
                                  settings: [(key: "command", value: command)], logger: logs.logger)
        }
        let paragraph = "She dont like it. I will see you tomorow. The the cat sat on the mat."
        var logs: [String] = []
        func rules(_ provider: PluginProvider, _ text: String = paragraph) -> Set<String> {
            let sink = runLong(provider, text)
            logs += sink.logs
            return Set(found(sink.edits, in: text).map { "\($0.rule)/\($0.category)" })
        }
        XCTAssertEqual(rules(try checker("")), ["SpellCheck/spelling", "RepeatedWords/grammar"])
        let offLogs = PluginLogCollector()
        let off = try checker("--rules-off SpellCheck,NoSuchRule", logs: offLogs)
        logs = []
        XCTAssertEqual(rules(off), ["RepeatedWords/grammar"])
        XCTAssertTrue((logs + offLogs.all).contains { $0.contains("Harper has no rule named NoSuchRule") }, "\(logs)")
        XCTAssertTrue((logs + offLogs.all).contains { $0.contains("Harper lints with 904 of its") }, "\(logs)")
        XCTAssertEqual(rules(try checker("--rules-only SpellCheck")), ["SpellCheck/spelling"])
        // The built-in command with the `arguments` setting (config.toml) instead of a command.
        let builtIn = PluginProvider(record: try PluginLibrary.load(path: try ProcessPlugins.harper()).record,
                                     settings: [(key: "arguments", value: "--rules-off SpellCheck")], logger: { _ in })
        XCTAssertEqual(rules(builtIn), ["RepeatedWords/grammar"])
        XCTAssertEqual(rules(try checker("--rules-only RepeatedWords,SpellCheck --rules-off SpellCheck")), ["RepeatedWords/grammar"])

        // A long text (pieces of 300+ code points, kept on disk) linted without SpellCheck, then
        // by a checker with Harper's defaults and the same cache directory: it lints again.
        let long = Array(repeating: paragraph, count: 16).joined(separator: "\n\n")
        XCTAssertEqual(rules(off, long), ["RepeatedWords/grammar"])
        XCTAssertEqual(rules(try checker(""), long), ["SpellCheck/spelling", "RepeatedWords/grammar"])
        XCTAssertEqual(rules(try checker("--rules-off SpellCheck"), long), ["RepeatedWords/grammar"])
    }

    func testTheUsersWordsAreImportedAndSuggested() throws {
        let directory = NSTemporaryDirectory() + "emend-harper-personal-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/dictionary.txt"
        let root = PluginBuilder.repoRoot
        let command = "python3 -u -I -B \(root)/providers/harper/harper_server.py --deps \(root)/.deps/python --dictionary \(file)"
        let provider = PluginProvider(record: try PluginLibrary.load(path: try ProcessPlugins.harper()).record,
                                      settings: [(key: "command", value: command)], logger: { _ in })
        let text = "Use libjpeg, not libjpg."
        let sink = PluginTestSink()
        XCTAssertEqual(provider.run(request(text), sink: sink), .finished)
        XCTAssertEqual(found(sink.edits, in: text).map(\.original), ["libjpeg", "libjpg"])
        // Read again when the file changes, by the same warm checker.
        try "libjpeg\n".write(toFile: file, atomically: false, encoding: .utf8)
        let after = PluginTestSink()
        XCTAssertEqual(provider.run(request(text), sink: after), .finished)
        XCTAssertEqual(found(after.edits, in: text), [Found(original: "libjpg", replacement: "libjpeg", category: "spelling",
                                                            rule: "SpellCheck")])
    }
}
