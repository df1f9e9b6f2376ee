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

    /// The place already said in UTF-16 units and in code points (nil: not a position of the
    /// text), when it was made from a mapping rather than the whole text.
    private let spoken: Spoken?

    private struct Spoken: Sendable, Equatable {
        var utf16: Converted?
        var codePoint: Converted?
    }

    private struct Converted: Sendable, Equatable {
        var location: Int
        var length: Int
    }

    public init(_ kind: Kind, _ range: Range<Int>, in text: String) {
        self.kind = kind
        self.range = range
        self.text = text
        self.spoken = nil
    }

    /// An offset or a range said at once in every encoding by `positions` (a rope's or chunk
    /// counts': a chunk's work each), keeping no copy of the text. Why: the message of a lookup
    /// that finds nothing (emend_session_suggestion_at_offset, asked on every click) copied
    /// the whole text out of the rope and later read it from its start to say the offset.
    public init(_ kind: Kind, _ range: Range<Int>, positions: some PositionMapping) {
        precondition(kind != .length, "a length is said from the text")
        self.kind = kind
        self.range = range
        self.text = ""
        func converted(_ encoding: PositionEncoding) -> Converted? {
            guard let found = try? positions.range(fromUTF8: range, to: encoding) else { return nil }
            return Converted(location: found.location, length: found.length)
        }
        self.spoken = Spoken(utf16: converted(.utf16), codePoint: converted(.codePoint))
    }

    /// A text's length given in every encoding (a rope's or chunk counts' sums), keeping no
    /// copy of the text. Why: an engine edit past the end copied the whole text out of the
    /// rope to say its length (and read it from its start for UTF-16 and code points).
    public init(lengths: (utf8: Int, utf16: Int, codePoints: Int)) {
        self.kind = .length
        self.range = 0..<lengths.utf8
        self.text = ""
        self.spoken = Spoken(utf16: Converted(location: lengths.utf16, length: 0),
                             codePoint: Converted(location: lengths.codePoints, length: 0))
    }

    /// The place in `encoding`'s units, naming them: "offset 2 (UTF-16 code units)",
    /// "location 2, length 3 (code points)", "10 UTF-8 bytes". A place that is no
    /// position of the text (out of bounds, inside a character) is said in UTF-8 bytes.
    public func description(in encoding: PositionEncoding) -> String {
        let converted: (location: Int, length: Int)?
        if let spoken, kind == .length {
            let length = switch encoding {
            case .utf8: range.count
            case .utf16: spoken.utf16?.location ?? 0
            case .codePoint: spoken.codePoint?.location ?? 0
            }
            return "\(length) \(encoding.unitName)"
        }
        if let spoken {
            let found: Converted?
            switch encoding {
            case .utf8: found = spoken.utf16 == nil ? nil : Converted(location: range.lowerBound, length: range.count)
            case .utf16: found = spoken.utf16
            case .codePoint: found = spoken.codePoint
            }
            converted = found.map { ($0.location, $0.length) }
        } else {
            let converter = PositionConverter(text)
            switch kind {
            case .length: return "\(converter.length(in: encoding)) \(encoding.unitName)"
            case .offset, .range: converted = try? converter.range(fromUTF8: range, to: encoding)
            }
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
