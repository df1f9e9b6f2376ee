import EmendCore
import EmendText

/// A proofreader that checks each paragraph in the language it is written in, when the user
/// gave none: a German paragraph inside English text is checked as German (Hunspell with its
/// German dictionary, if installed), and the checkers that do not serve German are listed as
/// skipped for it. Why per paragraph: documents mix languages by paragraph (a quotation, a
/// translated section), and a German paragraph checked as English gave dozens of nonsense
/// flags. Why conservative (`LanguageDetector.language(of:expected:)`): a short English
/// paragraph or a code-ish one taken for another language would lose its checks.
///
/// The base proofreader (`CombinedProofreader`) runs once per language found: for the
/// request's own language with the other paragraphs protected, and for each other language on
/// the span of its paragraphs; each run keeps only the edits inside its own paragraphs. The
/// completeness reports of the runs are merged, and name the detected paragraphs
/// (`Completeness.languages`, shown by `emend proofread --json`). A checker that serves a
/// detected language but declines it for want of a dictionary is reported failed (a partial
/// result), not skipped: text nobody asked to leave unchecked went unchecked.
public struct LanguageDetectingProofreader: WrappingProvider {
    public let base: WritingProvider
    public let detector: LanguageDetector

    public init(base: WritingProvider, detector: LanguageDetector) {
        self.base = base
        self.detector = detector
    }

    /// One language's share of the request.
    struct Group {
        /// nil: the request's own language.
        var language: String?
        var paragraphs: [Range<Int>]
    }

    /// Collects one run's edits and report, passing the rest through.
    private final class GroupSink: ProviderSink, @unchecked Sendable {
        let parent: ProviderSink
        let monitor = Monitor()
        var edits: [ProviderEdit] = []
        var report: Completeness?
        init(parent: ProviderSink) { self.parent = parent }
        var isCancelled: Bool { parent.isCancelled }
        func emitText(_ chunk: String) {}
        func emitEdit(_ edit: ProviderEdit) { monitor.withLock { edits.append(edit) } }
        func log(_ message: String) { parent.log(message) }
        func beginWorkOutlivingRun() -> @Sendable () -> Void { parent.beginWorkOutlivingRun() }
        func reportCompleteness(_ completeness: Completeness) { monitor.withLock { report = completeness } }
    }

    public func run(_ request: ProviderRequest, sink: ProviderSink) -> ProviderOutcome {
        // A language without paragraphs (the request's own, when all are German) is not run.
        let groups = Self.groups(of: request, detector: detector).filter { !$0.paragraphs.isEmpty }
        guard groups.contains(where: { $0.language != nil }) else { return base.run(request, sink: sink) }
        let started = MonotonicClock.nowMilliseconds()
        var parts: [Completeness.Part] = []
        var detected: [Completeness.DetectedLanguage] = []
        var failures: [String] = []
        var answered = false
        var kept: [ProviderEdit] = []
        for group in groups {
            if sink.isCancelled { return .failed("cancelled") }
            var part = request
            let others = groups.filter { $0.language != group.language }.flatMap(\.paragraphs)
            if let language = group.language {
                part.language = language
                let span = group.paragraphs.first!.lowerBound..<group.paragraphs.last!.upperBound
                part.selection = span
                part.protectedRanges = (request.protectedRanges + others.filter { $0.overlaps(span) }).mergedRanges()
                detected += group.paragraphs.map { Completeness.DetectedLanguage(range: $0, language: language) }
            } else {
                part.protectedRanges = (request.protectedRanges + others).mergedRanges()
            }
            // A deadline (the same instant for every language's run) bounds them all by itself;
            // without one, each run gets what is left of the time limit.
            if request.deadline == nil, let limit = request.timeLimitMilliseconds {
                part.timeLimitMilliseconds = max(1, limit - (MonotonicClock.nowMilliseconds() - started))
            }
            let groupSink = GroupSink(parent: sink)
            let outcome = base.run(part, sink: groupSink)
            let (edits, report) = groupSink.monitor.withLock { (groupSink.edits, groupSink.report) }
            let label = group.language.map { "in the paragraphs detected as \($0): " } ?? ""
            switch outcome {
            case .finished:
                answered = true
                kept += edits.filter { edit in group.paragraphs.contains { Self.inside(edit.range, $0) } }
            case .failed(let why), .declined(let why):
                failures.append(label + why)
            }
            for reported in report?.parts ?? [] {
                var reported = reported
                switch reported.part {
                case .finished:
                    if parts.contains(reported) { continue }
                case .skipped(let why) where group.language != nil && !CombinedProofreader.isNotServing(why):
                    // A checker that serves the detected language but declined it (Hunspell
                    // without its dictionary) leaves those paragraphs unchecked by it: a gap,
                    // whose reason says what to install. Asked for a language by the user,
                    // the same decline is a skip (the front end named it before the run).
                    reported.part = .failed(label + why)
                case .skipped(let why): reported.part = .skipped(label + why)
                case .failed(let why): reported.part = .failed(label + why)
                case .timedOut: break
                }
                parts.append(reported)
            }
        }
        detected.sort { $0.range.lowerBound < $1.range.lowerBound }
        sink.reportCompleteness(Completeness(parts: parts, languages: detected))
        guard answered else { return .failed(failures.joined(separator: "; ")) }
        for edit in kept.sorted(by: { ($0.range.lowerBound, $0.range.upperBound) < ($1.range.lowerBound, $1.range.upperBound) }) {
            sink.emitEdit(edit)
        }
        return .finished
    }

    // MARK: - Paragraphs

    /// The request's selection split into paragraphs (runs of lines between blank lines) and
    /// grouped by language: the request's own first (even when empty of paragraphs), then
    /// each detected language in order of first appearance.
    static func groups(of request: ProviderRequest, detector: LanguageDetector) -> [Group] {
        let bytes = Array(request.text.utf8)
        var own = Group(language: nil, paragraphs: [])
        var others: [Group] = []
        for paragraph in paragraphs(bytes, in: request.selection) {
            var shown = Array(bytes[paragraph])
            for protected in request.protectedRanges where protected.overlaps(paragraph) {
                for index in max(protected.lowerBound, paragraph.lowerBound)..<min(protected.upperBound, paragraph.upperBound) {
                    shown[index - paragraph.lowerBound] = 0x20
                }
            }
            let text = String(decoding: shown, as: UTF8.self)
            if let language = detector.language(of: text, expected: request.language) {
                if let index = others.firstIndex(where: { $0.language == language }) {
                    others[index].paragraphs.append(paragraph)
                } else {
                    others.append(Group(language: language, paragraphs: [paragraph]))
                }
            } else {
                own.paragraphs.append(paragraph)
            }
        }
        return [own] + others
    }

    /// Byte ranges of the paragraphs of `bytes[range]`: text between blank lines (lines of
    /// spaces and tabs only), without the line breaks at their ends.
    static func paragraphs(_ bytes: [UInt8], in range: Range<Int>) -> [Range<Int>] {
        var result: [Range<Int>] = []
        var start: Int?
        var lineStart = range.lowerBound
        var index = range.lowerBound
        while index <= range.upperBound {
            if index == range.upperBound || bytes[index] == 0x0A {
                let line = lineStart..<index
                let blank = bytes[line].allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
                if blank {
                    if let begun = start { result.append(begun..<lineStart - 1) }
                    start = nil
                } else if start == nil {
                    start = lineStart
                }
                lineStart = index + 1
            }
            index += 1
        }
        if let begun = start { result.append(begun..<range.upperBound) }
        return result.filter { !$0.isEmpty }
    }

    private static func inside(_ edit: Range<Int>, _ paragraph: Range<Int>) -> Bool {
        edit.lowerBound >= paragraph.lowerBound && edit.upperBound <= paragraph.upperBound
    }
}
