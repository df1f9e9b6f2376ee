import Glibc
/// Cutting attributed text into pieces and putting attributed pieces in.
extension AttributedText {
    /// The part `range` of the text with its runs, intents and protected ranges clipped to
    /// it and moved to start at 0.
    public func slice(_ range: Range<Int>) -> AttributedText {
        Self.clipped(self, to: range, text: substring(range))
    }

    /// `text` with the runs, intents and protected ranges of `styling` clipped to `range`
    /// and moved to start at 0 (shared with `DocumentText`).
    static func clipped(_ styling: AttributedText, to range: Range<Int>, text: String) -> AttributedText {
        let clip = { (r: Range<Int>) -> Range<Int>? in
            let lower = max(r.lowerBound, range.lowerBound), upper = min(r.upperBound, range.upperBound)
            guard lower < upper else { return nil }
            return (lower - range.lowerBound)..<(upper - range.lowerBound)
        }
        return AttributedText(
            text,
            attributeRuns: styling.attributeRuns.compactMap { run in clip(run.range).map { AttributeRun(range: $0, key: run.key, value: run.value) } },
            blockIntents: styling.blockIntents.compactMap { intent in
                guard let r = clip(intent.range) else { return nil }
                var moved = intent
                moved.range = r
                return moved
            },
            protectedRanges: styling.protectedRanges.compactMap(clip))
    }

    /// The ranges of the attachment characters (EF BF BC) in `bytes`, which start at byte
    /// `offset` of a text.
    static func attachmentRanges(in bytes: [UInt8], at offset: Int) -> [Range<Int>] {
        bytes.withUnsafeBufferPointer { attachmentRanges(in: $0, at: offset) }
    }

    /// The same over a buffer (a chunk of a rope: chunks end between characters, so no
    /// attachment is cut in two).
    static func attachmentRanges(in buffer: UnsafeBufferPointer<UInt8>, at offset: Int) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        guard let base = buffer.baseAddress else { return ranges }
        var index = 0
        while index + 2 < buffer.count {
            guard let found = memchr(base + index, 0xEF, buffer.count - 2 - index) else { break }
            index = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            if buffer[index + 1] == 0xBF, buffer[index + 2] == 0xBC {
                ranges.append((offset + index)..<(offset + index + 3))
                index += 3
            } else {
                index += 1
            }
        }
        return ranges
    }

    /// Replaces `range` with `replacement` and its styling: runs and intents of the old text
    /// that overlapped the range are cut out of it (not stretched over the new text), and the
    /// replacement's runs and intents come in at their place.
    public mutating func replace(_ range: Range<Int>, withStyled replacement: AttributedText) {
        replace(range, with: replacement.string)
        var runs = attributeRuns, intents = blockIntents
        Self.restyle(range.lowerBound..<(range.lowerBound + replacement.utf8Count), with: replacement, runs: &runs, intents: &intents)
        setStyling(runs: runs, intents: intents)
    }

    /// Runs and intents once `inserted` holds `replacement`'s text: those of the old text
    /// that overlapped it are cut out of it, and the replacement's come in at their place
    /// (shared with `DocumentText`).
    static func restyle(_ inserted: Range<Int>, with replacement: AttributedText, runs: inout [AttributeRun],
                        intents: inout [BlockIntent]) {
        let outside = { (r: Range<Int>) -> [Range<Int>] in
            guard r.overlaps(inserted) || (inserted.isEmpty && r.contains(inserted.lowerBound)) else { return [r] }
            return [r.lowerBound..<max(r.lowerBound, inserted.lowerBound), min(r.upperBound, inserted.upperBound)..<r.upperBound]
                .filter { !$0.isEmpty && !$0.overlaps(inserted) }
        }
        var newRuns = runs.flatMap { run in outside(run.range).map { AttributeRun(range: $0, key: run.key, value: run.value) } }
        newRuns += replacement.attributeRuns.map {
            AttributeRun(range: ($0.range.lowerBound + inserted.lowerBound)..<($0.range.upperBound + inserted.lowerBound), key: $0.key, value: $0.value)
        }
        var newIntents = intents.flatMap { intent in
            outside(intent.range).map { r -> BlockIntent in
                var kept = intent
                kept.range = r
                return kept
            }
        }
        newIntents += replacement.blockIntents.map { intent in
            var moved = intent
            moved.range = (intent.range.lowerBound + inserted.lowerBound)..<(intent.range.upperBound + inserted.lowerBound)
            return moved
        }
        runs = newRuns.sorted { $0.range.lowerBound < $1.range.lowerBound }
        intents = newIntents.sorted { $0.range.lowerBound < $1.range.lowerBound }
    }
}
