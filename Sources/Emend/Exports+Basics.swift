import CEmend
import EmendCore

@_cdecl("emend_last_error_message")
public func emend_last_error_message() -> UnsafePointer<CChar> {
    ErrorState.message
}

@_cdecl("emend_status_name")
public func emend_status_name(_ status: emend_status) -> UnsafePointer<CChar> {
    let name: StaticString
    switch EmendStatus(rawValue: numericCast(status.rawValue)) {
    case .ok: name = "EMEND_OK"
    case .invalidArgument: name = "EMEND_E_INVALID_ARGUMENT"
    case .structSize: name = "EMEND_E_STRUCT_SIZE"
    case .invalidUTF8: name = "EMEND_E_INVALID_UTF8"
    case .range: name = "EMEND_E_RANGE"
    case .notFound: name = "EMEND_E_NOT_FOUND"
    case .state: name = "EMEND_E_STATE"
    case .wrongThread: name = "EMEND_E_WRONG_THREAD"
    case .timeout: name = "EMEND_E_TIMEOUT"
    case .refused: name = "EMEND_E_REFUSED"
    case .stale: name = "EMEND_E_STALE"
    case .provider: name = "EMEND_E_PROVIDER"
    case .unsupported: name = "EMEND_E_UNSUPPORTED"
    case .cancelled: name = "EMEND_E_CANCELLED"
    case .protected: name = "EMEND_E_PROTECTED"
    case .internal: name = "EMEND_E_INTERNAL"
    case nil: name = "EMEND_E_UNKNOWN"
    }
    return UnsafeRawPointer(name.utf8Start).assumingMemoryBound(to: CChar.self)
}

@_cdecl("emend_abi_version")
public func emend_abi_version() -> UInt32 {
    UInt32(EMEND_ABI_VERSION)
}
