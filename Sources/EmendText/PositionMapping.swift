/// Converts ranges between UTF-8 bytes and another encoding for one text: a
/// `PositionConverter` over a `String` (scans from the start), or `RopePositions` over a
/// session's `TextRope` (a chunk's worth of work, whatever the document's length).
public protocol PositionMapping {
    func utf8Range(location: Int, length: Int, from encoding: PositionEncoding) throws(PositionError) -> Range<Int>
    func range(fromUTF8 range: Range<Int>, to encoding: PositionEncoding) throws(PositionError) -> (location: Int, length: Int)
}

extension PositionConverter: PositionMapping {}

/// Range conversion on a rope, without reading the text from its start. Read-only: the rope
/// belongs to its session.
public struct RopePositions: PositionMapping {
    private let rope: TextRope
    public init(_ rope: TextRope) { self.rope = rope }

    public func utf8Range(location: Int, length: Int, from encoding: PositionEncoding) throws(PositionError) -> Range<Int> {
        guard length >= 0, location <= Int.max - length else {
            throw .outOfBounds(offset: location, length: rope.length(in: encoding))
        }
        let start = try rope.utf8Offset(location, from: encoding)
        let end = try rope.utf8Offset(location + length, from: encoding)
        return start..<end
    }

    public func range(fromUTF8 range: Range<Int>, to encoding: PositionEncoding) throws(PositionError) -> (location: Int, length: Int) {
        let start = try rope.offset(fromUTF8: range.lowerBound, to: encoding)
        let end = try rope.offset(fromUTF8: range.upperBound, to: encoding)
        return (start, end - start)
    }
}
