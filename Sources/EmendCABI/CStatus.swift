import CEmend
import EmendCore

/// Reading an emend_status the engine passed in. The C enum is imported as UInt32, so a
/// negative value (-1, INT_MIN) arrives as a large unsigned one; converting it with a
/// checked cast would trap, and an engine may pass any int.
enum CStatus {
    /// The status `status` names, or nil for a value the header does not define.
    static func known(_ status: emend_status) -> EmendStatus? {
        EmendStatus(rawValue: Int32(bitPattern: status.rawValue))
    }
}
