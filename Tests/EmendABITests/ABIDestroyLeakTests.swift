import XCTest
import Glibc
import CEmend
import EmendCore
@testable import EmendCABI

/// emend_coordinator_destroy frees the coordinator and its three descriptors even while a
/// replace is unanswered (streamed or not, timed out or not), and later answers to the
/// requests it dropped are EMEND_E_STALE, not a crash.
final class ABIDestroyLeakTests: XCTestCase {
    private func openDescriptors() -> Int {
        guard let dir = opendir("/proc/self/fd") else { return -1 }
        defer { closedir(dir) }
        var count = 0
        while readdir(dir) != nil { count += 1 }
        return count
    }

    /// A coordinator whose engine holds replaces, started and pumped until a replace is out.
    /// Returns the coordinator, a weak reference to its core, and the held request.
    private func coordinatorWithHeldReplace(_ engine: CEngine, tool: emend_tool, streamChunk: UInt32 = 0,
                                            completionTimeout: UInt32 = 0) throws -> (OpaquePointer, Weak, emend_request_id) {
        engine.holdReplaces = true
        var table = engine.delegate()
        var options = emend_coordinator_options()
        options.struct_size = MemoryLayout<emend_coordinator_options>.size
        options.stream_chunk_bytes = streamChunk
        options.completion_timeout_ms = completionTimeout
        var raw: OpaquePointer?
        XCTAssertEqual(emend_coordinator_create(&table, &options, &raw), EMEND_OK, lastError)
        let coordinator = try XCTUnwrap(raw)
        let core = Unmanaged<CoordinatorHandle>.fromOpaque(UnsafeRawPointer(coordinator)).takeUnretainedValue().coordinator
        XCTAssertEqual(start(coordinator, tool), EMEND_OK, lastError)
        XCTAssertTrue(pump(coordinator) { !engine.heldReplaces.isEmpty })
        return (coordinator, Weak(core), try XCTUnwrap(engine.takeHeldReplaces().first))
    }

    final class Weak {
        weak var object: Coordinator?
        init(_ object: Coordinator) { self.object = object }
    }

    func testDestroyWithAnUnansweredReplaceFreesTheCoordinator() throws {
        let engine = CEngine("See you tomorow.")
        let (coordinator, weak, request) = try coordinatorWithHeldReplace(engine, tool: EMEND_TOOL_PROOFREAD)
        XCTAssertNotNil(weak.object)
        emend_coordinator_destroy(coordinator)
        XCTAssertNil(weak.object, "the coordinator outlived emend_coordinator_destroy")
        XCTAssertStatus(emend_answer_replace(coordinator, request, EMEND_REPLACE_APPLIED, nil, 0), EMEND_E_STALE)
        XCTAssertStatus(emend_answer_done(coordinator, request), EMEND_E_STALE)
    }

    func testDestroyWithAnUnansweredStreamedReplaceFreesTheCoordinator() throws {
        let text = "Hello there my friend. I want the report today. Please send it soon. Thanks for all of it. See you."
        let engine = CEngine(text)
        let (coordinator, weak, request) = try coordinatorWithHeldReplace(engine, tool: EMEND_TOOL_REWRITE_FRIENDLY, streamChunk: 8)
        emend_coordinator_destroy(coordinator)
        XCTAssertNil(weak.object, "the coordinator outlived emend_coordinator_destroy")
        XCTAssertStatus(emend_answer_replace(coordinator, request, EMEND_REPLACE_APPLIED, nil, 0), EMEND_E_STALE)
    }

    func testDestroyAfterAReplaceTimedOutFreesTheCoordinator() throws {
        let engine = CEngine("See you tomorow.")
        let (coordinator, weak, _) = try coordinatorWithHeldReplace(engine, tool: EMEND_TOOL_PROOFREAD, completionTimeout: 20)
        usleep(60_000)
        XCTAssertEqual(emend_coordinator_dispatch(coordinator, nil), EMEND_OK)   // the timeout fires; the cancel replace is held too
        emend_coordinator_destroy(coordinator)
        XCTAssertNil(weak.object, "the coordinator outlived emend_coordinator_destroy")
    }

    func testTwentyCyclesLeakNoDescriptors() throws {
        let text = "Hello there my friend. I want the report today. Please send it soon. Thanks for all of it. See you."
        // One cycle first: discovery and the like may open what they keep for the process.
        let warm = try coordinatorWithHeldReplace(CEngine(text), tool: EMEND_TOOL_REWRITE_FRIENDLY, streamChunk: 8)
        emend_coordinator_destroy(warm.0)
        let before = openDescriptors()
        for _ in 0..<20 {
            let engine = CEngine(text)
            let (coordinator, _, _) = try coordinatorWithHeldReplace(engine, tool: EMEND_TOOL_REWRITE_FRIENDLY, streamChunk: 8)
            emend_coordinator_destroy(coordinator)
        }
        XCTAssertEqual(openDescriptors(), before, "descriptors leaked by 20 create/start/destroy cycles")
    }
}
