/// The parts two texts share, from the minimal edits between them: each unchanged span's
/// range in the old text and in the new one (UTF-8 bytes), in order.
struct UnchangedSpans {
    struct Span {
        var old: Range<Int>
        var new: Range<Int>
    }
    let spans: [Span]

    init(old: String, new: String) {
        self.init(edits: TextAlignment.edits(from: old, to: new), oldLength: old.utf8.count)
    }

    init(edits: [TextEdit], oldLength: Int) {
        var spans: [Span] = []
        var oldCursor = 0, newCursor = 0
        for edit in edits.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) {
            let kept = edit.range.lowerBound - oldCursor
            if kept > 0 { spans.append(Span(old: oldCursor..<edit.range.lowerBound, new: newCursor..<(newCursor + kept))) }
            newCursor += kept + edit.replacement.utf8.count
            oldCursor = edit.range.upperBound
        }
        if oldLength > oldCursor {
            spans.append(Span(old: oldCursor..<oldLength, new: newCursor..<(newCursor + oldLength - oldCursor)))
        }
        self.spans = spans
    }

    /// The pieces of old range `range` that survive, as ranges of the new text.
    func mapped(_ range: Range<Int>) -> [Range<Int>] {
        spans.compactMap { span in
            let lower = max(range.lowerBound, span.old.lowerBound), upper = min(range.upperBound, span.old.upperBound)
            guard lower < upper else { return nil }
            let shift = span.new.lowerBound - span.old.lowerBound
            return (lower + shift)..<(upper + shift)
        }
    }

    /// Where old offset `offset` is in the new text, when it lies in (or at an edge of) an
    /// unchanged span.
    func position(of offset: Int) -> Int? {
        for span in spans where span.old.lowerBound <= offset && offset <= span.old.upperBound {
            return offset - span.old.lowerBound + span.new.lowerBound
        }
        return nil
    }

    /// Where the old text `range` would go in the new text: after the surviving text just
    /// before it, else before the surviving text just after it.
    func position(of range: Range<Int>) -> Int? {
        if let after = position(of: range.lowerBound) { return after }
        return spans.first { $0.old.lowerBound == range.upperBound }?.new.lowerBound
    }

    /// The end, in the new text, of the last unchanged span that ends at or before `offset`.
    func lastSurvivingEnd(before offset: Int) -> Int? {
        spans.last { $0.old.upperBound <= offset }?.new.upperBound
    }

    /// Where the old text `range` (gone from the new text) belongs in the new text, when the
    /// `context` bytes of old text on each side of it (spaces next to it aside) survive whole
    /// and meet in the new text (at most a space between): between them. Nil when a side's
    /// words did not survive, or ended up elsewhere: then it belongs nowhere in particular.
    func anchoredPosition(of range: Range<Int>, context: Int, old: [UInt8]) -> Int? {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D }
        var beforeEnd = range.lowerBound
        while beforeEnd > 0, isSpace(old[beforeEnd - 1]) { beforeEnd -= 1 }
        var afterStart = range.upperBound
        while afterStart < old.count, isSpace(old[afterStart]) { afterStart += 1 }
        let beforeStart = max(0, beforeEnd - context), afterEnd = min(old.count, afterStart + context)
        guard beforeStart < beforeEnd || afterStart < afterEnd else { return nil }
        // Each side must survive in one piece.
        let whole = { (part: Range<Int>) in self.spans.first { $0.old.lowerBound <= part.lowerBound && part.upperBound <= $0.old.upperBound } }
        var newBefore: Int?, newAfter: Int?
        if beforeStart < beforeEnd {
            guard let span = whole(beforeStart..<beforeEnd) else { return nil }
            newBefore = beforeEnd - span.old.lowerBound + span.new.lowerBound
        }
        if afterStart < afterEnd {
            guard let span = whole(afterStart..<afterEnd) else { return nil }
            newAfter = afterStart - span.old.lowerBound + span.new.lowerBound
        }
        switch (newBefore, newAfter) {
        case let (before?, after?):
            guard after >= before, after - before <= 1 else { return nil }
            return after
        case let (before?, nil): return before
        case let (nil, after?): return after
        case (nil, nil): return nil
        }
    }
}
