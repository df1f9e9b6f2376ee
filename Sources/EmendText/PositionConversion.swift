/// Why an offset could not be turned into a UTF-8 byte offset.
public enum PositionError: Error, Equatable, Sendable {
    /// The offset lies past the end of the text.
    case outOfBounds(offset: Int, length: Int)
    /// The offset falls inside one character's encoding.
    case splitsCharacter(offset: Int)
}

/// Conversion of offsets between UTF-8 bytes, UTF-16 units and code points of one text.
public struct PositionConverter: Sendable {
    public let text: String
    public init(_ text: String) { self.text = text }

    /// Length of the text in `encoding` units.
    public func length(in encoding: PositionEncoding) -> Int {
        switch encoding {
        case .utf8: return text.utf8.count
        case .utf16: return text.utf16.count
        case .codePoint: return text.unicodeScalars.count
        }
    }

    /// The UTF-8 byte offset of `offset` counted in `encoding`.
    public func utf8Offset(_ offset: Int, from encoding: PositionEncoding) throws(PositionError) -> Int {
        let utf8 = text.utf8
        if offset < 0 { throw .outOfBounds(offset: offset, length: length(in: encoding)) }
        switch encoding {
        case .utf8:
            guard offset <= utf8.count else { throw .outOfBounds(offset: offset, length: utf8.count) }
            if offset < utf8.count {
                let byte = utf8[utf8.index(utf8.startIndex, offsetBy: offset)]
                if byte & 0xC0 == 0x80 { throw .splitsCharacter(offset: offset) }
            }
            return offset
        case .utf16:
            var units = 0
            var bytes = 0
            for scalar in text.unicodeScalars {
                if units == offset { return bytes }
                let width = UTF16.width(scalar)
                if units + width > offset { throw .splitsCharacter(offset: offset) }
                units += width
                bytes += UTF8.width(scalar)
            }
            if units == offset { return bytes }
            throw .outOfBounds(offset: offset, length: units)
        case .codePoint:
            var count = 0
            var bytes = 0
            for scalar in text.unicodeScalars {
                if count == offset { return bytes }
                count += 1
                bytes += UTF8.width(scalar)
            }
            if count == offset { return bytes }
            throw .outOfBounds(offset: offset, length: count)
        }
    }

    /// The offset in `encoding` of a UTF-8 byte offset on a character boundary.
    public func offset(fromUTF8 byteOffset: Int, to encoding: PositionEncoding) throws(PositionError) -> Int {
        let valid = try utf8Offset(byteOffset, from: .utf8)
        switch encoding {
        case .utf8: return valid
        case .utf16, .codePoint:
            var bytes = 0
            var units = 0
            for scalar in text.unicodeScalars {
                if bytes >= valid { break }
                bytes += UTF8.width(scalar)
                units += encoding == .utf16 ? UTF16.width(scalar) : 1
            }
            return units
        }
    }

    /// A range in `encoding` (location, length) as a UTF-8 byte range.
    public func utf8Range(location: Int, length: Int, from encoding: PositionEncoding) throws(PositionError) -> Range<Int> {
        guard length >= 0, location <= Int.max - length else {
            throw .outOfBounds(offset: location, length: self.length(in: encoding))
        }
        let start = try utf8Offset(location, from: encoding)
        let end = try utf8Offset(location + length, from: encoding)
        return start..<end
    }

    /// A UTF-8 byte range as (location, length) in `encoding`.
    public func range(fromUTF8 range: Range<Int>, to encoding: PositionEncoding) throws(PositionError) -> (location: Int, length: Int) {
        let start = try offset(fromUTF8: range.lowerBound, to: encoding)
        let end = try offset(fromUTF8: range.upperBound, to: encoding)
        return (start, end - start)
    }
}

extension PositionConverter {
    /// Whether both ends of a UTF-8 byte range fall on character boundaries of the text.
    public func isBoundary(_ range: Range<Int>) -> Bool {
        (try? utf8Range(location: range.lowerBound, length: range.count, from: .utf8)) != nil
    }
}
