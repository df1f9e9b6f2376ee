import EmendText

/// Protected text (or an attachment) that a placeholder token stands for in the Markdown a
/// provider reads: its bytes and styling, and where it was in the region.
struct PlaceholderText {
    var text: AttributedText
    /// Byte offset in the region's text when the provider read it.
    var regionOffset: Int

    /// Where it was in the region's text.
    var range: Range<Int> { regionOffset..<(regionOffset + text.utf8Count) }
}
