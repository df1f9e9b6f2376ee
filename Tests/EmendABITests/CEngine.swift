import XCTest
import Foundation
import Glibc
import CEmend
import EmendCABI

/// A text engine driving libemend through the C functions of emend.h only: its document is a
/// String it edits in its own position encoding, and its delegate table is made of
/// @convention(c) functions that find the engine again through `user_data`.
final class CEngine: @unchecked Sendable {
    var text: String
    var selection = emend_range(location: 0, length: 0)
    let encoding: emend_position_encoding
    var protectedRanges: [emend_range] = []
    /// The attribute runs the engine gives with its context (its own runs are not updated by
    /// replaces: tests read what arrived in `styledReplaces`).
    var attributeRuns: [(range: emend_range, key: String, value: String)] = []

    /// Hold context requests instead of answering them (tests answer with their own descs).
    var holdContexts = false
    /// Hold replaces instead of applying and answering them.
    var holdReplaces = false
    /// Text to insert instead of a proposal (nil: the proposal as it is), answered as inserted.
    var insertInstead: ((String) -> String?)?
    /// Called inside will_change_to_state after the engine answered it.
    var onStateChange: ((OpaquePointer?, emend_request_id) -> Void)?
    var presentedAction = EMEND_PRESENTED_COPY
    /// Give requests_bounding_rects: one rectangle 10 units per offset, 10 high (for hit tests).
    var givesBoundingRects = false
    /// Hold bounding-rect requests instead of answering them (answerHeldRects answers them).
    var holdRects = false
    /// Give requests_underline_rects: the same rectangles as the bounding ones.
    var givesUnderlineRects = false
    /// Implement prepare_for_text_animation, requests_preview and finish_text_animation.
    var animates = false
    /// Implement suggestions_changed (recorded in `suggestionSpans`).
    var wantsSuggestionChanges = false
    /// Every suggestions_changed notification, as it came.
    private(set) var suggestionSpans: [emend_suggestion_span] = []
    /// Implement requests_rects (batches): each range gets the rectangle `rect(of:)`.
    var batchesRects = false
    /// Every requests_rects, as it came: purpose and ranges.
    private(set) var rectBatches: [(purpose: emend_rect_purpose, ranges: [emend_range])] = []
    /// Each range-taking callback as it came: its name, the animation (nil for rects) and the
    /// range read through the `const emend_range *` it received.
    private(set) var rangeCalls: [(callback: String, animation: emend_text_animation?, range: emend_range)] = []
    private(set) var heldRects: [(request: emend_request_id, range: emend_range)] = []
    /// The result options the coordinator is created with (0 = plain text).
    var resultOptions: emend_result_options = 0
    /// The styling of each replace that carried EMEND_REPLACE_STYLED: intents and runs as
    /// given (ranges relative to the replace's text), with that text.
    private(set) var styledReplaces: [(text: String, intents: [emend_block_intent], runs: [(range: emend_range, key: String, value: String)])] = []

    private(set) var heldContexts: [emend_request_id] = []
    private(set) var heldReplaces: [emend_request_id] = []
    private(set) var states: [emend_state] = []
    /// The id of the context the coordinator last named in a callback.
    private(set) var contextID: UInt64 = 0
    private(set) var replaces: [(range: emend_range, text: String, kind: emend_change_kind)] = []
    /// The engine_context of each replace, as the runtime handed it back.
    private(set) var replaceEngineContexts: [UnsafeMutableRawPointer?] = []
    private(set) var selections: [[emend_range]] = []
    private(set) var presented: [String] = []
    /// Every session_ended notification: status, message, and the state then.
    private(set) var endings: [(status: emend_status, message: String, state: emend_state)] = []
    /// Statuses of the engine's own answers that were not EMEND_OK.
    private(set) var answerFailures: [String] = []

    init(_ text: String, encoding: emend_position_encoding = EMEND_ENCODING_UTF8) {
        self.text = text
        self.encoding = encoding
    }

    var userData: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    static func from(_ pointer: UnsafeMutableRawPointer?) -> CEngine {
        Unmanaged<CEngine>.fromOpaque(pointer!).takeUnretainedValue()
    }

    /// The delegate table: contexts, replace, select, will_change_to_state, present_result.
    func delegate() -> emend_delegate {
        var table = emend_delegate()
        table.struct_size = MemoryLayout<emend_delegate>.size
        table.user_data = userData
        table.requests_contexts = { user, coordinator, _, request in
            CEngine.from(user).requestsContexts(coordinator, request)
        }
        table.replace = { user, coordinator, replace, request in
            CEngine.from(user).replace(coordinator, replace!.pointee, request)
        }
        table.select_ranges = { user, coordinator, contextID, _, ranges, count, request in
            let engine = CEngine.from(user)
            engine.contextID = contextID
            engine.selections.append(Array(UnsafeBufferPointer(start: ranges, count: count)))
            engine.check(emend_answer_done(coordinator, request), "select_ranges")
        }
        table.will_change_to_state = { user, coordinator, state, request in
            let engine = CEngine.from(user)
            engine.states.append(state)
            engine.check(emend_answer_done(coordinator, request), "will_change_to_state")
            engine.onStateChange?(coordinator, request)
        }
        table.present_result = { user, coordinator, result, request in
            let engine = CEngine.from(user)
            let r = result!.pointee
            engine.presented.append(String(decoding: UnsafeRawBufferPointer(start: r.text, count: r.text_length), as: UTF8.self))
            engine.check(emend_answer_presented(coordinator, request, engine.presentedAction), "present_result")
        }
        table.session_ended = { user, coordinator, status, message in
            var now = EMEND_STATE_INTERACTIVE_STREAMING
            _ = emend_coordinator_get_state(coordinator, &now)
            CEngine.from(user).endings.append((status, String(cString: message!), now))
        }
        if wantsSuggestionChanges {
            table.suggestions_changed = { user, _, span in
                CEngine.from(user).suggestionSpans.append(span!.pointee)
            }
        }
        if batchesRects {
            table.requests_rects = { user, coordinator, purpose, _, _, ranges, count, request in
                let engine = CEngine.from(user)
                let given = Array(UnsafeBufferPointer(start: ranges, count: count))
                engine.rectBatches.append((purpose, given))
                var rects = given.map { CEngine.rect(of: $0) }
                var counts = [Int](repeating: 1, count: given.count)
                engine.check(emend_answer_rects_batch(coordinator, request, &counts, counts.count, &rects, rects.count), "requests_rects")
            }
        }
        if givesBoundingRects {
            table.requests_bounding_rects = { user, coordinator, _, _, pointer, request in
                let engine = CEngine.from(user), range = pointer!.pointee
                engine.rangeCalls.append(("requests_bounding_rects", nil, range))
                if engine.holdRects { return engine.heldRects.append((request, range)) }
                engine.answerRect(coordinator, request, range, "requests_bounding_rects")
            }
        }
        if givesUnderlineRects {
            table.requests_underline_rects = { user, coordinator, _, _, pointer, request in
                let engine = CEngine.from(user), range = pointer!.pointee
                engine.rangeCalls.append(("requests_underline_rects", nil, range))
                engine.answerRect(coordinator, request, range, "requests_underline_rects")
            }
        }
        if animates {
            table.prepare_for_text_animation = { user, coordinator, animation, _, _, pointer, request in
                let engine = CEngine.from(user)
                engine.rangeCalls.append(("prepare_for_text_animation", animation, pointer!.pointee))
                engine.check(emend_answer_done(coordinator, request), "prepare_for_text_animation")
            }
            table.requests_preview = { user, coordinator, animation, _, _, pointer, request in
                let engine = CEngine.from(user)
                engine.rangeCalls.append(("requests_preview", animation, pointer!.pointee))
                engine.check(emend_answer_preview(coordinator, request, nil), "requests_preview")
            }
            table.finish_text_animation = { user, coordinator, animation, _, _, pointer, _, request in
                let engine = CEngine.from(user)
                engine.rangeCalls.append(("finish_text_animation", animation, pointer!.pointee))
                engine.check(emend_answer_done(coordinator, request), "finish_text_animation")
            }
        }
        return table
    }

    /// The rectangle of `range`: 10 units wide per offset on one line 10 high.
    static func rect(of range: emend_range) -> emend_rect {
        emend_rect(x: Double(range.location) * 10, y: 0, width: Double(range.length) * 10, height: 10)
    }

    private func answerRect(_ coordinator: OpaquePointer?, _ request: emend_request_id, _ range: emend_range, _ what: String) {
        var rect = CEngine.rect(of: range)
        check(emend_answer_rects(coordinator, request, &rect, 1), what)
    }

    /// Answers the held bounding-rect requests (outside any callback).
    func answerHeldRects(_ coordinator: OpaquePointer?) {
        let held = heldRects
        heldRects.removeAll()
        for (request, range) in held { answerRect(coordinator, request, range, "held requests_bounding_rects") }
    }

    /// A coordinator for this engine with `options` (encoding set from the engine).
    func makeCoordinator(completionTimeout: UInt32 = 0, providerTimeout: UInt32 = 0) throws -> OpaquePointer {
        var table = delegate()
        var options = emend_coordinator_options()
        options.struct_size = MemoryLayout<emend_coordinator_options>.size
        options.encoding = encoding
        options.completion_timeout_ms = completionTimeout
        options.provider_timeout_ms = providerTimeout
        options.preferred_result_options = resultOptions
        var coordinator: OpaquePointer?
        let status = emend_coordinator_create(&table, &options, &coordinator)
        XCTAssertEqual(status, EMEND_OK, String(cString: emend_last_error_message()))
        return try XCTUnwrap(coordinator)
    }

    // MARK: Text in the engine's encoding

    private func index(_ offset: UInt64) -> String.Index {
        switch encoding {
        case EMEND_ENCODING_UTF16: return text.utf16.index(text.startIndex, offsetBy: Int(offset))
        case EMEND_ENCODING_CODEPOINT: return text.unicodeScalars.index(text.startIndex, offsetBy: Int(offset))
        default: return text.utf8.index(text.startIndex, offsetBy: Int(offset))
        }
    }

    /// The text of `range` counted in the engine's encoding.
    func substring(_ range: emend_range) -> String {
        let start = index(range.location), end = index(range.location + range.length)
        return String(text.unicodeScalars[start..<end])
    }

    /// Replaces `range` (engine encoding) with `replacement`.
    func edit(_ range: emend_range, _ replacement: String) {
        text.replaceSubrange(index(range.location)..<index(range.location + range.length), with: replacement)
    }

    /// Length of the text in the engine's encoding.
    var length: UInt64 {
        switch encoding {
        case EMEND_ENCODING_UTF16: return UInt64(text.utf16.count)
        case EMEND_ENCODING_CODEPOINT: return UInt64(text.unicodeScalars.count)
        default: return UInt64(text.utf8.count)
        }
    }

    /// The range of the first `needle` in the text, in the engine's encoding.
    func range(of needle: String) -> emend_range? {
        guard let found = text.range(of: needle) else { return nil }
        func count(_ upTo: String.Index) -> UInt64 {
            switch encoding {
            case EMEND_ENCODING_UTF16: return UInt64(text.utf16.distance(from: text.startIndex, to: upTo))
            case EMEND_ENCODING_CODEPOINT: return UInt64(text.unicodeScalars.distance(from: text.startIndex, to: upTo))
            default: return UInt64(text.utf8.distance(from: text.startIndex, to: upTo))
            }
        }
        let start = count(found.lowerBound)
        return emend_range(location: start, length: count(found.upperBound) - start)
    }

    // MARK: Answering

    func check(_ status: emend_status, _ what: String) {
        if status != EMEND_OK {
            answerFailures.append("\(what): \(String(cString: emend_status_name(status))) \(String(cString: emend_last_error_message()))")
        }
    }

    /// Answers `request` with this engine's document as one context.
    func answerContexts(_ coordinator: OpaquePointer?, _ request: emend_request_id) -> emend_status {
        withContext { desc in
            var copy = desc
            return emend_answer_contexts(coordinator, request, &copy, 1)
        }
    }

    /// A context description of the document, valid inside `body`.
    func withContext<T>(_ body: (emend_context_desc) -> T) -> T {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { buffer in
            protectedRanges.withUnsafeBufferPointer { protected in
                let strings = attributeRuns.map { (strdup($0.key), strdup($0.value)) }
                defer { strings.forEach { free($0.0); free($0.1) } }
                let runs = zip(attributeRuns, strings).map { emend_attribute_run(range: $0.0.range, key: $0.1.0, value: $0.1.1) }
                return runs.withUnsafeBufferPointer { runs in
                    var desc = emend_context_desc()
                    desc.struct_size = MemoryLayout<emend_context_desc>.size
                    desc.text = UnsafeRawPointer(buffer.baseAddress).map { $0.assumingMemoryBound(to: CChar.self) }
                    desc.text_length = buffer.count
                    desc.selection = selection
                    desc.engine_context = userData
                    desc.protected_ranges = protected.baseAddress
                    desc.protected_range_count = protected.count
                    desc.attribute_runs = runs.baseAddress
                    desc.attribute_run_count = runs.count
                    return body(desc)
                }
            }
        }
    }

    private func requestsContexts(_ coordinator: OpaquePointer?, _ request: emend_request_id) {
        if holdContexts { return heldContexts.append(request) }
        check(answerContexts(coordinator, request), "requests_contexts")
    }

    private func replace(_ coordinator: OpaquePointer?, _ replace: emend_replace_request, _ request: emend_request_id) {
        let proposed = String(decoding: UnsafeRawBufferPointer(start: replace.text, count: replace.text_length), as: UTF8.self)
        replaces.append((replace.range, proposed, replace.kind))
        replaceEngineContexts.append(replace.engine_context)
        if replace.flags & EMEND_REPLACE_STYLED != 0 {
            let intents = Array(UnsafeBufferPointer(start: replace.block_intents, count: replace.block_intent_count))
            let runs = UnsafeBufferPointer(start: replace.attribute_runs, count: replace.attribute_run_count).map {
                (range: $0.range, key: String(cString: $0.key), value: String(cString: $0.value))
            }
            styledReplaces.append((proposed, intents, runs))
        }
        contextID = replace.context_id
        if holdReplaces { return heldReplaces.append(request) }
        if let instead = insertInstead?(proposed) {
            edit(replace.range, instead)
            let bytes = Array(instead.utf8)
            return bytes.withUnsafeBufferPointer { buffer in
                buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                    check(emend_answer_replace(coordinator, request, EMEND_REPLACE_APPLIED, $0, bytes.count), "replace")
                }
            }
        }
        edit(replace.range, proposed)
        check(emend_answer_replace(coordinator, request, EMEND_REPLACE_APPLIED, nil, 0), "replace")
    }

    /// Forgets held requests (the test answers them itself).
    func takeHeldContexts() -> [emend_request_id] {
        defer { heldContexts.removeAll() }
        return heldContexts
    }

    func takeHeldReplaces() -> [emend_request_id] {
        defer { heldReplaces.removeAll() }
        return heldReplaces
    }
}

// MARK: Driving a coordinator

/// Runs until idle with a generous limit; returns the status.
@discardableResult
func runUntilIdle(_ coordinator: OpaquePointer?, _ timeoutMs: Int32 = 10_000) -> emend_status {
    emend_coordinator_run_until_idle(coordinator, timeoutMs)
}

/// Dispatches, waiting on the coordinator's descriptor, until `condition` holds (or 10 s pass).
@discardableResult
func pump(_ coordinator: OpaquePointer?, until condition: () -> Bool) -> Bool {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    let deadline = ts.tv_sec + 10
    while true {
        XCTAssertEqual(emend_coordinator_dispatch(coordinator, nil), EMEND_OK)
        if condition() { return true }
        clock_gettime(CLOCK_MONOTONIC, &ts)
        if ts.tv_sec > deadline { return false }
        var pfd = pollfd(fd: emend_coordinator_fd(coordinator), events: Int16(POLLIN), revents: 0)
        _ = poll(&pfd, 1, 1000)
    }
}

/// Starts `tool` with a tool request of our own size.
func start(_ coordinator: OpaquePointer?, _ tool: emend_tool, prompt: String? = nil,
           scope: emend_context_scope = EMEND_SCOPE_USER_SELECTION) -> emend_status {
    func call(_ prompt: UnsafePointer<CChar>?) -> emend_status {
        var request = emend_tool_request(struct_size: MemoryLayout<emend_tool_request>.size, tool: tool, scope: scope,
                                         prompt: prompt, provider_id: nil)
        return emend_coordinator_start(coordinator, &request)
    }
    guard let prompt else { return call(nil) }
    return prompt.withCString { call($0) }
}

/// The last error message of this thread.
var lastError: String { String(cString: emend_last_error_message()) }

/// Asserts `status` is `expected` and that the message mentions each of `mentions`.
func XCTAssertStatus(_ status: emend_status, _ expected: emend_status, mentions: [String] = [],
                     file: StaticString = #filePath, line: UInt = #line) {
    let message = lastError
    XCTAssertEqual(String(cString: emend_status_name(status)), String(cString: emend_status_name(expected)),
                   "message: \(message)", file: file, line: line)
    if expected != EMEND_OK {
        XCTAssertFalse(message.isEmpty, "a failure must say why", file: file, line: line)
        for word in mentions {
            XCTAssertTrue(message.contains(word), "\"\(message)\" should mention \"\(word)\"", file: file, line: line)
        }
    }
}

/// Suggestion `index` as Swift values.
func suggestion(_ coordinator: OpaquePointer?, _ index: Int) -> (range: emend_range, original: String, replacement: String, state: emend_suggestion_state)? {
    var s = emend_suggestion()
    s.struct_size = MemoryLayout<emend_suggestion>.size
    guard emend_session_get_suggestion(coordinator, index, &s) == EMEND_OK else { return nil }
    return (s.range, String(cString: s.original), String(cString: s.replacement), s.state)
}

/// Number of suggestions (0 on failure).
/// emend_coordinator_get_completeness: the value and the message, asked for its length first.
func completeness(_ coordinator: OpaquePointer) -> (emend_completeness, String) {
    var value = EMEND_COMPLETENESS_UNKNOWN
    var length = 0
    XCTAssertEqual(emend_coordinator_get_completeness(coordinator, &value, nil, 0, &length), EMEND_OK, lastError)
    var buffer = [CChar](repeating: 1, count: length + 1)
    XCTAssertEqual(emend_coordinator_get_completeness(coordinator, &value, &buffer, buffer.count, &length), EMEND_OK, lastError)
    return (value, String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
}

func suggestionCount(_ coordinator: OpaquePointer?) -> Int {
    var count = 0
    XCTAssertEqual(emend_session_suggestion_count(coordinator, &count), EMEND_OK)
    return count
}

/// The coordinator's state.
func state(_ coordinator: OpaquePointer?) -> emend_state {
    var value = EMEND_STATE_INACTIVE
    XCTAssertEqual(emend_coordinator_get_state(coordinator, &value), EMEND_OK)
    return value
}
