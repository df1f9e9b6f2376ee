/// The parts of a text that are not prose, found once per request: URLs, e-mail addresses,
/// file paths (`./autogen.sh`, `.env`), inline HTML tags, Markdown link destinations,
/// command-line options (`-i`, `--as-needed`, `-DBUILD_SHARED_LIBS=ON`), words behind a
/// sigil (`$HOME`, `&mut`, `@octocat`, `#include`, `%APPDATA%`), emoji shortcodes (`:tada:`)
/// and the content of code-like HTML elements (`<kbd>Esc</kbd>`). Why: checkers
/// read these as words ("./autogen.sh", "<br>" → "bar", a URL's path) and every suggestion
/// inside them is a false alarm, whatever its rule, so `ProofreadingFilter` drops any edit
/// that touches one. Ranges are UTF-8 byte offsets into the request's text.
public struct ShieldedText: Sendable, Equatable {
    /// What a shielded range is (for the filter's reasons and the benchmark's statistics).
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        case url, email, path, htmlTag, linkDestination, commandOption, sigil, codeElement, emojiShortcode
    }

    public private(set) var ranges: [(kind: Kind, range: Range<Int>)] = []

    public static func == (a: ShieldedText, b: ShieldedText) -> Bool {
        a.ranges.elementsEqual(b.ranges) { $0.kind == $1.kind && $0.range == $1.range }
    }

    public init(_ text: String) {
        let bytes = Array(text.utf8)
        for range in Self.codeElements(bytes) { ranges.append((.codeElement, range)) }
        for range in Self.emojiShortcodes(bytes) { ranges.append((.emojiShortcode, range)) }
        scanDelimited(bytes)
        scanTokens(bytes)
        ranges.sort { $0.range.lowerBound < $1.range.lowerBound }
        longest = ranges.map(\.range.count).max() ?? 0
    }

    /// The length of the longest range (how far before an edit a range touching it can start).
    private var longest = 0

    /// The kind of the first shielded range that `range` touches (an empty range touches one
    /// strictly inside it). Logarithmic in the number of ranges: a long document has many.
    public func kind(touching range: Range<Int>) -> Kind? {
        // The first range that starts late enough to reach `range`.
        var low = 0, high = ranges.count
        let from = range.lowerBound - longest
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].range.lowerBound < from { low = middle + 1 } else { high = middle }
        }
        for item in ranges[low...] {
            if item.range.lowerBound > range.upperBound { break }   // sorted by start
            if range.isEmpty {
                if item.range.lowerBound < range.lowerBound && range.lowerBound < item.range.upperBound { return item.kind }
            } else if item.range.overlaps(range) {
                return item.kind
            }
        }
        return nil
    }

    // MARK: - Delimited: <tag>, ](destination)
    // (Code spans are the engine's to protect: the command does in Markdown files, and a
    // backtick in a plain text file is just a character. A token inside backticks is still
    // read for its shape: `--json` is an option, `./configure` a path.)

    private mutating func scanDelimited(_ b: [UInt8]) {
        var i = 0
        while i < b.count {
            switch b[i] {
            case UInt8(ascii: "<"):
                // <br>, </div>, <img src="...">, <!-- -->: a letter, / or ! right after <.
                if i + 1 < b.count, Self.isLetter(b[i + 1]) || b[i + 1] == UInt8(ascii: "/") || b[i + 1] == UInt8(ascii: "!"),
                   let end = Self.find(UInt8(ascii: ">"), in: b, from: i + 1, stopAtNewline: true),
                   !b[(i + 1)..<end].contains(UInt8(ascii: "<")) {
                    ranges.append((.htmlTag, i..<(end + 1)))
                    i = end + 1
                    continue
                }
            case UInt8(ascii: "]"):
                if i + 1 < b.count, b[i + 1] == UInt8(ascii: "("),
                   let end = Self.find(UInt8(ascii: ")"), in: b, from: i + 2, stopAtNewline: true) {
                    ranges.append((.linkDestination, (i + 2)..<end))
                    i = end + 1
                    continue
                }
            default:
                break
            }
            i += 1
        }
    }

    // MARK: - Tokens: URLs, e-mail addresses, paths

    /// Splits at white space and brackets (so that a Markdown link's text is not part of its
    /// destination's token) and looks at each token without the punctuation around it.
    private mutating func scanTokens(_ b: [UInt8]) {
        func splits(_ c: UInt8) -> Bool { Self.isSpace(c) || Self.tokenSplitters.contains(c) }
        var i = 0
        while i < b.count {
            if splits(b[i]) { i += 1; continue }
            var end = i
            while end < b.count && !splits(b[end]) { end += 1 }
            classify(b, i..<end)
            i = end
        }
    }

    private mutating func classify(_ b: [UInt8], _ whole: Range<Int>) {
        var start = whole.lowerBound, end = whole.upperBound
        // Opening brackets and quotes before, closing ones and sentence punctuation after.
        while start < end, Self.openers.contains(b[start]) { start += 1 }
        while end > start, Self.closers.contains(b[end - 1]) { end -= 1 }
        guard start < end else { return }
        // A command-line option: a dash (or two) right after white space (or a backtick), then a letter.
        if whole.lowerBound == start || b[start - 1] == UInt8(ascii: "`"), b[start] == UInt8(ascii: "-") {
            let letter = start + 1 < end && b[start + 1] == UInt8(ascii: "-") ? start + 2 : start + 1
            if letter < end, Self.isLetter(b[letter]) {
                ranges.append((.commandOption, start..<whole.upperBound))
                return
            }
        }
        // A word behind a sigil: a shell or Makefile variable, a mention, a Rust borrow, a
        // C directive, an issue number — names in code's notation, not prose.
        if Self.sigils.contains(b[start]), start + 1 < end, Self.isWordByte(b[start + 1]) || b[start + 1] == UInt8(ascii: "{") {
            ranges.append((.sigil, start..<end))
            return
        }
        let token = b[start..<end]
        if let scheme = Self.range(of: Self.schemeSeparator, in: token), scheme.lowerBound > start {
            // The scheme's letters before "://", the rest up to the token's end.
            var from = scheme.lowerBound
            while from > start, Self.isLetter(b[from - 1]) { from -= 1 }
            ranges.append((.url, from..<end))
        } else if token.first == UInt8(ascii: "w"), token.starts(with: "www.".utf8) {
            ranges.append((.url, start..<end))
        } else if let at = token.firstIndex(of: UInt8(ascii: "@")), at > start, at + 1 < end,
                  b[(at + 1)..<end].contains(UInt8(ascii: ".")), b[start..<at].allSatisfy(Self.isEmailLocal),
                  b[(at + 1)..<end].allSatisfy({ Self.isAlnum($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") }) {
            ranges.append((.email, start..<end))
        } else if Self.isPath(token) {
            ranges.append((.path, start..<end))
        }
    }

    /// ./autogen.sh, ../x, ~/x, /usr/lib, src/main.c, C:\x: a slash or backslash between
    /// characters of a word, or a path prefix. "and/or" counts too (harmless: it is spelled
    /// right or it is not prose). A dot right before a letter at a token's start names a
    /// hidden file or an extension (`.env`, `.gitignore`, `.tar.gz`): no prose word starts so.
    static func isPath(_ token: ArraySlice<UInt8>) -> Bool {
        let slash = UInt8(ascii: "/"), backslash = UInt8(ascii: "\\")
        // (The first byte asked first: `starts(with:)` of a String's bytes is slow, and this
        // runs for every token of the text.)
        if token.first == UInt8(ascii: ".") || token.first == UInt8(ascii: "~"),
           token.starts(with: "./".utf8) || token.starts(with: "../".utf8) || token.starts(with: "~/".utf8) {
            return true
        }
        if token.first == UInt8(ascii: "."), token.count > 1, isLetter(token[token.startIndex + 1]) { return true }
        if token.first == slash, token.count > 1, isWordByte(token[token.startIndex + 1]) { return true }
        var index = token.startIndex + 1
        while index + 1 < token.endIndex {
            if token[index] == slash || token[index] == backslash, isWordByte(token[index - 1]), isWordByte(token[index + 1]) {
                return true
            }
            index += 1
        }
        return false
    }

    // MARK: - Bytes

    static func isLetter(_ c: UInt8) -> Bool { (c | 0x20) >= UInt8(ascii: "a") && (c | 0x20) <= UInt8(ascii: "z") }
    static func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }
    static func isAlnum(_ c: UInt8) -> Bool { isLetter(c) || isDigit(c) }
    /// ASCII letters and digits, `_`, and any byte of a non-ASCII character.
    static func isWordByte(_ c: UInt8) -> Bool { isAlnum(c) || c == UInt8(ascii: "_") || c >= 0x80 }
    static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }
    static func isEmailLocal(_ c: UInt8) -> Bool { isAlnum(c) || emailLocalMarks.contains(c) }

    // The byte sets of the scan, made once. Why: `"...".utf8.contains(c)` for each byte of
    // each token (and an array for "://" per token) were most of the scan's time, some 30 ms
    // of CPU on 1 MB of English.
    private static let tokenSplitters = ByteSet("[](){}<>\"")
    private static let openers = ByteSet("([{<\"'*_`")
    private static let closers = ByteSet(")]}>\"'*_`.,;:!?")
    private static let sigils = ByteSet("$@&%#")
    private static let emailLocalMarks = ByteSet("._%+-")
    private static let schemeSeparator = Array("://".utf8)

    private static func find(_ needle: UInt8, in b: [UInt8], from: Int, stopAtNewline: Bool) -> Int? {
        var i = from
        while i < b.count {
            if b[i] == needle { return i }
            if stopAtNewline && b[i] == 0x0A { return nil }
            i += 1
        }
        return nil
    }

    private static func range(of needle: [UInt8], in hay: ArraySlice<UInt8>) -> Range<Int>? {
        guard hay.count >= needle.count else { return nil }
        var i = hay.startIndex
        while i + needle.count <= hay.endIndex {
            if hay[i..<(i + needle.count)].elementsEqual(needle) { return i..<(i + needle.count) }
            i += 1
        }
        return nil
    }
}

/// A set of byte values (of ASCII punctuation), tested by one shift and mask.
private struct ByteSet: Sendable {
    private var low: UInt64 = 0
    private var high: UInt64 = 0

    init(_ members: String) {
        for byte in members.utf8 where byte < 0x80 {
            if byte < 64 { low |= 1 << UInt64(byte) } else { high |= 1 << UInt64(byte - 64) }
        }
    }

    func contains(_ byte: UInt8) -> Bool {
        byte < 64 ? low & (1 << UInt64(byte)) != 0 : byte < 128 && high & (1 << UInt64(byte - 64)) != 0
    }
}
