import XCTest
import EmendCore

final class SentenceSegmenterTests: XCTestCase {
    private func pieces(_ ranges: [Range<Int>], of text: String) -> [String] {
        let bytes = Array(text.utf8)
        return ranges.map { String(decoding: bytes[$0], as: UTF8.self) }
    }

    private func sentences(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> [String] {
        let ranges = SentenceSegmenter.sentences(in: text)
        assertCovers(ranges, text, file: file, line: line)
        return pieces(ranges, of: text)
    }

    private func paragraphs(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> [String] {
        let ranges = SentenceSegmenter.paragraphs(in: text)
        assertCovers(ranges, text, file: file, line: line)
        return pieces(ranges, of: text)
    }

    /// Non-empty ranges, in order, with no gaps, from 0 to the end of the text.
    private func assertCovers(_ ranges: [Range<Int>], _ text: String, file: StaticString, line: UInt) {
        var position = 0
        for range in ranges {
            XCTAssertEqual(range.lowerBound, position, "gap or overlap in \(ranges)", file: file, line: line)
            XCTAssertFalse(range.isEmpty, "empty range in \(ranges)", file: file, line: line)
            position = range.upperBound
        }
        XCTAssertEqual(position, text.utf8.count, "ranges do not reach the end", file: file, line: line)
    }

    private func offset(of needle: String, in text: String) -> Int {
        let bytes = Array(text.utf8)
        let pattern = Array(needle.utf8)
        for start in 0...(bytes.count - pattern.count) where Array(bytes[start..<(start + pattern.count)]) == pattern {
            return start
        }
        XCTFail("\(needle) not in \(text)")
        return 0
    }

    // MARK: - Sentences

    func testSentencesKeepTheirTrailingWhitespace() {
        XCTAssertEqual(sentences("Hello world. How are you?  I'm fine!"),
                       ["Hello world. ", "How are you?  ", "I'm fine!"])
        XCTAssertEqual(sentences(""), [])
        XCTAssertEqual(sentences("No ending at all"), ["No ending at all"])
        XCTAssertEqual(sentences("Wait?! Really."), ["Wait?! ", "Really."])
    }

    func testAbbreviationsDoNotEndSentences() {
        let text = "Dr. Smith met Mr. and Mrs. Jones, e.g. at St. Mary's vs. the others, i.e. everyone. Then they left."
        XCTAssertEqual(sentences(text), [
            "Dr. Smith met Mr. and Mrs. Jones, e.g. at St. Mary's vs. the others, i.e. everyone. ",
            "Then they left.",
        ])
        XCTAssertEqual(sentences("Bring pens, paper, etc. and some food. Thanks."),
                       ["Bring pens, paper, etc. and some food. ", "Thanks."])
        XCTAssertEqual(sentences("We bought apples, pears, etc. Then we left."),
                       ["We bought apples, pears, etc. ", "Then we left."])
    }

    func testDecimalsInitialsURLsAndEmail() {
        XCTAssertEqual(sentences("Pi is about 3.14 today. Yes."), ["Pi is about 3.14 today. ", "Yes."])
        XCTAssertEqual(sentences("J. R. R. Tolkien wrote it. He was British."),
                       ["J. R. R. Tolkien wrote it. ", "He was British."])
        XCTAssertEqual(sentences("She lives in the U.S.A. with friends. Fine."),
                       ["She lives in the U.S.A. with friends. ", "Fine."])
        XCTAssertEqual(sentences("Visit www.example.com/a.html or write to me@example.org today. Thanks."),
                       ["Visit www.example.com/a.html or write to me@example.org today. ", "Thanks."])
    }

    func testEllipsis() {
        XCTAssertEqual(sentences("I waited… and then left. Done."), ["I waited… and then left. ", "Done."])
        XCTAssertEqual(sentences("I waited... and then left."), ["I waited... and then left."])
        XCTAssertEqual(sentences("I waited... Then I left."), ["I waited... ", "Then I left."])
    }

    func testCJKMarksNeedNoSpace() {
        XCTAssertEqual(sentences("今日は晴れです。明日は雨です！本当？"),
                       ["今日は晴れです。", "明日は雨です！", "本当？"])
        XCTAssertEqual(sentences("「行こう。」彼は言った。"), ["「行こう。」", "彼は言った。"])
    }

    func testClosingQuotesAndBracketsStayWithTheSentence() {
        XCTAssertEqual(sentences("He said \"Stop.\" Then he left."), ["He said \"Stop.\" ", "Then he left."])
        XCTAssertEqual(sentences("(It works!) Next one."), ["(It works!) ", "Next one."])
        XCTAssertEqual(sentences("“Really?” she asked. “Yes.” He nodded."),
                       ["“Really?” she asked. ", "“Yes.” ", "He nodded."])
    }

    func testLineBreaksEndSentences() {
        XCTAssertEqual(sentences("Line one\nLine two"), ["Line one\n", "Line two"])
        XCTAssertEqual(sentences("A.\n\n  B.\r\nC"), ["A.\n\n", "  B.\r\n", "C"])
        XCTAssertEqual(sentences("Title\n\nBody text. More."), ["Title\n\n", "Body text. ", "More."])
    }

    func testSentencesNeverSplitACharacter() {
        // A combining mark after a space belongs to the space's character.
        let text = "One. \u{301}Two."
        let ranges = SentenceSegmenter.sentences(in: text)
        XCTAssertEqual(pieces(ranges, of: text), ["One. \u{301}", "Two."])
    }

    // MARK: - Paragraphs

    func testParagraphs() {
        XCTAssertEqual(paragraphs("A\n\nB\nC"), ["A\n\n", "B\n", "C"])
        XCTAssertEqual(paragraphs("A\n  \n\n  B"), ["A\n  \n\n", "  B"])
        XCTAssertEqual(paragraphs("Only one"), ["Only one"])
        XCTAssertEqual(paragraphs("Ends\n\n"), ["Ends\n\n"])
        XCTAssertEqual(paragraphs(""), [])
    }

    // MARK: - Expansion and context

    func testExpandCaretToItsSentence() {
        let text = "One two. Three four five. Six."
        let caret = offset(of: "four", in: text) + 2
        let expanded = SentenceSegmenter.expandToSentences(caret..<caret, in: text)
        XCTAssertEqual(pieces([expanded], of: text), ["Three four five. "])
        XCTAssertEqual(pieces([SentenceSegmenter.expandToSentences(0..<0, in: text)], of: text), ["One two. "])
        let end = text.utf8.count
        XCTAssertEqual(pieces([SentenceSegmenter.expandToSentences(end..<end, in: text)], of: text), ["Six."])
        XCTAssertEqual(SentenceSegmenter.expandToSentences(4..<4, in: "Hi.\n"), 4..<4)
        XCTAssertEqual(SentenceSegmenter.expandToSentences(0..<0, in: ""), 0..<0)
    }

    func testExpandMidSentenceSelectionToWholeSentences() {
        let text = "One two. Three four five. Six."
        let start = offset(of: "two", in: text)
        let end = offset(of: "four", in: text)
        XCTAssertEqual(pieces([SentenceSegmenter.expandToSentences(start..<end, in: text)], of: text),
                       ["One two. Three four five. "])
        let inside = offset(of: "four", in: text)
        XCTAssertEqual(pieces([SentenceSegmenter.expandToSentences(inside..<(inside + 4), in: text)], of: text),
                       ["Three four five. "])
    }

    func testExpandWorksAcrossParagraphs() {
        let text = "First para. Still first.\n\nSecond para here. Another.\nThird."
        let start = offset(of: "first.", in: text)
        let end = offset(of: "here", in: text)
        XCTAssertEqual(pieces([SentenceSegmenter.expandToSentences(start..<end, in: text)], of: text),
                       ["Still first.\n\nSecond para here. "])
    }

    func testSurroundingContextTakesOneParagraphEachSide() {
        let text = "P1 text\nP2 text\nP3 text\nP4 text\n"
        let inP2 = offset(of: "P2", in: text) + 1
        XCTAssertEqual(pieces([SentenceSegmenter.surroundingContext(inP2..<(inP2 + 2), in: text)], of: text),
                       ["P1 text\nP2 text\nP3 text\n"])
        XCTAssertEqual(pieces([SentenceSegmenter.surroundingContext(0..<1, in: text)], of: text),
                       ["P1 text\nP2 text\n"])
        let inP4 = offset(of: "P4", in: text)
        XCTAssertEqual(pieces([SentenceSegmenter.surroundingContext(inP4..<inP4, in: text)], of: text),
                       ["P3 text\nP4 text\n"])
        let across = offset(of: "P3", in: text)
        XCTAssertEqual(pieces([SentenceSegmenter.surroundingContext(inP2..<across + 1, in: text)], of: text),
                       ["P1 text\nP2 text\nP3 text\nP4 text\n"])
    }

    func testSegmentationCoversGeneratedTexts() {
        var state: UInt64 = 11
        func next(_ n: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(n))
        }
        let parts = ["Dr.", "word", "3.14", "…", ". ", "! ", "? ", "\n", "\n\n", " ", "  ", "。", "”", "\u{301}",
                     "👩‍👩‍👧", "e.g.", "\r\n", "J.", "x"]
        for _ in 0..<300 {
            let text = (0..<next(40)).map { _ in parts[next(parts.count)] }.joined()
            let shown = text.debugDescription
            let boundaries = Set(text.indices.map { text.utf8.distance(from: text.utf8.startIndex, to: $0) })
            let sentenceRanges = SentenceSegmenter.sentences(in: text)
            assertCovers(sentenceRanges, text, file: #filePath, line: #line)
            assertCovers(SentenceSegmenter.paragraphs(in: text), text, file: #filePath, line: #line)
            for range in sentenceRanges {
                XCTAssertTrue(boundaries.contains(range.lowerBound), "sentence splits a character in \(shown)")
            }
            // Every paragraph boundary is also a sentence boundary.
            let starts = Set(sentenceRanges.map(\.lowerBound))
            for paragraph in SentenceSegmenter.paragraphs(in: text) {
                XCTAssertTrue(starts.contains(paragraph.lowerBound), "paragraph starts inside a sentence of \(shown)")
            }
            // Expanding any caret gives whole sentences.
            if !text.isEmpty {
                let caret = next(text.utf8.count)
                let expanded = SentenceSegmenter.expandToSentences(caret..<caret, in: text)
                XCTAssertTrue(starts.contains(expanded.lowerBound), "expanded start \(expanded) in \(shown)")
                XCTAssertTrue(expanded.contains(caret), "expansion \(expanded) misses caret \(caret)")
            }
        }
    }
}
