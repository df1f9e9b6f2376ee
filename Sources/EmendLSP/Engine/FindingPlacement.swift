import EmendCore

/// Places a resting proofread session's suggestions in the text as it was before the
/// coordinator applied them: each one's current range, less what the suggestions before it
/// changed (the same rule as the CLI's findings).
enum FindingPlacement {
    static func place(_ suggestions: [Coordinator.SuggestionInfo]) -> [UnitFinding] {
        let placed = suggestions.filter { $0.state != .invalid }
            .compactMap { info in info.range.map { (info, $0) } }
            .sorted { $0.1.lowerBound < $1.1.lowerBound }
        var delta = 0
        var findings: [UnitFinding] = []
        for (info, range) in placed {
            let start = range.lowerBound - delta
            let inText = info.state == .rejected ? info.original : info.replacement
            delta += inText.utf8.count - info.original.utf8.count
            findings.append(UnitFinding(range: start..<(start + info.original.utf8.count), original: info.original,
                                        replacement: info.replacement, explanation: info.explanation,
                                        category: info.category, ruleID: info.ruleID))
        }
        return findings
    }

    /// Joins units into one text, separated by a blank line (so providers see paragraph
    /// breaks), and returns where each starts.
    static func join(_ units: [UnitKey]) -> (text: [UInt8], protected: [Range<Int>], starts: [Int]) {
        var text: [UInt8] = []
        var protected: [Range<Int>] = []
        var starts: [Int] = []
        for unit in units {
            if !text.isEmpty { text += [0x0A, 0x0A] }
            starts.append(text.count)
            protected += unit.protected.map { ($0.lowerBound + text.count)..<($0.upperBound + text.count) }
            text += unit.text
        }
        return (text, protected, starts)
    }

    /// Findings of the joined text back to their units; one spanning two units is dropped.
    static func split(_ findings: [UnitFinding], units: [UnitKey], starts: [Int]) -> [(UnitKey, [UnitFinding])] {
        var result: [(UnitKey, [UnitFinding])] = units.map { ($0, []) }
        var unitIndex = 0
        for finding in findings.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) {
            while unitIndex + 1 < starts.count && starts[unitIndex + 1] <= finding.range.lowerBound { unitIndex += 1 }
            let start = starts[unitIndex]
            let end = start + units[unitIndex].text.count
            guard finding.range.lowerBound >= start, finding.range.upperBound <= end else { continue }
            let local = (finding.range.lowerBound - start)..<(finding.range.upperBound - start)
            result[unitIndex].1.append(finding.moved(to: local))
        }
        return result
    }
}
