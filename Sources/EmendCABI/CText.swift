import CEmend
import Glibc
import EmendCore
import EmendText

/// Turning C text and ranges into Swift values, validated.
enum CText {
    /// UTF-8 text of `length` bytes; NULL is allowed only for length 0.
    /// `lengthName` names the length in messages (default: "<name>_length").
    /// Names are built only for an error message (a styled context converts a name per run).
    static func string(_ pointer: UnsafePointer<CChar>?, _ length: Int, name: @autoclosure () -> String,
                       lengthName: @autoclosure () -> String? = nil) throws(EmendError) -> String {
        try CLength.checked(length, name: lengthName() ?? "\(name())_length")
        guard length > 0 else { return "" }
        guard let pointer else { throw EmendError(.invalidArgument, "\(name()) is NULL but its length is \(length)") }
        let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: length)
        switch UTF8Validation.decode(bytes) {
        case .success(let text): return text
        case .failure(let error): throw EmendError(.invalidUTF8, "\(name()) is not valid UTF-8 at byte \(error.byteOffset)")
        }
    }

    /// A NUL-terminated UTF-8 string, or nil for NULL.
    static func optionalCString(_ pointer: UnsafePointer<CChar>?, name: @autoclosure () -> String) throws(EmendError) -> String? {
        guard let pointer else { return nil }
        return try string(pointer, strlen(pointer), name: name())
    }

    /// An emend_range in `encoding` as a UTF-8 byte range of `text`.
    static func byteRange(_ range: emend_range, in text: String, encoding: PositionEncoding,
                          name: @autoclosure () -> String) throws(EmendError) -> Range<Int> {
        try byteRange(range, in: PositionConverter(text), encoding: encoding, name: name())
    }

    /// An emend_range in `encoding` as a UTF-8 byte range of the text `positions` maps.
    static func byteRange(_ range: emend_range, in positions: some PositionMapping, encoding: PositionEncoding,
                          name: @autoclosure () -> String) throws(EmendError) -> Range<Int> {
        guard range.location <= UInt64(Int.max), range.length <= UInt64(Int.max) else {
            throw EmendError(.range, "\(name()) (\(range.location), \(range.length)) is out of bounds")
        }
        do {
            return try positions.utf8Range(location: Int(range.location), length: Int(range.length), from: encoding)
        } catch {
            throw EmendError(.range, describe(error, name: name(), range: range, encoding: encoding))
        }
    }

    /// A UTF-8 byte range of `text` as an emend_range in `encoding`.
    static func cRange(_ range: Range<Int>, in text: String, encoding: PositionEncoding) -> emend_range {
        cRange(range, in: PositionConverter(text), encoding: encoding)
    }

    /// A UTF-8 byte range of the text `positions` maps as an emend_range in `encoding`.
    static func cRange(_ range: Range<Int>, in positions: some PositionMapping, encoding: PositionEncoding) -> emend_range {
        guard encoding != .utf8 else { return emend_range(location: UInt64(range.lowerBound), length: UInt64(range.count)) }
        let converted = (try? positions.range(fromUTF8: range, to: encoding)) ?? (range.lowerBound, range.count)
        return emend_range(location: UInt64(converted.location), length: UInt64(converted.length))
    }

    /// The engine's own numbers (PositionError counts in `encoding`), naming the units.
    private static func describe(_ error: PositionError, name: String, range: emend_range, encoding: PositionEncoding) -> String {
        switch error {
        case .outOfBounds(let offset, let length):
            return "\(name) (location \(range.location), length \(range.length)) ends past the text: offset \(offset) > length \(length) (\(encoding.unitName))"
        case .splitsCharacter(let offset):
            return "\(name) (location \(range.location), length \(range.length)): offset \(offset) splits a character (\(encoding.unitName))"
        }
    }
}
