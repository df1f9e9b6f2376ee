import Glibc

/// A large text as a sequence of chunks of UTF-8 (a rope one level deep), with marks: points
/// of the text that follow its edits.
///
/// Why: a session's text is the engine's whole document, and a proofread delivers thousands
/// of replaces into it. Replacing bytes of one `String` moves everything after the edit, and
/// shifting every anchor visits every anchor: both grow with the document. Here an edit
/// touches one chunk (a few KB) and the marks inside it; chunk starts are prefix sums in a
/// Fenwick tree, so finding a byte, a mark's position, or an offset in UTF-16 units or code
/// points costs the logarithm of the number of chunks, never a scan from the start.
///
/// Chunk boundaries always fall between characters (edits do), so every chunk knows its
/// length in each encoding. A mark is an id (a small integer the owner chooses) at a byte
/// position; after replacing `a..<b` with text `delta` bytes longer, a mark at `p <= a`
/// stays, one at `p >= b` moves by `delta`, one strictly inside goes to `a`. Owners that need
/// other rules (an anchor's edges) read `marks(in:)` first and set those marks again after.
public final class TextRope {
    final class Chunk {
        var bytes: [UInt8]
        var index: Int
        /// Ids of the marks in this chunk.
        var marks: [Int] = []
        /// Its length in UTF-16 units and code points (kept: rebuilding the index must not
        /// read the whole text again).
        var utf16: Int
        var scalars: Int
        init(_ bytes: [UInt8], index: Int) {
            self.bytes = bytes
            self.index = index
            (utf16, scalars) = TextRope.counts(bytes)
        }
        /// A chunk counted already (`PreparedReplacement`: elsewhere).
        init(_ bytes: [UInt8], index: Int, utf16: Int, scalars: Int) {
            self.bytes = bytes
            self.index = index
            self.utf16 = utf16
            self.scalars = scalars
        }
    }

    /// Chunks are split above this many bytes and merged with a neighbour below `minimum`.
    static let maximumChunk = 2048
    static let minimumChunk = 256

    private var chunks: [Chunk] = []
    private var bytesBefore = FenwickTree([])
    private var utf16Before = FenwickTree([])
    private var scalarsBefore = FenwickTree([])
    /// Per mark id: its chunk (nil: no such mark), its offset in that chunk, and where its id
    /// sits in the chunk's `marks` (so removing it is no search: a dense proofread keeps
    /// hundreds of marks in a chunk and moves each of its anchors several times).
    private var markChunk: [Chunk?] = []
    private var markOffset: [Int] = []
    private var markSlot: [Int] = []
    /// How many replaces linked in chunks prepared elsewhere (what tests count).
    public private(set) var preparedReplaces = 0
    /// How many replaces it took: text read at one count is still there while the count is
    /// the same (a caller that compared a range need not compare it again).
    public private(set) var replaceCount = 0
    /// Where a replace that takes out `removedLetGoAt` chunks or more hands them (nil: they are
    /// freed in the replace, on the caller's thread). Why: taking a 16 MB change out (a
    /// rewrite into one sentence delivered, a version shown) freed 8,000 chunks in the
    /// dispatch that answered the replace (`Chunk` deinit and `_int_free`: 2-2.5 ms of the
    /// engine's thread); an owner hands them to a thread of its own (`RemovedChunks.letGo`).
    public var letGoOfRemoved: ((RemovedChunks) -> Void)?
    /// How many chunks a replace takes out for them to go to `letGoOfRemoved` (128 KB and
    /// more: fewer cost less to free than a thread costs to start).
    public static let removedLetGoAt = 64

    /// Chunks a replace took out, which nothing in the rope reaches any more (their marks
    /// went to the new chunks).
    public final class RemovedChunks: @unchecked Sendable {
        private var chunks: [Chunk]
        public let count: Int
        init(_ chunks: consuming [Chunk]) {
            self.chunks = chunks
            count = self.chunks.count
        }

        /// Frees the chunks on the thread that calls it, whoever holds this last: the one
        /// thread that may call it is the one it was handed to.
        public func letGo() {
            chunks = []
        }
    }

    public init(_ text: String) {
        // Cut straight from the string's storage: a 10 MB context is copied once, into chunks.
        var text = text
        chunks = text.withUTF8 { Self.split($0) }.enumerated().map { Chunk($1, index: $0) }
        if chunks.isEmpty { chunks = [Chunk([], index: 0)] }
        rebuildIndex()
    }

    // MARK: Reading

    public var utf8Count: Int { bytesBefore.prefix(chunks.count) }

    /// The whole text (costs its length).
    public var string: String {
        var all: [UInt8] = []
        all.reserveCapacity(utf8Count)
        for chunk in chunks { all += chunk.bytes }
        return String(decoding: all, as: UTF8.self)
    }

    /// The bytes of `range`.
    public func bytes(_ range: Range<Int>) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(range.count)
        var (index, start) = locate(range.lowerBound)
        while result.count < range.count, index < chunks.count {
            let chunk = chunks[index].bytes
            let from = max(0, range.lowerBound - start), to = min(chunk.count, range.upperBound - start)
            if from < to { result += chunk[from..<to] }
            start += chunk.count
            index += 1
        }
        return result
    }

    /// The text of `range` (on character boundaries). The chunks are copied straight into the
    /// string's storage: no intermediate array (a 1.5 MB streamed sentence is sliced several
    /// times on the engine's thread).
    public func substring(_ range: Range<Int>) -> String {
        guard !range.isEmpty else { return "" }
        return String(unsafeUninitializedCapacity: range.count) { buffer in
            var written = 0
            var (index, start) = locate(range.lowerBound)
            while written < range.count, index < chunks.count {
                let chunk = chunks[index].bytes
                let from = max(0, range.lowerBound - start), to = min(chunk.count, range.upperBound - start)
                if from < to {
                    _ = UnsafeMutableBufferPointer(rebasing: buffer[written..<(written + to - from)]).initialize(from: chunk[from..<to])
                    written += to - from
                }
                start += chunk.count
                index += 1
            }
            return written
        }
    }

    /// Calls `body` with each chunk's part inside `range` and that part's offset in the text,
    /// in order, without copying.
    public func forEachChunk(in range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>, Int) -> Void) {
        guard !range.isEmpty else { return }
        var (index, start) = locate(range.lowerBound)
        while index < chunks.count, start < range.upperBound {
            let chunk = chunks[index].bytes
            let from = max(0, range.lowerBound - start), to = min(chunk.count, range.upperBound - start)
            if from < to { chunk.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[from..<to]), start + from) } }
            start += chunk.count
            index += 1
        }
    }

    /// The bytes of `range` as the chunks hold them now, shared and not copied (costs the
    /// number of chunks): see `TextRope.Snapshot`.
    public func snapshot(_ range: Range<Int>) -> Snapshot {
        var parts: [ArraySlice<UInt8>] = []
        guard !range.isEmpty else { return Snapshot(parts: parts, start: range.lowerBound, count: 0) }
        var (index, start) = locate(range.lowerBound)
        while index < chunks.count, start < range.upperBound {
            let chunk = chunks[index].bytes
            let from = max(0, range.lowerBound - start), to = min(chunk.count, range.upperBound - start)
            if from < to { parts.append(chunk[from..<to]) }
            start += chunk.count
            index += 1
        }
        return Snapshot(parts: parts, start: range.lowerBound, count: range.count)
    }

    /// The byte at `offset` (`0 <= offset < utf8Count`).
    public func byte(at offset: Int) -> UInt8 {
        let (index, start) = locate(offset)
        return chunks[index].bytes[offset - start]
    }

    // MARK: Editing

    /// Replaces `range` (on character boundaries) with `replacement`; `prepared`, when given,
    /// must have been made of the same bytes (`PreparedReplacement`): its chunks are linked in
    /// instead of being cut and counted here.
    public func replace(_ range: Range<Int>, with replacement: some Collection<UInt8>, prepared: PreparedReplacement? = nil) {
        assert(prepared.map { $0.isMade(of: replacement) } ?? true, "a prepared replacement made of other bytes")
        replaceCount += 1
        let (first, firstStart) = locate(range.lowerBound)
        var last = first, lastStart = firstStart
        while range.upperBound > lastStart + chunks[last].bytes.count, last + 1 < chunks.count {
            lastStart += chunks[last].bytes.count
            last += 1
        }
        let delta = replacement.count - range.count
        if first == last, chunks.count == 1 || chunks[first].bytes.count + delta >= Self.minimumChunk,
           chunks[first].bytes.count + delta <= Self.maximumChunk {
            // The common case: one chunk changes in place, and the marks after the edit in it.
            let chunk = chunks[first]
            let local = (range.lowerBound - firstStart)..<(range.upperBound - firstStart)
            let (oldUTF16, oldScalars) = Self.counts(chunk.bytes[local])
            let (newUTF16, newScalars) = Self.counts(replacement)
            chunk.bytes.replaceSubrange(local, with: replacement)
            chunk.utf16 += newUTF16 - oldUTF16
            chunk.scalars += newScalars - oldScalars
            // One access to each array for the whole loop (a dense proofread has hundreds of
            // marks in a chunk; an access check per mark cost more than the move).
            let ids = chunk.marks
            markOffset.withUnsafeMutableBufferPointer { offsets in
                for id in ids { offsets[id] = Self.moved(offsets[id], local, delta) }
            }
            bytesBefore.add(delta, at: first)
            utf16Before.add(newUTF16 - oldUTF16, at: first)
            scalarsBefore.add(newScalars - oldScalars, at: first)
            return
        }
        // Several chunks, or one that grows too large or too small: the chunks concerned (and
        // a small one's neighbour) are joined, edited and cut again; their marks go along.
        var lower = first, upper = last
        var start = firstStart
        let remaining = lastStart + chunks[last].bytes.count - firstStart + delta
        if remaining < Self.minimumChunk && upper - lower + 1 < chunks.count {
            if lower > 0 {
                lower -= 1
                start -= chunks[lower].bytes.count
            } else {
                upper += 1
            }
        }
        // Only what stays of the chunks is copied, with the replacement in its place: taking
        // back a 16 MB change (a refused result that had streamed in) copied all of it into
        // one array first, to throw it away.
        let local = (range.lowerBound - start)..<(range.upperBound - start)
        // What stays of the chunks before the replaced bytes and after them (a few chunks).
        var head: [UInt8] = [], tail: [UInt8] = []
        var marks: [(id: Int, position: Int)] = []
        var offset = 0
        for chunk in chunks[lower...upper] {
            for id in chunk.marks { marks.append((id, offset + markOffset[id])) }
            let size = chunk.bytes.count
            head += chunk.bytes[0..<max(0, min(size, local.lowerBound - offset))]
            tail += chunk.bytes[max(0, min(size, local.upperBound - offset))..<size]
            offset += size
        }
        var pieces: [Chunk]
        if let prepared, prepared.count == replacement.count {
            // Cut and counted elsewhere: only its ends are joined with what stays around it.
            preparedReplaces += 1
            pieces = Self.split(head + prepared.leading).map { Chunk($0, index: 0) }
            for (bytes, (utf16, scalars)) in zip(prepared.middle, zip(prepared.middleUTF16, prepared.middleScalars)) {
                pieces.append(Chunk(bytes, index: 0, utf16: utf16, scalars: scalars))
            }
            pieces += Self.split(prepared.trailing + tail).map { Chunk($0, index: 0) }
            for (offset, piece) in pieces.enumerated() { piece.index = lower + offset }
        } else {
            pieces = Self.split(head: head, replacement, tail: tail).enumerated().map { Chunk($1, index: lower + $0) }
        }
        if pieces.isEmpty { pieces = [Chunk([], index: lower)] }   // the whole text went
        let replaced = Array(chunks[lower...upper])
        let reachesEnd = upper == chunks.count - 1
        chunks.replaceSubrange(lower...upper, with: pieces)
        // Each mark into the last piece starting at or before its new position.
        var pieceStarts: [Int] = []
        var sum = 0
        for piece in pieces { pieceStarts.append(sum); sum += piece.bytes.count }
        for (id, position) in marks {
            let moved = Self.moved(position, local, delta)
            var low = 0, high = pieces.count - 1
            while low < high {
                let middle = (low + high + 1) / 2
                if pieceStarts[middle] <= moved { low = middle } else { high = middle - 1 }
            }
            markSlot[id] = pieces[low].marks.count
            pieces[low].marks.append(id)
            markChunk[id] = pieces[low]
            markOffset[id] = moved - pieceStarts[low]
        }
        if pieces.count == replaced.count {
            // As many chunks as before: only their entries of the index change.
            for (offset, (old, new)) in zip(replaced, pieces).enumerated() {
                bytesBefore.add(new.bytes.count - old.bytes.count, at: lower + offset)
                utf16Before.add(new.utf16 - old.utf16, at: lower + offset)
                scalarsBefore.add(new.scalars - old.scalars, at: lower + offset)
            }
        } else if reachesEnd {
            // At the text's end (a result streamed in at the end of the document): no chunk
            // after them moves, so their entries are taken off the end and the new ones put
            // on, costing the pieces, not the whole index (rebuilt per streamed part, it read
            // every chunk of a 16 MB result each time).
            for _ in replaced {
                bytesBefore.removeLast()
                utf16Before.removeLast()
                scalarsBefore.removeLast()
            }
            for piece in pieces {
                bytesBefore.append(piece.bytes.count)
                utf16Before.append(piece.utf16)
                scalarsBefore.append(piece.scalars)
            }
        } else {
            rebuildIndex()
        }
        if replaced.count >= Self.removedLetGoAt, let letGoOfRemoved { letGoOfRemoved(RemovedChunks(consume replaced)) }
    }

    // MARK: Marks

    /// Puts mark `id` at byte `position` (moving it if it is somewhere already).
    public func setMark(_ id: Int, at position: Int) {
        let (index, start) = locate(position)
        if id < markChunk.count, markChunk[id] === chunks[index] {
            // Moved within its chunk: only its offset changes.
            markOffset[id] = position - start
            return
        }
        removeMark(id)
        if id >= markChunk.count {
            let more = id + 1 - markChunk.count
            markChunk += Array(repeating: nil, count: more)
            markOffset += Array(repeating: 0, count: more)
            markSlot += Array(repeating: 0, count: more)
        }
        markSlot[id] = chunks[index].marks.count
        chunks[index].marks.append(id)
        markChunk[id] = chunks[index]
        markOffset[id] = position - start
    }

    /// Makes room for marks with ids below `count`. Why: the tables of marks grow by doubling,
    /// and each doubling moved every mark in one call (a million anchors: three tables of
    /// 16 MB); an owner that knows how many marks are coming makes room while they are few.
    public func reserveMarks(_ count: Int) {
        markChunk.reserveCapacity(count)
        markOffset.reserveCapacity(count)
        markSlot.reserveCapacity(count)
    }

    public func removeMark(_ id: Int) {
        guard id < markChunk.count, let chunk = markChunk[id] else { return }
        markChunk[id] = nil
        // Where it sits (searched for only if that was lost, which the rope's tests rule out).
        let known = markSlot[id]
        guard let at = known < chunk.marks.count && chunk.marks[known] == id ? known : chunk.marks.firstIndex(of: id) else { return }
        // The last id of the chunk takes its place.
        let last = chunk.marks.removeLast()
        if last != id {
            chunk.marks[at] = last
            markSlot[last] = at
        }
    }

    /// Where mark `id` is; nil when there is no such mark.
    public func position(ofMark id: Int) -> Int? {
        guard id < markChunk.count, let chunk = markChunk[id] else { return nil }
        return bytesBefore.prefix(chunk.index) + markOffset[id]
    }

    /// The ids of the marks at positions in `range` (both ends included).
    public func marks(in range: ClosedRange<Int>) -> [Int] {
        var found: [Int] = []
        // A mark at a chunk's end may sit in the chunk before the one holding that byte.
        var (index, start) = locate(max(0, range.lowerBound - 1))
        while index < chunks.count, start <= range.upperBound {
            let ids = chunks[index].marks
            markOffset.withUnsafeBufferPointer { offsets in
                for id in ids where range.contains(start + offsets[id]) { found.append(id) }
            }
            start += chunks[index].bytes.count
            index += 1
        }
        return found
    }

    // MARK: Encodings

    /// The length of the text in UTF-16 units and in code points.
    public var utf16Count: Int { utf16Before.prefix(chunks.count) }
    public var scalarCount: Int { scalarsBefore.prefix(chunks.count) }

    /// The UTF-8 offset of `offset` counted in `encoding`.
    public func utf8Offset(_ offset: Int, from encoding: PositionEncoding) throws(PositionError) -> Int {
        guard offset >= 0 else { throw .outOfBounds(offset: offset, length: length(in: encoding)) }
        switch encoding {
        case .utf8:
            guard offset <= utf8Count else { throw .outOfBounds(offset: offset, length: utf8Count) }
            if offset < utf8Count, byte(at: offset) & 0xC0 == 0x80 { throw .splitsCharacter(offset: offset) }
            return offset
        case .utf16, .codePoint:
            let tree = encoding == .utf16 ? utf16Before : scalarsBefore
            let total = tree.prefix(chunks.count)
            guard offset <= total else { throw .outOfBounds(offset: offset, length: total) }
            var (index, units) = tree.search(offset)
            if index >= chunks.count { index = chunks.count - 1; units = tree.prefix(index) }
            var bytes = bytesBefore.prefix(index)
            let chunk = chunks[index].bytes
            var i = 0
            while units < offset, i < chunk.count {
                let (width, utf16) = Self.scalarWidths(chunk, at: i)
                let step = encoding == .utf16 ? utf16 : 1
                if units + step > offset { throw .splitsCharacter(offset: offset) }
                units += step
                i += width
            }
            bytes += i
            return bytes
        }
    }

    /// The offset in `encoding` of a UTF-8 offset on a character boundary.
    public func offset(fromUTF8 offset: Int, to encoding: PositionEncoding) throws(PositionError) -> Int {
        let valid = try utf8Offset(offset, from: .utf8)
        guard encoding != .utf8 else { return valid }
        let (index, start) = locate(valid)
        var units = (encoding == .utf16 ? utf16Before : scalarsBefore).prefix(index)
        let chunk = chunks[index].bytes
        var i = 0
        while i < valid - start {
            let (width, utf16) = Self.scalarWidths(chunk, at: i)
            units += encoding == .utf16 ? utf16 : 1
            i += width
        }
        return units
    }

    public func length(in encoding: PositionEncoding) -> Int {
        switch encoding {
        case .utf8: return utf8Count
        case .utf16: return utf16Count
        case .codePoint: return scalarCount
        }
    }

    // MARK: Helpers

    /// The chunk holding byte `offset` (the last one for the end) and where it starts.
    private func locate(_ offset: Int) -> (index: Int, start: Int) {
        var (index, start) = bytesBefore.search(offset)
        if index >= chunks.count {
            index = chunks.count - 1
            start = bytesBefore.prefix(index)
        }
        return (index, start)
    }

    private func rebuildIndex() {
        var bytes: [Int] = [], utf16: [Int] = [], scalars: [Int] = []
        bytes.reserveCapacity(chunks.count); utf16.reserveCapacity(chunks.count); scalars.reserveCapacity(chunks.count)
        for (index, chunk) in chunks.enumerated() {
            chunk.index = index
            bytes.append(chunk.bytes.count)
            utf16.append(chunk.utf16)
            scalars.append(chunk.scalars)
        }
        bytesBefore = FenwickTree(bytes)
        utf16Before = FenwickTree(utf16)
        scalarsBefore = FenwickTree(scalars)
    }

    /// Where `replace` puts a mark that was at `position` when `range` is replaced by text
    /// `delta` bytes longer: before or at its start it stays, at or after its end it moves by
    /// `delta`, inside it goes to its start. (Callers that want other rules for some marks
    /// compare with this and set only those.)
    public static func markPosition(_ position: Int, afterReplacing range: Range<Int>, delta: Int) -> Int {
        moved(position, range, delta)
    }

    /// A mark's position after `local` was replaced by text `delta` bytes longer.
    private static func moved(_ position: Int, _ local: Range<Int>, _ delta: Int) -> Int {
        if position <= local.lowerBound { return position }
        if position >= local.upperBound { return position + delta }
        return local.lowerBound
    }

    /// `head`, `replacement` and `tail` joined, cut as `split` cuts. Why not joined first: a
    /// replacement of megabytes (a rewrite of a million words delivered, or the original put
    /// back by revert) was copied whole into one array, then again into the chunks, on the
    /// engine's thread; a long one is cut straight from its own storage, only its first and
    /// last characters' worth joined with what stays around it.
    private static func split(head: [UInt8], _ replacement: some Collection<UInt8>, tail: [UInt8]) -> [[UInt8]] {
        if replacement.count >= 4 * maximumChunk, let pieces = replacement.withContiguousStorageIfAvailable({ bytes -> [[UInt8]]? in
            // Cut on character boundaries, about half a chunk from either end.
            guard let (first, last) = cuts(bytes) else { return nil }
            return split(head + UnsafeBufferPointer(rebasing: bytes[..<first]))
                + split(UnsafeBufferPointer(rebasing: bytes[first..<last]))
                + split(Array(UnsafeBufferPointer(rebasing: bytes[last...])) + tail)
        }), let pieces {
            return pieces
        }
        var joined: [UInt8] = []
        joined.reserveCapacity(head.count + replacement.count + tail.count)
        joined += head
        joined += replacement
        joined += tail
        return split(joined)
    }

    /// Where a long replacement is cut: its first and last characters' worth (about half a
    /// chunk each) join what stays around it, the rest becomes chunks of its own. Nil when it
    /// is too short to be cut so (the three parts are never small enough to leave a small chunk).
    fileprivate static func cuts(_ bytes: UnsafeBufferPointer<UInt8>) -> (first: Int, last: Int)? {
        guard bytes.count >= 4 * maximumChunk else { return nil }
        var first = maximumChunk / 2
        while first < bytes.count, bytes[first] & 0xC0 == 0x80 { first += 1 }
        var last = max(first, bytes.count - maximumChunk / 2)
        while last < bytes.count, bytes[last] & 0xC0 == 0x80 { last += 1 }
        return (first, last)
    }

    /// Cuts bytes into chunks of about `maximumChunk / 2` bytes (room to grow), each ending
    /// on a character boundary.
    private static func split(_ bytes: [UInt8]) -> [[UInt8]] {
        bytes.withUnsafeBufferPointer { split($0) }
    }

    fileprivate static func split(_ bytes: UnsafeBufferPointer<UInt8>) -> [[UInt8]] {
        guard !bytes.isEmpty else { return [] }
        // Even pieces: none is left small enough to be joined again at its next edit.
        let count = (bytes.count + maximumChunk / 2 - 1) / (maximumChunk / 2)
        let size = (bytes.count + count - 1) / count
        var pieces: [[UInt8]] = []
        pieces.reserveCapacity(count)
        var start = 0
        while start < bytes.count {
            var end = min(bytes.count, start + size)
            while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
            pieces.append(Array(bytes[start..<end]))
            start = end
        }
        return pieces
    }

    /// UTF-16 units and code points of valid UTF-8 bytes.
    static func counts(_ bytes: some Collection<UInt8>) -> (utf16: Int, scalars: Int) {
        if let counted = bytes.withContiguousStorageIfAvailable(countsOfBuffer) { return counted }
        var scalars = 0, fourByte = 0
        for byte in bytes {
            if byte & 0xC0 != 0x80 { scalars += 1 }
            if byte >= 0xF0 { fourByte += 1 }
        }
        return (scalars + fourByte, scalars)
    }

    /// The same over contiguous bytes, eight at a time where they are ASCII (a 10 MB
    /// context is counted when it is given: byte by byte that took ~10 ms).
    private static func countsOfBuffer(_ bytes: UnsafeBufferPointer<UInt8>) -> (utf16: Int, scalars: Int) {
        var scalars = 0, fourByte = 0
        var i = 0
        let raw = UnsafeRawBufferPointer(bytes)
        while i < bytes.count {
            if i + 8 <= bytes.count, raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                scalars += 8
                i += 8
                continue
            }
            let byte = bytes[i]
            if byte & 0xC0 != 0x80 { scalars += 1 }
            if byte >= 0xF0 { fourByte += 1 }
            i += 1
        }
        return (scalars + fourByte, scalars)
    }

    /// The UTF-8 width of the scalar at `i` and its UTF-16 width.
    private static func scalarWidths(_ bytes: [UInt8], at i: Int) -> (utf8: Int, utf16: Int) {
        let lead = bytes[i]
        if lead < 0x80 { return (1, 1) }
        if lead < 0xE0 { return (2, 1) }
        if lead < 0xF0 { return (3, 1) }
        return (4, 2)
    }
}

/// A long replacement cut into the rope's chunks and counted ahead, on any thread, so that
/// the replace itself only links them in (`TextRope.replace(_:with:prepared:)`).
///
/// Why: a rewrite of a million words is delivered as one replace of 4 MB; cutting it into
/// two thousand chunks and counting each one's UTF-16 units and code points cost
/// milliseconds of the engine's thread in the dispatch that took the engine's answer. The
/// runtime thread that plans the edit (`VersionPlan`) prepares it instead. Its ends (about
/// half a chunk each) are kept apart: they join the bytes that stay around the replaced
/// range, which only the replace knows.
public struct PreparedReplacement: Sendable {
    /// The replacement's length in bytes.
    public let count: Int
    let leading: [UInt8]
    let middle: [[UInt8]]
    let middleUTF16: [Int]
    let middleScalars: [Int]
    let trailing: [UInt8]

    /// Prepares `bytes` (valid UTF-8); nil when it is too short to be worth it (a few chunks).
    public init?(_ bytes: some Collection<UInt8>) {
        guard let made = bytes.withContiguousStorageIfAvailable({ bytes -> (leading: [UInt8], middle: [[UInt8]], trailing: [UInt8])? in
            guard let (first, last) = TextRope.cuts(bytes) else { return nil }
            return (Array(bytes[..<first]), TextRope.split(UnsafeBufferPointer(rebasing: bytes[first..<last])), Array(bytes[last...]))
        }), let made else { return nil }
        count = bytes.count
        leading = made.leading
        middle = made.middle
        trailing = made.trailing
        let counts = made.middle.map { TextRope.counts($0) }
        middleUTF16 = counts.map(\.utf16)
        middleScalars = counts.map(\.scalars)
    }

    /// Whether it was made of `bytes` (costs their length: for checks in debug builds).
    func isMade(of bytes: some Collection<UInt8>) -> Bool {
        bytes.count == count && bytes.elementsEqual(leading + middle.joined() + trailing)
    }

    /// Whether it was made of `text`'s bytes, compared in place (costs their length, a
    /// fraction of cutting them: for a replacement prepared before its text was known for sure).
    public func isMade(of text: String) -> Bool {
        var text = text
        guard text.utf8.count == count else { return false }
        return text.withUTF8 { bytes in
            var at = 0
            for part in [leading] + middle + [trailing] {
                let same = part.withUnsafeBufferPointer { part in
                    part.isEmpty || memcmp(part.baseAddress!, bytes.baseAddress! + at, part.count) == 0
                }
                guard same else { return false }
                at += part.count
            }
            return at == count
        }
    }
}
