/// A continuation that a runtime thread hands to the engine's thread, and that is let go of
/// there. Why: a continuation holds the session (its suggestions, its region), whose anchors
/// leave their context's text when they are freed. Had the runtime thread held the last
/// reference — the engine's thread ran the posted answer and ended the session first — the
/// session would be freed on the runtime thread while the engine's thread changes the same
/// text: a data race on the text's marks (the property test crashed in `TextRope.removeMark`
/// under load, and table sessions lost text). `take` runs on the engine's thread, so the
/// continuation and what it holds are freed there.
final class EngineThreadHandoff<Value>: @unchecked Sendable {
    private var value: Value?

    init(_ value: Value) { self.value = value }

    /// The value, which this lets go of (nil once taken). Call on the engine's thread.
    func take() -> Value? {
        defer { value = nil }
        return value
    }
}
