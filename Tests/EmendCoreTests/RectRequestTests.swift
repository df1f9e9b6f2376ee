import XCTest
@testable import EmendCore

/// What the suggestions of a rectangle request keep from each kind of answer (the session
/// tests check the requests themselves).
final class RectRequestTests: XCTestCase {
    private func request(_ purpose: RectPurpose) -> RectRequest { RectRequest(purpose: purpose, rest: [], then: .rests) }

    private let rect = Rect(x: 1, y: 2, width: 3, height: 4)

    func testABatchKeepsItsListsOrNothingForAll() {
        for purpose in [RectPurpose.underline, .bounding] {
            XCTAssertEqual(request(purpose).kept(.rectBatch([[rect], []]), count: 2, batched: true), [[rect], []])
            XCTAssertEqual(request(purpose).kept(.rectBatch([[rect]]), count: 2, batched: true), [[], []],
                           "another number of lists than asked for: none is trusted")
            XCTAssertEqual(request(purpose).kept(.failed(EmendError(.timeout, "late")), count: 1, batched: true), [[]])
            XCTAssertEqual(request(purpose).kept(.unsupported, count: 3, batched: true), [[], [], []])
        }
    }

    func testASingleUnderlineKeepsOnlyARealAnswer() {
        XCTAssertEqual(request(.underline).kept(.rects([rect]), count: 1, batched: false), [[rect]])
        XCTAssertNil(request(.underline).kept(.failed(EmendError(.timeout, "late")), count: 1, batched: false))
        XCTAssertNil(request(.underline).kept(.unsupported, count: 1, batched: false))
    }

    func testASingleBoundingRequestKeepsNothingKnownOnFailure() {
        XCTAssertEqual(request(.bounding).kept(.rects([rect]), count: 1, batched: false), [[rect]])
        XCTAssertEqual(request(.bounding).kept(.failed(EmendError(.timeout, "late")), count: 1, batched: false), [[]])
        XCTAssertEqual(request(.bounding).kept(.unsupported, count: 1, batched: false), [[]])
    }
}
