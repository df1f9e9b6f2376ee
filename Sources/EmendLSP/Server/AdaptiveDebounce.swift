import EmendCore

/// When to check the paragraph a keystroke changed, from how fast the checkers answered such
/// checks lately. Why not a fixed pause: the measure is the user's, last keystroke to updated
/// diagnostics, and a fixed 250 ms alone was five times the goal of 50 ms.
///
/// - Checkers that answer a paragraph within `immediateMilliseconds` (about the time between
///   two keystrokes of a fast typist) are asked at every keystroke: the work does not pile up
///   and the diagnostics are there at once.
/// - Slower checkers are asked at once too when none of the document's keystroke checks is in
///   flight; while one is, later keystrokes wait for its answer and then the text as it is by
///   then is checked, once. The pause adapts to the checkers' own time, and the last
///   keystroke of a burst waits at most for the check in flight and its own, never for a
///   queue of checks of text that is gone.
///
/// Measured per set of checkers (the providers the client names for proofreading, or the
/// default ones): changing the setting starts from what that set showed before.
struct AdaptiveDebounce {
    /// A paragraph check this fast is run at every keystroke.
    static let immediateMilliseconds: Double = 100
    /// Only checks of at most this many bytes are measured: the time of a keystroke's check,
    /// not of opening a large document.
    static let measuredBytes = 8 * 1024

    /// The recent time of a small check, by checker set (an exponential average).
    private var estimates: [String: Double] = [:]

    /// Whether checkers `key` answer a paragraph fast enough to be asked at every keystroke
    /// (not measured yet counts as fast: the first checks measure them).
    func isFast(_ key: String) -> Bool {
        guard let estimate = estimates[key] else { return true }
        return estimate <= Self.immediateMilliseconds
    }

    /// A check of `bytes` by checkers `key` took `milliseconds`.
    mutating func record(_ milliseconds: Int64, bytes: Int, for key: String) {
        guard bytes <= Self.measuredBytes, milliseconds >= 0 else { return }
        let sample = Double(milliseconds)
        if let old = estimates[key] {
            estimates[key] = old * 0.7 + sample * 0.3
        } else {
            estimates[key] = sample
        }
    }

    /// The current estimate for `key` (ms), for logs and tests.
    func estimate(for key: String) -> Double? { estimates[key] }
}
