/// What code that works on part of a text reads of it: the same for a small `AttributedText`
/// and a session's whole `DocumentText`, so that code need not turn a large document into
/// one string. Each costs the part it reads.
public protocol TextReading {
    var utf8Count: Int { get }
    func substring(_ range: Range<Int>) -> String
    func slice(_ range: Range<Int>) -> AttributedText
    func touchesProtectedText(_ range: Range<Int>) -> Bool
    /// Protected ranges and attachments overlapping `range`, sorted.
    func protectedRanges(overlapping range: Range<Int>) -> [Range<Int>]
}

extension AttributedText: TextReading {
    public func protectedRanges(overlapping range: Range<Int>) -> [Range<Int>] {
        allProtectedRanges.filter { $0.overlaps(range) }
    }
}

extension DocumentText: TextReading {}
