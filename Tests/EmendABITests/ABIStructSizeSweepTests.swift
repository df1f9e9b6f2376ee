import XCTest
import CEmend
import EmendCABI

/// Every struct_size from 0 to sizeof + 16, for every struct the ABI reads or fills: no crash,
/// and EMEND_E_STRUCT_SIZE exactly below the first version, else OK. The bytes past
/// struct_size hold junk (as a caller's stack would), so a field struct_size covers only in
/// part (half a pointer) must read as absent, never as a pointer made of junk.
final class ABIStructSizeSweepTests: XCTestCase {
    /// Below 0x80, so a count made of a few real bytes and junk is huge and positive, not negative.
    private let junk: UInt8 = 0x25

    /// `value` in a buffer `sizeof + 16` bytes long, with struct_size `size` and junk from
    /// byte `size` on (struct_size itself is always whole).
    private func withTruncated<T, R>(_ value: T, size: Int, _ body: (UnsafeMutableRawPointer) -> R) -> R {
        let capacity = MemoryLayout<T>.size + 16
        let raw = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        defer { raw.deallocate() }
        raw.initializeMemory(as: UInt8.self, repeating: 0, count: capacity)
        raw.storeBytes(of: value, as: T.self)
        for offset in max(size, 8)..<capacity { raw.storeBytes(of: junk, toByteOffset: offset, as: UInt8.self) }
        raw.storeBytes(of: size, as: Int.self)
        return body(raw)
    }

    private func sizes<T>(_: T.Type) -> ClosedRange<Int> { 0...(MemoryLayout<T>.size + 16) }

    private func expect(_ status: emend_status, size: Int, minimum: Int, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        let expected = size < minimum ? EMEND_E_STRUCT_SIZE : EMEND_OK
        XCTAssertEqual(String(cString: emend_status_name(status)), String(cString: emend_status_name(expected)),
                       "\(what) struct_size \(size): \(lastError)", file: file, line: line)
    }

    func testDelegateSizes() {
        let minimum = MemoryLayout<emend_delegate>.offset(of: \emend_delegate.replace)!
        for size in sizes(emend_delegate.self) {
            let engine = CEngine("See you tomorow.")
            var coordinator: OpaquePointer?
            let status = withTruncated(engine.delegate(), size: size) { raw in
                emend_coordinator_create(raw.assumingMemoryBound(to: emend_delegate.self), nil, &coordinator)
            }
            expect(status, size: size, minimum: minimum, "emend_delegate")
            guard let coordinator else { continue }
            // Whatever callbacks were read are called: a junk pointer would crash here.
            if start(coordinator, EMEND_TOOL_PROOFREAD) == EMEND_OK {
                _ = runUntilIdle(coordinator)
            }
            emend_coordinator_destroy(coordinator)
        }
    }

    func testOptionsSizes() {
        let minimum = MemoryLayout<emend_coordinator_options>.offset(of: \emend_coordinator_options.preferred_result_options)!
        let engine = CEngine("See you tomorow.")
        var table = engine.delegate()
        "de-DE".withCString { tag in
            var options = emend_coordinator_options()
            options.struct_size = MemoryLayout<emend_coordinator_options>.size
            options.language = tag
            // The last field: a size that ends before it is DEFAULT, whatever bytes follow.
            options.provider_hosts = EMEND_PROVIDER_HOSTS_OWN
            for size in sizes(emend_coordinator_options.self) {
                var coordinator: OpaquePointer?
                let status = withTruncated(options, size: size) { raw in
                    emend_coordinator_create(&table, raw.assumingMemoryBound(to: emend_coordinator_options.self), &coordinator)
                }
                expect(status, size: size, minimum: minimum, "emend_coordinator_options")
                emend_coordinator_destroy(coordinator)
            }
        }
    }

    func testToolRequestSizes() throws {
        let minimum = MemoryLayout<emend_tool_request>.offset(of: \emend_tool_request.prompt)!
        let engine = CEngine("See you tomorow.")
        let coordinator = try engine.makeCoordinator()
        defer { emend_coordinator_destroy(coordinator) }
        "org.emend.fixture".withCString { provider in
            let request = emend_tool_request(struct_size: MemoryLayout<emend_tool_request>.size, tool: EMEND_TOOL_PROOFREAD,
                                             scope: EMEND_SCOPE_USER_SELECTION, prompt: nil, provider_id: provider)
            for size in sizes(emend_tool_request.self) {
                let status = withTruncated(request, size: size) { raw in
                    emend_coordinator_start(coordinator, raw.assumingMemoryBound(to: emend_tool_request.self))
                }
                expect(status, size: size, minimum: minimum, "emend_tool_request")
                guard status == EMEND_OK else { continue }
                XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK, lastError)
                XCTAssertEqual(emend_session_revert(coordinator), EMEND_OK, lastError)
                XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK, lastError)
                XCTAssertEqual(engine.text, "See you tomorow.")
            }
        }
    }

    func testContextDescSizes() throws {
        let minimum = MemoryLayout<emend_context_desc>.offset(of: \emend_context_desc.engine_context)!
        let engine = CEngine("See you tomorow.")
        engine.holdContexts = true
        let coordinator = try engine.makeCoordinator()
        defer { emend_coordinator_destroy(coordinator) }
        var protected = [emend_range(location: 0, length: 3)]
        var intents = [emend_block_intent(range: emend_range(location: 0, length: 16), kind: EMEND_BLOCK_PARAGRAPH,
                                          level: 0, ordinal: 0, row: 0, column: 0)]
        for size in sizes(emend_context_desc.self) {
            XCTAssertEqual(start(coordinator, EMEND_TOOL_PROOFREAD), EMEND_OK, lastError)
            XCTAssertTrue(pump(coordinator) { !engine.heldContexts.isEmpty })
            guard let request = engine.takeHeldContexts().first else { return XCTFail("no context request") }
            let status: emend_status = engine.withContext { base in
                var desc = base
                return "bold".withCString { key in
                    "1".withCString { value in
                        var runs = [emend_attribute_run(range: emend_range(location: 4, length: 3), key: key, value: value)]
                        return protected.withUnsafeMutableBufferPointer { p in
                            runs.withUnsafeMutableBufferPointer { r in
                                intents.withUnsafeMutableBufferPointer { i in
                                    desc.protected_ranges = UnsafePointer(p.baseAddress)
                                    desc.protected_range_count = p.count
                                    desc.attribute_runs = UnsafePointer(r.baseAddress)
                                    desc.attribute_run_count = r.count
                                    desc.block_intents = UnsafePointer(i.baseAddress)
                                    desc.block_intent_count = i.count
                                    return withTruncated(desc, size: size) { raw in
                                        emend_answer_contexts(coordinator, request, raw.assumingMemoryBound(to: emend_context_desc.self), 1)
                                    }
                                }
                            }
                        }
                    }
                }
            }
            expect(status, size: size, minimum: minimum, "emend_context_desc")
            let handedBack = engine.replaceEngineContexts.count
            if status != EMEND_OK {
                XCTAssertEqual(emend_answer_failed(coordinator, request, EMEND_E_CANCELLED, nil), EMEND_OK, lastError)
            }
            _ = runUntilIdle(coordinator)
            if state(coordinator) == EMEND_STATE_INTERACTIVE_RESTING {
                XCTAssertEqual(emend_session_revert(coordinator), EMEND_OK, lastError)
                XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK, lastError)
            }
            XCTAssertEqual(state(coordinator), EMEND_STATE_INACTIVE)
            XCTAssertEqual(engine.text, "See you tomorow.")
            // engine_context comes back whole or as NULL (struct_size did not cover it), never half.
            for context in engine.replaceEngineContexts.dropFirst(handedBack) where context != nil && context != engine.userData {
                XCTFail("struct_size \(size): engine_context came back as \(String(describing: context))")
            }
        }
    }

    /// Structs the runtime fills: only the fields struct_size covers whole are written, and
    /// not one byte past them.
    func testFilledStructSizes() throws {
        let engine = CEngine("See you tomorow.")
        let coordinator = try engine.makeCoordinator()
        defer { emend_coordinator_destroy(coordinator) }
        XCTAssertEqual(start(coordinator, EMEND_TOOL_PROOFREAD), EMEND_OK)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK)

        let suggestionMinimum = MemoryLayout<emend_suggestion>.offset(of: \emend_suggestion.original)!
        typealias S = emend_suggestion
        let suggestionEnds = [fieldEnd(of: \S.context_id), fieldEnd(of: \S.range), fieldEnd(of: \S.original),
                              fieldEnd(of: \S.replacement), fieldEnd(of: \S.explanation), fieldEnd(of: \S.category),
                              fieldEnd(of: \S.rule_id), fieldEnd(of: \S.state)]
        for size in sizes(emend_suggestion.self) {
            let status = withTruncated(emend_suggestion(), size: size) { raw in
                let status = emend_session_get_suggestion(coordinator, 0, raw.assumingMemoryBound(to: emend_suggestion.self))
                checkUntouched(raw, from: wholeEnd(suggestionEnds, size), to: MemoryLayout<emend_suggestion>.size + 16, size: size)
                return status
            }
            expect(status, size: size, minimum: suggestionMinimum, "emend_suggestion")
        }

        let infoMinimum = MemoryLayout<emend_provider_info>.offset(of: \emend_provider_info.tools)!
        typealias P = emend_provider_info
        let infoEnds = [fieldEnd(of: \P.id), fieldEnd(of: \P.name), fieldEnd(of: \P.version), fieldEnd(of: \P.path),
                        fieldEnd(of: \P.tools), fieldEnd(of: \P.languages), fieldEnd(of: \P.flags), fieldEnd(of: \P.priority),
                        fieldEnd(of: \P.enabled), fieldEnd(of: \P.reason)]
        for size in sizes(emend_provider_info.self) {
            let status = withTruncated(emend_provider_info(), size: size) { raw in
                let status = emend_coordinator_get_provider(coordinator, 0, raw.assumingMemoryBound(to: emend_provider_info.self))
                checkUntouched(raw, from: wholeEnd(infoEnds, size), to: MemoryLayout<emend_provider_info>.size + 16, size: size)
                return status
            }
            expect(status, size: size, minimum: infoMinimum, "emend_provider_info")
        }
    }

    private func fieldEnd<T, V>(of path: KeyPath<T, V>) -> Int {
        MemoryLayout<T>.offset(of: path)! + MemoryLayout<V>.size
    }

    /// The end of the last field that a struct of `size` bytes holds whole (8: struct_size).
    private func wholeEnd(_ ends: [Int], _ size: Int) -> Int {
        ends.filter { $0 <= size }.max() ?? 8
    }

    private func checkUntouched(_ raw: UnsafeMutableRawPointer, from start: Int, to end: Int, size: Int,
                                file: StaticString = #filePath, line: UInt = #line) {
        for offset in max(start, size, 8)..<end where raw.load(fromByteOffset: offset, as: UInt8.self) != junk {
            return XCTFail("struct_size \(size): byte \(offset) past the fields it covers was written", file: file, line: line)
        }
        // Bytes of a field struct_size covers only in part stay as the caller left them (junk
        // only from `size` on; zero before it, from the zeroed value).
        for offset in stride(from: max(start, 8), to: min(size, end), by: 1) where raw.load(fromByteOffset: offset, as: UInt8.self) != 0 {
            return XCTFail("struct_size \(size): byte \(offset) of a field it covers only in part was written", file: file, line: line)
        }
    }
}
