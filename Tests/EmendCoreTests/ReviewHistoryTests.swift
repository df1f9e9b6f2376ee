import XCTest
@testable import EmendCore

/// What a review step's end does to the undo history, for each kind of step, happened or
/// refused (the coordinator's review tests check the steps themselves).
final class ReviewHistoryTests: XCTestCase {
    typealias Step = Session.UndoStep

    /// The stacks after `history` ended (`happened` or not), from `undo` and `redo`.
    private func ended(_ history: ReviewHistory, happened: Bool, undo: [Step], redo: [Step]) -> ([Step], [Step]) {
        var undo = undo, redo = redo
        history.ended(happened: happened, undo: &undo, redo: &redo)
        return (undo, redo)
    }

    func testShowingAVersionKeepsNoHistory() {
        for happened in [false, true] {
            let (undo, redo) = ended(.none, happened: happened, undo: [.accept(0)], redo: [.reject(1)])
            XCTAssertEqual(undo, [.accept(0)])
            XCTAssertEqual(redo, [.reject(1)])
        }
    }

    func testARejectIsAStepOnlyOnceItHappened() {
        var (undo, redo) = ended(.reject(2), happened: true, undo: [.accept(0)], redo: [.reject(1)])
        XCTAssertEqual(undo, [.accept(0), .reject(2)])
        XCTAssertEqual(redo, [], "a new step clears what could be redone")
        (undo, redo) = ended(.reject(2), happened: false, undo: [.accept(0)], redo: [.reject(1)])
        XCTAssertEqual(undo, [.accept(0)])
        XCTAssertEqual(redo, [.reject(1)])
    }

    func testARefusedUndoStaysToUndo() {
        let step = Step.version(from: 0, to: 1)
        var (undo, redo) = ended(.undo(step), happened: false, undo: [.accept(0)], redo: [step])
        XCTAssertEqual(undo, [.accept(0), step])
        XCTAssertEqual(redo, [])
        (undo, redo) = ended(.undo(step), happened: true, undo: [.accept(0)], redo: [step])
        XCTAssertEqual(undo, [.accept(0)])
        XCTAssertEqual(redo, [step], "an undo that happened can be redone")
        // The engine's edit dropped the step meanwhile: nothing to put back.
        (undo, redo) = ended(.undo(step), happened: false, undo: [], redo: [])
        XCTAssertEqual(undo, [])
        XCTAssertEqual(redo, [])
    }

    func testARefusedRedoStaysToRedo() {
        let step = Step.reject(3)
        var (undo, redo) = ended(.redo(step), happened: false, undo: [step], redo: [.accept(1)])
        XCTAssertEqual(undo, [])
        XCTAssertEqual(redo, [.accept(1), step])
        (undo, redo) = ended(.redo(step), happened: true, undo: [step], redo: [.accept(1)])
        XCTAssertEqual(undo, [step])
        XCTAssertEqual(redo, [.accept(1)])
        (undo, redo) = ended(.redo(step), happened: false, undo: [.accept(0)], redo: [])
        XCTAssertEqual(undo, [.accept(0)], "another step on top: not this one's to move")
        XCTAssertEqual(redo, [])
    }
}
