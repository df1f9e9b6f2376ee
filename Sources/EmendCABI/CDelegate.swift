import CEmend
import EmendCore
import EmendText
import Glibc

/// Adapts the engine's emend_delegate table to the core's CoordinatorDelegate, converting
/// byte ranges into the engine's position encoding.
final class CDelegate: CoordinatorDelegate {
    let table: emend_delegate
    let encoding: PositionEncoding
    /// Set once the handle exists: the pointer callbacks receive.
    var handle: OpaquePointer?
    /// Looks up a context's current text for offset conversion.
    var positionsOf: (UInt64) -> any PositionMapping = { _ in PositionConverter("") }

    init(table: emend_delegate, encoding: PositionEncoding) {
        self.table = table
        self.encoding = encoding
    }

    var capabilities: DelegateCapabilities {
        var caps: DelegateCapabilities = []
        if table.replace != nil { caps.insert(.replace) }
        if table.select_ranges != nil { caps.insert(.selectRanges) }
        if table.requests_bounding_rects != nil { caps.insert(.boundingRects) }
        if table.requests_underline_rects != nil { caps.insert(.underlineRects) }
        if table.prepare_for_text_animation != nil { caps.insert(.prepareAnimation) }
        if table.requests_preview != nil { caps.insert(.preview) }
        if table.finish_text_animation != nil { caps.insert(.finishAnimation) }
        if table.will_change_to_state != nil { caps.insert(.willChangeState) }
        if table.present_result != nil { caps.insert(.presentResult) }
        if table.session_ended != nil { caps.insert(.sessionEnded) }
        if table.suggestions_changed != nil { caps.insert(.suggestionsChanged) }
        if table.requests_rects != nil { caps.insert(.rectBatches) }
        return caps
    }

    private func cRange(_ range: Range<Int>, _ contextID: UInt64) -> emend_range {
        CText.cRange(range, in: positionsOf(contextID), encoding: encoding)
    }

    private func engine(_ value: UInt) -> UnsafeMutableRawPointer? { UnsafeMutableRawPointer(bitPattern: value) }

    func requestsContexts(_ coordinator: Coordinator, scope: ContextScope, request: RequestID) {
        table.requests_contexts?(table.user_data, handle, emend_context_scope(rawValue: numericCast(scope.rawValue)), request)
    }

    func replace(_ coordinator: Coordinator, _ proposal: ReplaceProposal, request: RequestID) {
        let range = cRange(proposal.range, proposal.contextID)
        let styling = CStyling(runs: proposal.attributeRuns, intents: proposal.blockIntents, of: proposal.text, encoding: encoding)
        proposal.text.withCString { text in
            var replace = emend_replace_request(
                struct_size: MemoryLayout<emend_replace_request>.size, context_id: proposal.contextID,
                engine_context: engine(proposal.engineContext), range: range, text: text,
                text_length: proposal.text.utf8.count,
                reason: emend_replace_reason(rawValue: numericCast(proposal.reason.rawValue)),
                kind: emend_change_kind(rawValue: numericCast(proposal.kind.rawValue)),
                animation_duration: proposal.animationDuration, animation_delay: 0,
                flags: proposal.styled ? EMEND_REPLACE_STYLED : 0,
                attribute_runs: styling.runPointer, attribute_run_count: styling.runCount,
                block_intents: styling.intentPointer, block_intent_count: styling.intentCount)
            table.replace?(table.user_data, handle, &replace, request)
        }
        withExtendedLifetime(styling) {}
    }

    func selectRanges(_ coordinator: Coordinator, contextID: UInt64, engineContext: UInt, ranges: [Range<Int>], request: RequestID) {
        let converted = ranges.map { cRange($0, contextID) }
        converted.withUnsafeBufferPointer { buffer in
            table.select_ranges?(table.user_data, handle, contextID, engine(engineContext), buffer.baseAddress, buffer.count, request)
        }
    }

    /// Runs `body` with a pointer to the C range of `range`, valid during the call: the five
    /// callbacks that name a range take `const emend_range *` (so that FFIs without struct
    /// by-value callbacks, LuaJIT's, can implement them).
    private func withCRange(_ range: Range<Int>, _ contextID: UInt64, _ body: (UnsafePointer<emend_range>) -> Void) {
        var converted = cRange(range, contextID)
        withUnsafePointer(to: &converted) { body($0) }
    }

    private func cAnimation(_ animation: TextAnimation) -> emend_text_animation {
        emend_text_animation(rawValue: numericCast(animation.rawValue))
    }

    func requestsBoundingRects(_ coordinator: Coordinator, contextID: UInt64, engineContext: UInt, range: Range<Int>, request: RequestID) {
        withCRange(range, contextID) {
            table.requests_bounding_rects?(table.user_data, handle, contextID, engine(engineContext), $0, request)
        }
    }

    func requestsUnderlineRects(_ coordinator: Coordinator, contextID: UInt64, engineContext: UInt, range: Range<Int>, request: RequestID) {
        withCRange(range, contextID) {
            table.requests_underline_rects?(table.user_data, handle, contextID, engine(engineContext), $0, request)
        }
    }

    func prepareForTextAnimation(_ coordinator: Coordinator, _ animation: TextAnimation, contextID: UInt64, engineContext: UInt, range: Range<Int>, request: RequestID) {
        withCRange(range, contextID) {
            table.prepare_for_text_animation?(table.user_data, handle, cAnimation(animation), contextID, engine(engineContext), $0, request)
        }
    }

    func requestsPreview(_ coordinator: Coordinator, _ animation: TextAnimation, contextID: UInt64, engineContext: UInt, range: Range<Int>, request: RequestID) {
        withCRange(range, contextID) {
            table.requests_preview?(table.user_data, handle, cAnimation(animation), contextID, engine(engineContext), $0, request)
        }
    }

    func finishTextAnimation(_ coordinator: Coordinator, _ animation: TextAnimation, contextID: UInt64, engineContext: UInt, range: Range<Int>, preview: UInt, request: RequestID) {
        withCRange(range, contextID) {
            table.finish_text_animation?(table.user_data, handle, cAnimation(animation), contextID, engine(engineContext), $0,
                                         engine(preview), request)
        }
    }

    func willChangeToState(_ coordinator: Coordinator, _ state: CoordinatorState, request: RequestID) {
        table.will_change_to_state?(table.user_data, handle, emend_state(rawValue: numericCast(state.rawValue)), request)
    }

    func presentResult(_ coordinator: Coordinator, _ result: PresentedResult, request: RequestID) {
        let range = cRange(result.range, result.contextID)
        let styling = CStyling(runs: result.attributeRuns, intents: result.blockIntents, of: result.text, encoding: encoding)
        let explanation = result.explanation.map { strdup($0)! }
        defer { free(explanation) }
        result.text.withCString { text in
            var presented = emend_presented_result(
                struct_size: MemoryLayout<emend_presented_result>.size, context_id: result.contextID,
                engine_context: engine(result.engineContext), tool: emend_tool(rawValue: numericCast(result.tool.rawValue)),
                range: range, text: text, text_length: result.text.utf8.count,
                flags: result.styled ? EMEND_REPLACE_STYLED : 0,
                attribute_runs: styling.runPointer, attribute_run_count: styling.runCount,
                block_intents: styling.intentPointer, block_intent_count: styling.intentCount,
                explanation: UnsafePointer(explanation))
            table.present_result?(table.user_data, handle, &presented, request)
        }
        withExtendedLifetime(styling) {}
    }
}

extension CDelegate {
    /// session_ended: a notification with a message valid only during the call. The message
    /// is taken from the coordinator's outcome so that offsets in it speak the engine's
    /// encoding (see EmendError.message(in:)).
    func sessionEnded(_ coordinator: Coordinator, status: EmendStatus, message: String) {
        // A failure's message speaks the engine's encoding; a finished session's is the
        // completeness note (what a partial result lacks), which names no offsets.
        var text = message
        if let outcome = coordinator.lastSessionOutcome, case .failed = outcome { text = CSessionOutcome.message(outcome, encoding: encoding) }
        text.withCString { table.session_ended?(table.user_data, handle, CSessionOutcome.cStatus(status), $0) }
    }
}

extension CDelegate {
    /// suggestions_changed: a notification with a span valid only during the call.
    func suggestionsChanged(_ coordinator: Coordinator, _ changed: Range<Int>, total: Int) {
        var span = emend_suggestion_span(struct_size: MemoryLayout<emend_suggestion_span>.size,
                                         first: changed.lowerBound, count: changed.count, total: total)
        table.suggestions_changed?(table.user_data, handle, &span)
    }
}

extension CDelegate {
    /// requests_rects: the ranges of one batch, converted, valid during the call.
    func requestsRects(_ coordinator: Coordinator, _ purpose: RectPurpose, contextID: UInt64, engineContext: UInt,
                       ranges: [Range<Int>], request: RequestID) {
        let positions = positionsOf(contextID)
        let converted = ranges.map { CText.cRange($0, in: positions, encoding: encoding) }
        converted.withUnsafeBufferPointer { buffer in
            table.requests_rects?(table.user_data, handle, emend_rect_purpose(rawValue: numericCast(purpose.rawValue)), contextID,
                                  UnsafeMutableRawPointer(bitPattern: engineContext), buffer.baseAddress, buffer.count, request)
        }
    }
}
