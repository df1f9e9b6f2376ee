/// Which of the suggestions `--write` would apply unseen still stand once the others of their
/// sentence are applied. Why: a checker judges each match on the text as it was, so two
/// matches can read each other's words: LanguageTool's "thanks for you're message" gives
/// `you're` → `your` (IN_YOU_RE_NN) *and* `message` → `messaged` (BEEN_PART_AGREEMENT, which
/// read "you are message"); applied together they write "your messaged". Neighbours that do
/// not read each other ("They has a example" → "They have an example") must both go in, so
/// nearness alone decides nothing: the checkers are asked again.
///
/// How (bounded): the sentences with two or more candidates are checked again one candidate
/// at a time, in text order. Each round applies the next candidate still standing in every
/// such sentence and re-checks those sentences in one call; a later candidate that the
/// re-check no longer proposes (same place, same replacement) depended on a neighbour's
/// original words and is held back for review. A candidate is only ever kept or held: the
/// re-check never adds a suggestion the user was not shown. Rounds ≤ the most candidates in
/// one sentence; a sentence with one candidate is never re-checked, nor one whose later
/// candidates all judge their own word alone (a speller's: applying a neighbour cannot change
/// whether a word is in a dictionary), so a file of typos costs no re-check.
public enum NeighbourRecheck {
    /// A suggestion: UTF-8 byte `range` of the text, and what replaces it.
    public struct Candidate: Equatable, Sendable {
        public let range: Range<Int>
        public let replacement: String
        /// false: its checker judged its own word alone (a spelling suggestion), so it stands
        /// whatever its neighbours become and needs no re-check.
        public let readsNeighbours: Bool

        public init(range: Range<Int>, replacement: String, readsNeighbours: Bool = true) {
            self.range = range
            self.replacement = replacement
            self.readsNeighbours = readsNeighbours
        }

        /// Whether `other` (a re-check's suggestion) proposes this one: same place, same text.
        func isProposed(by other: Candidate) -> Bool { range == other.range && replacement == other.replacement }
    }

    /// What separates the sentences of one re-check (each is checked as a paragraph of its own).
    static let separator: [UInt8] = Array("\n\n".utf8)

    /// For each of `candidates` (non-overlapping, in any order) whether it still stands:
    /// false for one held back. `check` proofreads a text and gives its suggestions, or nil
    /// when it could not check all of it (a checker timed out or failed); then the candidates
    /// it was to confirm are held back, as not confirmed.
    public static func standing<Failure: Error>(in text: [UInt8], candidates: [Candidate],
                                                check: ([UInt8]) throws(Failure) -> [Candidate]?) throws(Failure) -> [Bool] {
        var keep = Array(repeating: true, count: candidates.count)
        var clusters: [Cluster] = []
        var bySentence: [Int: Int] = [:]
        for index in candidates.indices.sorted(by: { candidates[$0].range.lowerBound < candidates[$1].range.lowerBound }) {
            let span = sentence(around: candidates[index].range, in: text)
            if let at = bySentence[span.lowerBound] {
                clusters[at].pending.append(index)
                clusters[at].span = clusters[at].span.lowerBound..<max(clusters[at].span.upperBound, span.upperBound)
            } else {
                bySentence[span.lowerBound] = clusters.count
                clusters.append(Cluster(span: span, pending: [index]))
            }
        }
        // A sentence is re-checked only when a candidate after its first reads neighbours.
        clusters.removeAll { $0.pending.dropFirst().allSatisfy { !candidates[$0].readsNeighbours } }
        while true {
            // Apply the next standing candidate of each sentence; re-check those with more to judge.
            var batch: [UInt8] = []
            var judged: [(cluster: Int, expected: [Candidate])] = []
            for c in clusters.indices where !clusters[c].pending.isEmpty {
                clusters[c].accepted.append(clusters[c].pending.removeFirst())
                guard clusters[c].pending.contains(where: { candidates[$0].readsNeighbours }) else {
                    // Only spelling left (or nothing): each stands on its own word.
                    clusters[c].accepted += clusters[c].pending
                    clusters[c].pending = []
                    continue
                }
                if !batch.isEmpty { batch += separator }
                let base = batch.count
                batch += clusters[c].applied(in: text, candidates)
                let expected = clusters[c].pending.map { clusters[c].placed(candidates[$0], candidates, offset: base) }
                judged.append((c, expected))
            }
            if judged.isEmpty { break }
            let found = try check(batch)
            for (c, expected) in judged {
                var standing: [Int] = []
                for (index, placed) in zip(clusters[c].pending, expected) {
                    if !candidates[index].readsNeighbours || found?.contains(where: placed.isProposed) == true {
                        standing.append(index)
                    } else {
                        keep[index] = false
                    }
                }
                clusters[c].pending = standing
            }
        }
        return keep
    }

    /// One sentence's candidates: those applied in the re-checks so far, and those still to judge.
    struct Cluster {
        var span: Range<Int>
        var pending: [Int]
        var accepted: [Int] = []

        /// The sentence with the accepted candidates applied.
        func applied(in text: [UInt8], _ candidates: [Candidate]) -> [UInt8] {
            var out: [UInt8] = []
            var at = span.lowerBound
            for index in accepted.sorted(by: { candidates[$0].range.lowerBound < candidates[$1].range.lowerBound }) {
                let range = candidates[index].range
                out += text[at..<range.lowerBound]
                out += Array(candidates[index].replacement.utf8)
                at = range.upperBound
            }
            out += text[at..<span.upperBound]
            return out
        }

        /// Where `candidate` sits in `applied(...)` placed at `offset` of the re-checked text.
        func placed(_ candidate: Candidate, _ candidates: [Candidate], offset: Int) -> Candidate {
            var shift = offset - span.lowerBound
            for index in accepted where candidates[index].range.upperBound <= candidate.range.lowerBound {
                shift += candidates[index].replacement.utf8.count - candidates[index].range.count
            }
            let range = (candidate.range.lowerBound + shift)..<(candidate.range.upperBound + shift)
            return Candidate(range: range, replacement: candidate.replacement, readsNeighbours: candidate.readsNeighbours)
        }
    }

    /// The sentence of `text` that holds `range`: from after the last `.`, `!` or `?` followed
    /// by white space (or a blank line) before it, to the next such end after it (its end
    /// mark included, the white space not).
    static func sentence(around range: Range<Int>, in text: [UInt8]) -> Range<Int> {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        func isEnd(_ byte: UInt8) -> Bool { byte == 0x2E || byte == 0x21 || byte == 0x3F }
        var start = min(range.lowerBound, text.count)
        while start > 0 {
            let before = text[start - 1]
            if isSpace(before), start >= 2, isEnd(text[start - 2]) || (before == 0x0A && text[start - 2] == 0x0A) { break }
            start -= 1
        }
        while start < range.lowerBound, isSpace(text[start]) { start += 1 }
        var end = max(range.upperBound, start)
        while end < text.count {
            if isEnd(text[end]), end + 1 == text.count || isSpace(text[end + 1]) { end += 1; break }
            if text[end] == 0x0A, end + 1 < text.count, text[end + 1] == 0x0A { break }
            end += 1
        }
        return start..<end
    }
}
