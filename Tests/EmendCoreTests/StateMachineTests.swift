import XCTest
import EmendCore
import EmendText

/// The states a session goes through, as will_change_to_state reports them, and how behavior
/// and result options resolve.
final class StateMachineTests: XCTestCase {
    func testRewriteStreamsThenRestsThenGoesInactive() throws {
        let engine = TestEngine("I do not think it is ready.")
        let coordinator = try makeCoordinator(engine)
        XCTAssertEqual(coordinator.state, .inactive)
        try coordinator.start(.rewriteFriendly)
        try engine.run(coordinator)
        XCTAssertEqual(engine.states, [.interactiveStreaming, .interactiveResting])
        XCTAssertEqual(engine.statesBeforeChange, [.inactive, .interactiveStreaming])
        XCTAssertEqual(coordinator.state, .interactiveResting)
        try coordinator.accept()
        try engine.run(coordinator)
        XCTAssertEqual(engine.states, [.interactiveStreaming, .interactiveResting, .inactive])
        XCTAssertEqual(coordinator.state, .inactive)
    }

    func testProofreadStreamsThenRestsThenGoesInactiveOnRevert() throws {
        let engine = TestEngine("See you tomorow.")
        let coordinator = try makeCoordinator(engine)
        try coordinator.start(.proofread)
        try engine.run(coordinator)
        try coordinator.revert()
        try engine.run(coordinator)
        XCTAssertEqual(engine.states, [.interactiveStreaming, .interactiveResting, .inactive])
    }

    func testSummaryIsNoninteractiveThenInactive() throws {
        let engine = TestEngine("The build is green. The release is tomorrow. Nobody is worried.")
        engine.presentedAction = .copy
        let coordinator = try makeCoordinator(engine)
        try coordinator.start(.summary)
        try engine.run(coordinator)
        XCTAssertEqual(engine.states, [.noninteractive, .inactive])
        XCTAssertEqual(engine.presented.count, 1)
        XCTAssertEqual(engine.presented.first?.tool, .summary)
        XCTAssertEqual(engine.presented.first?.text, "The build is green.")
        XCTAssertEqual(engine.presented.first?.range, 0..<engine.text.utf8.count)
        XCTAssertTrue(engine.replaces.isEmpty, "a copied result changes nothing")
        XCTAssertEqual(engine.text, "The build is green. The release is tomorrow. Nobody is worried.")
    }

    func testLimitedBehaviorPresentsARewriteThenGoesInactive() throws {
        let engine = TestEngine("I do not think it is ready.")
        engine.presentedAction = .dismiss
        let coordinator = try makeCoordinator(engine, options: options(behavior: .limited))
        XCTAssertEqual(coordinator.resolvedBehavior, .limited)
        try coordinator.start(.rewriteFriendly)
        try engine.run(coordinator)
        XCTAssertEqual(engine.states, [.noninteractive, .inactive])
        XCTAssertEqual(engine.presented.map(\.text), ["I don't think it's ready!"])
        XCTAssertTrue(engine.replaces.isEmpty)
        XCTAssertTrue(engine.preparedAnimations.isEmpty, "nothing is animated inline in limited behavior")
        XCTAssertEqual(engine.text, "I do not think it is ready.")
    }

    func testAppliedPresentedResultArrivesAsNoninteractiveReplaces() throws {
        let engine = TestEngine("I do not think it is ready.")
        engine.presentedAction = .apply
        let coordinator = try makeCoordinator(engine, options: options(behavior: .limited))
        try coordinator.start(.rewriteFriendly)
        try engine.run(coordinator)
        XCTAssertEqual(engine.states, [.noninteractive, .inactive])
        XCTAssertFalse(engine.replaces.isEmpty)
        XCTAssertTrue(engine.replaces.allSatisfy { $0.reason == .noninteractive && $0.kind == .result })
        XCTAssertEqual(engine.text, "I don't think it's ready!")
    }

    func testBehaviorResolvesFromCapabilities() throws {
        let cases: [(DelegateCapabilities, Behavior, Behavior)] = [
            (.all, .default, .complete),
            (.all, .complete, .complete),
            (.all, .limited, .limited),
            (.all, .none, .none),
            ([.replace], .default, .complete),
            ([.replace], .limited, .complete),            // nothing to present with
            ([.presentResult], .default, .limited),
            ([.presentResult], .complete, .limited),      // nothing to replace with
            ([.selectRanges, .willChangeState], .default, .none),
            ([.selectRanges, .willChangeState], .complete, .none),
        ]
        for (capabilities, preferred, expected) in cases {
            let engine = TestEngine("Text.")
            engine.capabilities = capabilities
            let coordinator = try makeCoordinator(engine, options: options(behavior: preferred))
            XCTAssertEqual(coordinator.preferredBehavior, preferred)
            XCTAssertEqual(coordinator.resolvedBehavior, expected, "capabilities \(capabilities.rawValue), preferred \(preferred)")
        }
    }

    func testBehaviorNoneRefusesToStart() throws {
        let engine = TestEngine("Text.")
        let coordinator = try makeCoordinator(engine)
        try coordinator.setPreferredBehavior(.none)
        XCTAssertThrowsEmend(.unsupported) { try coordinator.start(.proofread) }
        XCTAssertEqual(coordinator.state, .inactive)
        try engine.run(coordinator)
        XCTAssertTrue(engine.states.isEmpty)
        XCTAssertTrue(engine.contextRequests.isEmpty)
    }

    func testResultOptionsResolve() throws {
        let engine = TestEngine("Text.")
        let coordinator = try makeCoordinator(engine)
        XCTAssertEqual(coordinator.resolvedResultOptions, [.plainText])
        try coordinator.setPreferredResultOptions([.list])
        XCTAssertEqual(coordinator.preferredResultOptions, [.list])
        XCTAssertEqual(coordinator.resolvedResultOptions, [.plainText, .list])
        try coordinator.setPreferredResultOptions([.presentationIntent])
        XCTAssertEqual(coordinator.resolvedResultOptions, [.plainText, .richText, .presentationIntent])
        try coordinator.setPreferredResultOptions([.table, .richText])
        XCTAssertEqual(coordinator.resolvedResultOptions, [.plainText, .richText, .table])
        XCTAssertThrowsEmend(.invalidArgument) { try coordinator.setPreferredResultOptions(ResultOptions(rawValue: 1 << 5)) }
        XCTAssertEqual(coordinator.preferredResultOptions, [.table, .richText], "a failed call changes nothing")
    }

    func testPreferencesCannotChangeDuringASession() throws {
        let engine = TestEngine("I do not think it is ready.")
        let coordinator = try makeCoordinator(engine)
        try coordinator.start(.rewriteFriendly)
        try engine.run(coordinator)
        XCTAssertThrowsEmend(.state) { try coordinator.setPreferredBehavior(.limited) }
        XCTAssertThrowsEmend(.state) { try coordinator.setPreferredResultOptions([.list]) }
        XCTAssertEqual(coordinator.preferredBehavior, .default)
        XCTAssertEqual(coordinator.preferredResultOptions, [])
        try coordinator.accept()
        try engine.run(coordinator)
        try coordinator.setPreferredBehavior(.limited)
        XCTAssertEqual(coordinator.preferredBehavior, .limited)
    }

    func testSecondStartWhileASessionRunsIsAStateError() throws {
        let engine = TestEngine("See you tomorow.")
        let coordinator = try makeCoordinator(engine)
        try coordinator.start(.proofread)
        XCTAssertThrowsEmend(.state) { try coordinator.start(.rewriteConcise) }
        try engine.run(coordinator)
        XCTAssertThrowsEmend(.state) { try coordinator.start(.rewriteConcise) }
        XCTAssertEqual(engine.contextRequests.count, 1)
    }

    func testToolsThatNeedAPromptRefuseToStartWithout() throws {
        let engine = TestEngine("Text.")
        let coordinator = try makeCoordinator(engine)
        XCTAssertThrowsEmend(.invalidArgument) { try coordinator.start(.compose) }
        XCTAssertThrowsEmend(.invalidArgument) { try coordinator.start(.rewriteDescribed, prompt: "") }
        XCTAssertThrowsEmend(.notFound) { try coordinator.start(.proofread, providerID: "org.example.missing") }
        XCTAssertEqual(coordinator.state, .inactive)
        try engine.run(coordinator)
        XCTAssertTrue(engine.contextRequests.isEmpty)
    }

    func testScopeIsPassedToTheEngine() throws {
        let engine = TestEngine("See you tomorow.")
        let coordinator = try makeCoordinator(engine)
        try coordinator.start(.proofread, scope: .visibleArea)
        try engine.run(coordinator)
        XCTAssertEqual(engine.contextRequests, [.visibleArea])
    }
}
