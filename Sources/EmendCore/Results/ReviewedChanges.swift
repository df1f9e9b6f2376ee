/// A rewrite's change as a reviewer sees it, for a front end that holds no session (the
/// language server applies a rewrite as one edit, then offers its changes one at a time).
public struct ReviewedChange: Sendable, Equatable {
    /// Where the change's text is in the result (UTF-8 bytes).
    public let range: Range<Int>
    public let original: String
    public let replacement: String
}

/// The changes of a rewrite, split as emend_session_review_changes splits a resting result
/// (see RewriteChanges): whole words, changes one space apart joined.
public enum ReviewedChanges {
    /// The changes that turn `original` into `result`, with their ranges in `result`.
    public static func changes(from original: String, to result: String) -> [ReviewedChange] {
        let old = Array(original.utf8)
        var net: [RewriteChanges.NetChange] = []
        var delta = 0
        for edit in TextAlignment.edits(from: original, to: result) {
            let start = edit.range.lowerBound + delta
            let length = edit.replacement.utf8.count
            net.append(RewriteChanges.NetChange(span: start..<(start + length), original: Array(old[edit.range])))
            delta += length - edit.range.count
        }
        return RewriteChanges.changes(of: net, in: Array(result.utf8)).map {
            ReviewedChange(range: $0.span, original: $0.original, replacement: $0.replacement)
        }
    }
}
