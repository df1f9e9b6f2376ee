import XCTest
import EmendCore
import EmendText

/// Errors that name places keep them apart from their words so that callers counting in
/// UTF-16 units or code points can read them in their units; `message` says them in UTF-8
/// bytes and names the unit.
final class ErrorMessageTests: XCTestCase {
    let text = "😀 Café: see you tomorow."

    func testPlacesAreSaidInEachEncoding() {
        // "Café" starts at byte 5, UTF-16 unit 3, code point 2; é is 2 bytes, 1 unit.
        let error = EmendError(.range, located: "bad \(range: 5..<10, in: text) of \(lengthOf: text), at \(offset: 8, in: text)")
        XCTAssertEqual(error.message, "bad location 5, length 5 (UTF-8 bytes) of 28 UTF-8 bytes, at offset 8 (UTF-8 bytes)")
        XCTAssertEqual(error.message(in: .utf16), "bad location 3, length 4 (UTF-16 code units) of 25 UTF-16 code units, at offset 6 (UTF-16 code units)")
        XCTAssertEqual(error.message(in: .codePoint), "bad location 2, length 4 (code points) of 24 code points, at offset 5 (code points)")
    }

    func testAPlaceThatIsNoPositionIsSaidInBytes() {
        let error = EmendError(.range, located: "at \(offset: 1, in: text) and \(range: 20..<99, in: text)")
        XCTAssertEqual(error.message(in: .utf16), "at offset 1 (UTF-8 bytes) and location 20, length 79 (UTF-8 bytes)")
    }

    func testPlainMessagesAreUnchanged() {
        let error = EmendError(.state, "nothing to undo")
        XCTAssertNil(error.located)
        XCTAssertEqual(error.message(in: .utf16), "nothing to undo")
        XCTAssertEqual(EmendError(.state, located: "count \(3)").located, nil, "no place, nothing to keep")
    }

    func testNoSuggestionAtAnOffsetKeepsTheOffset() throws {
        let (_, coordinator) = try runTool(.proofread, on: text)
        let id = try XCTUnwrap(coordinator.contextIDs.first)
        let error = XCTAssertThrowsEmend(.notFound) { _ = try coordinator.suggestionIndex(contextID: id, offset: 5) }
        XCTAssertEqual(error?.message, "no pending suggestion at offset 5 (UTF-8 bytes)")
        XCTAssertEqual(error?.message(in: .utf16), "no pending suggestion at offset 3 (UTF-16 code units)")
    }
}
