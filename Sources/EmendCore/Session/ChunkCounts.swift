import EmendText

/// How many UTF-16 units and code points each chunk of a UTF-8 text holds, with their sums
/// before each chunk: offsets in any encoding are found by bisecting the chunks and reading
/// one chunk's bytes, not the text from its start.
///
/// Why: while a context's rope is built on a thread of its own (`TextBeingBuilt`), the engine's
/// calls in UTF-16 or code points were converted by `PositionConverter`, which reads the text
/// from its start on every call (a 10 MB document: milliseconds per call). The counts are made
/// on the thread that builds the rope, before it (`Coordinator.buildContexts`), and a call
/// that comes before they are in counts eight bytes at a time (`tally`); an engine edit changes
/// only the sums of the chunks it is in, from the counts of what it removed and inserted.
struct ChunkCounts: Sendable {
    /// UTF-16 units and code points of some whole characters.
    struct Tally: Equatable, Sendable {
        var units = 0
        var scalars = 0
    }

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
        let size = max(1, chunk)
        let count = bytes.count / size + 2
        starts.reserveCapacity(count)
        units.reserveCapacity(count)
        scalars.reserveCapacity(count)
        var start = 0
        while start < bytes.count {
            var end = min(bytes.count, start + size)
            while end < bytes.count, Self.isContinuation(bytes[end]) { end += 1 }
            let tally = Self.tally(bytes, start..<end)
            starts.append(end)
            units.append(units[units.count - 1] + tally.units)
            scalars.append(scalars[scalars.count - 1] + tally.scalars)
            start = end
        }
    }

    /// Counts a string's bytes (in place when it is a native string).
    init(of text: String, chunk: Int = 16 << 10) {
        var text = text
        self = text.withUTF8 { ChunkCounts($0, chunk: chunk) }
    }

    /// The text's length in `encoding`.
    func length(in encoding: PositionEncoding) -> Int {
        switch encoding {
        case .utf8: starts[starts.count - 1]
        case .utf16: units[units.count - 1]
        case .codePoint: scalars[scalars.count - 1]
        }
    }

    /// The text's bytes `range` (character boundaries) were replaced by `newLength` bytes;
    /// `removed` and `inserted` count what went and what came: the chunks the range is in
    /// become one, whose sums are those minus what went plus what came, and the later ones
    /// move. No byte of the text is read (so edits recorded before the counts were made can
    /// be replayed into them: `TextBeingBuilt.take`).
    mutating func replace(_ range: Range<Int>, length newLength: Int, removed: Tally, inserted: Tally) {
        let growth = newLength - range.count
        let first = chunk(containing: range.lowerBound)
        let last = max(first, chunk(containing: range.upperBound))
        let next = min(last + 1, starts.count - 1)
        let end = starts[next] + growth
        let u = units[next] - units[first] - removed.units + inserted.units
        let s = scalars[next] - scalars[first] - removed.scalars + inserted.scalars
        let unitGrowth = inserted.units - removed.units
        let scalarGrowth = inserted.scalars - removed.scalars
        // Chunks first...last become one (none when the text is empty now).
        let merged = starts[first] < end
        starts.replaceSubrange((first + 1)..<(next + 1), with: merged ? [end] : [])
        units.replaceSubrange((first + 1)..<(next + 1), with: merged ? [units[first] + u] : [])
        scalars.replaceSubrange((first + 1)..<(next + 1), with: merged ? [scalars[first] + s] : [])
        let later = first + (merged ? 2 : 1)
        guard later < starts.count else { return }
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

    /// The UTF-8 byte offset of `offset` counted in `encoding` (errors as `PositionConverter`'s);
    /// reads one chunk of `text`.
    func utf8Offset(_ offset: Int, from encoding: PositionEncoding, in text: some TextBytes) throws(PositionError) -> Int {
        if offset < 0 { throw .outOfBounds(offset: offset, length: length(in: encoding)) }
        switch encoding {
        case .utf8:
            let count = text.utf8Count
            guard offset <= count else { throw .outOfBounds(offset: offset, length: count) }
            if offset < count, text.withBytes(offset..<(offset + 1), { Self.isContinuation($0[0]) }) {
                throw .splitsCharacter(offset: offset)
            }
            return offset
        case .utf16, .codePoint:
            let sums = encoding == .utf16 ? units : scalars
            guard offset <= sums[sums.count - 1] else { throw .outOfBounds(offset: offset, length: sums[sums.count - 1]) }
            let index = chunk(before: offset, in: sums)
            // The offset is in this chunk, or at its end when it is the last.
            let chunk = starts[index]..<starts[min(index + 1, starts.count - 1)]
            let found: Result<Int, PositionError> = text.withBytes(chunk) { bytes in
                var counted = sums[index]
                var byte = 0
                while byte < bytes.count {
                    if counted == offset { return .success(chunk.lowerBound + byte) }
                    let lead = bytes[byte]
                    let width = encoding == .utf16 && lead >= 0xF0 ? 2 : 1
                    if counted + width > offset { return .failure(.splitsCharacter(offset: offset)) }
                    counted += width
                    byte += Self.scalarLength(lead)
                }
                return .success(chunk.lowerBound + byte)
            }
            return try found.get()
        }
    }

    /// The offset in `encoding` of a UTF-8 byte offset on a character boundary.
    func offset(fromUTF8 byteOffset: Int, to encoding: PositionEncoding, in text: some TextBytes) throws(PositionError) -> Int {
        let valid = try utf8Offset(byteOffset, from: .utf8, in: text)
        guard encoding != .utf8 else { return valid }
        let index = chunk(containing: valid)
        let tally = text.withBytes(starts[index]..<valid) { Self.tally($0, 0..<$0.count) }
        return encoding == .utf16 ? units[index] + tally.units : scalars[index] + tally.scalars
    }

    /// UTF-16 units and code points in `range` of `bytes` (whole characters), eight bytes a
    /// step: a code point is a byte that is no continuation (10xxxxxx), and one of four bytes
    /// (lead 11110xxx) is two UTF-16 units; 32 bytes of ASCII are passed with one mask test.
    /// Each byte's finding is added into its own lane of a word (up to 252 steps, then the
    /// lanes are summed): counting the bits (`nonzeroBitCount`) is no single instruction on
    /// this target and took four times as long on text with an accent in every word.
    /// Why: counted byte by byte, a 10 MB text took about 10 ms of the call that first needed
    /// the counts (0.5 ms ASCII, 2 ms with an accent in every word now: a scratch measure).
    static func tally(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Tally {
        guard !range.isEmpty, let base = bytes.baseAddress else { return Tally() }
        let raw = UnsafeRawPointer(base)
        let high: UInt64 = 0x8080_8080_8080_8080
        var continuations = 0, fourByteLeads = 0
        var index = range.lowerBound
        // A lane's 0 or 1 per byte: shifted left by one, a byte's bit 6 lands on its own
        // bit 7 (bit 7 goes to the next byte's bit 0, masked away), and so on.
        @inline(__always) func add(_ word: UInt64, _ marks: inout UInt64, _ leads: inout UInt64) {
            marks &+= (word & ~(word << 1) & high) >> 7
            leads &+= (word & (word << 1) & (word << 2) & (word << 3) & high) >> 7
        }
        @inline(__always) func sum(_ lanes: UInt64) -> Int {
            let pairs = (lanes & 0x00FF_00FF_00FF_00FF) &+ ((lanes >> 8) & 0x00FF_00FF_00FF_00FF)
            return Int((pairs &* 0x0001_0001_0001_0001) >> 48)
        }
        while index &+ 32 <= range.upperBound {
            var marks: UInt64 = 0, leads: UInt64 = 0
            var steps = 0
            // At most 4 per lane a step: 63 steps stay under a lane's 256.
            while steps < 63, index &+ 32 <= range.upperBound {
                let a = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                let b = raw.loadUnaligned(fromByteOffset: index &+ 8, as: UInt64.self)
                let c = raw.loadUnaligned(fromByteOffset: index &+ 16, as: UInt64.self)
                let d = raw.loadUnaligned(fromByteOffset: index &+ 24, as: UInt64.self)
                if (a | b | c | d) & high != 0 {
                    add(a, &marks, &leads)
                    add(b, &marks, &leads)
                    add(c, &marks, &leads)
                    add(d, &marks, &leads)
                }
                index &+= 32
                steps &+= 1
            }
            continuations &+= sum(marks)
            fourByteLeads &+= sum(leads)
        }
        while index < range.upperBound {
            let byte = bytes[index]
            if isContinuation(byte) { continuations &+= 1 } else if byte >= 0xF0 { fourByteLeads &+= 1 }
            index &+= 1
        }
        let scalars = range.count - continuations
        return Tally(units: scalars + fourByteLeads, scalars: scalars)
    }

    /// The tally of a whole string.
    static func tally(of text: String) -> Tally {
        var text = text
        return text.withUTF8 { tally($0, 0..<$0.count) }
    }

    private static func isContinuation(_ byte: UInt8) -> Bool { byte & 0xC0 == 0x80 }

    private static func scalarLength(_ lead: UInt8) -> Int {
        lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
    }
}

/// Offset conversion for one text by `ChunkCounts`: the text of a context whose rope is being
/// built, or a text the C layer converts many ranges of (a styled replacement's runs).
/// Each conversion reads one chunk, not the text from its start as `PositionConverter` does.
public struct BuildingPositions: PositionMapping {
    let text: any TextBytes
    let counts: ChunkCounts

    init(text: any TextBytes, counts: ChunkCounts) {
        self.text = text
        self.counts = counts
    }

    /// Counts `text` once (eight bytes a step) for the conversions to come.
    public init(counting text: String) {
        self.init(text: text, counts: ChunkCounts(of: text))
    }

    public func utf8Range(location: Int, length: Int, from encoding: PositionEncoding) throws(PositionError) -> Range<Int> {
        guard length >= 0, location <= Int.max - length else {
            throw .outOfBounds(offset: location, length: counts.length(in: encoding))
        }
        let start = try counts.utf8Offset(location, from: encoding, in: text)
        let end = try counts.utf8Offset(location + length, from: encoding, in: text)
        return start..<end
    }

    public func range(fromUTF8 range: Range<Int>, to encoding: PositionEncoding) throws(PositionError) -> (location: Int, length: Int) {
        let start = try counts.offset(fromUTF8: range.lowerBound, to: encoding, in: text)
        let end = try counts.offset(fromUTF8: range.upperBound, to: encoding, in: text)
        return (start, end - start)
    }

    /// The text's length in `encoding`.
    public func length(in encoding: PositionEncoding) -> Int { counts.length(in: encoding) }
}
