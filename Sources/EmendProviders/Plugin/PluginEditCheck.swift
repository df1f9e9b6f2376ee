import EmendText

/// The range rules for the edits of one run: inside the selection, on character boundaries,
/// clear of protected text and of every edit accepted before.
struct PluginEditCheck {
    /// The request's bytes; valid while the run is unfinished.
    let text: UnsafeBufferPointer<UInt8>
    let selection: Range<Int>
    let protectedText: AttributedText
    /// Accepted ranges sorted by (lowerBound, upperBound); their upper bounds never decrease.
    private var accepted = SortedRanges()

    init(text: UnsafeBufferPointer<UInt8>, selection: Range<Int>, protectedText: AttributedText) {
        self.text = text
        self.selection = selection
        self.protectedText = protectedText
    }

    /// Why `start..<end` cannot be accepted, or nil when it can.
    func problem(start: Int, end: Int) -> String? {
        guard start <= end else { return "its start \(start) is after its end \(end)" }
        guard start >= selection.lowerBound, end <= selection.upperBound else {
            return "it is outside the selection \(selection.lowerBound)..<\(selection.upperBound)"
        }
        guard isBoundary(start), isBoundary(end) else { return "it splits a character" }
        let range = start..<end
        if protectedText.touchesProtectedText(range) { return "it touches protected text" }
        if let other = conflict(with: range) {
            return "it overlaps the earlier edit at \(other.lowerBound)..<\(other.upperBound)"
        }
        return nil
    }

    /// Records an edit that passed `problem`.
    mutating func accept(_ range: Range<Int>) { accepted.insert(range) }

    private func isBoundary(_ offset: Int) -> Bool {
        offset == text.count || (offset >= 0 && offset < text.count && text[offset] & 0xC0 != 0x80)
    }

    /// An accepted range that `range` collides with: overlapping text, an insertion strictly
    /// inside, or a second insertion at the same place.
    private func conflict(with range: Range<Int>) -> Range<Int>? {
        var position = accepted.first { $0.upperBound >= range.lowerBound }
        while let other = accepted.range(at: position), other.lowerBound <= range.upperBound {
            if Self.collide(other, range) { return other }
            position = accepted.after(position)
        }
        return nil
    }

    private static func collide(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
        switch (a.isEmpty, b.isEmpty) {
        case (false, false): return a.overlaps(b)
        case (true, false): return b.lowerBound < a.lowerBound && a.lowerBound < b.upperBound
        case (false, true): return a.lowerBound < b.lowerBound && b.lowerBound < a.upperBound
        case (true, true): return a.lowerBound == b.lowerBound
        }
    }
}
