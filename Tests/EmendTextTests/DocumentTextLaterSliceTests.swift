import XCTest
import EmendText

/// A slice taken now and made later (`DocumentText.LaterSlice`) is what `slice` gave when it
/// was taken — text, runs, intents and protected ranges clipped to it — whatever the document's
/// edits in between, and when made on another thread.
final class DocumentTextLaterSliceTests: XCTestCase {
    private static let text = (0..<400).map { "Line \($0) has words é and more.\n" }.joined()

    private func styled() -> AttributedText {
        let length = Self.text.utf8.count
        return AttributedText(Self.text,
                              attributeRuns: [AttributeRun(range: 10..<5_000, key: "bold", value: "1"),
                                              AttributeRun(range: 6_000..<length, key: "font", value: "serif")],
                              blockIntents: [BlockIntent(range: 0..<40, kind: .heading, level: 1)],
                              protectedRanges: [4_000..<4_020])
    }

    func testALaterSliceIsTheSliceAsTaken() {
        let length = Self.text.utf8.count
        for range in [0..<length, 5..<4_010, 4_005..<4_015, 0..<0, (length - 50)..<length] {
            let document = DocumentText(styled())
            let later = document.laterSlice(range)
            let then = document.slice(range)
            document.replace(0..<0, with: "Inserted at the start. ")
            document.replace(3_000..<7_000, with: "")
            document.replace(10..<20, withStyled: AttributedText("new", attributeRuns: [AttributeRun(range: 0..<3, key: "italic", value: "1")]))
            let made = later.made
            XCTAssertEqual(Array(made.string.utf8), Array(then.string.utf8), "\(range): the text as taken")
            XCTAssertEqual(made.attributeRuns, then.attributeRuns, "\(range): the runs as taken")
            XCTAssertEqual(made.blockIntents, then.blockIntents, "\(range): the intents as taken")
            XCTAssertEqual(made.protectedRanges, then.protectedRanges, "\(range): the protected ranges as taken")
        }
    }

    func testALaterSliceMadeOnAnotherThreadWhileTheDocumentIsEditedIsTheSliceAsTaken() throws {
        let document = DocumentText(styled())
        let range = 100..<9_000
        let later = document.laterSlice(range)
        let then = Array(document.slice(range).string.utf8)
        let made = Made()
        let thread = Thread { made.bytes = Array(later.made.string.utf8) }
        thread.start()
        for step in 0..<200 { document.replace((step * 7)..<(step * 7 + 3), with: "edit \(step)") }
        while made.bytes == nil { usleep(1_000) }
        XCTAssertEqual(made.bytes, then)
    }

    private final class Made: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: [UInt8]?
        var bytes: [UInt8]? {
            get { lock.withLock { stored } }
            set { lock.withLock { stored = newValue } }
        }
    }
}
