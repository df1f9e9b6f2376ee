/// Decoding of Unicode scalars straight from UTF-8 bytes, for scanners that work on byte offsets.
enum UTF8Scan {
    /// The scalar starting at byte `i` and its length; a stray or truncated byte reads as U+FFFD of length 1.
    @inline(__always)
    static func scalar(at i: Int, in bytes: [UInt8]) -> (value: UInt32, length: Int) {
        let b0 = bytes[i]
        if b0 < 0x80 { return (UInt32(b0), 1) }
        let n = bytes.count
        if b0 >= 0xC2 && b0 < 0xE0 && i + 1 < n {
            return ((UInt32(b0 & 0x1F) << 6) | UInt32(bytes[i + 1] & 0x3F), 2)
        }
        if b0 >= 0xE0 && b0 < 0xF0 && i + 2 < n {
            return ((UInt32(b0 & 0x0F) << 12) | (UInt32(bytes[i + 1] & 0x3F) << 6)
                | UInt32(bytes[i + 2] & 0x3F), 3)
        }
        if b0 >= 0xF0 && b0 < 0xF5 && i + 3 < n {
            return ((UInt32(b0 & 0x07) << 18) | (UInt32(bytes[i + 1] & 0x3F) << 12)
                | (UInt32(bytes[i + 2] & 0x3F) << 6) | UInt32(bytes[i + 3] & 0x3F), 4)
        }
        return (0xFFFD, 1)
    }

    /// The start of the scalar that ends just before byte `i` (`i > 0`).
    @inline(__always)
    static func scalarStart(before i: Int, in bytes: [UInt8]) -> Int {
        var j = i - 1
        while j > 0 && i - j < 4 && bytes[j] & 0xC0 == 0x80 { j -= 1 }
        return j
    }
}
