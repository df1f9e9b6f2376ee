import Glibc
import EmendText

/// Copies a NUL-terminated string from C, checking that it is UTF-8.
enum SimpleCString {
    /// The text of `pointer`, or the offset of its first byte that is not UTF-8; and its length in bytes.
    static func decode(_ pointer: UnsafePointer<CChar>) -> (text: Result<String, InvalidUTF8>, byteCount: Int) {
        let count = strlen(pointer)
        if let text = String(validatingCString: pointer) { return (.success(text), count) }
        let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: count)
        return (.failure(InvalidUTF8(byteOffset: UTF8Validation.firstInvalidOffset(in: bytes) ?? 0)), count)
    }
}
