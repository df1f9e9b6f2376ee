import CEmend
import EmendCore

/// For engines that ask rather than listen (session_ended is the notification): the status
/// of the last session that ended, with its message as the thread's error message.
@_cdecl("emend_coordinator_last_session_status")
public func emend_coordinator_last_session_status(_ coordinator: OpaquePointer?,
                                                  _ outStatus: UnsafeMutablePointer<emend_status>?) -> emend_status {
    withHandle(coordinator) { handle throws(EmendError) in
        try handle.coordinator.checkOwnerThread()
        let out = try required(outStatus, "out_status")
        guard let outcome = handle.coordinator.lastSessionOutcome else { return out.pointee = EMEND_OK }
        out.pointee = CSessionOutcome.cStatus(outcome.status)
        if outcome.status != .ok { ErrorState.set(CSessionOutcome.message(outcome, encoding: handle.encoding)) }
    }
}
