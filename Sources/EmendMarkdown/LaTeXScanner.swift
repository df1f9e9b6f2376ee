/// One pass over a LaTeX document collecting what `LaTeXProtection` protects. Why a scanner
/// and not a grammar: LaTeX has none apart from its macros; the constructs below are the
/// ones every document shares, and anything unclosed is protected to the end.
struct LaTeXScanner {
    let bytes: [UInt8]
    private(set) var ranges: [Range<Int>] = []
    private var i = 0

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private static let backslash = UInt8(ascii: "\\"), dollar = UInt8(ascii: "$"), percent = UInt8(ascii: "%")
    private static let open = UInt8(ascii: "{"), close = UInt8(ascii: "}")
    private static let openBracket = UInt8(ascii: "["), closeBracket = UInt8(ascii: "]")
    private static let newline = UInt8(ascii: "\n")
    /// Characters TeX gives a meaning of their own.
    private static let special: Set<UInt8> = Set("{}&~^_#".utf8)

    private static func isLetter(_ c: UInt8) -> Bool {
        (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == UInt8(ascii: "@")
    }

    private var end: Int { bytes.count }

    mutating func scan() {
        while i < end {
            let c = bytes[i]
            if c == Self.percent {
                let start = i
                while i < end && bytes[i] != Self.newline { i += 1 }
                ranges.append(start..<i)
            } else if c == Self.dollar {
                math()
            } else if c == Self.backslash {
                command()
            } else {
                if Self.special.contains(c) { ranges.append(i..<(i + 1)) }
                i += 1
            }
        }
    }

    /// `$…$` or `$$…$$` from `i`.
    private mutating func math() {
        let start = i
        let double = i + 1 < end && bytes[i + 1] == Self.dollar
        var j = i + (double ? 2 : 1)
        while j < end {
            if bytes[j] == Self.backslash { j += 2; continue }
            if bytes[j] == Self.dollar {
                if !double { break }
                if j + 1 < end && bytes[j + 1] == Self.dollar { j += 1; break }
            }
            j += 1
        }
        i = min(end, j + 1)
        ranges.append(start..<i)
    }

    /// A command from the backslash at `i`: its name, and what its kind protects after it.
    private mutating func command() {
        let start = i
        guard i + 1 < end else { ranges.append(i..<end); i = end; return }
        let next = bytes[i + 1]
        if next == UInt8(ascii: "(") || next == UInt8(ascii: "[") {
            let closer: [UInt8] = [Self.backslash, next == UInt8(ascii: "(") ? UInt8(ascii: ")") : UInt8(ascii: "]")]
            i = find(closer, from: i + 2).map { $0 + 2 } ?? end
            ranges.append(start..<i)
            return
        }
        guard Self.isLetter(next) else {
            // A control symbol: `\\`, `\%`, `\&`, `\,`, `\$` — or `\é`: the whole character.
            i = scalarEnd(from: i + 1)
            ranges.append(start..<i)
            return
        }
        var j = i + 1
        while j < end && Self.isLetter(bytes[j]) { j += 1 }
        let name = String(decoding: bytes[(i + 1)..<j], as: UTF8.self)
        if j < end && bytes[j] == UInt8(ascii: "*") { j += 1 }
        ranges.append(start..<j)
        i = j
        switch name {
        case "begin": begin()
        case "end": _ = group(protect: true)
        case "verb", "lstinline", "mintinline":
            verbatimArgument()
        default:
            if LaTeXCommands.nonProseArguments.contains(name) {
                while option() || group(protect: true) {}
            } else if LaTeXCommands.firstArgumentOnly.contains(name) {
                while option() {}
                _ = group(protect: true)
            } else {
                while option() {}
            }
        }
    }

    /// After `\begin`: the environment's name, and its body when that is not prose.
    private mutating func begin() {
        let nameStart = i
        guard group(protect: true) else { return }
        let inner = bytes[nameStart..<i].drop { $0 != Self.open }.dropFirst().dropLast()
        let environment = String(decoding: inner.filter { $0 != 0x20 }, as: UTF8.self)
        if LaTeXCommands.nonProseEnvironments.contains(environment) {
            let closer = Array("\\end{\(environment)}".utf8)
            let bodyEnd = find(closer, from: i).map { $0 + closer.count } ?? end
            ranges.append(nameStart..<bodyEnd)
            i = bodyEnd
        } else if LaTeXCommands.specifiedEnvironments.contains(environment) {
            while option() || group(protect: true) {}
        } else {
            while option() {}
        }
    }

    /// `\verb|…|`: the delimiter is the character after the name.
    private mutating func verbatimArgument() {
        while option() {}
        guard i < end else { return }
        let start = i
        // The delimiter is a whole character (`\verb|…|`, `\verb{…}`, `\verbé…é`), so that no
        // bound splits one.
        let delimiterEnd = scalarEnd(from: i)
        let delimiter = bytes[i] == Self.open ? [Self.close] : Array(bytes[i..<delimiterEnd])
        var j = delimiterEnd
        while j < end && bytes[j] != Self.newline
            && !(j + delimiter.count <= end && bytes[j..<(j + delimiter.count)].elementsEqual(delimiter)) { j += 1 }
        i = j < end && bytes[j] != Self.newline ? j + delimiter.count : min(end, j + 1)
        ranges.append(start..<i)
    }

    /// The end of the character that starts at `index` (past its UTF-8 continuation bytes).
    private func scalarEnd(from index: Int) -> Int {
        guard index < end else { return end }
        var k = index + 1
        while k < end && bytes[k] & 0xC0 == 0x80 { k += 1 }
        return k
    }

    /// A `[…]` argument at `i` (after spaces on the same line), protected; false when none.
    private mutating func option() -> Bool {
        let start = skipSpaces(i)
        guard start < end, bytes[start] == Self.openBracket else { return false }
        let stop = balanced(from: start, open: Self.openBracket, close: Self.closeBracket)
        ranges.append(start..<stop)
        i = stop
        return true
    }

    /// A `{…}` argument at `i` (after spaces on the same line); protected whole when
    /// `protect`, else only its braces (the prose inside is left to the scan). False when none.
    private mutating func group(protect: Bool) -> Bool {
        let start = skipSpaces(i)
        guard start < end, bytes[start] == Self.open else { return false }
        let stop = balanced(from: start, open: Self.open, close: Self.close)
        if protect {
            ranges.append(start..<stop)
            i = stop
        } else {
            i = start
        }
        return true
    }

    /// The end (after the closer) of the group opening at `start`; the text's end when it does not close.
    private func balanced(from start: Int, open: UInt8, close: UInt8) -> Int {
        var depth = 0
        var j = start
        while j < end {
            let c = bytes[j]
            if c == Self.backslash { j += 2; continue }
            if c == open { depth += 1 } else if c == close {
                depth -= 1
                if depth == 0 { return j + 1 }
            }
            j += 1
        }
        return end
    }

    private func skipSpaces(_ from: Int) -> Int {
        var j = from
        while j < end && (bytes[j] == 0x20 || bytes[j] == 0x09) { j += 1 }
        return j
    }

    private func find(_ needle: [UInt8], from: Int) -> Int? {
        guard !needle.isEmpty, needle.count <= end else { return nil }
        var j = from
        while j + needle.count <= end {
            if bytes[j] == needle[0] && bytes[j..<(j + needle.count)].elementsEqual(needle) { return j }
            j += 1
        }
        return nil
    }
}
