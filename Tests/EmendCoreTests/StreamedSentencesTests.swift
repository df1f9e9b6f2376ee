import XCTest
@testable import EmendCore

/// The sentences of a growing text, found piece by piece, against segmenting the whole text.
final class StreamedSentencesTests: XCTestCase {
    private static let parts = ["Dr.", " ", "Smith", " e.g.", " a", ". ", "B", "?", "!", "\"", ")", " ", "\n", "\r", "\n\n",
                                "…", " and", " 3.5", " U.S.", " J.", " R.", "。", "日本", "\u{301}", "\u{2028}", "x", "  ", "Y", "."]

    /// Every finished end found while the text grows is an end of the whole text's sentences
    /// (decisions never change), and the last one is the end of the whole text's second to
    /// last sentence once a visible character follows.
    func testFinishedEndsAgreeWithSegmentingTheWholeText() {
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<3_000 {
            var text = ""
            var sentences = StreamedSentences()
            var seen: [Int] = []
            for _ in 0..<Int.random(in: 1...30, using: &rng) {
                let piece = Self.parts.randomElement(using: &rng)!
                // Pieces arrive in random cuts, one scalar at a time or whole.
                for scalar in Bool.random(using: &rng) ? piece.unicodeScalars.map(String.init) : [piece] {
                    text += scalar
                    sentences.append(scalar)
                    if seen.last != sentences.finished { seen.append(sentences.finished) }
                }
            }
            text += " Z"
            sentences.append(" Z")
            if seen.last != sentences.finished { seen.append(sentences.finished) }
            let whole = SentenceSegmenter.sentences(in: text).map(\.upperBound)
            for end in seen where end > 0 {
                XCTAssertTrue(whole.contains(end), "\(end) is no sentence end of \(text.debugDescription): \(whole)")
            }
            let expected = whole.count >= 2 ? whole[whole.count - 2] : 0
            XCTAssertEqual(sentences.finished, expected, text.debugDescription)
        }
    }

    /// The number of finished sentences the stream counted as it went is the number found by
    /// segmenting the finished part alone, whenever it is taken (the streamed part's sentences
    /// replace as many of the original's).
    func testSentenceCountAgreesWithSegmentingTheFinishedPart() {
        var rng = SystemRandomNumberGenerator()
        var compared = 0
        for _ in 0..<3_000 {
            var sentences = StreamedSentences()
            var floor = 0
            for _ in 0..<Int.random(in: 1...40, using: &rng) {
                let piece = Self.parts.randomElement(using: &rng)!
                for scalar in Bool.random(using: &rng) ? piece.unicodeScalars.map(String.init) : [piece] {
                    sentences.append(scalar)
                }
                let finished = sentences.finished
                guard finished > floor, Int.random(in: 0..<3, using: &rng) == 0 else { continue }
                let part = sentences.text(floor..<finished)
                // With no limit to speak of, the next part is everything finished.
                let next = sentences.nextPart(limit: 1 << 40)
                XCTAssertEqual(next?.end, finished)
                XCTAssertEqual(next?.sentences, SentenceSegmenter.sentences(in: part).count, part.debugDescription)
                sentences.take(upTo: finished)
                floor = finished
                compared += 1
            }
        }
        XCTAssertGreaterThan(compared, 1_000)
    }

    /// Taken in parts of at most `limit` bytes while it grows, a text's parts fit the limit,
    /// end at a scalar's start, and hold as many sentences as the whole text has ending in
    /// them: a part cut inside a long sentence holds none, and the sentence is counted in the
    /// part where it ends (so the original's sentences still line up with the result's).
    func testPartsFitTheLimitAndCountTheWholeTextsSentences() {
        var rng = SystemRandomNumberGenerator()
        let words = ["alpha", "be", "Dr.", "e.g.", "end.", "Why?!", "日本", "ke\u{301}", "\n", "x", "U.S.", "3.5"]
        var cuts = 0
        for _ in 0..<2_000 {
            let limit = Int.random(in: 20...60, using: &rng)
            var text = "", floor = 0, counted = 0
            var sentences = StreamedSentences()
            for _ in 0..<Int.random(in: 1...120, using: &rng) {
                // Words no longer than a quarter of the limit, each with a space after it: a
                // cut always finds a space, so decisions match the whole text's.
                let piece = words.randomElement(using: &rng)! + " "
                text += piece
                sentences.append(piece)
                while Bool.random(using: &rng), let part = sentences.nextPart(limit: limit) {
                    XCTAssertTrue(part.end > floor && part.end - floor <= limit, "\(floor)..<\(part.end) over \(limit)")
                    let bytes = Array(text.utf8)[floor..<part.end]
                    XCTAssertEqual(Array(sentences.text(floor..<part.end).utf8), Array(bytes), "a part ends at a scalar's start")
                    if part.sentences == 0 { cuts += 1 }
                    counted += part.sentences
                    sentences.take(upTo: part.end)
                    floor = part.end
                }
            }
            let ends = SentenceSegmenter.sentences(in: text + "Z").map(\.upperBound)
            XCTAssertEqual(counted, ends.filter { $0 <= floor }.count, text.debugDescription)
        }
        XCTAssertGreaterThan(cuts, 100, "long sentences were cut")
    }

    func testAnEndlessSentenceIsCutAfterASpaceOrAtAScalarsStart() {
        var words = StreamedSentences()
        words.append(String(repeating: "word ", count: 40_000))
        XCTAssertEqual(words.nextPart(limit: 65_536)?.sentences, 0)
        XCTAssertEqual(words.nextPart(limit: 65_536)?.end, 65_535, "after the last space within the limit")
        var oneWord = StreamedSentences()
        oneWord.append(String(repeating: "日", count: 40_000))
        let part = oneWord.nextPart(limit: 65_536)
        XCTAssertEqual(part?.end, 65_535, "at the start of a scalar (3 bytes each)")
        oneWord.take(upTo: 65_535)
        oneWord.append(". Next")
        XCTAssertEqual(oneWord.nextPart(limit: 65_536).map { $0.end - 65_535 }, 40_000 * 3 + 2 - 65_535)
        XCTAssertEqual(oneWord.nextPart(limit: 65_536)?.sentences, 1, "the rest of the cut sentence is a sentence")
        var short = StreamedSentences()
        short.append("Not long and not finished")
        XCTAssertNil(short.nextPart(limit: 65_536))
        // A limit shorter than a character never splits it: the character is taken whole.
        for (text, limit, end) in [("ééé", 1, 2), ("€€€", 2, 3), ("😀😀", 3, 4), ("éé", 3, 2)] {
            var tiny = StreamedSentences()
            tiny.append(text)
            XCTAssertEqual(tiny.nextPart(limit: limit)?.end, end, "\(text) \(limit)")
        }
    }

    func testTakenSentencesAreNotReadAgain() {
        var sentences = StreamedSentences()
        sentences.append("One. Two")
        XCTAssertEqual(sentences.finished, 5)
        sentences.take(upTo: 5)
        sentences.append(" three. Four")
        XCTAssertEqual(sentences.text(5..<sentences.finished), "Two three. ")
    }

    /// Letting go of what streamed in changes nothing the stream answers (parts, their
    /// sentences, their text, what is finished), and what it holds stays about what has not
    /// streamed yet, not the whole result (which doubled its buffer as it grew).
    func testForgettingWhatStreamedKeepsEveryAnswerAndHoldsLittle() {
        var rng = SystemRandomNumberGenerator()
        for round in 0..<200 {
            var kept = StreamedSentences(), forgetting = StreamedSentences()
            var delivered = 0, checked = 0, largestHeld = 0
            let limit = [1, 7, 64, 4_096].randomElement(using: &rng)!
            for _ in 0..<Int.random(in: 1...60, using: &rng) {
                let piece = Self.parts.randomElement(using: &rng)!
                for scalar in Bool.random(using: &rng) ? piece.unicodeScalars.map(String.init) : [piece] {
                    kept.append(scalar)
                    forgetting.append(scalar)
                }
                XCTAssertEqual(forgetting.count, kept.count)
                XCTAssertEqual(forgetting.finished, kept.finished, "round \(round)")
                let part = forgetting.nextPart(limit: limit)
                XCTAssertEqual(part?.end, kept.nextPart(limit: limit)?.end)
                XCTAssertEqual(part?.sentences, kept.nextPart(limit: limit)?.sentences)
                guard let part, Bool.random(using: &rng) else { continue }
                // As the coordinator reads them: the bytes not yet found in place, the new part.
                XCTAssertEqual(Array(forgetting.bytes(checked..<delivered)), Array(kept.bytes(checked..<delivered)))
                XCTAssertEqual(forgetting.text(delivered..<part.end), kept.text(delivered..<part.end))
                kept.take(upTo: part.end)
                forgetting.take(upTo: part.end)
                forgetting.forget(before: delivered)
                (checked, delivered) = (delivered, part.end)
                largestHeld = max(largestHeld, forgetting.count - forgetting.forgotten - 2 * (forgetting.count - checked))
            }
            XCTAssertLessThanOrEqual(largestHeld, 0, "at most twice what is still read back")
        }
        // 4 MB streamed in 64 KB pieces, each taken as it comes: what is held stays small.
        var stream = StreamedSentences()
        var delivered = 0
        let piece = String(repeating: "This sentence goes on and on. ", count: 65_536 / 30)
        for _ in 0..<64 {
            stream.append(piece)
            guard let part = stream.nextPart(limit: 65_536) else { continue }
            stream.take(upTo: part.end)
            stream.forget(before: delivered)
            delivered = part.end
            XCTAssertLessThan(stream.count - stream.forgotten, 4 * 65_536)
        }
        XCTAssertGreaterThan(stream.forgotten, 3 << 20)
    }

    func testFirstSentencesReadsOnlyWhatItNeeds() {
        let text = String(repeating: "Alpha beta. ", count: 10_000)
        XCTAssertEqual(SentenceSegmenter.firstSentences(2, in: text), 24)
        XCTAssertEqual(SentenceSegmenter.firstSentences(3, in: "One. Two."), 9)
        XCTAssertEqual(SentenceSegmenter.firstSentences(0, in: "One."), 0)
    }
}
