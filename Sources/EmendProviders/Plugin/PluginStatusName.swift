import CEmend
import EmendCore

/// The C names of statuses, for messages about what a plugin returned.
enum PluginStatusName {
    static func of(_ status: emend_status) -> String {
        guard let known = EmendStatus(rawValue: Int32(bitPattern: status.rawValue)) else {
            return "unknown status \(status.rawValue)"
        }
        return known.cName.description
    }

    /// The C value of a Swift status.
    static func c(_ status: EmendStatus) -> emend_status {
        emend_status(rawValue: UInt32(bitPattern: status.rawValue))
    }
}
