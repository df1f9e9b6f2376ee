import CEmend
import EmendCore

@_cdecl("emend_session_review_changes")
public func emend_session_review_changes(_ coordinator: OpaquePointer?, _ count: UnsafeMutablePointer<Int>?) -> emend_status {
    withMutatingHandle(coordinator) { handle throws(EmendError) in
        let out = try required(count, "out_count")
        out.pointee = try handle.coordinator.reviewChanges()
    }
}
