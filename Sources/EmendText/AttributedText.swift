/// Text with attribute runs, block intents and protected ranges, all in UTF-8 byte offsets.
/// Attachments are U+FFFC characters in `string`; they are protected like protected ranges.
public struct AttributedText: Equatable, Sendable {
    public private(set) var string: String
    public private(set) var attributeRuns: [AttributeRun]
    public private(set) var blockIntents: [BlockIntent]
    /// Ranges no tool may change (code, quotes); attachments are added implicitly.
    public private(set) var protectedRanges: [Range<Int>]

    /// The object replacement character that stands for an attachment.
    public static let attachmentCharacter: Unicode.Scalar = "\u{FFFC}"

    public init(_ string: String, attributeRuns: [AttributeRun] = [], blockIntents: [BlockIntent] = [], protectedRanges: [Range<Int>] = []) {
        self.string = string
        self.attributeRuns = attributeRuns
        self.blockIntents = blockIntents
        self.protectedRanges = protectedRanges
    }

    /// Length in UTF-8 bytes.
    public var utf8Count: Int { string.utf8.count }

    /// Byte ranges of the attachment characters in the text.
    public var attachmentRanges: [Range<Int>] {
        var ranges: [Range<Int>] = []
        var offset = 0
        for scalar in string.unicodeScalars {
            let width = UTF8.width(scalar)
            if scalar == Self.attachmentCharacter { ranges.append(offset..<offset + width) }
            offset += width
        }
        return ranges
    }

    /// Protected ranges plus attachments, sorted.
    public var allProtectedRanges: [Range<Int>] {
        (protectedRanges + attachmentRanges).sorted { $0.lowerBound < $1.lowerBound }
    }

    /// Whether replacing `range` would change protected text. An insertion strictly inside a
    /// protected range changes it; one at its edge does not. Costs the length of `range` plus
    /// the number of protected ranges, not the length of the text.
    public func touchesProtectedText(_ range: Range<Int>) -> Bool {
        let touchesDeclared = protectedRanges.contains { protected in
            if range.isEmpty { return protected.lowerBound < range.lowerBound && range.lowerBound < protected.upperBound }
            return range.overlaps(protected)
        }
        return touchesDeclared || containsAttachment(range)
    }

    /// Whether the bytes of `range` hold an attachment character (EF BF BC in UTF-8).
    /// Read in the string's own storage (`memchr`: a 16 MB region is scanned in about a
    /// millisecond, not byte by byte through string indices).
    public func containsAttachment(_ range: Range<Int>) -> Bool {
        guard range.count >= 3 else { return false }
        var text = string
        return text.withUTF8 { bytes in
            !Self.attachmentRanges(in: UnsafeBufferPointer(rebasing: bytes[range]), at: 0).isEmpty
        }
    }

    /// The text of a byte range.
    public func substring(_ range: Range<Int>) -> String {
        let utf8 = string.utf8
        let start = utf8.index(utf8.startIndex, offsetBy: range.lowerBound)
        let end = utf8.index(start, offsetBy: range.count)
        return String(decoding: utf8[start..<end], as: UTF8.self)
    }

    /// Sets the runs and intents (same text).
    mutating func setStyling(runs: [AttributeRun], intents: [BlockIntent]) {
        attributeRuns = runs
        blockIntents = intents
    }

    /// Replaces `range` with plain `replacement`. Runs, intents and protected ranges after
    /// the edit move; those overlapping it are clipped to what survives (an insertion inside
    /// a run grows the run, so typed text takes the attributes around it).
    public mutating func replace(_ range: Range<Int>, with replacement: String) {
        if range.isEmpty, range.lowerBound == string.utf8.count {
            // Appended with the string's own growth (doubling): a replace at the end reallocated
            // the whole text for each piece (a streamed answer grows one change of the ledger a
            // part at a time: 27% of the engine's thread while 16 MB streamed in).
            string.append(replacement)
            return Self.follow(range, delta: replacement.utf8.count, runs: &attributeRuns, intents: &blockIntents,
                               protected: &protectedRanges)
        }
        // No view of the string is held across the replace: a `let utf8 = string.utf8` kept
        // the storage shared, so every replace copied the whole text (taking a refused 16 MB
        // rewrite back 64 KB a replace copied 16 MB each time: 11-13 ms per replace).
        let start = string.utf8.index(string.utf8.startIndex, offsetBy: range.lowerBound)
        let end = string.utf8.index(start, offsetBy: range.count)
        string.replaceSubrange(start..<end, with: replacement)
        Self.follow(range, delta: replacement.utf8.count - range.count, runs: &attributeRuns, intents: &blockIntents,
                    protected: &protectedRanges)
    }

    /// Runs, intents and protected ranges after `range` was replaced by plain text `delta`
    /// bytes longer (shared with `DocumentText`).
    static func follow(_ range: Range<Int>, delta: Int, runs: inout [AttributeRun], intents: inout [BlockIntent],
                       protected: inout [Range<Int>]) {
        guard !runs.isEmpty || !intents.isEmpty || !protected.isEmpty else { return }
        let mapped = { (r: Range<Int>) -> Range<Int>? in RangeShift.map(r, through: range, delta: delta) }
        runs = runs.compactMap { run in
            mapped(run.range).map { AttributeRun(range: $0, key: run.key, value: run.value) }
        }
        intents = intents.compactMap { intent in
            guard let r = mapped(intent.range) else { return nil }
            var moved = intent
            moved.range = r
            return moved
        }
        protected = protected.compactMap(mapped)
    }
}
