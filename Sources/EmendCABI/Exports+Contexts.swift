import CEmend
import EmendCore

/// The session's context ids in the order the engine gave them. Why: update_range and
/// friends take a context id, which an engine otherwise learns only from a callback.
@_cdecl("emend_coordinator_context_ids")
public func emend_coordinator_context_ids(_ coordinator: OpaquePointer?, _ outIDs: UnsafeMutablePointer<UInt64>?,
                                          _ capacity: Int, _ outCount: UnsafeMutablePointer<Int>?) -> emend_status {
    withHandle(coordinator) { handle throws(EmendError) in
        try handle.coordinator.checkOwnerThread()
        let count = try required(outCount, "out_count")
        try CLength.checked(capacity, elementSize: MemoryLayout<UInt64>.stride, limit: .max, name: "capacity")
        let ids = handle.coordinator.contextIDs
        count.pointee = ids.count
        guard capacity > 0 else { return }
        let target = try required(outIDs, "out_ids")
        for (i, id) in ids.prefix(capacity).enumerated() { target[i] = id }
    }
}
