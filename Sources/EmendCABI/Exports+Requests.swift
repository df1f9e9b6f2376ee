import CEmend
import EmendCore

/// Any thread, like the answers: the handle is held for the call (LiveHandles), and a
/// destroyed coordinator awaits nothing (0), since every answer to it would be stale.
@_cdecl("emend_request_is_pending")
public func emend_request_is_pending(_ coordinator: OpaquePointer?, _ request: emend_request_id,
                                     _ outPending: UnsafeMutablePointer<Int32>?) -> emend_status {
    exporting { () throws(EmendError) in
        let pointer = try required(coordinator, "coordinator")
        let out = try required(outPending, "out_pending")
        guard let held = LiveHandles.retained(pointer) else { return out.pointee = 0 }
        defer { held.release() }
        out.pointee = held.takeUnretainedValue().coordinator.isAwaitingAnswer(request) ? 1 : 0
    }
}
