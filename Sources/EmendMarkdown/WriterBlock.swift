/// A block the writer found in the text: its kind, its scalar range, and what separated it
/// from the block before.
struct WriterBlock: Equatable {
    enum Kind: Equatable {
        case paragraph
        case heading(level: Int)
        case listItem(depth: Int, ordinal: Int)
        case tableCell(row: Int, column: Int)
        case codeBlock
        case blockQuote
    }

    enum Gap: Equatable {
        /// The first block.
        case start
        /// A tab: the next cell of a row.
        case tab
        /// One newline: the next item of a list, the next row of a table.
        case newline
        /// A paragraph separator (or anything else).
        case paragraph
    }

    var kind: Kind
    var range: Range<Int>
    var gap: Gap
}
