/// A position as LSP counts it: a zero-based line and a character offset in the negotiated
/// encoding's units.
public struct LSPPosition: Sendable, Equatable, Comparable {
    public var line: Int
    public var character: Int
    public init(line: Int, character: Int) {
        self.line = line
        self.character = character
    }

    public static func < (a: LSPPosition, b: LSPPosition) -> Bool {
        a.line != b.line ? a.line < b.line : a.character < b.character
    }

    init(json: JSON?) throws(ResponseError) {
        guard let line = json?["line"]?.int, let character = json?["character"]?.int else {
            throw .invalidParams("a position needs integer \"line\" and \"character\"")
        }
        guard line >= 0, character >= 0 else { throw .invalidParams("position \(line):\(character) is negative") }
        self.init(line: line, character: character)
    }

    var json: JSON { ["line": .int(line), "character": .int(character)] }
}

/// A range as LSP counts it (end exclusive).
public struct LSPRange: Sendable, Equatable {
    public var start: LSPPosition
    public var end: LSPPosition

    public init(start: LSPPosition, end: LSPPosition) {
        self.start = start
        self.end = end
    }

    init(json: JSON?) throws(ResponseError) {
        guard let json else { throw .invalidParams("a range is missing") }
        self.init(start: try LSPPosition(json: json["start"]), end: try LSPPosition(json: json["end"]))
        guard !(end < start) else { throw .invalidParams("range end \(end.line):\(end.character) is before its start") }
    }

    var json: JSON { ["start": start.json, "end": end.json] }
}
