/// Builds the frames of the provider host channel (see `Sources/EmendProviderHost/PROTOCOL.md`):
/// a little-endian u32 length, a u8 type, then the payload's fields. One encoder can hold
/// several frames back to back, so a batch goes out in one write.
struct FrameEncoder {
    private(set) var bytes: [UInt8] = []
    /// Where the length of the frame being built goes.
    private var frameStart = 0

    init() {}

    /// Starts a frame of `type`; `end()` fills in its length.
    mutating func begin(_ type: FrameType) {
        frameStart = bytes.count
        bytes.append(contentsOf: [0, 0, 0, 0])
        bytes.append(type.rawValue)
    }

    /// Writes the length of the frame begun last.
    mutating func end() {
        let length = UInt32(bytes.count - frameStart - 4)
        for shift in 0..<4 { bytes[frameStart + shift] = UInt8(truncatingIfNeeded: length >> (8 * UInt32(shift))) }
    }

    mutating func u8(_ value: UInt8) { bytes.append(value) }

    mutating func u32(_ value: UInt32) {
        for shift in 0..<4 { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt32(shift)))) }
    }

    mutating func u64(_ value: UInt64) {
        for shift in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(shift)))) }
    }

    mutating func int(_ value: Int) { u64(UInt64(bitPattern: Int64(value))) }

    mutating func bool(_ value: Bool) { u8(value ? 1 : 0) }

    /// A u32 byte count, then the UTF-8 bytes.
    mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            u32(UInt32(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    /// A u8 presence flag, then the string when present.
    mutating func optionalString(_ value: String?) {
        bool(value != nil)
        if let value { string(value) }
    }

    /// Raw bytes to the end of the frame (a TEXT frame's text).
    mutating func rest(_ value: String) {
        var value = value
        value.withUTF8 { bytes.append(contentsOf: $0) }
    }

    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        frameStart = 0
    }
}
