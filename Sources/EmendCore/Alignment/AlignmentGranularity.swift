/// How finely `TextAlignment` cuts its edits.
public enum AlignmentGranularity: Sendable {
    /// A changed word is replaced whole.
    case word
    /// Each word-level edit narrowed to the characters (grapheme clusters) that differ.
    case character
}
