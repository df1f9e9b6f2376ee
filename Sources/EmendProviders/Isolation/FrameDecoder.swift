/// Reads the fields of one frame's payload. Every read checks what is left and every
/// string is checked as UTF-8: the other side of the channel runs plugin code, so anything
/// it sends may be garbage, and garbage is a `ProtocolViolation`, never a crash.
struct FrameDecoder {
    private let bytes: UnsafeRawBufferPointer
    private var offset = 0

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    var isAtEnd: Bool { offset == bytes.count }

    mutating func u8() throws(ProtocolViolation) -> UInt8 {
        try need(1)
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func u32() throws(ProtocolViolation) -> UInt32 {
        try need(4)
        var value: UInt32 = 0
        for shift in 0..<4 { value |= UInt32(bytes[offset + shift]) << (8 * UInt32(shift)) }
        offset += 4
        return value
    }

    mutating func u64() throws(ProtocolViolation) -> UInt64 {
        try need(8)
        var value: UInt64 = 0
        for shift in 0..<8 { value |= UInt64(bytes[offset + shift]) << (8 * UInt64(shift)) }
        offset += 8
        return value
    }

    /// An offset or size: a signed 64-bit integer that may not be negative.
    mutating func count() throws(ProtocolViolation) -> Int {
        let value = Int64(bitPattern: try u64())
        guard value >= 0 else { throw ProtocolViolation("a negative count or offset (\(value))") }
        return Int(value)
    }

    mutating func int() throws(ProtocolViolation) -> Int { Int(Int64(bitPattern: try u64())) }

    mutating func bool() throws(ProtocolViolation) -> Bool {
        switch try u8() {
        case 0: return false
        case 1: return true
        case let other: throw ProtocolViolation("a flag of \(other)")
        }
    }

    mutating func string() throws(ProtocolViolation) -> String {
        let length = Int(try u32())
        try need(length)
        defer { offset += length }
        return try Self.utf8(UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + length]))
    }

    mutating func optionalString() throws(ProtocolViolation) -> String? {
        try bool() ? try string() : nil
    }

    /// The rest of the payload as UTF-8 text.
    mutating func rest() throws(ProtocolViolation) -> String {
        defer { offset = bytes.count }
        return try Self.utf8(UnsafeRawBufferPointer(rebasing: bytes[offset...]))
    }

    /// Fails unless the whole payload was read.
    func finish() throws(ProtocolViolation) {
        guard isAtEnd else { throw ProtocolViolation("\(bytes.count - offset) bytes left over in a frame") }
    }

    private func need(_ count: Int) throws(ProtocolViolation) {
        guard count >= 0, bytes.count - offset >= count else {
            throw ProtocolViolation("a frame ended early (needed \(count) more bytes, \(bytes.count - offset) left)")
        }
    }

    private static func utf8(_ raw: UnsafeRawBufferPointer) throws(ProtocolViolation) -> String {
        guard let text = String(validating: raw, as: UTF8.self) else {
            throw ProtocolViolation("text that is not valid UTF-8 (\(raw.count) bytes)")
        }
        return text
    }
}

/// Something on the channel that the protocol does not allow: the host that sent it is killed.
struct ProtocolViolation: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}
