/// Why a part of a manifest or a setting is refused; the caller adds the path and the key.
struct SimpleProblem: Error, Sendable {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}
