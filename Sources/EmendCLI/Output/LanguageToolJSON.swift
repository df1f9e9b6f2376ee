import FoundationEssentials
import EmendCore
import EmendText
import EmendProofreading

/// Proofreading findings in the shape of LanguageTool's HTTP API (`/v2/check`), so tools
/// that read LanguageTool's matches read these too. Offsets and lengths count units of the
/// chosen `--encoding` (LanguageTool itself counts UTF-16 units: use `--encoding utf16`).
/// Extra fields (`file`, `encoding`, each match's `line` and `column`) are emend's own.
struct LanguageToolReport: Encodable {
    struct Software: Encodable {
        let name = "emend"
        let version = EmendVersion.string
        let apiVersion = 1
    }
    struct Language: Encodable {
        let name: String
        let code: String
        /// emend's own: paragraphs found by language detection (no `--language`) to be in
        /// another language, and checked in it; absent when none were.
        var detectedLanguages: [DetectedParagraph]?
    }
    struct DetectedParagraph: Encodable {
        let offset: Int
        let length: Int
        let line: Int
        let code: String
    }
    struct Replacement: Encodable {
        let value: String
    }
    struct Context: Encodable {
        let text: String
        let offset: Int
        let length: Int
    }
    struct Category: Encodable {
        let id: String
        let name: String
    }
    struct Rule: Encodable {
        let id: String
        let description: String
        let issueType: String
        let category: Category
    }
    struct MatchType: Encodable {
        let typeName = "Other"
    }
    struct Match: Encodable {
        let message: String
        let shortMessage: String
        let replacements: [Replacement]
        let offset: Int
        let length: Int
        let context: Context
        let sentence: String
        let type = MatchType()
        let rule: Rule
        let line: Int
        let column: Int
    }

    let software = Software()
    var language: Language
    let file: String
    let encoding: String
    let matches: [Match]
    /// LanguageTool's own flag for a check that did not finish (`incompleteResults`), with
    /// emend's reason: which checker timed out or failed (see `Completeness`).
    var warnings = Warnings()

    struct Warnings: Encodable {
        var incompleteResults = false
        /// "" when complete.
        var incompleteResultsReason = ""
    }

    init(file: String, bytes: [UInt8], findings: [Finding], encoding: EncodingArgument, language: String) {
        self.file = file
        self.encoding = encoding.rawValue
        self.language = Language(name: language, code: language)
        var positions = TextPositions(bytes, encoding: encoding.encoding)
        self.matches = findings.map { finding in
            let position = positions.position(of: finding.range.lowerBound)
            let lineEnd = positions.lineEnd(from: position.lineStart)
            let context = LanguageToolReport.context(bytes, finding.range, lineStart: position.lineStart, lineEnd: lineEnd,
                                                     positions: positions)
            let category = LanguageToolReport.category(finding.category)
            return Match(
                message: finding.message, shortMessage: LanguageToolReport.shortMessage(finding.category),
                // The replacement first, then those the explanation lists ("Other suggestions").
                replacements: ([finding.replacement]
                    + PlainExplanation.otherSuggestions(in: finding.explanation).filter { $0 != finding.replacement })
                    .map { Replacement(value: $0) },
                offset: position.offset, length: positions.length(of: finding.range),
                context: context,
                sentence: String(decoding: bytes[position.lineStart..<max(lineEnd, position.lineStart)], as: UTF8.self),
                rule: Rule(id: finding.ruleID.isEmpty ? "EMEND_SUGGESTION" : finding.ruleID,
                           description: finding.message, issueType: LanguageToolReport.issueType(finding.category),
                           category: category),
                line: position.line, column: position.column)
        }
    }

    /// Names the paragraphs checked in a detected language (`Completeness.languages`).
    mutating func addDetectedLanguages(_ detected: [Completeness.DetectedLanguage], bytes: [UInt8], encoding: EncodingArgument) {
        guard !detected.isEmpty else { return }
        var positions = TextPositions(bytes, encoding: encoding.encoding)
        language.detectedLanguages = detected.filter { $0.range.upperBound <= bytes.count }.map { span in
            let position = positions.position(of: span.range.lowerBound)
            return DetectedParagraph(offset: position.offset, length: positions.length(of: span.range),
                                     line: position.line, code: span.language)
        }
    }

    /// Up to 40 characters either side of the match, within its line.
    private static func context(_ bytes: [UInt8], _ range: Range<Int>, lineStart: Int, lineEnd: Int,
                                positions: TextPositions) -> Context {
        var start = range.lowerBound
        var count = 0
        while start > lineStart && count < 40 {
            start -= 1
            while start > lineStart && bytes[start] & 0xC0 == 0x80 { start -= 1 }
            count += 1
        }
        var end = max(range.upperBound, range.lowerBound)
        let stop = max(lineEnd, end)
        count = 0
        while end < stop && count < 40 {
            end += 1
            while end < stop && bytes[end] & 0xC0 == 0x80 { end += 1 }
            count += 1
        }
        let text = String(decoding: bytes[start..<end], as: UTF8.self)
        return Context(text: text, offset: positions.length(of: start..<range.lowerBound), length: positions.length(of: range))
    }

    static func category(_ name: String) -> Category {
        switch name.lowercased() {
        case "spelling", "typo", "typos": return Category(id: "TYPOS", name: "Possible Typo")
        case "grammar": return Category(id: "GRAMMAR", name: "Grammar")
        case "style": return Category(id: "STYLE", name: "Style")
        case "punctuation": return Category(id: "PUNCTUATION", name: "Punctuation")
        case "typography": return Category(id: "TYPOGRAPHY", name: "Typography")
        case "": return Category(id: "MISC", name: "Miscellaneous")
        default: return Category(id: String(name.uppercased().map { $0 == " " ? "_" : $0 }), name: name.prefix(1).uppercased() + name.dropFirst())
        }
    }

    static func issueType(_ category: String) -> String {
        switch category.lowercased() {
        case "spelling", "typo", "typos": return "misspelling"
        case "grammar": return "grammar"
        case "style": return "style"
        case "punctuation", "typography": return "typographical"
        default: return "uncategorized"
        }
    }

    static func shortMessage(_ category: String) -> String {
        switch category.lowercased() {
        case "spelling": return "Spelling mistake"
        case "grammar": return "Grammar"
        default: return ""
        }
    }

    func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return "{}" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}

/// Encodes any Encodable value as pretty JSON with sorted keys.
enum JSONOutput {
    static func string<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return "{}\n" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}

enum EmendVersion {
    /// Keep in step with the VERSION file at the repository root.
    static let string = "0.1.0"
}
