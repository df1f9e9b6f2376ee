/// The prose of a source file: comments (consecutive line comments joined into one unit, so
/// a sentence may run over several lines) and string literals that read like text (at least
/// two words). Comment markers, the indentation before them, quotes and escapes are
/// protected, so providers check the words and no fix can touch the code.
enum SourceProse {
    static func units(of bytes: [UInt8], syntax: CommentSyntax) -> [CheckUnit] {
        var scanner = Scanner(bytes: bytes, syntax: syntax)
        scanner.run()
        return scanner.units
    }

    private struct Group {
        var start: Int
        var end: Int
        var protected: [Range<Int>]
    }

    private struct Scanner {
        let bytes: [UInt8]
        let syntax: CommentSyntax
        var units: [CheckUnit] = []
        var group: Group?

        init(bytes: [UInt8], syntax: CommentSyntax) {
            self.bytes = bytes
            self.syntax = syntax
        }

        func matches(_ marker: String, at i: Int) -> Bool {
            let m = Array(marker.utf8)
            guard !m.isEmpty, i + m.count <= bytes.count else { return false }
            for k in 0..<m.count where bytes[i + k] != m[k] { return false }
            return true
        }

        func find(_ marker: String, from i: Int) -> Int? {
            var k = i
            while k < bytes.count {
                if matches(marker, at: k) { return k }
                k += 1
            }
            return nil
        }

        func lineEnd(from i: Int) -> Int {
            var k = i
            while k < bytes.count && bytes[k] != 0x0A { k += 1 }
            return k > i && bytes[k - 1] == 0x0D ? k - 1 : k
        }

        mutating func emit(_ range: Range<Int>, _ protected: [Range<Int>]) {
            let local = protected.map { ($0.lowerBound - range.lowerBound)..<($0.upperBound - range.lowerBound) }
                .filter { !$0.isEmpty }
            if let unit = CheckUnits.make(bytes: bytes, range: range, protected: local) { units.append(unit) }
        }

        mutating func flushGroup() {
            if let g = group { emit(g.start..<g.end, g.protected) }
            group = nil
        }

        mutating func run() {
            var i = 0
            outer: while i < bytes.count {
                for pair in syntax.blocks where matches(pair.open, at: i) {
                    flushGroup()
                    i = block(pair, at: i)
                    continue outer
                }
                for marker in syntax.line where matches(marker, at: i) {
                    i = lineComment(marker, at: i)
                    continue outer
                }
                let c = bytes[i]
                if syntax.quotes.contains(c) {
                    i = string(quote: c, at: i)
                    continue
                }
                if c == UInt8(ascii: "'") {
                    // A character literal ('"', '\'') must not open a string.
                    if i + 2 < bytes.count && bytes[i + 2] == c { i += 3; continue }
                    if i + 3 < bytes.count && bytes[i + 1] == UInt8(ascii: "\\") && bytes[i + 3] == c { i += 4; continue }
                }
                if c != 0x20 && c != 0x09 && c != 0x0A && c != 0x0D { flushGroup() }
                i += 1
            }
            flushGroup()
        }

        /// A block comment: its markers, and each later line's indentation and leading "*", protected.
        mutating func block(_ pair: CommentSyntax.Pair, at start: Int) -> Int {
            let openEnd = start + pair.open.utf8.count
            let close = find(pair.close, from: openEnd)
            let end = close.map { $0 + pair.close.utf8.count } ?? bytes.count
            var protected = [start..<openEnd]
            var k = openEnd
            while k < (close ?? bytes.count) {
                if bytes[k] == 0x0A {
                    var m = k + 1
                    while m < bytes.count && (bytes[m] == 0x20 || bytes[m] == 0x09) { m += 1 }
                    if m < bytes.count && bytes[m] == UInt8(ascii: "*") && !matches(pair.close, at: m) { m += 1 }
                    protected.append((k + 1)..<min(m, close ?? bytes.count))
                    k = m
                    continue
                }
                k += 1
            }
            if let close { protected.append(close..<end) }
            emit(start..<end, protected)
            return end
        }

        /// A line comment, joined to the group of line comments right above it.
        mutating func lineComment(_ marker: String, at start: Int) -> Int {
            var markerEnd = start + marker.utf8.count
            // "///", "//!", "##": the whole marker is protected.
            let last = bytes[markerEnd - 1]
            while markerEnd < bytes.count && (bytes[markerEnd] == last || bytes[markerEnd] == UInt8(ascii: "!")) { markerEnd += 1 }
            let end = lineEnd(from: start)
            if var g = group, onlyOneLineBreak(between: g.end, and: start) {
                // The indentation of this line joins the protected marker.
                var lineStart = start
                while lineStart > g.end && bytes[lineStart - 1] != 0x0A { lineStart -= 1 }
                g.protected.append(lineStart..<markerEnd)
                g.end = end
                group = g
            } else {
                flushGroup()
                group = Group(start: start, end: end, protected: [start..<markerEnd])
            }
            return end
        }

        func onlyOneLineBreak(between a: Int, and b: Int) -> Bool {
            var breaks = 0
            for k in a..<b {
                let c = bytes[k]
                if c == 0x0A { breaks += 1 } else if c != 0x20 && c != 0x09 && c != 0x0D { return false }
            }
            return breaks == 1
        }

        /// A string literal: checked when it holds at least two words.
        mutating func string(quote: UInt8, at start: Int) -> Int {
            flushGroup()
            var k = start + 1
            var protected = [start..<(start + 1)]
            var spaces = 0
            while k < bytes.count {
                let c = bytes[k]
                if c == UInt8(ascii: "\\") {
                    protected.append(k..<min(k + 2, bytes.count))
                    k += 2
                    continue
                }
                if c == quote { break }
                if c == 0x0A && quote != UInt8(ascii: "`") { return k }
                if c == 0x20 { spaces += 1 }
                k += 1
            }
            guard k < bytes.count else { return k }
            protected.append(k..<(k + 1))
            if spaces > 0 { emit(start..<(k + 1), protected) }
            return k + 1
        }
    }
}
