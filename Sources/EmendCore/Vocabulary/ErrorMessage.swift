import EmendText

/// An error message that names places in a text, built by string interpolation:
///
///     EmendError(.notFound, located: "no pending suggestion at \(offset: byte, in: text)")
///
/// Why: the core counts in UTF-8 bytes, but an engine whose coordinator counts UTF-16 units
/// or code points must read its own offsets in a message ("offset 2", not the "offset 4" of
/// the bytes). The places stay apart from the words until the message is said in an
/// encoding (`text(in:)`); the C layer says it in the coordinator's.
public struct ErrorMessage: Sendable, Equatable, ExpressibleByStringInterpolation {
    public enum Part: Sendable, Equatable {
        case literal(String)
        case place(TextPlace)
    }

    public private(set) var parts: [Part]

    public init(stringLiteral value: String) { parts = [.literal(value)] }

    public init(stringInterpolation: StringInterpolation) { parts = stringInterpolation.parts }

    /// Whether the message names any place (else it reads the same in every encoding).
    public var hasPlaces: Bool { parts.contains { if case .place = $0 { return true } else { return false } } }

    /// The message with every place in `encoding`'s units.
    public func text(in encoding: PositionEncoding) -> String {
        parts.map { part in
            switch part {
            case .literal(let text): return text
            case .place(let place): return place.description(in: encoding)
            }
        }.joined()
    }

    public struct StringInterpolation: StringInterpolationProtocol {
        var parts: [Part] = []

        public init(literalCapacity: Int, interpolationCount: Int) {}

        public mutating func appendLiteral(_ literal: String) { parts.append(.literal(literal)) }

        /// Any other value, as string interpolation writes it.
        public mutating func appendInterpolation<T>(_ value: T) { parts.append(.literal("\(value)")) }

        /// A UTF-8 byte offset of `text`.
        public mutating func appendInterpolation(offset: Int, in text: String) {
            parts.append(.place(TextPlace(.offset, offset..<offset, in: text)))
        }

        /// A UTF-8 byte offset of the text `positions` maps (said in every encoding now, at a
        /// chunk's cost: see `TextPlace.init(_:_:positions:)`).
        public mutating func appendInterpolation(offset: Int, positions: some PositionMapping) {
            parts.append(.place(TextPlace(.offset, offset..<offset, positions: positions)))
        }

        /// A UTF-8 byte range of the text `positions` maps (see `offset:positions:`).
        public mutating func appendInterpolation(range: Range<Int>, positions: some PositionMapping) {
            parts.append(.place(TextPlace(.range, range, positions: positions)))
        }

        /// A text's length, given in every encoding.
        public mutating func appendInterpolation(lengths: (utf8: Int, utf16: Int, codePoints: Int)) {
            parts.append(.place(TextPlace(lengths: lengths)))
        }

        /// A UTF-8 byte range of `text`.
        public mutating func appendInterpolation(range: Range<Int>, in text: String) {
            parts.append(.place(TextPlace(.range, range, in: text)))
        }

        /// The length of `text`.
        public mutating func appendInterpolation(lengthOf text: String) {
            parts.append(.place(TextPlace(.length, 0..<0, in: text)))
        }
    }
}
