import CEmend
import EmendCore
import EmendText

/// Answers may come from any thread: they validate, then queue the answer for dispatch.
@inline(__always)
func answering(_ coordinator: OpaquePointer?, _ body: (CoordinatorHandle) throws(EmendError) -> DelegateAnswer,
               _ request: emend_request_id) -> emend_status {
    withHandle(coordinator) { handle throws(EmendError) in
        try handle.coordinator.answer(request, try body(handle))
    }
}

@_cdecl("emend_answer_contexts")
public func emend_answer_contexts(_ coordinator: OpaquePointer?, _ request: emend_request_id,
                                  _ contexts: UnsafePointer<emend_context_desc>?, _ count: Int) -> emend_status {
    answering(coordinator, { handle throws(EmendError) in
        let first = UnsafeRawPointer(try required(contexts, "contexts"))
        guard count >= 1 else { throw EmendError(.invalidArgument, "count is 0: give at least one context") }
        let stride = first.load(as: Int.self)
        var descriptions: [ContextDescription] = []
        for index in 0..<count {
            let raw = first + index * max(stride, FirstVersionSize.context)
            let desc = try StructReader.read(raw, as: emend_context_desc.self, minimumSize: FirstVersionSize.context,
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
            return .replaced(text == nil ? nil : try CText.string(text, length, name: "inserted_text"))
        case EMEND_REPLACE_REFUSED:
            return .refused
        default:
            throw EmendError(.invalidArgument, "unknown replace answer \(answer.rawValue)")
        }
    }, request)
}

@_cdecl("emend_answer_rects")
public func emend_answer_rects(_ coordinator: OpaquePointer?, _ request: emend_request_id,
                               _ rects: UnsafePointer<emend_rect>?, _ count: Int) -> emend_status {
    answering(coordinator, { _ throws(EmendError) in
        guard count > 0 else { return .rects([]) }
        let buffer = UnsafeBufferPointer(start: try required(rects, "rects"), count: count)
        return .rects(buffer.map { Rect(x: $0.x, y: $0.y, width: $0.width, height: $0.height) })
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
        let code = Int32(exactly: status.rawValue).flatMap(EmendStatus.init(rawValue:)) ?? .internal
        let text = (try? CText.optionalCString(message, name: "message")) ?? nil
        return .failed(EmendError(code == .ok ? .internal : code, text ?? "the engine failed the request"))
    }, request)
}
