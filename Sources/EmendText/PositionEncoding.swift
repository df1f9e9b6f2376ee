/// The unit in which an engine counts offsets into text.
public enum PositionEncoding: Int, Sendable, CaseIterable {
    /// Bytes of UTF-8 (the default).
    case utf8 = 0
    /// UTF-16 code units: a scalar outside the Basic Multilingual Plane counts two.
    case utf16 = 1
    /// Unicode scalar values (code points).
    case codePoint = 2
}
