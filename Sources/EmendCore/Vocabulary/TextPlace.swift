import EmendText

/// A place in a context's text that an error message names: an offset, a range, or the
/// text's length. It keeps UTF-8 bytes together with the text they count in, so that a
/// caller counting in UTF-16 units or code points can say it in its own units later, even
/// after the text changed or the session is gone (a session's failure is read after it ended).
public struct TextPlace: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// `range.lowerBound` is an offset.
        case offset
        /// `range` is a span.
        case range
        /// The length of `text` (`range` is unused).
        case length
    }

    public let kind: Kind
    /// UTF-8 bytes of `text`.
    public let range: Range<Int>
    /// The text as it was when the error was made.
    public let text: String

    public init(_ kind: Kind, _ range: Range<Int>, in text: String) {
        self.kind = kind
        self.range = range
        self.text = text
    }

    /// The place in `encoding`'s units, naming them: "offset 2 (UTF-16 code units)",
    /// "location 2, length 3 (code points)", "10 UTF-8 bytes". A place that is no
    /// position of the text (out of bounds, inside a character) is said in UTF-8 bytes.
    public func description(in encoding: PositionEncoding) -> String {
        let converter = PositionConverter(text)
        let converted: (location: Int, length: Int)?
        switch kind {
        case .length: return "\(converter.length(in: encoding)) \(encoding.unitName)"
        case .offset, .range: converted = try? converter.range(fromUTF8: range, to: encoding)
        }
        let units = converted == nil ? PositionEncoding.utf8.unitName : encoding.unitName
        let (location, length) = converted ?? (range.lowerBound, range.count)
        if kind == .offset { return "offset \(location) (\(units))" }
        return "location \(location), length \(length) (\(units))"
    }
}

extension PositionEncoding {
    /// What offsets count in this encoding, for messages.
    public var unitName: String {
        switch self {
        case .utf8: return "UTF-8 bytes"
        case .utf16: return "UTF-16 code units"
        case .codePoint: return "code points"
        }
    }
}
