import CEmend
import EmendCore

/// The C names of statuses, for messages about what a plugin returned.
enum PluginStatusName {
    static func of(_ status: emend_status) -> String {
        guard let known = EmendStatus(rawValue: Int32(bitPattern: status.rawValue)) else {
            return "unknown status \(status.rawValue)"
        }
        switch known {
        case .ok: return "EMEND_OK"
        case .invalidArgument: return "EMEND_E_INVALID_ARGUMENT"
        case .structSize: return "EMEND_E_STRUCT_SIZE"
        case .invalidUTF8: return "EMEND_E_INVALID_UTF8"
        case .range: return "EMEND_E_RANGE"
        case .notFound: return "EMEND_E_NOT_FOUND"
        case .state: return "EMEND_E_STATE"
        case .wrongThread: return "EMEND_E_WRONG_THREAD"
        case .timeout: return "EMEND_E_TIMEOUT"
        case .refused: return "EMEND_E_REFUSED"
        case .stale: return "EMEND_E_STALE"
        case .provider: return "EMEND_E_PROVIDER"
        case .unsupported: return "EMEND_E_UNSUPPORTED"
        case .cancelled: return "EMEND_E_CANCELLED"
        case .protected: return "EMEND_E_PROTECTED"
        case .internal: return "EMEND_E_INTERNAL"
        }
    }

    /// The C value of a Swift status.
    static func c(_ status: EmendStatus) -> emend_status {
        emend_status(rawValue: UInt32(bitPattern: status.rawValue))
    }
}
