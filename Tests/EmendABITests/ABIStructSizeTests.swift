import XCTest
import CEmend
import EmendCABI

/// struct_size: smaller than a struct's first version is EMEND_E_STRUCT_SIZE; larger than ours
/// (a newer header) is accepted and the unknown tail ignored.
final class ABIStructSizeTests: XCTestCase {
    /// A zeroed buffer `extra` bytes bigger than `T`, holding `value` with struct_size set to the
    /// buffer's size, as an engine built against a newer header would pass it.
    private func withBigger<T, R>(_ value: T, extra: Int = 64, _ body: (UnsafeMutableRawPointer) -> R) -> R {
        let size = MemoryLayout<T>.size + extra
        let raw = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        defer { raw.deallocate() }
        raw.initializeMemory(as: UInt8.self, repeating: 0xA5, count: size)   // the newer fields hold junk we must ignore
        raw.storeBytes(of: value, as: T.self)
        raw.storeBytes(of: size, as: Int.self)
        return body(raw)
    }

    func testDelegateStructSize() {
        let engine = CEngine("Text.")
        var table = engine.delegate()
        var coordinator: OpaquePointer?
        table.struct_size = 8
        XCTAssertStatus(emend_coordinator_create(&table, nil, &coordinator), EMEND_E_STRUCT_SIZE, mentions: ["emend_delegate", "8"])
        XCTAssertNil(coordinator)
        table.struct_size = 0
        XCTAssertStatus(emend_coordinator_create(&table, nil, &coordinator), EMEND_E_STRUCT_SIZE)

        // The first version (struct_size, user_data, requests_contexts): the callbacks past it are
        // not read, so this engine has no replace and no present_result: behavior NONE.
        table = engine.delegate()
        table.struct_size = 3 * MemoryLayout<Int>.size
        XCTAssertEqual(emend_coordinator_create(&table, nil, &coordinator), EMEND_OK, lastError)
        var preferred = EMEND_BEHAVIOR_COMPLETE, resolved = EMEND_BEHAVIOR_COMPLETE
        XCTAssertEqual(emend_coordinator_get_behavior(coordinator, &preferred, &resolved), EMEND_OK)
        XCTAssertEqual(preferred, EMEND_BEHAVIOR_DEFAULT)
        XCTAssertEqual(resolved, EMEND_BEHAVIOR_NONE)
        emend_coordinator_destroy(coordinator)

        // A newer, bigger table works like ours.
        coordinator = nil
        let status = withBigger(engine.delegate()) { raw in
            emend_coordinator_create(raw.assumingMemoryBound(to: emend_delegate.self), nil, &coordinator)
        }
        XCTAssertEqual(status, EMEND_OK, lastError)
        XCTAssertEqual(start(coordinator, EMEND_TOOL_PROOFREAD), EMEND_OK)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK)
        XCTAssertEqual(state(coordinator), EMEND_STATE_INTERACTIVE_RESTING)
        emend_coordinator_destroy(coordinator)
    }

    func testOptionsStructSize() {
        let engine = CEngine("Text.")
        var table = engine.delegate()
        var coordinator: OpaquePointer?
        var options = emend_coordinator_options()
        options.struct_size = 4
        XCTAssertStatus(emend_coordinator_create(&table, &options, &coordinator), EMEND_E_STRUCT_SIZE, mentions: ["emend_coordinator_options"])
        XCTAssertNil(coordinator)

        // The first version holds encoding and behavior; the timeouts after it read as 0 (defaults).
        options = emend_coordinator_options()
        options.struct_size = 2 * MemoryLayout<Int>.size
        options.encoding = EMEND_ENCODING_UTF16
        options.preferred_behavior = EMEND_BEHAVIOR_LIMITED
        options.preferred_result_options = 0xFFFF_FFFF   // past struct_size: not read
        XCTAssertEqual(emend_coordinator_create(&table, &options, &coordinator), EMEND_OK, lastError)
        var preferred = EMEND_BEHAVIOR_DEFAULT, resolved = EMEND_BEHAVIOR_DEFAULT
        XCTAssertEqual(emend_coordinator_get_behavior(coordinator, &preferred, &resolved), EMEND_OK)
        XCTAssertEqual(preferred, EMEND_BEHAVIOR_LIMITED)
        var preferredOptions: UInt32 = 99, resolvedOptions: UInt32 = 99
        XCTAssertEqual(emend_coordinator_get_result_options(coordinator, &preferredOptions, &resolvedOptions), EMEND_OK)
        XCTAssertEqual(preferredOptions, 0)
        XCTAssertEqual(resolvedOptions, UInt32(EMEND_RESULT_PLAIN_TEXT))
        emend_coordinator_destroy(coordinator)

        coordinator = nil
        var bigger = emend_coordinator_options()
        bigger.struct_size = MemoryLayout<emend_coordinator_options>.size
        bigger.preferred_result_options = UInt32(EMEND_RESULT_LIST)
        let status = withBigger(bigger) { raw in
            emend_coordinator_create(&table, raw.assumingMemoryBound(to: emend_coordinator_options.self), &coordinator)
        }
        XCTAssertEqual(status, EMEND_OK, lastError)
        XCTAssertEqual(emend_coordinator_get_result_options(coordinator, &preferredOptions, &resolvedOptions), EMEND_OK)
        XCTAssertEqual(preferredOptions, UInt32(EMEND_RESULT_LIST))
        emend_coordinator_destroy(coordinator)

        // The language must be a BCP 47 tag.
        coordinator = nil
        var tagged = emend_coordinator_options()
        tagged.struct_size = MemoryLayout<emend_coordinator_options>.size
        let bad = "en US; rm".withCString { tag in
            tagged.language = tag
            return emend_coordinator_create(&table, &tagged, &coordinator)
        }
        XCTAssertStatus(bad, EMEND_E_INVALID_ARGUMENT, mentions: ["options.language", "en US; rm"])
        XCTAssertNil(coordinator)
        let good = "de-DE".withCString { tag in
            tagged.language = tag
            return emend_coordinator_create(&table, &tagged, &coordinator)
        }
        XCTAssertEqual(good, EMEND_OK, lastError)
        emend_coordinator_destroy(coordinator)
    }

    func testToolRequestStructSize() throws {
        let engine = CEngine("See you tomorow.")
        let coordinator = try engine.makeCoordinator()
        defer { emend_coordinator_destroy(coordinator) }
        var request = emend_tool_request(struct_size: 8, tool: EMEND_TOOL_PROOFREAD, scope: EMEND_SCOPE_USER_SELECTION,
                                         prompt: nil, provider_id: nil)
        XCTAssertStatus(emend_coordinator_start(coordinator, &request), EMEND_E_STRUCT_SIZE, mentions: ["emend_tool_request"])
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK)
        XCTAssertTrue(engine.states.isEmpty, "a failed start changes nothing")

        request.struct_size = MemoryLayout<emend_tool_request>.size
        let status = withBigger(request) { raw in
            emend_coordinator_start(coordinator, raw.assumingMemoryBound(to: emend_tool_request.self))
        }
        XCTAssertEqual(status, EMEND_OK, lastError)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK)
        XCTAssertEqual(engine.text, "See you tomorrow.")
    }

    func testContextDescStructSize() throws {
        let engine = CEngine("See you tomorow.")
        engine.holdContexts = true
        let coordinator = try engine.makeCoordinator()
        defer { emend_coordinator_destroy(coordinator) }
        XCTAssertEqual(start(coordinator, EMEND_TOOL_PROOFREAD), EMEND_OK)
        XCTAssertTrue(pump(coordinator) { !engine.heldContexts.isEmpty })
        let request = try XCTUnwrap(engine.takeHeldContexts().first)
        engine.withContext { desc in
            var small = desc
            small.struct_size = 16
            XCTAssertStatus(emend_answer_contexts(coordinator, request, &small, 1), EMEND_E_STRUCT_SIZE, mentions: ["contexts[0]", "16"])
            // Two contexts of a newer, bigger size: the array's stride is their struct_size.
            let size = MemoryLayout<emend_context_desc>.size + 40
            let raw = UnsafeMutableRawPointer.allocate(byteCount: 2 * size, alignment: 16)
            defer { raw.deallocate() }
            raw.initializeMemory(as: UInt8.self, repeating: 0x5A, count: 2 * size)
            for i in 0..<2 {
                (raw + i * size).storeBytes(of: desc, as: emend_context_desc.self)
                (raw + i * size).storeBytes(of: size, as: Int.self)
            }
            let status = emend_answer_contexts(coordinator, request, raw.assumingMemoryBound(to: emend_context_desc.self), 2)
            XCTAssertEqual(status, EMEND_OK, lastError)
        }
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK)
        XCTAssertEqual(engine.text, "See you tomorrow.")
    }

    func testSuggestionStructSize() throws {
        let engine = CEngine("See you tomorow.")
        let coordinator = try engine.makeCoordinator()
        defer { emend_coordinator_destroy(coordinator) }
        XCTAssertEqual(start(coordinator, EMEND_TOOL_PROOFREAD), EMEND_OK)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK)

        var s = emend_suggestion()
        s.struct_size = 16
        XCTAssertStatus(emend_session_get_suggestion(coordinator, 0, &s), EMEND_E_STRUCT_SIZE, mentions: ["emend_suggestion"])

        // The first version (struct_size, context_id, range): nothing past it is written.
        let first = 2 * MemoryLayout<Int>.size + MemoryLayout<emend_range>.size
        let size = MemoryLayout<emend_suggestion>.size + 32
        let raw = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        defer { raw.deallocate() }
        raw.initializeMemory(as: UInt8.self, repeating: 0xCC, count: size)
        raw.storeBytes(of: first, as: Int.self)
        XCTAssertEqual(emend_session_get_suggestion(coordinator, 0, raw.assumingMemoryBound(to: emend_suggestion.self)), EMEND_OK, lastError)
        let old = raw.load(as: emend_suggestion.self)
        XCTAssertEqual(old.struct_size, first, "struct_size is the caller's")
        XCTAssertEqual(old.context_id, engine.contextID)
        XCTAssertEqual(engine.substring(old.range), "tomorrow")
        XCTAssertTrue((first..<size).allSatisfy { raw.load(fromByteOffset: $0, as: UInt8.self) == 0xCC })

        // A newer, bigger struct: all our fields are filled, the tail is left alone.
        raw.initializeMemory(as: UInt8.self, repeating: 0xCC, count: size)
        raw.storeBytes(of: size, as: Int.self)
        XCTAssertEqual(emend_session_get_suggestion(coordinator, 0, raw.assumingMemoryBound(to: emend_suggestion.self)), EMEND_OK, lastError)
        let new = raw.load(as: emend_suggestion.self)
        XCTAssertEqual(String(cString: new.original), "tomorow")
        XCTAssertEqual(String(cString: new.replacement), "tomorrow")
        XCTAssertEqual(String(cString: new.category), "spelling")
        XCTAssertEqual(new.state, EMEND_SUGGESTION_PENDING)
        XCTAssertTrue((MemoryLayout<emend_suggestion>.size..<size).allSatisfy { raw.load(fromByteOffset: $0, as: UInt8.self) == 0xCC })
    }
}
