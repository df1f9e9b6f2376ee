import CEmend
import EmendCore

/// Whether the latest result is whole or partial, and why (a combined proofread whose
/// checker timed out or failed): the engine's way to tell the user that a result lacks
/// something, instead of showing "no suggestions" for what was never checked.
@_cdecl("emend_coordinator_get_completeness")
public func emend_coordinator_get_completeness(_ coordinator: OpaquePointer?, _ outCompleteness: UnsafeMutablePointer<emend_completeness>?,
                                               _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: Int,
                                               _ length: UnsafeMutablePointer<Int>?) -> emend_status {
    withHandle(coordinator) { handle throws(EmendError) in
        try handle.coordinator.checkOwnerThread()
        let out = try required(length, "length")
        if buffer != nil { try CLength.checked(capacity, limit: .max, name: "capacity") }
        let report = handle.coordinator.completeness
        let value: emend_completeness = report.map { $0.isPartial ? EMEND_COMPLETENESS_PARTIAL : EMEND_COMPLETENESS_COMPLETE }
            ?? EMEND_COMPLETENESS_UNKNOWN
        outCompleteness?.pointee = value
        let bytes = Array((report?.message ?? "").utf8)
        out.pointee = bytes.count
        guard let buffer else { return }
        guard capacity > bytes.count else {
            throw EmendError(.range, "the buffer holds \(capacity) bytes; the message needs \(bytes.count + 1) with its NUL")
        }
        bytes.withUnsafeBufferPointer { source in
            if let base = source.baseAddress { UnsafeMutableRawPointer(buffer).copyMemory(from: base, byteCount: bytes.count) }
        }
        buffer[bytes.count] = 0
    }
}
