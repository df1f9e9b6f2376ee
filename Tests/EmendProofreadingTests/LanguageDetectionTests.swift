import Foundation
import XCTest
import EmendCore
@testable import EmendProofreading

/// Flags every word it is asked about that it does not know, and records the languages and
/// selections it was asked for: a stand-in for a speller of one language.
private final class LanguageRecorder: WritingProvider, @unchecked Sendable {
    let id: String
    let tools: Set<WritingTool> = [.proofread]
    let flagged: String
    private let lock = NSLock()
    private var seen: [(language: String, selection: Range<Int>)] = []
    init(_ id: String, flags word: String) {
        self.id = id
        flagged = word
    }
    var requests: [(language: String, selection: Range<Int>)] { lock.withLock { seen } }
    func run(_ request: ProviderRequest, sink: ProviderSink) -> ProviderOutcome {
        lock.withLock { seen.append((request.language, request.selection)) }
        var from = request.text.startIndex
        while let found = request.text.range(of: flagged, range: from..<request.text.endIndex) {
            let start = request.text.utf8.distance(from: request.text.startIndex, to: found.lowerBound)
            let range = start..<start + flagged.utf8.count
            if range.lowerBound >= request.selection.lowerBound && range.upperBound <= request.selection.upperBound {
                sink.emitEdit(ProviderEdit(range: range, replacement: "X", category: "spelling", ruleID: "\(id):\(request.language)"))
            }
            from = found.upperBound
        }
        return .finished
    }
}

/// Flags `flagged` in the languages it has a dictionary for and declines every other, as
/// Hunspell without the dictionary does (its message names the package to install).
private struct DecliningSpeller: WritingProvider {
    let id = "org.test.declining"
    let tools: Set<WritingTool> = [.proofread]
    let flags: String
    let knows: Set<String>
    init(flags: String, knows: Set<String>) {
        self.flags = flags
        self.knows = knows
    }
    func run(_ request: ProviderRequest, sink: ProviderSink) -> ProviderOutcome {
        guard knows.contains(request.language) else {
            let language = request.language.split(separator: "-").first.map(String.init) ?? request.language
            return .declined("no Hunspell dictionary for the language \(request.language): install one (on Debian, a hunspell-\(language) package)")
        }
        let bytes = Array(request.text.utf8), word = Array(flags.utf8)
        var index = request.selection.lowerBound
        while index + word.count <= request.selection.upperBound {
            if Array(bytes[index..<index + word.count]) == word {
                sink.emitEdit(ProviderEdit(range: index..<index + word.count, replacement: "X", category: "spelling", ruleID: "SPELL"))
                index += word.count
            } else {
                index += 1
            }
        }
        return .finished
    }
}

private final class ReportSink: ProviderSink, @unchecked Sendable {
    private let lock = NSLock()
    private var list: [ProviderEdit] = []
    private var last: Completeness?
    var isCancelled: Bool { false }
    func emitText(_ chunk: String) {}
    func emitEdit(_ edit: ProviderEdit) { lock.withLock { list.append(edit) } }
    func log(_ message: String) {}
    func reportCompleteness(_ completeness: Completeness) { lock.withLock { last = completeness } }
    var edits: [ProviderEdit] { lock.withLock { list } }
    var report: Completeness? { lock.withLock { last } }
}

final class LanguageDetectionTests: XCTestCase {
    private func detector() throws -> LanguageDetector {
        switch LanguageDetector.load() {
        case .success(let detector): return detector
        case .failure(let error): throw XCTSkip("\(error.message) (bash scripts/install-deps.sh)")
        }
    }

    private let german = "Wir haben den Fehler beim Starten behoben und die Geschwindigkeit deutlich verbessert. Ich glaube, dass die neue Version fertig ist."

    func testAGermanParagraphIsGermanAndEnglishOnesStayEnglish() throws {
        let detector = try detector()
        XCTAssertEqual(detector.language(of: german, expected: "en-US"), "de")
        XCTAssertNil(detector.language(of: german, expected: "de-DE"), "the language asked for is no switch")
        for english in [
            "We have fixed the startup crash and improved the speed of the importer considerably.",
            "The quick brown fox jumps over the lazy dog near the river bank today.",  // Scots to TextCat
            "Run make install.",
            "Ich glaube es nicht.",  // too short to be sure: left in the language asked for
            "Large files are streamed, so memory use stays flat.",  // TextCat: "UNKNOWN", no language
        ] {
            XCTAssertNil(detector.language(of: english, expected: "en-US"), english)
        }
    }

    /// The fingerprints (160-odd TextCat models) are read when a paragraph first needs
    /// TextCat, not when a front end builds its proofreader: English prose, told by its small
    /// words, never reads them.
    func testTheFingerprintsAreReadOnlyWhenAParagraphNeedsTextCat() throws {
        let detector = try detector()
        XCTAssertFalse(detector.hasReadFingerprints, "loading the detector read the fingerprints")
        XCTAssertNil(detector.language(of: "We have fixed the startup crash and improved the speed of the importer considerably.",
                                       expected: "en-US"))
        XCTAssertNil(detector.language(of: "Ich glaube es nicht.", expected: "en-US"))
        XCTAssertFalse(detector.hasReadFingerprints, "English prose or a short line read the fingerprints")
        XCTAssertEqual(detector.language(of: german, expected: "en-US"), "de")
        XCTAssertTrue(detector.hasReadFingerprints)
        XCTAssertEqual(detector.language(of: german, expected: "en-US"), "de", "read once, answered again")
    }

    func testTextCatsAnswersWithoutACandidateAreNone() throws {
        let detector = try detector()
        XCTAssertEqual(detector.candidates("Large files are streamed so memory use stays flat"), [], "UNKNOWN is no language")
        XCTAssertEqual(detector.candidates(german), ["de"])
    }

    /// The byte-wise reading of an ASCII paragraph keeps the words the Character-wise one
    /// keeps (code-ish words, inner capitals, digits, edges of punctuation, every kind of
    /// white space), and says "no prose" where it does.
    func testASCIIProseIsReadAsCharactersReadIt() {
        let paragraphs = [
            "We have fixed the startup crash and improved the speed of the importer considerably.",
            "Our Terraform state lives in an S3 bucket with DynamoDB locking, see (docs) and `make`.",
            "  \"Quoted,\" she said -- it's well-known; don't re-run x=1 or a_b or /usr/bin or #tag @me [x] <y> {z} $v |p.\n",
            "Tabs\tand\u{0B}vertical\u{0C}feeds\rand\r\nline ends\n\nsplit words well enough for eight words here.",
            "... 'single' -dash- trailing-- --leading 'quoted' words, all of them letters enough for the minimum.",
            "Ich glaube es nicht.",
            "cmake -S . -B build -DCMAKE_BUILD_TYPE=Release && ninja -C build && sudo ninja -C build install",
            "Control\u{01}chars\u{7F}stay inside tokens of this paragraph which has words enough to count now.",
            "",
        ]
        for paragraph in paragraphs {
            XCTAssertEqual(LanguageDetector.prose(of: paragraph), LanguageDetector.characterProse(of: paragraph), paragraph)
        }
        XCTAssertNotNil(LanguageDetector.prose(of: paragraphs[0]))
        // The small words are counted as the words, lower-cased, looked up in the list would be.
        for prose in ["The THE tHe theirs It's IT'S don't Doesn't doesnt shouldn't should ShOuLd beforehand before",
                      "the über Straße and THE", "a", "", "x y z of Of oF"] {
            let words = prose.split(separator: " ")
            let small = words.filter { LanguageDetector.englishFunctionWords.contains($0.lowercased()) }.count
            XCTAssertEqual(LanguageDetector.wordCounts(prose).words, words.count, prose)
            XCTAssertEqual(LanguageDetector.wordCounts(prose).small, small, prose)
        }
        XCTAssertNil(LanguageDetector.prose(of: "Ich glaube es nicht."))
    }

    /// A terse English paragraph (fewer than a fifth of its words small ones) is English when
    /// nine in ten of its words are in an English dictionary, without TextCat; German prose
    /// is still German, and without a dictionary TextCat decides as before.
    func testTerseEnglishKnownToTheDictionaryIsEnglishWithoutTextCat() throws {
        guard case .success = LanguageDetector.load() else { throw XCTSkip("no libexttextcat (bash scripts/install-deps.sh)") }
        let terse = "Garden river part at went part own his may. Silver history picture journey promise message problem method."
        let words = Set(terse.lowercased().split(whereSeparator: { !$0.isLetter }).map(String.init))
        let counts = LanguageDetector.wordCounts(LanguageDetector.prose(of: terse)!)
        XCTAssertLessThan(counts.small * 5, counts.words, "the paragraph is terse: its small words alone do not make it English")
        let withDictionary = try LanguageDetector.load(lexicon: Lexicon(words: ["en_US": words])).get()
        XCTAssertNil(withDictionary.language(of: terse, expected: "en-US"))
        XCTAssertFalse(withDictionary.hasReadFingerprints, "TextCat was asked about a paragraph the dictionary knows")
        XCTAssertEqual(withDictionary.language(of: german, expected: "en-US"), "de", "German is no English word list")
        let withoutDictionary = try LanguageDetector.load(lexicon: .none).get()
        _ = withoutDictionary.language(of: terse, expected: "en-US")
        XCTAssertTrue(withoutDictionary.hasReadFingerprints, "without a dictionary TextCat decides")
    }

    func testCodeIshParagraphsAreNeverSwitched() throws {
        let detector = try detector()
        for technical in [
            "- `libfoo_init()` returns `EMEND_OK`\n- `libfoo_done()` frees `ctx->buf`\n- see src/foo/bar.c and include/foo.h",
            "cmake -S . -B build -DCMAKE_BUILD_TYPE=Release && ninja -C build && sudo ninja -C build install",
            "| option | default |\n|---|---|\n| --timeout | 60 |\n| --language | en-US |",
        ] {
            XCTAssertNil(detector.language(of: technical, expected: "en-US"), technical)
        }
    }

    /// Every sentence of the project's labelled sets (learner English, technical README
    /// sentences, the held-out sets) stays English: the detector's misfire rate on English the
    /// checkers are measured on is zero.
    func testNoSentenceOfTheQualitySetsIsTakenForAnotherLanguage() throws {
        let detector = try detector()
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("benchmarks/quality").path
        var sentences: [String] = []
        let sets = [root] + ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).filter { $0.hasPrefix("heldout") }.map { root + "/" + $0 }
        for set in sets {
            for name in ["learner.tsv", "technical.txt", "precision.tsv"] {
                guard let text = try? String(contentsOfFile: set + "/" + name, encoding: .utf8) else { continue }
                for line in text.split(separator: "\n") where !line.hasPrefix("#") {
                    let fields = line.split(separator: "\t").map(String.init)
                    sentences += name == "technical.txt" ? [String(line)] : Array(fields.dropFirst())
                }
            }
        }
        XCTAssertGreaterThan(sentences.count, 1_000)
        let misfires = sentences.filter { detector.language(of: $0, expected: "en-US") != nil }
        XCTAssertEqual(misfires, [])
        // And the technical set as one document, as `emend proofread technical.txt` sends it.
        let document = (try? String(contentsOfFile: root + "/technical.txt", encoding: .utf8)) ?? ""
        XCTAssertNil(detector.language(of: document, expected: "en-US"))
    }

    func testAGermanParagraphInsideEnglishIsCheckedAsGermanAndEnglishOnlyCheckersSaySkipped() throws {
        let detector = try detector()
        let text = "We have fixed the startup crash and improved the speed of the importer. Tesst one.\n\n"
            + german + " Tesst zwei.\n\nThanks to everyone who tested the release candidate. Tesst three.\n"
        let speller = LanguageRecorder("org.test.anyspeller", flags: "Tesst")
        let english = LanguageRecorder("org.test.english", flags: "Tesst")
        let combined = CombinedProofreader(members: [speller, english], terms: ["org.test.english": MemberTerms(languages: ["en"])])
        let proofreader = LanguageDetectingProofreader(base: combined, detector: detector)
        let sink = ReportSink()
        let request = ProviderRequest(tool: .proofread, text: text, selection: 0..<text.utf8.count, language: "en-US")
        XCTAssertEqual(proofreader.run(request, sink: sink), .finished)
        // Each "Tesst" flagged once, by the run of its paragraph's language.
        let flagged = sink.edits.map { (String(decoding: Array(text.utf8)[$0.range], as: UTF8.self), $0.ruleID) }
        XCTAssertEqual(flagged.map(\.0), ["Tesst", "Tesst", "Tesst"])
        let germanRange = byteRange(of: german + " Tesst zwei.", in: text)
        XCTAssertEqual(sink.edits.filter { germanRange.contains($0.range.lowerBound) }.map(\.ruleID), ["org.test.anyspeller:de"])
        XCTAssertEqual(sink.edits.filter { !germanRange.contains($0.range.lowerBound) }.count, 2)
        XCTAssertFalse(sink.edits.contains { $0.ruleID.hasPrefix("org.test.english:de") })
        XCTAssertTrue(english.requests.allSatisfy { $0.language == "en-US" }, "the English-only checker never gets German")
        let report = try XCTUnwrap(sink.report)
        XCTAssertFalse(report.isPartial, report.message)
        XCTAssertEqual(report.languages.map(\.language), ["de"])
        XCTAssertEqual(report.languages.first.map { $0.range.lowerBound }, germanRange.lowerBound)
        XCTAssertTrue(report.message.contains("org.test.english did not take part: in the paragraphs detected as de: it does not serve de"),
                      report.message)
    }

    func testEnglishTextIsOneRunAsBefore() throws {
        let detector = try detector()
        let text = "We have fixed the startup crash and improved the speed of the importer. Tesst.\n\nShort one.\n"
        let speller = LanguageRecorder("org.test.anyspeller", flags: "Tesst")
        let proofreader = LanguageDetectingProofreader(base: CombinedProofreader(members: [speller]), detector: detector)
        let sink = ReportSink()
        XCTAssertEqual(proofreader.run(ProviderRequest(tool: .proofread, text: text, selection: 0..<text.utf8.count), sink: sink), .finished)
        XCTAssertEqual(speller.requests.count, 1)
        XCTAssertEqual(speller.requests.first?.selection, 0..<text.utf8.count)
        XCTAssertEqual(sink.edits.count, 1)
        XCTAssertEqual(sink.report?.languages, [])
    }

    private let french = "Nous avons corrigé le plantage au démarrage et nettement amélioré la vitesse de l'importateur. Je pense que la nouvelle version est prête."

    /// A checker that serves any language but declines one it has no dictionary for (as
    /// Hunspell does): in a detected paragraph that decline is a gap the report names, with
    /// what to install; an English-only checker there is still only skipped.
    func testADetectedLanguageWithoutADictionaryIsAFailedPartThatSaysWhatToInstall() throws {
        let detector = try detector()
        XCTAssertEqual(detector.language(of: french, expected: "en-US"), "fr")
        let text = "We have fixed the startup crash and improved the speed of the importer. Tesst one.\n\n" + french + " Tesst deux.\n"
        let speller = DecliningSpeller(flags: "Tesst", knows: ["en-US"])
        let english = LanguageRecorder("org.test.english", flags: "Tesst")
        let combined = CombinedProofreader(members: [speller, english], terms: ["org.test.english": MemberTerms(languages: ["en"])])
        let sink = ReportSink()
        let request = ProviderRequest(tool: .proofread, text: text, selection: 0..<text.utf8.count, language: "en-US")
        XCTAssertEqual(LanguageDetectingProofreader(base: combined, detector: detector).run(request, sink: sink), .finished)
        let frenchRange = byteRange(of: french + " Tesst deux.", in: text)
        XCTAssertEqual(sink.edits.map(\.range), [byteRange(of: "Tesst", in: text)], "the English slip, flagged by both checkers")
        XCTAssertFalse(sink.edits.contains { frenchRange.contains($0.range.lowerBound) }, "nothing checked the French paragraph")
        let report = try XCTUnwrap(sink.report)
        XCTAssertTrue(report.isPartial, report.message)
        XCTAssertEqual(report.languages.map(\.language), ["fr"])
        XCTAssertTrue(report.message.contains("org.test.declining failed and was left out: in the paragraphs detected as fr: "
                                              + "no Hunspell dictionary for the language fr"), report.message)
        XCTAssertTrue(report.message.contains("hunspell-fr"), report.message)
        XCTAssertTrue(report.message.contains("org.test.english did not take part: in the paragraphs detected as fr: it does not serve fr"),
                      report.message)
        // Asked for French by the user, the same decline is a skip: the front end said so before the run.
        let asked = ReportSink()
        var french = request
        french.language = "fr-FR"
        _ = combined.run(french, sink: asked)
        XCTAssertFalse(asked.report?.isPartial ?? true, asked.report?.message ?? "no report")
    }

    func testParagraphsAreSplitAtBlankLines() {
        let text = "one\ntwo\n\n  \nthree\r\n\r\nfour"
        let ranges = LanguageDetectingProofreader.paragraphs(Array(text.utf8), in: 0..<text.utf8.count)
        XCTAssertEqual(ranges.map { String(decoding: Array(text.utf8)[$0], as: UTF8.self) }, ["one\ntwo", "three\r", "four"])
    }
}

/// The filter's English word-shape rules apply to English only: in German every noun is
/// capitalised inside a sentence, so a misspelt noun is no proper name there.
final class NonEnglishFilterTests: XCTestCase {
    func testACapitalisedSlipInsideAGermanSentenceIsKept() {
        let text = "Das ist ein Tesst für alle."
        let edit = ProviderEdit(range: byteRange(of: "Tesst", in: text), replacement: "Test", category: "spelling", ruleID: "HUNSPELL")
        XCTAssertEqual(ProofreadingFilter(text: text, language: "de").verdict(for: edit), .keep)
        XCTAssertEqual(ProofreadingFilter(text: text, language: "en-US").verdict(for: edit), .drop(.properName("Tesst")))
    }
}
