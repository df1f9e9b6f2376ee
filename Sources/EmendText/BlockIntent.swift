/// The kind of a block: what Apple calls a presentation intent.
public enum BlockKind: Int, Sendable, CaseIterable {
    case paragraph = 0
    case heading = 1
    case listItem = 2
    case tableCell = 3
    case codeBlock = 4
    case blockQuote = 5
}

/// A block intent on a UTF-8 byte range: heading level, list nesting and ordinal, table cell.
public struct BlockIntent: Equatable, Hashable, Sendable {
    public var range: Range<Int>
    public var kind: BlockKind
    /// Heading level (1...6) or list nesting depth (from 1).
    public var level: Int
    /// List item number; 0 for a bullet (so numbered items start at 1 or more).
    public var ordinal: Int
    public var row: Int
    public var column: Int
    public init(range: Range<Int>, kind: BlockKind, level: Int = 0, ordinal: Int = 0, row: Int = 0, column: Int = 0) {
        self.range = range
        self.kind = kind
        self.level = level
        self.ordinal = ordinal
        self.row = row
        self.column = column
    }
}
