/// A provider's settings on the channel: typed TOML values (a simple-form manifest's
/// settings are typed), a tag byte and the value.
enum TOMLCoding {
    private enum Tag: UInt8 { case string = 1, integer, float, boolean, array, table }

    /// Tables and arrays nest at most this deep (config.toml's settings are flat).
    private static let maximumDepth = 8

    static func encode(_ value: TOMLValue, into encoder: inout FrameEncoder) {
        switch value {
        case .string(let s): encoder.u8(Tag.string.rawValue); encoder.string(s)
        case .integer(let i): encoder.u8(Tag.integer.rawValue); encoder.u64(UInt64(bitPattern: i))
        case .float(let d): encoder.u8(Tag.float.rawValue); encoder.u64(d.bitPattern)
        case .boolean(let b): encoder.u8(Tag.boolean.rawValue); encoder.bool(b)
        case .array(let items):
            encoder.u8(Tag.array.rawValue)
            encoder.u32(UInt32(items.count))
            for item in items { encode(item, into: &encoder) }
        case .table(let table):
            encoder.u8(Tag.table.rawValue)
            encoder.u32(UInt32(table.keys.count))
            for key in table.keys {
                encoder.string(key)
                encode(table[key]!, into: &encoder)
            }
        }
    }

    static func decode(_ decoder: inout FrameDecoder, depth: Int) throws(ProtocolViolation) -> TOMLValue {
        guard depth <= maximumDepth else { throw ProtocolViolation("settings nested too deep") }
        let raw = try decoder.u8()
        switch Tag(rawValue: raw) {
        case .string?: return .string(try decoder.string())
        case .integer?: return .integer(Int64(bitPattern: try decoder.u64()))
        case .float?: return .float(Double(bitPattern: try decoder.u64()))
        case .boolean?: return .boolean(try decoder.bool())
        case .array?:
            let count = try decoder.u32()
            var items: [TOMLValue] = []
            for _ in 0..<count { items.append(try decode(&decoder, depth: depth + 1)) }
            return .array(items)
        case .table?:
            let count = try decoder.u32()
            var table = TOMLTable()
            for _ in 0..<count {
                let key = try decoder.string()
                table[key] = try decode(&decoder, depth: depth + 1)
            }
            return .table(table)
        case nil: throw ProtocolViolation("setting tag \(raw)")
        }
    }
}
