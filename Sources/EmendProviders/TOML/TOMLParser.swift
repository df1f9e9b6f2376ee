import EmendCore

/// Parses the TOML subset Emend uses: comments, `[table]` and `[a."b.c"]` headers, and
/// `key = value` lines with basic and literal strings, integers, floats, booleans and
/// (possibly multi-line) arrays. Inline tables, dates, multi-line strings and arrays of
/// tables are refused with a clear error naming the line. A file is at most `maximumBytes`,
/// arrays nest at most `maximumDepth` deep and a dotted key has at most `maximumDepth` parts:
/// a hostile or broken file is an error, never a stack overflow or a long stall.
public struct TOMLParser {
    /// The largest file (a real config.toml is a few KiB).
    public static let maximumBytes = 4 << 20
    /// How deep arrays nest, and how many parts a dotted key or table header has.
    public static let maximumDepth = 32

    private let scalars: [Unicode.Scalar]
    private var index = 0
    private var line = 1
    private var depth = 0
    private let source: String

    public static func parse(_ text: String, source: String = "TOML") throws(EmendError) -> TOMLTable {
        guard text.utf8.count <= maximumBytes else {
            throw EmendError(.invalidArgument, "\(source): \(text.utf8.count) bytes, more than the \(maximumBytes) a TOML "
                             + "file may have here")
        }
        var parser = TOMLParser(text, source: source)
        return try parser.document()
    }

    private init(_ text: String, source: String) {
        self.scalars = Array(text.unicodeScalars)
        self.source = source
    }

    private var current: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

    private func fail(_ message: String) -> EmendError {
        EmendError(.invalidArgument, "\(source):\(line): \(message)")
    }

    private mutating func advance() {
        if current == "\n" { line += 1 }
        index += 1
    }

    private mutating func skipSpaces() {
        while let c = current, c == " " || c == "\t" { advance() }
    }

    /// Skips spaces, comments and line breaks.
    private mutating func skipBlank() {
        while let c = current {
            if c == " " || c == "\t" || c == "\n" || c == "\r" { advance() }
            else if c == "#" { while let d = current, d != "\n" { advance() } }
            else { break }
        }
    }

    private mutating func endOfLine() throws(EmendError) {
        skipSpaces()
        if current == "#" { while let d = current, d != "\n" { advance() } }
        if current == "\r" { advance() }
        guard current == nil || current == "\n" else { throw fail("unexpected text after the value") }
    }

    private mutating func document() throws(EmendError) -> TOMLTable {
        var root = TOMLTable()
        var path: [String] = []
        var definedTables: Set<[String]> = []
        while true {
            skipBlank()
            guard let c = current else { return root }
            if c == "[" {
                advance()
                if current == "[" { throw fail("arrays of tables ([[...]]) are not supported") }
                path = try keyPath(until: "]")
                advance()
                try endOfLine()
                guard definedTables.insert(path).inserted else { throw fail("table [\(path.joined(separator: "."))] is defined twice") }
                try Self.ensureTable(&root, path, fail: fail("[\(path.joined(separator: "."))] redefines a value as a table"))
            } else {
                let keys = try keyPath(until: "=")
                advance()
                skipSpaces()
                let value = try self.value()
                try endOfLine()
                try Self.insert(&root, path + keys, value, fail: fail("key \(keys.joined(separator: ".")) is defined twice"))
            }
        }
    }

    /// Dotted keys up to `terminator` (not consumed).
    private mutating func keyPath(until terminator: Unicode.Scalar) throws(EmendError) -> [String] {
        var keys: [String] = []
        while true {
            skipSpaces()
            keys.append(try key())
            skipSpaces()
            if current == "." {
                guard keys.count < Self.maximumDepth else { throw fail("a key of more than \(Self.maximumDepth) parts") }
                advance()
                continue
            }
            guard current == terminator else { throw fail("expected \"\(terminator)\" after the key") }
            return keys
        }
    }

    private mutating func key() throws(EmendError) -> String {
        if current == "\"" { return try basicString() }
        if current == "'" { return try literalString() }
        var key = ""
        while let c = current, c.properties.isAlphabetic || ("0"..."9").contains(c) || c == "_" || c == "-" {
            key.unicodeScalars.append(c)
            advance()
        }
        guard !key.isEmpty else { throw fail("expected a key") }
        return key
    }

    private mutating func value() throws(EmendError) -> TOMLValue {
        guard let c = current else { throw fail("expected a value") }
        switch c {
        case "\"":
            if scalars.count > index + 2, scalars[index + 1] == "\"", scalars[index + 2] == "\"" {
                throw fail("multi-line strings are not supported")
            }
            return .string(try basicString())
        case "'": return .string(try literalString())
        case "[": return try array()
        case "{": throw fail("inline tables are not supported; use a [table]")
        case "t", "f": return .boolean(try boolean())
        default: return try number()
        }
    }

    private mutating func basicString() throws(EmendError) -> String {
        advance()
        var out = ""
        while let c = current {
            advance()
            switch c {
            case "\"": return out
            case "\n": throw fail("a string ends at the end of its line")
            case "\\":
                guard let e = current else { throw fail("unfinished escape") }
                advance()
                switch e {
                case "n": out += "\n"
                case "t": out += "\t"
                case "r": out += "\r"
                case "\"": out += "\""
                case "\\": out += "\\"
                case "u", "U":
                    let count = e == "u" ? 4 : 8
                    var hex = ""
                    for _ in 0..<count {
                        guard let h = current else { throw fail("unfinished \\\(e) escape") }
                        hex.unicodeScalars.append(h)
                        advance()
                    }
                    guard let code = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(code) else {
                        throw fail("\\\(e)\(hex) is not a Unicode scalar")
                    }
                    out.unicodeScalars.append(scalar)
                default: throw fail("unknown escape \\\(e)")
                }
            default: out.unicodeScalars.append(c)
            }
        }
        throw fail("unterminated string")
    }

    private mutating func literalString() throws(EmendError) -> String {
        advance()
        var out = ""
        while let c = current {
            advance()
            if c == "'" { return out }
            if c == "\n" { throw fail("a string ends at the end of its line") }
            out.unicodeScalars.append(c)
        }
        throw fail("unterminated string")
    }

    private mutating func array() throws(EmendError) -> TOMLValue {
        guard depth < Self.maximumDepth else { throw fail("arrays nested more than \(Self.maximumDepth) deep") }
        depth += 1
        defer { depth -= 1 }
        advance()
        var items: [TOMLValue] = []
        while true {
            skipBlank()
            if current == "]" { advance(); return .array(items) }
            items.append(try value())
            skipBlank()
            if current == "," { advance(); continue }
            guard current == "]" else { throw fail("expected \",\" or \"]\" in the array") }
        }
    }

    private mutating func boolean() throws(EmendError) -> Bool {
        let word = takeWord()
        switch word {
        case "true": return true
        case "false": return false
        default: throw fail("\"\(word)\" is not a value (strings need quotes)")
        }
    }

    private mutating func number() throws(EmendError) -> TOMLValue {
        let word = takeWord()
        let digits = word.replacingUnderscores
        if let integer = Int64(digits) { return .integer(integer) }
        if digits.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }), let double = Double(digits) { return .float(double) }
        switch digits {
        case "inf", "+inf": return .float(.infinity)
        case "-inf": return .float(-.infinity)
        case "nan", "+nan", "-nan": return .float(.nan)
        default: throw fail("\"\(word)\" is not a value (strings need quotes)")
        }
    }

    private mutating func takeWord() -> String {
        var word = ""
        while let c = current, !(c == " " || c == "\t" || c == "\n" || c == "\r" || c == "," || c == "]" || c == "#") {
            word.unicodeScalars.append(c)
            advance()
        }
        return word
    }

    private static func ensureTable(_ table: inout TOMLTable, _ path: [String], fail: EmendError) throws(EmendError) {
        try ensureTable(&table, path[...], fail: fail)
    }

    private static func ensureTable(_ table: inout TOMLTable, _ path: ArraySlice<String>, fail: EmendError) throws(EmendError) {
        guard let first = path.first else { return }
        let done: Void? = try table.updateTable(first) { (child: inout TOMLTable) throws(EmendError) in
            try ensureTable(&child, path.dropFirst(), fail: fail)
        }
        if done == nil { throw fail }
    }

    private static func insert(_ table: inout TOMLTable, _ path: [String], _ value: TOMLValue, fail: EmendError) throws(EmendError) {
        try insert(&table, path[...], value, fail: fail)
    }

    private static func insert(_ table: inout TOMLTable, _ path: ArraySlice<String>, _ value: TOMLValue, fail: EmendError) throws(EmendError) {
        guard let first = path.first else { return }
        if path.count == 1 {
            guard table[first] == nil else { throw fail }
            table[first] = value
            return
        }
        let done: Void? = try table.updateTable(first) { (child: inout TOMLTable) throws(EmendError) in
            try insert(&child, path.dropFirst(), value, fail: fail)
        }
        if done == nil { throw fail }
    }
}

private extension String {
    var replacingUnderscores: String { String(filter { $0 != "_" }) }
}
