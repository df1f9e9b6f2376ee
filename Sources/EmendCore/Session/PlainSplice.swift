import EmendText

/// Several replaces of one plain text, made in one pass.
///
/// Why: the base under a region and a version over it were made by one `replace` per change,
/// each moving the text after it — a rewrite of every other word of 10,000 words moved
/// hundreds of megabytes, on the engine's thread, after every step (`Session.version`, which
/// checks the version shown). Plain text and plain replacements are copied once, in order;
/// styled text keeps the replace per change (its runs and intents follow each one).
enum PlainSplice {
    /// `text` with each change's range (relative to `text`) replaced by its text, when `text`
    /// and every replacement are plain and the ranges ascend without overlapping (insertions at
    /// one point in the order given, as replaces from the last would put them); else nil.
    /// Without changes: `text` itself, styled or not.
    static func splicing(_ text: AttributedText, _ changes: [(range: Range<Int>, text: AttributedText)]) -> AttributedText? {
        // No change: the text as it is, never copied (the base of a region Emend has not
        // changed yet, 4 MB for a rewrite of a million words, was copied twice more on the
        // engine's thread when the provider was started).
        if changes.isEmpty { return text }
        guard isPlain(text), changes.allSatisfy({ isPlain($0.text) }) else { return nil }
        var end = 0
        for change in changes {
            guard change.range.lowerBound >= end, change.range.upperBound <= text.utf8Count else { return nil }
            end = change.range.upperBound
        }
        let size = text.utf8Count + changes.reduce(0) { $0 + $1.text.utf8Count - $1.range.count }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(size)
        var source = text.string
        source.withUTF8 { source in
            var at = 0
            for change in changes {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[at..<change.range.lowerBound]))
                var replacement = change.text.string
                replacement.withUTF8 { bytes.append(contentsOf: $0) }
                at = change.range.upperBound
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[at...]))
        }
        return AttributedText(String(decoding: bytes, as: UTF8.self))
    }

    private static func isPlain(_ text: AttributedText) -> Bool {
        text.attributeRuns.isEmpty && text.blockIntents.isEmpty && text.protectedRanges.isEmpty
    }
}
