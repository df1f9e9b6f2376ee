import CEmend
import Glibc
import EmendCore
import EmendMarkdown
import EmendText

/// The one Markdown protection (`MarkdownProtection`) for C engines: the engine passes what
/// it gets back as its context's protected ranges. A pure function of the text: no
/// coordinator, any thread, also inside a delegate callback.
@_cdecl("emend_markdown_protected_ranges")
public func emend_markdown_protected_ranges(_ text: UnsafePointer<CChar>?, _ textLength: Int, _ encoding: emend_position_encoding,
                                            _ ranges: UnsafeMutablePointer<UnsafeMutablePointer<emend_range>?>?,
                                            _ count: UnsafeMutablePointer<Int>?) -> emend_status {
    exporting { () throws(EmendError) in
        let rangesOut = try required(ranges, "ranges")
        let countOut = try required(count, "count")
        rangesOut.pointee = nil
        countOut.pointee = 0
        guard let unit = PositionEncoding(rawValue: Int(encoding.rawValue)) else {
            throw EmendError(.invalidArgument, "unknown position encoding \(encoding.rawValue)")
        }
        let string = try CText.string(text, textLength, name: "text")
        let bytes = Array(string.utf8)
        let found = MarkdownProtection.protectedRanges(in: bytes)
        guard !found.isEmpty else { return }
        guard let memory = malloc(found.count * MemoryLayout<emend_range>.stride) else {
            throw EmendError(.internal, "out of memory for \(found.count) ranges")
        }
        let out = memory.bindMemory(to: emend_range.self, capacity: found.count)
        var units = UnitCounter(bytes: bytes, encoding: unit)
        for (index, range) in found.enumerated() {
            let location = units.count(upTo: range.lowerBound)
            let end = units.count(upTo: range.upperBound)
            out[index] = emend_range(location: UInt64(location), length: UInt64(end - location))
        }
        rangesOut.pointee = out
        countOut.pointee = found.count
    }
}

@_cdecl("emend_markdown_protected_ranges_free")
public func emend_markdown_protected_ranges_free(_ ranges: UnsafeMutablePointer<emend_range>?) {
    free(ranges)
}

/// Counts the units of `encoding` before ascending byte offsets in one pass over the text
/// (a converter per range would cost the text's length per range).
private struct UnitCounter {
    let bytes: [UInt8]
    let encoding: PositionEncoding
    private var byte = 0
    private var units = 0

    init(bytes: [UInt8], encoding: PositionEncoding) {
        self.bytes = bytes
        self.encoding = encoding
    }

    /// The units before byte `offset` (a character boundary, at or after the last one asked).
    mutating func count(upTo offset: Int) -> Int {
        guard encoding != .utf8 else { return offset }
        while byte < offset {
            let lead = bytes[byte]
            if lead & 0xC0 != 0x80 { units += encoding == .utf16 && lead >= 0xF0 ? 2 : 1 }
            byte += 1
        }
        return units
    }
}
