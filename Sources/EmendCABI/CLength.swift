import EmendCore

/// The one check of every length and count an engine passes with a pointer (texts, arrays,
/// output capacities). size_t arrives as Int: SIZE_MAX and anything above PTRDIFF_MAX are
/// negative here, and must never be read as "empty" or as a deletion; lengths past
/// `maximumBytes` cannot describe memory an engine really holds for one text or array.
enum CLength {
    /// The most bytes one text or array passed in may span (1 GiB; emend.h, STRINGS).
    static let maximumBytes = 1 << 30

    /// `count` elements of `elementSize` bytes, checked: INVALID_ARGUMENT, with a message
    /// naming the field and the value as the caller wrote it, when it cannot be real.
    /// `limit` is the byte cap (output capacities pass Int.max: only impossible sizes fail).
    @discardableResult
    static func checked(_ count: Int, elementSize: Int = 1, limit: Int = maximumBytes, name: @autoclosure () -> String) throws(EmendError) -> Int {
        let (bytes, overflow) = count.multipliedReportingOverflow(by: elementSize)
        guard count >= 0, !overflow, bytes <= limit else {
            let given = UInt(bitPattern: count)
            let what = count < 0 ? "larger than PTRDIFF_MAX (SIZE_MAX or a negative length cast to size_t?)"
                : "more than the \(limit) bytes one \(elementSize == 1 ? "text" : "array") may span"
            throw EmendError(.invalidArgument, "\(name()) is \(given): \(what)")
        }
        return count
    }
}
