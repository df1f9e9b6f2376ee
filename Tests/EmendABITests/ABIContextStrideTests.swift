import XCTest
import CEmend
import EmendCABI

/// The stride of a context array is contexts[0].struct_size, any value from the first version
/// up, aligned or not: the runtime copies each element byte by byte (emend.h, STRUCTS).
final class ABIContextStrideTests: XCTestCase {
    func testUnalignedStridesAreRead() throws {
        let engine = CEngine("See you tomorow.")
        engine.holdContexts = true
        let coordinator = try engine.makeCoordinator()
        defer { emend_coordinator_destroy(coordinator) }
        let full = MemoryLayout<emend_context_desc>.size
        for stride in [full + 1, full + 3, full + 5, full - 4, 41, 43] {
            XCTAssertEqual(start(coordinator, EMEND_TOOL_PROOFREAD), EMEND_OK, lastError)
            XCTAssertTrue(pump(coordinator) { !engine.heldContexts.isEmpty })
            let request = try XCTUnwrap(engine.takeHeldContexts().first)
            let status: emend_status = engine.withContext { desc in
                // Three elements; the array itself also starts at an odd address.
                let raw = UnsafeMutableRawPointer.allocate(byteCount: 3 * stride + full + 1, alignment: 16)
                defer { raw.deallocate() }
                raw.initializeMemory(as: UInt8.self, repeating: 0x5A, count: 3 * stride + full + 1)
                let first = raw + 1
                for i in 0..<3 {
                    var element = desc
                    element.struct_size = stride
                    withUnsafeBytes(of: &element) { bytes in
                        (first + i * stride).copyMemory(from: bytes.baseAddress!, byteCount: min(stride, full))
                    }
                }
                return emend_answer_contexts(coordinator, request, first.assumingMemoryBound(to: emend_context_desc.self), 3)
            }
            XCTAssertEqual(status, EMEND_OK, "stride \(stride): \(lastError)")
            XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK, lastError)
            XCTAssertEqual(engine.text, "See you tomorrow.", "stride \(stride)")
            XCTAssertEqual(emend_session_revert(coordinator), EMEND_OK, lastError)
            XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK, lastError)
            XCTAssertEqual(engine.text, "See you tomorow.")
        }
    }

    func testAStrideBelowTheFirstVersionIsStructSize() throws {
        let engine = CEngine("See you tomorow.")
        engine.holdContexts = true
        let coordinator = try engine.makeCoordinator()
        defer { emend_coordinator_destroy(coordinator) }
        XCTAssertEqual(start(coordinator, EMEND_TOOL_PROOFREAD), EMEND_OK)
        XCTAssertTrue(pump(coordinator) { !engine.heldContexts.isEmpty })
        let request = try XCTUnwrap(engine.takeHeldContexts().first)
        engine.withContext { desc in
            var small = desc
            small.struct_size = 39
            XCTAssertStatus(emend_answer_contexts(coordinator, request, &small, 2), EMEND_E_STRUCT_SIZE, mentions: ["contexts[0]", "39"])
            var huge = desc
            huge.struct_size = 1 << 29
            XCTAssertStatus(emend_answer_contexts(coordinator, request, &huge, 3), EMEND_E_INVALID_ARGUMENT, mentions: ["count"])
            var fine = desc
            XCTAssertEqual(emend_answer_contexts(coordinator, request, &fine, 1), EMEND_OK, lastError)
        }
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK)
    }
}
