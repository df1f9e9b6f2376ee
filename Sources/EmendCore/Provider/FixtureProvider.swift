import Glibc
import CEmendSystem
import EmendText

/// A deterministic provider for tests and examples: a fixed table of corrections for
/// proofread and word rules for the other tools. It is a fixture, not a language model. It
/// writes Markdown (rewrites work on the Markdown of the selection; lists and tables come
/// out as Markdown lists and tables), so tests see rich results the way models give them.
///
/// Markers in the text steer it in tests: `[fixture:fail]` makes a run fail,
/// `[fixture:hang]` makes it run until cancelled, and `[fixture:fabricate]` comes back as
/// "on Monday at 5pm" — facts the text never stated, as a careless model would write them.
/// `answer` (the CLI's `EMEND_FIXTURE_ANSWER`) replaces its rules for every tool but
/// proofreading: tests hand it the exact text a model gave, chatter and invented facts included.
public struct FixtureProvider: WritingProvider {
    /// The fixture's provider id.
    public static let fixtureID = "org.emend.fixture"
    public let id = FixtureProvider.fixtureID
    public let tools: Set<WritingTool> = Set(WritingTool.allCases)
    public var writesMarkdown: Bool { true }
    /// Its rules give the same answer every time: asking again would not help.
    public var canRetry: Bool { false }
    /// Pause between streamed chunks, in microseconds.
    public var chunkDelayMicroseconds: UInt32
    /// The answer to give for every text tool, as a model wrote it (nil: the rules' answer).
    public var answer: String?

    public init(chunkDelayMicroseconds: UInt32 = 0, answer: String? = nil) {
        self.chunkDelayMicroseconds = chunkDelayMicroseconds
        self.answer = answer
    }

    public func run(_ request: ProviderRequest, sink: ProviderSink) -> ProviderOutcome {
        if Self.selection(of: request, contains: "[fixture:fail]") { return .failed("fixture: the text asked for a failure") }
        if Self.selection(of: request, contains: "[fixture:hang]") {
            while !sink.isCancelled { usleep(1000) }
            return .failed("fixture: cancelled")
        }
        if request.tool == .proofread {
            for edit in FixtureCorrections.edits(in: request) {
                if sink.isCancelled { return .failed("fixture: cancelled") }
                sink.emitEdit(edit)
            }
            return .finished
        }
        var output: String
        if let answer {
            output = answer
        } else {
            switch FixtureRules.transform(request) {
            case .success(let text): output = text
            case .failure(let error): return .failed(error.message)
            }
        }
        // The marker as the Markdown it read writes it ("\\[fixture:fabricate\\]"), or plain.
        for marker in ["\\[fixture:fabricate\\]", "\\[fixture:fabricate]", "[fixture:fabricate]"] {
            output = output.replacingMarker(marker, with: "on Monday at 5pm")
        }
        for chunk in Self.chunks(of: output) {
            if sink.isCancelled { return .failed("fixture: cancelled") }
            if chunkDelayMicroseconds > 0 { usleep(chunkDelayMicroseconds) }
            sink.emitText(chunk)
        }
        return .finished
    }

    /// Whether the selected bytes hold `marker` (memmem: a 10 MB document is searched in
    /// milliseconds; String.contains took a third of a second).
    static func selection(of request: ProviderRequest, contains marker: String) -> Bool {
        var text = request.text
        return text.withUTF8 { bytes in
            let selection = request.selection.clamped(to: 0..<bytes.count)
            guard let base = bytes.baseAddress, !selection.isEmpty else { return false }
            return marker.utf8.withContiguousStorageIfAvailable { needle in
                emendsys_find_bytes(base + selection.lowerBound, selection.count, needle.baseAddress, needle.count) != nil
            } ?? false
        }
    }

    /// Word-sized pieces of `text` (each word with the space after it).
    static func chunks(of text: String) -> [String] {
        var chunks: [String] = []
        var current = ""
        for character in text {
            current.append(character)
            if character == " " || character == "\n" {
                chunks.append(current)
                current = ""
            }
        }
        if !current.isEmpty { chunks.append(current) }
        return chunks
    }
}

private extension String {
    /// This text with every ASCII `marker` (in any case) replaced by `replacement`.
    func replacingMarker(_ marker: String, with replacement: String) -> String {
        let bytes = Array(utf8), pattern = Array(marker.lowercased().utf8)
        func lower(_ b: UInt8) -> UInt8 { b >= 65 && b <= 90 ? b + 32 : b }
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if index + pattern.count <= bytes.count, (0..<pattern.count).allSatisfy({ lower(bytes[index + $0]) == pattern[$0] }) {
                out += Array(replacement.utf8)
                index += pattern.count
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
