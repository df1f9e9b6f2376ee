/// The finished sentences of a text that grows at its end: a result a provider streams.
///
/// Why: re-segmenting the unfinished tail on every piece a provider emits costs the tail's
/// length per piece, so a long answer with no sentence end (or a provider emitting one byte
/// at a time) costs quadratic time inside one dispatch. This examines every new byte once:
/// scanning stops at a possible sentence end (a mark or a line break) until enough text
/// follows it to decide it for good, and goes on from there when more text comes.
///
/// A sentence end is decided once a scalar follows the mark's closing punctuation, the
/// whitespace after it and the combining marks after that: everything the scanner's rules
/// look at (`SentenceScanner.sentenceEnd`) then lies in the text, so more text cannot change
/// the decision. Decided ends are exactly those `SentenceSegmenter.sentences` finds between
/// `floor` and the end, apart from the last sentence, which may still be unfinished.
///
/// Offsets in its interface are offsets in the whole text; the bytes before what the caller
/// still reads are let go (`forget(before:)`), and every offset kept inside is relative to
/// the first byte still held (`forgotten` before it). Why: kept whole, the text doubled its
/// buffer as it grew, and a 16 MB answer copied 8 MB and faulted in 16 MB within one text
/// event on the engine's thread; now what is held is what has not streamed into the text yet.
struct StreamedSentences {
    /// The text from `forgotten` on, as UTF-8.
    private var bytes: [UInt8] = []
    /// How many bytes of the text were let go before `bytes`.
    private(set) var forgotten = 0
    /// Where the sentences not taken yet begin (a sentence boundary, or 0).
    private var floor = 0
    /// The end of the last finished sentence after `floor` (text follows it); `floor` if none.
    private var lastEnd = 0
    /// The end of the last finished sentence, an offset of the whole text.
    var finished: Int { forgotten + lastEnd }
    /// The decided sentence ends after `floor`, in order (the last is `lastEnd`). Why: the
    /// streamed part needs their number, and counting them by segmenting the part again cost
    /// as much as the part's length on the engine's thread (6 ms for a 1.5 MB sentence).
    private var ends: [Int] = []
    /// Where scanning goes on: everything before it is decided.
    private var scanned = 0
    /// A possible sentence end waiting for the text that decides it.
    private var pending: Pending?

    /// What is known of an undecided possible sentence end at `start`.
    private struct Pending {
        enum Phase { case marks, closing, spaces, extenders }
        let start: Int
        let isLineBreak: Bool
        /// How far the run after the mark was examined, and which part of it that was.
        var position: Int
        var phase: Phase
    }

    /// The length of the whole text so far.
    var count: Int { forgotten + bytes.count }

    /// Adds a piece of the text and finds the sentences it finished.
    mutating func append(_ piece: Substring.UTF8View) {
        // Copied as one block: appended as a sequence, byte by byte, the pieces of a 16 MB
        // answer took a fifth of the engine's thread while it streamed.
        if piece.withContiguousStorageIfAvailable({ bytes.append(contentsOf: $0) }) == nil { bytes.append(contentsOf: piece) }
        scan()
    }

    mutating func append(_ piece: String) { append(piece[...].utf8) }

    /// The next part to take, at most `limit` bytes past `floor` (or one character, if that is
    /// longer): up to the last finished
    /// sentence that fits, with the number of sentences in it. When the first sentence alone
    /// is longer than `limit` (finished or not: a model writing one endless sentence), a cut
    /// inside it, after a space where there is one, holding no sentence. nil: nothing yet.
    ///
    /// Why a limit: a part is read, aligned and inserted on the engine's thread in one
    /// dispatch, so its cost must not grow with what the provider writes; a 1.5 MB sentence
    /// taken whole held that thread for 5 ms.
    func nextPart(limit: Int) -> (end: Int, sentences: Int)? {
        precondition(limit > 0, "a part holds at least one byte")
        let reach = floor + limit
        let fitting = Self.count(of: ends, atMost: reach)
        if fitting > 0 { return (forgotten + ends[fitting - 1], fitting) }
        // Nothing before `decided` is a sentence end still undecided.
        let decided = ends.first ?? scanned
        guard decided > reach else { return nil }
        return (forgotten + cut(atMost: reach), 0)
    }

    /// Everything before `offset` (a finished sentence's end, or a cut `nextPart` gave) is
    /// taken: later sentences are found from there, and the word before a mark is never read
    /// across it.
    mutating func take(upTo whole: Int) {
        let offset = whole - forgotten
        precondition(offset >= floor && (offset <= lastEnd || offset <= scanned), "only decided text can be taken")
        floor = offset
        lastEnd = max(lastEnd, offset)
        ends.removeFirst(Self.count(of: ends, atMost: offset))
    }

    /// How many of the sorted `ends` are at most `offset` (a binary search: a part of many
    /// short sentences must not be counted one by one on every piece).
    private static func count(of ends: [Int], atMost offset: Int) -> Int {
        var low = 0, high = ends.count
        while low < high {
            let middle = (low + high) / 2
            if ends[middle] <= offset { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// A place to cut the undecided text at or before `reach` (< `bytes.count`): after the
    /// last space or tab in the second half of the part, so a word is not split; else (one
    /// word longer than half the limit) at the start of a scalar; a first scalar longer than
    /// the limit itself (a limit under 4 bytes) is taken whole.
    private func cut(atMost reach: Int) -> Int {
        var i = reach
        let lowest = floor + (reach - floor) / 2
        while i > lowest {
            if bytes[i - 1] == 0x20 || bytes[i - 1] == 0x09 { return i }
            i -= 1
        }
        i = reach
        while i > floor && bytes[i] & 0xC0 == 0x80 { i -= 1 }
        if i > floor { return i }
        // Decided text goes on past `reach` to a scalar boundary: the first scalar ends there
        // (or at the end of the text, when it is the last one: a limit of 1 byte).
        i = floor + 1
        while i < bytes.count && bytes[i] & 0xC0 == 0x80 { i += 1 }
        return i
    }

    /// The text of `range` (byte offsets of the whole text, none of it forgotten).
    func text(_ range: Range<Int>) -> String { String(decoding: bytes(range), as: UTF8.self) }

    /// The bytes of `range` (offsets of the whole text, none of it forgotten); the slice's
    /// indices are offsets in what is held: add `forgotten` for offsets of the whole text.
    func bytes(_ range: Range<Int>) -> ArraySlice<UInt8> {
        precondition(range.lowerBound >= forgotten, "the bytes before \(forgotten) were let go")
        return bytes[(range.lowerBound - forgotten)..<(range.upperBound - forgotten)]
    }

    /// Lets go of the text before `whole` (at most where the sentences not taken begin): the
    /// caller never reads it again. The bytes move down only once as many are let go as
    /// stay, so each byte moves about once, and what stays is what has not streamed yet.
    mutating func forget(before whole: Int) {
        let offset = whole - forgotten
        precondition(offset <= floor, "only taken text can be let go")
        guard offset > 0, offset >= bytes.count - offset else { return }
        bytes.removeFirst(offset)
        forgotten += offset
        floor -= offset
        lastEnd -= offset
        scanned -= offset
        for index in ends.indices { ends[index] -= offset }
        if var waiting = pending {
            waiting.position -= offset
            pending = Pending(start: waiting.start - offset, isLineBreak: waiting.isLineBreak, position: waiting.position,
                              phase: waiting.phase)
        }
    }

    private mutating func scan() {
        let hi = bytes.count
        if var waiting = pending {
            guard Self.advance(&waiting, in: bytes) else { return pending = waiting }
            pending = nil
            decide(waiting.start, lineBreak: waiting.isLineBreak)
        }
        var i = scanned
        while i < hi {
            let b = bytes[i]
            // Fast path: ASCII bytes that neither break lines nor end sentences.
            if b < 0x80 && b != 0x2E && b != 0x21 && b != 0x3F && (b < 0x0A || b > 0x0D) {
                i += 1
                continue
            }
            let isBreak = ParagraphScanner.lineBreakLength(at: i, in: bytes) > 0
            let (v, length) = UTF8Scan.scalar(at: i, in: bytes)
            guard isBreak || ScalarTraits.isSentenceTerminal(v) else {
                i += length
                continue
            }
            var candidate = Pending(start: i, isLineBreak: isBreak, position: i, phase: .marks)
            guard Self.advance(&candidate, in: bytes) else {
                scanned = i
                pending = candidate
                return
            }
            scanned = i
            decide(i, lineBreak: isBreak)
            i = scanned
        }
        scanned = hi
    }

    /// Decides the possible end at `start` (text enough follows it) and moves `scanned` past
    /// what the scanner itself would skip.
    private mutating func decide(_ start: Int, lineBreak: Bool) {
        let hi = bytes.count
        if lineBreak {
            let end = SentenceScanner.trailingWhitespaceEnd(from: start + ParagraphScanner.lineBreakLength(at: start, in: bytes),
                                                            limit: hi, afterBreak: true, in: bytes)
            settle(at: end)
        } else if let end = SentenceScanner.sentenceEnd(markAt: start, limit: hi, floor: floor, in: bytes) {
            settle(at: end)
        } else {
            // Not an end: the scanner skips the whole run of marks.
            var j = start
            while j < hi {
                let (w, l) = UTF8Scan.scalar(at: j, in: bytes)
                guard ScalarTraits.isSentenceTerminal(w) else { break }
                j += l
            }
            scanned = j
        }
    }

    private mutating func settle(at end: Int) {
        if end > lastEnd { ends.append(end) }
        lastEnd = end
        scanned = end
    }

    /// Walks the run after a possible end (marks or the line break, closing punctuation,
    /// whitespace, combining marks) as far as the text goes; true once a scalar follows it.
    private static func advance(_ candidate: inout Pending, in bytes: [UInt8]) -> Bool {
        let hi = bytes.count
        var j = candidate.position
        if candidate.isLineBreak, candidate.phase == .marks {
            j += ParagraphScanner.lineBreakLength(at: j, in: bytes)
            candidate.phase = .spaces
        }
        while j < hi {
            let breakLength = ParagraphScanner.lineBreakLength(at: j, in: bytes)
            let (w, l) = UTF8Scan.scalar(at: j, in: bytes)
            switch candidate.phase {
            case .marks:
                if ScalarTraits.isSentenceTerminal(w) { j += l; continue }
                candidate.phase = .closing
            case .closing:
                if ScalarTraits.isClosingPunctuation(w) { j += l; continue }
                candidate.phase = .spaces
            case .spaces:
                if breakLength > 0 { j += breakLength; continue }
                if ScalarTraits.isWhitespace(w) { j += l; continue }
                candidate.phase = .extenders
            case .extenders:
                if ScalarTraits.isClusterExtender(w) { j += l; continue }
                candidate.position = j
                return true
            }
        }
        candidate.position = j
        return false
    }
}
