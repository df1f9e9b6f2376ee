import CEmend
import EmendCore
import EmendText

@_cdecl("emend_session_accept")
public func emend_session_accept(_ coordinator: OpaquePointer?) -> emend_status {
    withMutatingHandle(coordinator) { handle throws(EmendError) in try handle.coordinator.accept() }
}

@_cdecl("emend_session_revert")
public func emend_session_revert(_ coordinator: OpaquePointer?) -> emend_status {
    withMutatingHandle(coordinator) { handle throws(EmendError) in try handle.coordinator.revert() }
}

@_cdecl("emend_session_show_original")
public func emend_session_show_original(_ coordinator: OpaquePointer?, _ show: Int32) -> emend_status {
    withMutatingHandle(coordinator) { handle throws(EmendError) in try handle.coordinator.showOriginal(show != 0) }
}

@_cdecl("emend_session_suggestion_count")
public func emend_session_suggestion_count(_ coordinator: OpaquePointer?, _ count: UnsafeMutablePointer<Int>?) -> emend_status {
    withHandle(coordinator) { handle throws(EmendError) in
        try handle.coordinator.checkOwnerThread()
        try required(count, "count").pointee = handle.coordinator.suggestionCount
    }
}

@_cdecl("emend_session_get_suggestion")
public func emend_session_get_suggestion(_ coordinator: OpaquePointer?, _ index: Int, _ out: UnsafeMutablePointer<emend_suggestion>?) -> emend_status {
    withHandle(coordinator) { handle throws(EmendError) in
        try handle.coordinator.checkOwnerThread()
        let out = try required(out, "out")
        // Constant time: one suggestion is read, never all of them (reading all n once cost
        // n² before: 2.5 s for 3,200).
        guard let s = handle.coordinator.suggestion(at: index) else {
            throw EmendError(.notFound, "no suggestion \(index) (there are \(handle.coordinator.suggestionCount))")
        }
        let range = s.range.map { CText.cRange($0, in: handle.positions(of: s.contextID), encoding: handle.encoding) }
            ?? emend_range(location: 0, length: 0)
        let value = emend_suggestion(
            struct_size: MemoryLayout<emend_suggestion>.size, context_id: s.contextID, range: range,
            original: handle.lend(s.original), replacement: handle.lend(s.replacement),
            explanation: handle.lend(s.explanation), category: handle.lend(s.category), rule_id: handle.lend(s.ruleID),
            state: emend_suggestion_state(rawValue: numericCast(s.state.rawValue)))
        try StructReader.write(value, to: UnsafeMutableRawPointer(out), StructLayouts.suggestion)
    }
}

@_cdecl("emend_session_accept_suggestion")
public func emend_session_accept_suggestion(_ coordinator: OpaquePointer?, _ index: Int) -> emend_status {
    withMutatingHandle(coordinator) { handle throws(EmendError) in try handle.coordinator.acceptSuggestion(index) }
}

@_cdecl("emend_session_reject_suggestion")
public func emend_session_reject_suggestion(_ coordinator: OpaquePointer?, _ index: Int) -> emend_status {
    withMutatingHandle(coordinator) { handle throws(EmendError) in try handle.coordinator.rejectSuggestion(index) }
}

@_cdecl("emend_session_suggestion_at_offset")
public func emend_session_suggestion_at_offset(_ coordinator: OpaquePointer?, _ contextID: UInt64, _ offset: UInt64,
                                               _ index: UnsafeMutablePointer<Int>?) -> emend_status {
    withHandle(coordinator) { handle throws(EmendError) in
        let out = try required(index, "index")
        let text = try handle.coordinator.contextPositions(contextID)
        let byte = try CText.byteRange(emend_range(location: offset, length: 0), in: text, encoding: handle.encoding, name: "offset")
        out.pointee = try handle.coordinator.suggestionIndex(contextID: contextID, offset: byte.lowerBound)
    }
}

@_cdecl("emend_session_suggestion_at_point")
public func emend_session_suggestion_at_point(_ coordinator: OpaquePointer?, _ x: Double, _ y: Double,
                                              _ index: UnsafeMutablePointer<Int>?) -> emend_status {
    withHandle(coordinator) { handle throws(EmendError) in
        let out = try required(index, "index")
        out.pointee = try handle.coordinator.suggestionIndex(x: x, y: y)
    }
}

@_cdecl("emend_session_undo")
public func emend_session_undo(_ coordinator: OpaquePointer?) -> emend_status {
    withMutatingHandle(coordinator) { handle throws(EmendError) in try handle.coordinator.undo() }
}

@_cdecl("emend_session_redo")
public func emend_session_redo(_ coordinator: OpaquePointer?) -> emend_status {
    withMutatingHandle(coordinator) { handle throws(EmendError) in try handle.coordinator.redo() }
}

@_cdecl("emend_session_can_undo")
public func emend_session_can_undo(_ coordinator: OpaquePointer?, _ out: UnsafeMutablePointer<Int32>?) -> emend_status {
    withHandle(coordinator) { handle throws(EmendError) in
        try handle.coordinator.checkOwnerThread()
        try required(out, "out").pointee = handle.coordinator.canUndo ? 1 : 0
    }
}

@_cdecl("emend_session_can_redo")
public func emend_session_can_redo(_ coordinator: OpaquePointer?, _ out: UnsafeMutablePointer<Int32>?) -> emend_status {
    withHandle(coordinator) { handle throws(EmendError) in
        try handle.coordinator.checkOwnerThread()
        try required(out, "out").pointee = handle.coordinator.canRedo ? 1 : 0
    }
}

@_cdecl("emend_session_copy_result")
public func emend_session_copy_result(_ coordinator: OpaquePointer?, _ contextID: UInt64, _ buffer: UnsafeMutablePointer<CChar>?,
                                      _ capacity: Int, _ length: UnsafeMutablePointer<Int>?) -> emend_status {
    withHandle(coordinator) { handle throws(EmendError) in
        try handle.coordinator.checkOwnerThread()
        let out = try required(length, "length")
        if buffer != nil { try CLength.checked(capacity, limit: .max, name: "capacity") }
        _ = try handle.coordinator.contextPositions(contextID)
        guard contextID == handle.coordinator.contextIDs.first else {
            throw EmendError(.notFound, "context \(contextID) is not the one the session works on")
        }
        guard let result = handle.coordinator.resultText else { throw EmendError(.state, "the session has no result yet") }
        let bytes = Array(result.utf8)
        out.pointee = bytes.count
        guard let buffer else { return }
        guard capacity > bytes.count else {
            throw EmendError(.range, "the buffer holds \(capacity) bytes; the result needs \(bytes.count + 1) with its NUL")
        }
        bytes.withUnsafeBufferPointer { source in
            UnsafeMutableRawPointer(buffer).copyMemory(from: source.baseAddress!, byteCount: bytes.count)
        }
        buffer[bytes.count] = 0
    }
}

@_cdecl("emend_session_get_suggestion_rects")
public func emend_session_get_suggestion_rects(_ coordinator: OpaquePointer?, _ index: Int, _ rects: UnsafeMutablePointer<emend_rect>?,
                                               _ capacity: Int, _ count: UnsafeMutablePointer<Int>?) -> emend_status {
    withHandle(coordinator) { handle throws(EmendError) in
        try handle.coordinator.checkOwnerThread()
        let out = try required(count, "count")
        try CLength.checked(capacity, elementSize: MemoryLayout<emend_rect>.stride, limit: .max, name: "capacity")
        let all = try handle.coordinator.underlineRects(ofSuggestion: index)
        out.pointee = all.count
        guard capacity > 0 else { return }
        let target = try required(rects, "rects")
        for (i, rect) in all.prefix(capacity).enumerated() {
            target[i] = emend_rect(x: rect.x, y: rect.y, width: rect.width, height: rect.height)
        }
    }
}
