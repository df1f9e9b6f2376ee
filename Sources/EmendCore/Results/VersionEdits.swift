import EmendText

/// One change between two versions of the region: `range` of the current text becomes
/// `replacement` (with its styling).
struct VersionEdit {
    var range: Range<Int>
    var replacement: AttributedText
}

/// The changes that turn the region's current text into a version of it.
enum VersionEdits {
    /// Minimal edits of the text. When `styled`, runs that differ on unchanged text are
    /// restyled too, and a change of block structure (intents on either side) goes as one
    /// replace of the whole region, so the engine rebuilds its blocks from one description.
    static func edits(from current: AttributedText, to target: AttributedText, styled: Bool) -> [VersionEdit] {
        let textEdits = TextAlignment.edits(from: current.string, to: target.string).sorted { $0.range.lowerBound < $1.range.lowerBound }
        guard styled else { return textEdits.map { VersionEdit(range: $0.range, replacement: AttributedText($0.replacement)) } }
        let currentRuns = AttributeTransfer.mergedRuns(current.attributeRuns)
        let targetRuns = AttributeTransfer.mergedRuns(target.attributeRuns)
        if !current.blockIntents.isEmpty || !target.blockIntents.isEmpty {
            let same = current.string == target.string && currentRuns == targetRuns && current.blockIntents == target.blockIntents
            return same ? [] : [VersionEdit(range: 0..<current.utf8Count, replacement: target)]
        }
        var edits: [VersionEdit] = []
        var shift = 0
        for edit in textEdits {
            let start = edit.range.lowerBound + shift
            edits.append(VersionEdit(range: edit.range, replacement: target.slice(start..<(start + edit.replacement.utf8.count))))
            shift += edit.replacement.utf8.count - edit.range.count
        }
        for span in UnchangedSpans(edits: textEdits, oldLength: current.utf8Count).spans {
            let before = runs(currentRuns, in: span.old), after = runs(targetRuns, in: span.new)
            guard before != after else { continue }
            let differing = before.filter { !after.contains($0) } + after.filter { !before.contains($0) }
            let lower = differing.map(\.range.lowerBound).min() ?? 0, upper = differing.map(\.range.upperBound).max() ?? 0
            edits.append(VersionEdit(range: (span.old.lowerBound + lower)..<(span.old.lowerBound + upper),
                                     replacement: target.slice((span.new.lowerBound + lower)..<(span.new.lowerBound + upper))))
        }
        return edits.sorted { $0.range.lowerBound < $1.range.lowerBound }
    }

    /// The runs on `range`, clipped to it and relative to its start, merged.
    private static func runs(_ runs: [AttributeRun], in range: Range<Int>) -> [AttributeRun] {
        AttributeTransfer.mergedRuns(runs.compactMap { run in
            let lower = max(run.range.lowerBound, range.lowerBound), upper = min(run.range.upperBound, range.upperBound)
            guard lower < upper else { return nil }
            return AttributeRun(range: (lower - range.lowerBound)..<(upper - range.lowerBound), key: run.key, value: run.value)
        })
    }
}
