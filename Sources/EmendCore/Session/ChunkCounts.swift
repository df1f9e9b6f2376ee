import EmendText

/// How many UTF-16 units and code points each chunk of a UTF-8 text holds, with their sums
/// before each chunk: offsets in any encoding are found by bisecting the chunks and reading
/// one chunk's bytes, not the text from its start.
///
/// Why: while a context's rope is built on a thread of its own (`TextBeingBuilt`), the engine's
/// calls in UTF-16 or code points were converted by `PositionConverter`, which reads the text
/// from its start on every call (a 10 MB document: milliseconds per call). The counts are made
/// once, when a call first needs them, and an engine edit recounts only the chunks it is in.
struct ChunkCounts {
    /// `starts[i]`: the byte where chunk `i` starts (on a character's first byte); the last
    /// entry is the text's length.
    private(set) var starts: [Int]
    /// UTF-16 units and code points before chunk `i` (one more entry than chunks).
    private var units: [Int]
    private var scalars: [Int]

    /// Counts `bytes` in chunks of about `chunk` bytes.
    init(_ bytes: UnsafeBufferPointer<UInt8>, chunk: Int = 16 << 10) {
        starts = [0]
        units = [0]
        scalars = [0]
        var start = 0
        while start < bytes.count {
            var end = min(bytes.count, start + max(1, chunk))
            while end < bytes.count, Self.isContinuation(bytes[end]) { end += 1 }
            let (u, s) = Self.count(bytes, start..<end)
            starts.append(end)
            units.append(units[units.count - 1] + u)
            scalars.append(scalars[scalars.count - 1] + s)
            start = end
        }
    }

    /// The text's length in `encoding`.
    func length(in encoding: PositionEncoding) -> Int {
        switch encoding {
        case .utf8: starts[starts.count - 1]
        case .utf16: units[units.count - 1]
        case .codePoint: scalars[scalars.count - 1]
        }
    }

    /// The text's bytes `range` (character boundaries) were replaced; `bytes` is the text now:
    /// the chunks the range is in become one, counted again, and the later ones move.
    mutating func replace(_ range: Range<Int>, length newLength: Int, in bytes: UnsafeBufferPointer<UInt8>) {
        let growth = newLength - range.count
        let first = chunk(containing: range.lowerBound)
        let last = max(first, chunk(containing: range.upperBound))
        let end = starts[min(last + 1, starts.count - 1)] + growth
        let (u, s) = Self.count(bytes, starts[first]..<end)
        let unitGrowth = u - (units[min(last + 1, units.count - 1)] - units[first])
        let scalarGrowth = s - (scalars[min(last + 1, scalars.count - 1)] - scalars[first])
        // Chunks first...last become one (none when the text is empty now).
        let merged = starts[first] < end
        let removeEnd = min(last + 1, starts.count - 1)
        starts.replaceSubrange((first + 1)..<(removeEnd + 1), with: merged ? [end] : [])
        units.replaceSubrange((first + 1)..<(removeEnd + 1), with: merged ? [units[first] + u] : [])
        scalars.replaceSubrange((first + 1)..<(removeEnd + 1), with: merged ? [scalars[first] + s] : [])
        let later = first + (merged ? 2 : 1)
        guard later < starts.count else {
            if starts[starts.count - 1] != bytes.count { starts[starts.count - 1] = bytes.count }
            return
        }
        for index in later..<starts.count {
            starts[index] += growth
            units[index] += unitGrowth
            scalars[index] += scalarGrowth
        }
    }

    /// The chunk whose bytes hold `offset` (the last for the text's end).
    private func chunk(containing offset: Int) -> Int {
        var low = 0, high = max(0, starts.count - 2)
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// The chunk where the `count`-th unit of `sums` (units or scalars) falls.
    private func chunk(before count: Int, in sums: [Int]) -> Int {
        var low = 0, high = max(0, sums.count - 2)
        while low < high {
            let middle = (low + high + 1) / 2
            if sums[middle] <= count { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// The UTF-8 byte offset of `offset` counted in `encoding` (errors as `PositionConverter`'s).
    func utf8Offset(_ offset: Int, from encoding: PositionEncoding, in bytes: UnsafeBufferPointer<UInt8>) throws(PositionError) -> Int {
        if offset < 0 { throw .outOfBounds(offset: offset, length: length(in: encoding)) }
        switch encoding {
        case .utf8:
            guard offset <= bytes.count else { throw .outOfBounds(offset: offset, length: bytes.count) }
            if offset < bytes.count, Self.isContinuation(bytes[offset]) { throw .splitsCharacter(offset: offset) }
            return offset
        case .utf16, .codePoint:
            let sums = encoding == .utf16 ? units : scalars
            guard offset <= sums[sums.count - 1] else { throw .outOfBounds(offset: offset, length: sums[sums.count - 1]) }
            let index = chunk(before: offset, in: sums)
            var counted = sums[index]
            var byte = starts[index]
            while byte < bytes.count {
                if counted == offset { return byte }
                let lead = bytes[byte]
                let width = encoding == .utf16 && lead >= 0xF0 ? 2 : 1
                if counted + width > offset { throw .splitsCharacter(offset: offset) }
                counted += width
                byte += Self.scalarLength(lead)
            }
            return byte
        }
    }

    /// The offset in `encoding` of a UTF-8 byte offset on a character boundary.
    func offset(fromUTF8 byteOffset: Int, to encoding: PositionEncoding, in bytes: UnsafeBufferPointer<UInt8>) throws(PositionError) -> Int {
        let valid = try utf8Offset(byteOffset, from: .utf8, in: bytes)
        guard encoding != .utf8 else { return valid }
        let index = chunk(containing: valid)
        let (u, s) = Self.count(bytes, starts[index]..<valid)
        return encoding == .utf16 ? units[index] + u : scalars[index] + s
    }

    /// UTF-16 units and code points in `range` of `bytes` (whole characters).
    private static func count(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> (units: Int, scalars: Int) {
        var units = 0, scalars = 0
        for index in range where !isContinuation(bytes[index]) {
            scalars += 1
            units += bytes[index] >= 0xF0 ? 2 : 1
        }
        return (units, scalars)
    }

    private static func isContinuation(_ byte: UInt8) -> Bool { byte & 0xC0 == 0x80 }

    private static func scalarLength(_ lead: UInt8) -> Int {
        lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
    }
}

/// Offset conversion for the text of a context whose rope is being built: `ChunkCounts`
/// over the engine's text as it is now.
struct BuildingPositions: PositionMapping {
    let text: String
    let counts: ChunkCounts

    func utf8Range(location: Int, length: Int, from encoding: PositionEncoding) throws(PositionError) -> Range<Int> {
        guard length >= 0, location <= Int.max - length else {
            throw .outOfBounds(offset: location, length: counts.length(in: encoding))
        }
        let start = try withBytes { bytes throws(PositionError) in try counts.utf8Offset(location, from: encoding, in: bytes) }
        let end = try withBytes { bytes throws(PositionError) in try counts.utf8Offset(location + length, from: encoding, in: bytes) }
        return start..<end
    }

    func range(fromUTF8 range: Range<Int>, to encoding: PositionEncoding) throws(PositionError) -> (location: Int, length: Int) {
        let start = try withBytes { bytes throws(PositionError) in try counts.offset(fromUTF8: range.lowerBound, to: encoding, in: bytes) }
        let end = try withBytes { bytes throws(PositionError) in try counts.offset(fromUTF8: range.upperBound, to: encoding, in: bytes) }
        return (start, end - start)
    }

    /// The text's bytes in place (a native string's own storage: no copy).
    private func withBytes<Value>(_ body: (UnsafeBufferPointer<UInt8>) throws(PositionError) -> Value) throws(PositionError) -> Value {
        var text = text
        let result: Result<Value, PositionError> = text.withUTF8 { bytes in
            do throws(PositionError) { return .success(try body(bytes)) } catch { return .failure(error) }
        }
        return try result.get()
    }
}
