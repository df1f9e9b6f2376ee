import CEmend
import EmendCore
import EmendText

/// Answers may come from any thread: they validate, then queue the answer for dispatch. The
/// handle is held for the call (LiveHandles): an answer racing emend_coordinator_destroy, or
/// coming after it, is STALE rather than a use after free.
@inline(__always)
func answering(_ coordinator: OpaquePointer?, _ body: (CoordinatorHandle) throws(EmendError) -> DelegateAnswer,
               _ request: emend_request_id) -> emend_status {
    exporting { () throws(EmendError) in
        let pointer = try required(coordinator, "coordinator")
        guard let held = LiveHandles.retained(pointer) else {
            throw EmendError(.stale, "request \(request) is not awaiting an answer: its coordinator was destroyed")
        }
        defer { held.release() }
        let handle = held.takeUnretainedValue()
        try handle.coordinator.answer(request, try body(handle))
    }
}

@_cdecl("emend_answer_contexts")
public func emend_answer_contexts(_ coordinator: OpaquePointer?, _ request: emend_request_id,
                                  _ contexts: UnsafePointer<emend_context_desc>?, _ count: Int) -> emend_status {
    answering(coordinator, { handle throws(EmendError) in
        let first = UnsafeRawPointer(try required(contexts, "contexts"))
        guard count != 0 else { throw EmendError(.invalidArgument, "count is 0: give at least one context") }
        // The stride is contexts[0].struct_size, any value from the first version up: the
        // elements are read unaligned (StructReader), so it need not be a multiple of 8.
        let stride = try StructReader.size(at: first, StructLayouts.context, name: "contexts[0]")
        try CLength.checked(count, elementSize: stride, name: "count")
        var descriptions: [ContextDescription] = []
        for index in 0..<count {
            let desc: emend_context_desc = try StructReader.read(first + index * stride, StructLayouts.context,
                                                                 name: "contexts[\(index)]")
            descriptions.append(try ContextConversion.description(desc, encoding: handle.encoding, index: index))
        }
        return .contexts(descriptions)
    }, request)
}

@_cdecl("emend_answer_replace")
public func emend_answer_replace(_ coordinator: OpaquePointer?, _ request: emend_request_id, _ answer: emend_replace_answer,
                                 _ text: UnsafePointer<CChar>?, _ length: Int) -> emend_status {
    answering(coordinator, { _ throws(EmendError) in
        switch answer {
        case EMEND_REPLACE_APPLIED:
            // Checked even with NULL ("as proposed"): SIZE_MAX is a bug in the engine, not a length.
            try CLength.checked(length, name: "inserted_length")
            return .replaced(text == nil ? nil : try CText.string(text, length, name: "inserted_text", lengthName: "inserted_length"))
        case EMEND_REPLACE_REFUSED:
            return .refused
        default:
            throw EmendError(.invalidArgument, "unknown replace answer \(answer.rawValue)")
        }
    }, request)
}

/// APPLIED as proposed without a NULL pointer meaning it: bindings whose empty buffers are
/// not NULL would otherwise say "inserted nothing" when they mean "as proposed".
@_cdecl("emend_answer_replace_as_proposed")
public func emend_answer_replace_as_proposed(_ coordinator: OpaquePointer?, _ request: emend_request_id) -> emend_status {
    answering(coordinator, { _ throws(EmendError) in .replaced(nil) }, request)
}

@_cdecl("emend_answer_rects")
public func emend_answer_rects(_ coordinator: OpaquePointer?, _ request: emend_request_id,
                               _ rects: UnsafePointer<emend_rect>?, _ count: Int) -> emend_status {
    answering(coordinator, { _ throws(EmendError) in
        try CLength.checked(count, elementSize: MemoryLayout<emend_rect>.stride, name: "count")
        guard count > 0 else { return .rects([]) }
        let buffer = UnsafeBufferPointer(start: try required(rects, "rects"), count: count)
        return .rects(buffer.map { Rect(x: $0.x, y: $0.y, width: $0.width, height: $0.height) })
    }, request)
}

@_cdecl("emend_answer_rects_batch")
public func emend_answer_rects_batch(_ coordinator: OpaquePointer?, _ request: emend_request_id,
                                     _ rectCounts: UnsafePointer<Int>?, _ rangeCount: Int,
                                     _ rects: UnsafePointer<emend_rect>?, _ rectCount: Int) -> emend_status {
    answering(coordinator, { _ throws(EmendError) in
        try CLength.checked(rangeCount, elementSize: MemoryLayout<Int>.stride, name: "range_count")
        try CLength.checked(rectCount, elementSize: MemoryLayout<emend_rect>.stride, name: "rect_count")
        let counts = rangeCount == 0 ? UnsafeBufferPointer(start: nil, count: 0)
                                     : UnsafeBufferPointer(start: try required(rectCounts, "rect_counts"), count: rangeCount)
        var total = 0
        for (index, count) in counts.enumerated() {
            try CLength.checked(count, elementSize: MemoryLayout<emend_rect>.stride, name: "rect_counts[\(index)]")
            total += count
            guard total <= rectCount else {
                throw EmendError(.invalidArgument, "rect_counts add up to more than rect_count (\(rectCount)) by rect_counts[\(index)]")
            }
        }
        guard total == rectCount else {
            throw EmendError(.invalidArgument, "rect_counts add up to \(total), but rect_count is \(rectCount)")
        }
        let all = rectCount == 0 ? UnsafeBufferPointer(start: nil, count: 0)
                                 : UnsafeBufferPointer(start: try required(rects, "rects"), count: rectCount)
        var lists: [[Rect]] = []
        lists.reserveCapacity(rangeCount)
        var next = 0
        for count in counts {
            lists.append(all[next..<(next + count)].map { Rect(x: $0.x, y: $0.y, width: $0.width, height: $0.height) })
            next += count
        }
        return .rectBatch(lists)
    }, request)
}

@_cdecl("emend_answer_preview")
public func emend_answer_preview(_ coordinator: OpaquePointer?, _ request: emend_request_id,
                                 _ preview: UnsafeMutableRawPointer?) -> emend_status {
    answering(coordinator, { _ throws(EmendError) in .preview(UInt(bitPattern: preview)) }, request)
}

@_cdecl("emend_answer_presented")
public func emend_answer_presented(_ coordinator: OpaquePointer?, _ request: emend_request_id,
                                   _ action: emend_presented_action) -> emend_status {
    answering(coordinator, { _ throws(EmendError) in
        guard let value = PresentedAction(rawValue: Int(action.rawValue)) else {
            throw EmendError(.invalidArgument, "unknown presented action \(action.rawValue)")
        }
        return .presented(value)
    }, request)
}

@_cdecl("emend_answer_done")
public func emend_answer_done(_ coordinator: OpaquePointer?, _ request: emend_request_id) -> emend_status {
    answering(coordinator, { _ throws(EmendError) in .done }, request)
}

@_cdecl("emend_answer_failed")
public func emend_answer_failed(_ coordinator: OpaquePointer?, _ request: emend_request_id, _ status: emend_status,
                                _ message: UnsafePointer<CChar>?) -> emend_status {
    answering(coordinator, { _ throws(EmendError) in
        let code = CStatus.known(status) ?? .internal
        let text = (try? CText.optionalCString(message, name: "message")) ?? nil
        return .failed(EmendError(code == .ok ? .internal : code, text ?? "the engine failed the request"))
    }, request)
}
