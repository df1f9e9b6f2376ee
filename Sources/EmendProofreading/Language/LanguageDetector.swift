import Glibc
import EmendCore

/// Which language a paragraph is written in, by Debian's libexttextcat (the TextCat
/// fingerprints LibreOffice uses), offline. Why it is loaded with dlopen and not linked:
/// detection is optional — without libexttextcat-2.0-0 and libexttextcat-data every paragraph
/// is checked in the language asked for, as before — and libemend gains no hard dependency.
///
/// Conservative by design: a misfire leaves an English paragraph checked as another language
/// (or not at all), which is worse than checking a German one as English. `language(of:)`
/// answers only for prose long enough for character n-grams to mean something, with code-ish
/// words taken out, and only when TextCat names one language alone.
///
/// Lazy: TextCat's 160-odd fingerprints (some 1.6 MB of heap) are read the first time a
/// paragraph needs TextCat, not when a front end builds its proofreader: English prose is told
/// by its small words without them, so a language server or a CLI run on English text never
/// holds them.
public final class LanguageDetector: @unchecked Sendable {
    /// The fewest words (letters only, after code-ish words are taken out) a paragraph needs.
    public static let minimumWords = 8
    /// The fewest letters in those words.
    public static let minimumLetters = 40

    private typealias Classify = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, Int) -> UnsafePointer<CChar>?
    private typealias Initialize = @convention(c) (UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> UnsafeMutableRawPointer?
    private let initialize: Initialize
    private let classify: Classify
    private let configuration: String
    private let directory: String
    private let monitor = Monitor()

    /// TextCat's state, guarded by `monitor`.
    private enum Fingerprints {
        /// Not read yet: no paragraph has needed TextCat.
        case unread
        case read(UnsafeMutableRawPointer)
        /// TextCat could not read them: no paragraph is detected.
        case unreadable
    }
    private var fingerprints = Fingerprints.unread

    /// TextCat fingerprints that are another name for the same language, as far as a checker
    /// is concerned: "sco" (Scots) is what TextCat often says of plain English ("The quick
    /// brown fox." is Scots to it).
    static let sameLanguage: [String: Set<String>] = ["en": ["sco"]]

    /// The English dictionaries a paragraph's words are looked up in when its small words
    /// alone do not make it English (`language(of:expected:)`).
    private let lexicon: Lexicon

    private init(initialize: @escaping Initialize, classify: @escaping Classify, configuration: String, directory: String,
                 lexicon: Lexicon) {
        self.initialize = initialize
        self.classify = classify
        self.configuration = configuration
        self.directory = directory
        self.lexicon = lexicon
    }

    /// Whether TextCat's fingerprints are in memory (read by the first paragraph that needed them).
    public var hasReadFingerprints: Bool {
        monitor.withLock { if case .read = fingerprints { true } else { false } }
    }

    /// The detector of the system's libexttextcat, or nil with why not.
    public static func load(library: String = "libexttextcat-2.0.so.0",
                            directory: String = "/usr/share/libexttextcat/",
                            lexicon: Lexicon = .installed) -> Result<LanguageDetector, EmendError> {
        guard let library = dlopen(library, RTLD_NOW | RTLD_LOCAL) else {
            return .failure(EmendError(.unsupported, "language detection needs libexttextcat (on Debian: libexttextcat-2.0-0 libexttextcat-data)"))
        }
        guard let initialize = dlsym(library, "special_textcat_Init"), let classify = dlsym(library, "textcat_Classify") else {
            return .failure(EmendError(.unsupported, "libexttextcat lacks special_textcat_Init or textcat_Classify"))
        }
        let configuration = directory + "fpdb.conf"
        guard access(configuration, R_OK) == 0 else {
            return .failure(EmendError(.unsupported, "no TextCat fingerprints in \(directory) (on Debian: libexttextcat-data)"))
        }
        return .success(LanguageDetector(initialize: unsafeBitCast(initialize, to: Initialize.self),
                                         classify: unsafeBitCast(classify, to: Classify.self),
                                         configuration: configuration, directory: directory, lexicon: lexicon))
    }

    /// The process's detector, loaded once (nil when libexttextcat is not installed); its
    /// fingerprints are read when a paragraph first needs them.
    public static let shared: LanguageDetector? = try? load().get()

    /// TextCat's candidates for `text` (language subtags, best first): empty when it says the
    /// text is too short or it does not know.
    public func candidates(_ text: String) -> [String] {
        let answer: String = monitor.withLock {
            if case .unread = fingerprints {
                fingerprints = initialize(configuration, directory).map { .read($0) } ?? .unreadable
            }
            guard case .read(let handle) = fingerprints else { return "" }
            var text = text
            return text.withUTF8 { bytes in
                bytes.withMemoryRebound(to: CChar.self) { chars in
                    classify(handle, chars.baseAddress, chars.count).map { String(cString: $0) } ?? ""
                }
            }
        }
        // "[de--utf8][nl--utf8]", or "SHORT" / "UNKNOWN" (no candidate).
        guard answer.hasPrefix("[") else { return [] }
        return answer.split(separator: "[").compactMap { part in
            let name = part.prefix { $0 != "-" && $0 != "]" }
            return name.isEmpty ? nil : String(name)
        }
    }

    /// The language subtag `paragraph` is written in when it is confidently not `expected`
    /// (a tag such as "en-US"), else nil: the paragraph keeps the language asked for.
    public func language(of paragraph: String, expected: String) -> String? {
        let prose = Self.prose(of: paragraph)
        guard let prose else { return nil }
        let wanted = String(expected.lowercased().split(separator: "-").first ?? "")
        // English by its small words, without asking TextCat: a fifth of the words or more
        // from `englishFunctionWords`. Why: TextCat compares each paragraph with 160-odd
        // fingerprints, some milliseconds each, which on a file of thousands of English
        // paragraphs took seconds; and it is one more reason never to switch English away.
        if wanted == "en" {
            let (count, small) = Self.wordCounts(prose)
            if small * 5 >= count { return nil }
            // Fewer small words (terse prose, a list of items): English still when a tenth of
            // the words are small ones and nine in ten are in an English dictionary. Why: a
            // third of the paragraphs of the benchmarks' 1 MB of English went to TextCat,
            // half a millisecond each (0.45 s of the command's 1.5 s of CPU); German, French
            // or Dutch prose has few words of an English dictionary ("die", "den", "in").
            if small * 10 >= count, knowsNineInTen(prose.split(separator: " ")) { return nil }
        }
        let found = candidates(prose)
        guard found.count == 1, let language = found.first else { return nil }
        if language == wanted || Self.sameLanguage[wanted]?.contains(language) == true { return nil }
        return language
    }

    /// How many words `prose` (words joined by single spaces) has, and how many of them are in
    /// `englishFunctionWords`, case aside. An ASCII text is read as bytes, each word of up to
    /// eight letters packed into an integer (`packedFunctionWords`): no String per word.
    static func wordCounts(_ prose: String) -> (words: Int, small: Int) {
        var prose = prose
        if let counts = prose.withUTF8({ bytes -> (Int, Int)? in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            var words = 0, small = 0, packed: UInt64 = 0, length = 0
            for index in 0...bytes.count {
                if index == bytes.count || bytes[index] == 0x20 {
                    if length > 0 {
                        words += 1
                        if length <= 8 && packedFunctionWords.contains(packed) { small += 1 }
                    }
                    packed = 0
                    length = 0
                } else {
                    let byte = bytes[index]
                    if length < 8 { packed |= UInt64(byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte) << (8 * UInt64(length)) }
                    length += 1
                }
            }
            return (words, small)
        }) {
            return counts
        }
        let words = prose.split(separator: " ")
        return (words.count, words.filter { englishFunctionWords.contains($0.lowercased()) }.count)
    }

    /// `englishFunctionWords` (ASCII, at most eight letters each) packed as `wordCounts` packs
    /// a word: its bytes from the lowest.
    static let packedFunctionWords: Set<UInt64> = Set(englishFunctionWords.map { word in
        precondition(word.utf8.count <= 8 && word.utf8.allSatisfy { $0 < 0x80 }, "a function word that cannot be packed: \(word)")
        return word.utf8.enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
    })

    /// Whether nine in ten of `words` or more are in an English dictionary (false when none is
    /// installed); stops as soon as the answer is known.
    private func knowsNineInTen(_ words: [Substring]) -> Bool {
        let allowed = words.count / 10
        var unknown = 0
        for word in words where lexicon.knows(String(word)) != true {
            unknown += 1
            if unknown > allowed { return false }
        }
        return true
    }

    /// Words that make up much of any English prose and are rare as words of German, French,
    /// Spanish, Italian or Dutch prose (no "a", "in", "an", "on", "is", "was", "will", "me",
    /// "so", "also": each is a common word of one of them).
    static let englishFunctionWords: Set<String> = [
        "the", "and", "of", "to", "are", "were", "be", "been", "that", "this", "these", "those", "with", "for", "it",
        "its", "it's", "you", "your", "we", "our", "they", "their", "she", "his", "not", "or", "have", "has", "would",
        "can", "could", "should", "from", "by", "at", "which", "what", "when", "there", "if", "but", "any", "each",
        "more", "than", "then", "into", "about", "does", "did", "don't", "doesn't", "isn't", "how", "who", "after",
        "before", "just", "only", "my", "them",
    ]

    /// The words of `paragraph` that are prose (letters, apostrophes, hyphens inside), joined
    /// by spaces; nil when there are too few, or when they are too small a part of it (a code
    /// listing, a table of paths and options, a list of names). Code-ish words — with `_`,
    /// `/`, `=`, `(`, a digit or a backtick inside — and names with capitals inside
    /// (`DynamoDB`, `GitHub`) are left out: with them "Our Terraform state lives in an S3
    /// bucket with DynamoDB locking." was not English to TextCat.
    static func prose(of paragraph: String) -> String? {
        var paragraph = paragraph
        if let ascii = paragraph.withUTF8({ bytes in bytes.allSatisfy { $0 < 0x80 } ? asciiProse(of: bytes) : nil }) {
            return ascii
        }
        return characterProse(of: paragraph)
    }

    /// `prose(of:)` by Characters: any paragraph (the only way for one beyond ASCII).
    static func characterProse(of paragraph: String) -> String? {
        var words: [Substring] = []
        var letters = 0
        var visible = 0
        for token in paragraph.split(whereSeparator: { $0.isWhitespace }) {
            visible += token.count
            let trimmed = token.trimmingEdges { !$0.isLetter }
            guard !trimmed.isEmpty,
                  trimmed.allSatisfy({ $0.isLetter || $0 == "'" || $0 == "’" || $0 == "-" }),
                  !token.contains(where: { $0.isNumber || "_/\\=`(){}[]<>$#@|".contains($0) }),
                  !trimmed.dropFirst().contains(where: \.isUppercase) else { continue }
            words.append(trimmed)
            letters += trimmed.count
        }
        guard words.count >= minimumWords, letters >= minimumLetters, letters * 10 >= visible * 6 else { return nil }
        return words.joined(separator: " ")
    }

    /// `prose(of:)` of an ASCII paragraph, byte by byte: the same words (a Character is a byte
    /// here; ASCII letters, digits, capitals and white space are what `isLetter`, `isNumber`,
    /// `isUppercase` and `isWhitespace` say of them). Why: the Character properties cost
    /// some 0.4 s of CPU on 1 MB of English (a paragraph at a time). The outer optional is
    /// the answer (`.some(nil)`: no prose).
    private static func asciiProse(of bytes: UnsafeBufferPointer<UInt8>) -> String?? {
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || (b >= 0x09 && b <= 0x0D) }
        func isLetter(_ b: UInt8) -> Bool { (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A }
        func isCodeish(_ b: UInt8) -> Bool {
            switch b {
            case 0x30...0x39, UInt8(ascii: "_"), UInt8(ascii: "/"), UInt8(ascii: "\\"), UInt8(ascii: "="), UInt8(ascii: "`"),
                 UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "["), UInt8(ascii: "]"),
                 UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "$"), UInt8(ascii: "#"), UInt8(ascii: "@"), UInt8(ascii: "|"):
                return true
            default: return false
            }
        }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var words = 0, letters = 0, visible = 0
        var index = 0
        while index < bytes.count {
            if isSpace(bytes[index]) { index += 1; continue }
            let start = index
            while index < bytes.count && !isSpace(bytes[index]) { index += 1 }
            visible += index - start
            var first = start, last = index
            while first < last && !isLetter(bytes[first]) { first += 1 }
            while last > first && !isLetter(bytes[last - 1]) { last -= 1 }
            guard first < last else { continue }
            var prose = true
            for i in first..<last {
                let b = bytes[i]
                if !(isLetter(b) || b == UInt8(ascii: "'") || b == UInt8(ascii: "-")) || (i > first && b >= 0x41 && b <= 0x5A) {
                    prose = false
                    break
                }
            }
            guard prose, !(start..<index).contains(where: { isCodeish(bytes[$0]) }) else { continue }
            if words > 0 { out.append(0x20) }
            out.append(contentsOf: bytes[first..<last])
            words += 1
            letters += last - first
        }
        guard words >= minimumWords, letters >= minimumLetters, letters * 10 >= visible * 6 else { return .some(nil) }
        return .some(String(decoding: out, as: UTF8.self))
    }
}

extension Substring {
    fileprivate func trimmingEdges(while predicate: (Character) -> Bool) -> Substring {
        var result = self
        while let first = result.first, predicate(first) { result = result.dropFirst() }
        while let last = result.last, predicate(last) { result = result.dropLast() }
        return result
    }
}
