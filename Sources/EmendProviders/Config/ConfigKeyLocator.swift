/// Finds the line of a key or table in TOML text, so that errors found after parsing
/// (wrong types, unknown tools) can name it like parse errors do. Best effort: nil when the
/// line cannot be told.
enum ConfigKeyLocator {
    /// The 1-based line defining `path` (table headers plus dotted keys), or nil.
    static func line(of path: [String], in text: String) -> Int? {
        var header: [String] = []
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.drop { $0 == " " || $0 == "\t" }
            if line.hasPrefix("[") {
                guard let close = lastUnquoted("]", in: line) else { continue }
                header = keys(line[line.index(after: line.startIndex)..<close])
                if header == path { return number + 1 }
            } else if let equals = firstUnquoted("=", in: line) {
                if header + keys(line[..<equals]) == path { return number + 1 }
            }
        }
        return nil
    }

    /// `a."b.c" . d` -> ["a", "b.c", "d"].
    static func keys(_ text: Substring) -> [String] {
        var keys: [String] = []
        var current = ""
        var quote: Character?
        for c in text {
            if let q = quote {
                if c == q { quote = nil } else { current.append(c) }
            } else if c == "\"" || c == "'" {
                quote = c
            } else if c == "." {
                keys.append(current)
                current = ""
            } else if c != " " && c != "\t" {
                current.append(c)
            }
        }
        keys.append(current)
        return keys
    }

    private static func firstUnquoted(_ target: Character, in text: Substring) -> Substring.Index? {
        var quote: Character?
        for index in text.indices {
            let c = text[index]
            if let q = quote { if c == q { quote = nil } }
            else if c == "\"" || c == "'" { quote = c }
            else if c == "#" { return nil }
            else if c == target { return index }
        }
        return nil
    }

    private static func lastUnquoted(_ target: Character, in text: Substring) -> Substring.Index? {
        var quote: Character?
        var found: Substring.Index?
        for index in text.indices {
            let c = text[index]
            if let q = quote { if c == q { quote = nil } }
            else if c == "\"" || c == "'" { quote = c }
            else if c == "#" { break }
            else if c == target { found = index }
        }
        return found
    }
}
