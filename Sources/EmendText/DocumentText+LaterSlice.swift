extension DocumentText {
    /// A part of the text with its styling, taken now and made into an `AttributedText` on
    /// another thread (`made`): taking it costs the rope's chunks in the part and the styling
    /// near it, not its bytes.
    ///
    /// Why: a rewrite's step copied its whole region out of the rope on the engine's thread to
    /// plan the step elsewhere (`VersionPlan`): 16 MB, about 3 ms of one dispatch. The bytes
    /// are read from a `TextRope.Snapshot`, which the rope's later edits leave as it was.
    public struct LaterSlice: Sendable {
        let range: Range<Int>
        let styling: AttributedText
        let snapshot: TextRope.Snapshot

        /// The part as `DocumentText.slice` would have made it when taken (costs its length).
        public var made: AttributedText {
            AttributedText.clipped(styling, to: range, text: snapshot.string)
        }
    }

    /// `range` with its runs, intents and protected ranges, made later (see `LaterSlice`).
    public func laterSlice(_ range: Range<Int>) -> LaterSlice {
        LaterSlice(range: range, styling: styling(near: range), snapshot: rope.snapshot(range))
    }
}
