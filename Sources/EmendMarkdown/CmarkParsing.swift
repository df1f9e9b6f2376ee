import CCmarkGFM

/// Registers the GFM core extensions once, safely across threads (the C call is not).
private let coreExtensionsRegistered: Void = cmark_gfm_core_extensions_ensure_registered()

/// Parses Markdown with cmark-gfm (tables, strikethrough, autolinks) into blocks.
enum CmarkParsing {
    /// Strikethrough needs "~~", so the lone tildes of prose ("~5 km") stay text.
    private static let options = CMARK_OPT_DEFAULT | CMARK_OPT_STRIKETHROUGH_DOUBLE_TILDE

    static func blocks(of markdown: String) -> [MarkdownBlock] {
        var source = markdown
        return source.withUTF8 { bytes in withDocument(bytes) { collect($0) } } ?? []
    }

    /// Parses `bytes` and hands the document's root to `body` (nil if cmark could not
    /// allocate). The tree is freed when `body` returns: keep no node.
    static func withDocument<Result>(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (OpaquePointer) -> Result) -> Result? {
        _ = coreExtensionsRegistered
        guard let parser = cmark_parser_new(options) else { return nil }
        defer { cmark_parser_free(parser) }
        for name in ["table", "strikethrough", "autolink"] {
            if let extensionHandle = cmark_find_syntax_extension(name) {
                cmark_parser_attach_syntax_extension(parser, extensionHandle)
            }
        }
        bytes.withMemoryRebound(to: CChar.self) { chars in
            if let base = chars.baseAddress { cmark_parser_feed(parser, base, chars.count) }
        }
        guard let root = cmark_parser_finish(parser) else { return nil }
        defer { cmark_node_free(root) }
        return body(root)
    }

    /// Walks the tree with cmark's iterator (no recursion, so deep nesting is safe).
    private static func collect(_ root: OpaquePointer) -> [MarkdownBlock] {
        guard let iterator = cmark_iter_new(root) else { return [] }
        defer { cmark_iter_free(iterator) }
        var collector = BlockCollector()
        while true {
            let event = cmark_iter_next(iterator)
            if event == CMARK_EVENT_DONE { break }
            guard let handle = cmark_iter_get_node(iterator) else { continue }
            let node = CmarkNode(handle)
            if event == CMARK_EVENT_ENTER { collector.enter(node) } else if event == CMARK_EVENT_EXIT { collector.exit(node) }
        }
        return collector.blocks
    }
}

/// The parts of a cmark node the block collector reads.
struct CmarkNode {
    let kind: CmarkNodeKind
    private let handle: OpaquePointer

    init(_ handle: OpaquePointer) {
        self.handle = handle
        self.kind = CmarkNodeKind(handle)
    }

    var literal: String { cmark_node_get_literal(handle).map { String(cString: $0) } ?? "" }
    var url: String { cmark_node_get_url(handle).map { String(cString: $0) } ?? "" }
    var headingLevel: Int { Int(cmark_node_get_heading_level(handle)) }
    var isOrderedList: Bool { cmark_node_get_list_type(handle) == CMARK_ORDERED_LIST }
    var listStart: Int { Int(cmark_node_get_list_start(handle)) }
}
