import XCTest
import Foundation
import EmendCore
import EmendText

/// A provider that runs until it is cancelled and then says so.
struct CancellableProvider: WritingProvider {
    let id = "test.cancellable"
    let tools: Set<WritingTool> = Set(WritingTool.allCases)
    let started = DispatchSemaphore(value: 0)
    let cancelled = DispatchSemaphore(value: 0)

    func run(_ request: ProviderRequest, sink: ProviderSink) -> ProviderOutcome {
        started.signal()
        while !sink.isCancelled { usleep(1000) }   // the provider's own polling, as a real one would
        cancelled.signal()
        return .failed("cancelled")
    }
}

/// A running provider is cancelled when the session stops or the coordinator goes away.
final class ProviderLifetimeTests: XCTestCase {
    func testStopCancelsTheRunningProvider() throws {
        let provider = CancellableProvider()
        let engine = TestEngine("I do not think it is ready.")
        let coordinator = try Coordinator(delegate: engine, providers: [provider])
        try coordinator.start(.rewriteFriendly)
        XCTAssertTrue(try engine.pump(coordinator) { engine.preparedAnimations.count == 1 })
        XCTAssertEqual(provider.started.wait(timeout: .now() + 10), .success)
        try coordinator.stop()
        XCTAssertEqual(provider.cancelled.wait(timeout: .now() + 10), .success, "the provider was not cancelled")
        try engine.run(coordinator)
        XCTAssertEqual(coordinator.state, .inactive)
        XCTAssertEqual(engine.text, "I do not think it is ready.")
    }

    func testProviderTimeoutCancelsTheProvider() throws {
        let provider = CancellableProvider()
        let engine = TestEngine("I do not think it is ready.")
        var options = CoordinatorOptions()
        options.providerTimeoutMilliseconds = 100
        let coordinator = try Coordinator(delegate: engine, options: options, providers: [provider])
        try coordinator.start(.rewriteFriendly)
        XCTAssertThrowsEmend(.timeout) { try engine.run(coordinator, timeoutMilliseconds: 20_000) }
        XCTAssertEqual(provider.cancelled.wait(timeout: .now() + 10), .success, "the provider was not cancelled")
    }

    func testDroppingTheCoordinatorCancelsTheProviderAndFreesIt() throws {
        let provider = CancellableProvider()
        let engine = TestEngine("I do not think it is ready.")
        weak var weakCoordinator: Coordinator?
        try {
            let coordinator = try Coordinator(delegate: engine, providers: [provider])
            weakCoordinator = coordinator
            try coordinator.start(.rewriteFriendly)
            XCTAssertTrue(try engine.pump(coordinator) { engine.preparedAnimations.count == 1 })
            XCTAssertEqual(provider.started.wait(timeout: .now() + 10), .success)
        }()
        XCTAssertNil(weakCoordinator, "the coordinator is kept alive by a reference cycle")
        XCTAssertEqual(provider.cancelled.wait(timeout: .now() + 10), .success, "the provider was not cancelled")
    }
}
