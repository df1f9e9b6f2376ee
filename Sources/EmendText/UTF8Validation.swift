/// UTF-8 validation that reports where the text goes wrong.
public enum UTF8Validation {
    /// The byte offset of the first byte that does not begin a valid UTF-8 sequence, or nil
    /// when all of `bytes` is valid UTF-8 (overlong forms, surrogates and values past
    /// U+10FFFF are invalid).
    public static func firstInvalidOffset<C: Collection>(in bytes: C) -> Int? where C.Element == UInt8, C.Index == Int {
        var i = bytes.startIndex
        let end = bytes.endIndex
        while i < end {
            let b0 = bytes[i]
            if b0 < 0x80 { i += 1; continue }
            let need: Int
            var lower: UInt8 = 0x80
            var upper: UInt8 = 0xBF
            switch b0 {
            case 0xC2...0xDF: need = 1
            case 0xE0: need = 2; lower = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: need = 2
            case 0xED: need = 2; upper = 0x9F
            case 0xF0: need = 3; lower = 0x90
            case 0xF1...0xF3: need = 3
            case 0xF4: need = 3; upper = 0x8F
            default: return i - bytes.startIndex
            }
            if end - i <= need { return i - bytes.startIndex }
            for k in 1...need {
                let b = bytes[i + k]
                let lo: UInt8 = k == 1 ? lower : 0x80
                let hi: UInt8 = k == 1 ? upper : 0xBF
                if b < lo || b > hi { return i - bytes.startIndex }
            }
            i += need + 1
        }
        return nil
    }

    /// Decodes `bytes` as UTF-8, or reports the offset of the first invalid byte.
    public static func decode<C: Collection>(_ bytes: C) -> Result<String, InvalidUTF8> where C.Element == UInt8, C.Index == Int {
        // Contiguous bytes (what the C ABI hands over) go through the standard library's
        // validating copy, which is vectorised: 10 MB in milliseconds. The byte-by-byte walk
        // below runs only to say where the text goes wrong.
        let fast: String?? = bytes.withContiguousStorageIfAvailable { String(validating: $0, as: UTF8.self) }
        if let fast {
            if let string = fast { return .success(string) }
            return .failure(InvalidUTF8(byteOffset: firstInvalidOffset(in: bytes) ?? 0))
        }
        if let offset = firstInvalidOffset(in: bytes) { return .failure(InvalidUTF8(byteOffset: offset)) }
        return .success(String(decoding: bytes, as: UTF8.self))
    }
}

/// Text that is not valid UTF-8, with the offset of the first bad byte.
public struct InvalidUTF8: Error, Equatable, Sendable {
    public let byteOffset: Int
    public init(byteOffset: Int) { self.byteOffset = byteOffset }
}
