import EmendText

/// A proofreading suggestion of a session, with where its text is now.
final class Suggestion {
    let contextID: UInt64
    /// Its index in the session's suggestions (what the engine names it by).
    let index: Int
    /// Where the suggestion's text (replacement while applied, original once rejected) is.
    let anchor: Anchor
    let original: String
    let replacement: String
    let explanation: String
    let category: String
    let ruleID: String
    /// Where it was in the text the providers read (context bytes at the session's start).
    let originalRange: Range<Int>
    var state: SuggestionState = .pending
    /// Whether its replacement is in the text (false before delivery and once rejected).
    var isApplied = false
    /// Rectangles the engine gave for it, with the layout they are of (`Session.layout`):
    /// those of an earlier layout are forgotten (a reflow).
    private var underline: (rects: [Rect], layout: Int)?
    private var bounding: (rects: [Rect], layout: Int)?

    /// The underline rectangles known in `layout` (nil: none asked for, or of another layout).
    func underlineRects(in layout: Int) -> [Rect]? { underline.flatMap { $0.layout == layout ? $0.rects : nil } }
    /// The bounding rectangles known in `layout`.
    func boundingRects(in layout: Int) -> [Rect]? { bounding.flatMap { $0.layout == layout ? $0.rects : nil } }

    func setUnderlineRects(_ rects: [Rect], layout: Int) { underline = (rects, layout) }
    func setBoundingRects(_ rects: [Rect], layout: Int) { bounding = (rects, layout) }
    /// A rewrite's change under review of a styled text: its original and its replacement
    /// with their styling, as a reject or its undo puts them back (nil: plain text).
    var styledOriginal: AttributedText?
    var styledReplacement: AttributedText?
    /// Once INVALID (its `anchor` is gone): where it was, the span the engine's edit left
    /// there, following later edits. Apart from `anchor` so that nothing delivers into it.
    var lastPlace: Anchor?

    /// Where it is now, or for an INVALID one where it was (see `lastPlace`).
    var reportedRange: Range<Int>? { anchor.range ?? lastPlace?.range }

    init(index: Int, contextID: UInt64, anchor: Anchor, original: String, edit: ProviderEdit, originalRange: Range<Int>) {
        self.index = index
        self.contextID = contextID
        self.anchor = anchor
        self.originalRange = originalRange
        self.original = original
        self.replacement = edit.replacement
        self.explanation = edit.explanation
        self.category = edit.category
        self.ruleID = edit.ruleID
    }
}
