import CEmend
import EmendCore

@_cdecl("emend_last_error_message")
public func emend_last_error_message() -> UnsafePointer<CChar> {
    ErrorState.message
}

@_cdecl("emend_status_name")
public func emend_status_name(_ status: emend_status) -> UnsafePointer<CChar> {
    let name: StaticString = CStatus.known(status)?.cName ?? "EMEND_E_UNKNOWN"
    return UnsafeRawPointer(name.utf8Start).assumingMemoryBound(to: CChar.self)
}

@_cdecl("emend_abi_version")
public func emend_abi_version() -> UInt32 {
    UInt32(EMEND_ABI_VERSION)
}
