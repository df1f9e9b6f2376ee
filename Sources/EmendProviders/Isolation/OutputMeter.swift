import EmendCore

/// Counts what one run sent against the limits on one result and one edit. The first thing
/// over a limit refuses the run whole, with a message that says which limit and how to raise
/// it: a result cut short would look complete, so nothing is sliced. The provider host
/// checks first (to stop the plugin early); libemend checks again, since a host running
/// plugin code is not trusted. A NUL byte in the text or in a replacement refuses the run
/// the same way (see NULByte).
struct OutputMeter {
    let limits: ProviderLimits
    private(set) var bytes = 0
    private(set) var refusal: String?

    init(limits: ProviderLimits) { self.limits = limits }

    /// Counts `text`; false (and the refusal set) when it goes over the result limit.
    mutating func admit(text: String) -> Bool {
        guard refusal == nil else { return false }
        guard !NULByte.isIn(text) else {
            refusal = NULByte.refusal("the result's text")
            return false
        }
        return count(text.utf8.count)
    }

    /// Counts `edit`'s strings; false when one edit or the result goes over its limit.
    mutating func admit(edit: ProviderEdit) -> Bool {
        guard refusal == nil else { return false }
        let size = edit.replacement.utf8.count + edit.explanation.utf8.count + edit.category.utf8.count + edit.ruleID.utf8.count
        guard size <= limits.editBytes else {
            refusal = "an edit of \(size) bytes at \(edit.range.lowerBound)..<\(edit.range.upperBound) is over the limit "
                + "of \(limits.editBytes) bytes per edit (max_edit_bytes in config.toml); the result was refused"
            return false
        }
        guard !NULByte.isIn(edit.replacement) else {
            refusal = NULByte.refusal("the replacement of the edit at \(edit.range.lowerBound)..<\(edit.range.upperBound)")
            return false
        }
        return count(size)
    }

    private mutating func count(_ size: Int) -> Bool {
        guard refusal == nil else { return false }
        bytes += size
        guard bytes <= limits.resultBytes else {
            refusal = "the result is over the limit of \(limits.resultBytes) bytes (max_result_bytes in config.toml); "
                + "it was refused"
            return false
        }
        return true
    }
}
