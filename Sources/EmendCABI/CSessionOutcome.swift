import CEmend
import EmendCore
import EmendText

/// How the last session ended, in C terms: the status as emend_status and the message in
/// the engine's position encoding. Shared by session_ended and
/// emend_coordinator_last_session_status so both say the same thing.
enum CSessionOutcome {
    static func cStatus(_ status: EmendStatus) -> emend_status {
        emend_status(rawValue: UInt32(bitPattern: status.rawValue))
    }

    static func message(_ outcome: SessionOutcome, encoding: PositionEncoding) -> String {
        guard case .failed(let error) = outcome else { return "" }
        return error.message(in: encoding)
    }
}
