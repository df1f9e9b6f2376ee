import EmendMarkdown

/// Re-cuts one unit for an edit inside it instead of the whole document. Why: cutting a
/// 1 MB Markdown document into paragraphs (and finding its protected ranges) costs several
/// ms, and a keystroke changes one paragraph. Only an edit that cannot change the document's
/// block structure is patched; anything else gets `nil` and the caller cuts the whole
/// document again (`CheckUnits.units`), which is always right.
///
/// An edit is patched when all of this holds (each part is a reason the rest of the document
/// cannot see a difference):
/// - it lies inside one unit, and neither the removed nor the inserted text holds a line
///   break (the paragraph's lines stay the same lines);
/// - for Markdown, it starts after the first word of its line and that line does not begin
///   with a character that opens a block construct (fences, block quotes, HTML blocks, link
///   reference definitions), so the line's kind, indentation and list marker stay the same;
///   neither the old nor the new line holds an HTML comment's opening or end (a comment can
///   run across paragraphs);
/// - the unit's protected ranges, found in the unit alone, equal those found in the whole
///   document (nothing before the paragraph, such as an open fence or a list around indented
///   lines, shaped it);
/// - the new text still has something to check (else the unit would disappear).
enum UnitPatch {
    static func patched(_ unit: CheckUnit, replacing range: Range<Int>, with inserted: [UInt8],
                        kind: DocumentKind) -> CheckUnit? {
        guard range.lowerBound >= unit.offset, range.upperBound <= unit.range.upperBound else { return nil }
        let old = unit.key.text
        let local = (range.lowerBound - unit.offset)..<(range.upperBound - unit.offset)
        guard !containsLineBreak(inserted[...]), !containsLineBreak(old[local]) else { return nil }
        var text = old
        text.replaceSubrange(local, with: inserted)
        // A line emptied of all but spaces would end the paragraph there.
        guard !isBlank(text[line(in: text, around: local.lowerBound, length: inserted.count)]) else { return nil }
        let protected: [Range<Int>]
        switch kind {
        case .plainText:
            protected = []
        case .markdown:
            guard lineKeepsItsKind(old: old, new: text, at: local.lowerBound, insertedCount: inserted.count, removedCount: local.count),
                  MarkdownProtection.protectedRanges(in: old) == unit.key.protected else { return nil }
            protected = MarkdownProtection.protectedRanges(in: text)
        case .latex, .source, .unchecked:
            // A LaTeX edit can open math or an environment that runs across paragraphs.
            return nil
        }
        return CheckUnits.make(bytes: text, range: 0..<text.count, protected: protected)
            .map { CheckUnit(offset: unit.offset, key: $0.key) }
    }

    static func isBlank(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.allSatisfy { $0 == 0x20 || $0 == 0x09 }
    }

    static func containsLineBreak(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.contains { $0 == 0x0A || $0 == 0x0D }
    }

    /// Whether the line holding `at` is of the same Markdown kind before and after the edit.
    static func lineKeepsItsKind(old: [UInt8], new: [UInt8], at: Int, insertedCount: Int, removedCount: Int) -> Bool {
        let oldLine = line(in: old, around: at, length: removedCount)
        let newLine = line(in: new, around: at, length: insertedCount)
        // The first word (indentation, list marker or heading marks) ends before the edit.
        var first = oldLine.lowerBound
        while first < oldLine.upperBound && (old[first] == 0x20 || old[first] == 0x09) { first += 1 }
        guard first < at else { return false }
        switch old[first] {
        case UInt8(ascii: "`"), UInt8(ascii: "~"), UInt8(ascii: ">"), UInt8(ascii: "<"), UInt8(ascii: "["): return false
        default: break
        }
        var wordEnd = first
        while wordEnd < oldLine.upperBound && old[wordEnd] != 0x20 && old[wordEnd] != 0x09 { wordEnd += 1 }
        guard wordEnd < at else { return false }
        return !contains(old[oldLine], "<!--") && !contains(old[oldLine], "-->")
            && !contains(new[newLine], "<!--") && !contains(new[newLine], "-->")
    }

    /// The line of `bytes` that holds `at..<at+length` (its content, without the break).
    private static func line(in bytes: [UInt8], around at: Int, length: Int) -> Range<Int> {
        var start = at
        while start > 0 && bytes[start - 1] != 0x0A && bytes[start - 1] != 0x0D { start -= 1 }
        var end = at + length
        while end < bytes.count && bytes[end] != 0x0A && bytes[end] != 0x0D { end += 1 }
        return start..<end
    }

    private static func contains(_ bytes: ArraySlice<UInt8>, _ needle: StaticString) -> Bool {
        let pattern = UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount)
        guard bytes.count >= pattern.count else { return false }
        var i = bytes.startIndex
        while i + pattern.count <= bytes.endIndex {
            if bytes[i] == pattern[0] && bytes[i..<(i + pattern.count)].elementsEqual(pattern) { return true }
            i += 1
        }
        return false
    }
}
