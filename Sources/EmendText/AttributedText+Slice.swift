/// Cutting attributed text into pieces and putting attributed pieces in.
extension AttributedText {
    /// The part `range` of the text with its runs, intents and protected ranges clipped to
    /// it and moved to start at 0.
    public func slice(_ range: Range<Int>) -> AttributedText {
        let clip = { (r: Range<Int>) -> Range<Int>? in
            let lower = max(r.lowerBound, range.lowerBound), upper = min(r.upperBound, range.upperBound)
            guard lower < upper else { return nil }
            return (lower - range.lowerBound)..<(upper - range.lowerBound)
        }
        return AttributedText(
            substring(range),
            attributeRuns: attributeRuns.compactMap { run in clip(run.range).map { AttributeRun(range: $0, key: run.key, value: run.value) } },
            blockIntents: blockIntents.compactMap { intent in
                guard let r = clip(intent.range) else { return nil }
                var moved = intent
                moved.range = r
                return moved
            },
            protectedRanges: protectedRanges.compactMap(clip))
    }

    /// Replaces `range` with `replacement` and its styling: runs and intents of the old text
    /// that overlapped the range are cut out of it (not stretched over the new text), and the
    /// replacement's runs and intents come in at their place.
    public mutating func replace(_ range: Range<Int>, withStyled replacement: AttributedText) {
        let length = replacement.utf8Count
        replace(range, with: replacement.string)
        let inserted = range.lowerBound..<(range.lowerBound + length)
        let outside = { (r: Range<Int>) -> [Range<Int>] in
            guard r.overlaps(inserted) || (inserted.isEmpty && r.contains(inserted.lowerBound)) else { return [r] }
            return [r.lowerBound..<max(r.lowerBound, inserted.lowerBound), min(r.upperBound, inserted.upperBound)..<r.upperBound]
                .filter { !$0.isEmpty && !$0.overlaps(inserted) }
        }
        var runs = attributeRuns.flatMap { run in outside(run.range).map { AttributeRun(range: $0, key: run.key, value: run.value) } }
        runs += replacement.attributeRuns.map { AttributeRun(range: ($0.range.lowerBound + range.lowerBound)..<($0.range.upperBound + range.lowerBound), key: $0.key, value: $0.value) }
        var intents = blockIntents.flatMap { intent in
            outside(intent.range).map { r -> BlockIntent in
                var kept = intent
                kept.range = r
                return kept
            }
        }
        intents += replacement.blockIntents.map { intent in
            var moved = intent
            moved.range = (intent.range.lowerBound + range.lowerBound)..<(intent.range.upperBound + range.lowerBound)
            return moved
        }
        setStyling(runs: runs.sorted { $0.range.lowerBound < $1.range.lowerBound },
                   intents: intents.sorted { $0.range.lowerBound < $1.range.lowerBound })
    }
}
