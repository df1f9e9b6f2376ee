import CCmarkGFM

/// What a cmark-gfm node is. Core kinds come from `cmark_node_get_type`; the GFM extension
/// kinds (table, row, cell, strikethrough) are globals the installed headers do not declare,
/// so they are told apart by `cmark_node_get_type_string`.
enum CmarkNodeKind: Equatable {
    case document, blockQuote, list, item, codeBlock, htmlBlock, paragraph, heading, thematicBreak
    case table, tableRow, tableCell
    case text, softBreak, lineBreak, code, htmlInline, emphasis, strong, link, image, strikethrough
    case other

    init(_ node: OpaquePointer) {
        switch cmark_node_get_type(node) {
        case CMARK_NODE_DOCUMENT: self = .document
        case CMARK_NODE_BLOCK_QUOTE: self = .blockQuote
        case CMARK_NODE_LIST: self = .list
        case CMARK_NODE_ITEM: self = .item
        case CMARK_NODE_CODE_BLOCK: self = .codeBlock
        case CMARK_NODE_HTML_BLOCK: self = .htmlBlock
        case CMARK_NODE_PARAGRAPH: self = .paragraph
        case CMARK_NODE_HEADING: self = .heading
        case CMARK_NODE_THEMATIC_BREAK: self = .thematicBreak
        case CMARK_NODE_TEXT: self = .text
        case CMARK_NODE_SOFTBREAK: self = .softBreak
        case CMARK_NODE_LINEBREAK: self = .lineBreak
        case CMARK_NODE_CODE: self = .code
        case CMARK_NODE_HTML_INLINE: self = .htmlInline
        case CMARK_NODE_EMPH: self = .emphasis
        case CMARK_NODE_STRONG: self = .strong
        case CMARK_NODE_LINK: self = .link
        case CMARK_NODE_IMAGE: self = .image
        default: self = Self(typeString: cmark_node_get_type_string(node).map { String(cString: $0) } ?? "")
        }
    }

    /// Extension node kinds by the names the GFM extensions give them.
    private init(typeString: String) {
        switch typeString {
        case "table": self = .table
        case "table_header", "table_row": self = .tableRow
        case "table_cell": self = .tableCell
        case "strikethrough": self = .strikethrough
        default: self = .other
        }
    }
}
