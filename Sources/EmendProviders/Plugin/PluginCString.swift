import Glibc

/// Reading the strings a plugin hands over: strict UTF-8, never trusted blindly.
enum PluginCString {
    /// The NUL-terminated `pointer` as a String; nil when it is not valid UTF-8.
    static func decode(_ pointer: UnsafePointer<CChar>) -> String? {
        String(validatingCString: pointer)
    }

    /// `length` bytes at `pointer` as a String; nil when they are not valid UTF-8.
    static func decode(_ pointer: UnsafePointer<CChar>?, length: Int) -> String? {
        guard length > 0 else { return "" }
        guard let pointer else { return nil }
        let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: length)
        return String(validating: bytes, as: UTF8.self)
    }

    /// A NUL-terminated message for a log, with bad bytes replaced rather than refused.
    static func lenient(_ pointer: UnsafePointer<CChar>) -> String {
        String(decoding: UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self),
                                             count: strlen(pointer)), as: UTF8.self)
    }
}
