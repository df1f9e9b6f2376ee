import CEmend

/// The `emend_host` table every plugin instance receives: static, one per process, alive
/// for the process. Each function finds the PluginRun behind the `emend_run *` it is given.
enum PluginHost {
    nonisolated(unsafe) static let table: UnsafePointer<emend_host> = {
        let table = UnsafeMutablePointer<emend_host>.allocate(capacity: 1)
        table.initialize(to: emend_host(struct_size: MemoryLayout<emend_host>.size,
                                        abi_version: UInt32(EMEND_PROVIDER_ABI_VERSION),
                                        log: hostLog, is_cancelled: hostIsCancelled, emit_text: hostEmitText,
                                        emit_edit: hostEmitEdit, finish: hostFinish))
        return UnsafePointer(table)
    }()

    /// The run behind a handle the host gave out (it is never released while the instance lives).
    static func run(_ handle: OpaquePointer) -> PluginRun {
        Unmanaged<PluginRun>.fromOpaque(UnsafeRawPointer(handle)).takeUnretainedValue()
    }
}

private func hostLog(_ run: OpaquePointer?, _ level: emend_log_level, _ message: UnsafePointer<CChar>?) {
    guard let message else { return }
    let text = PluginCString.lenient(message)
    if let run {
        PluginHost.run(run).log(level, text)
    } else if let context = PluginLogContext.current {
        context.log(level, text)
    }
}

private func hostIsCancelled(_ run: OpaquePointer?) -> Int32 {
    guard let run else { return 0 }
    return PluginHost.run(run).isCancelled()
}

private func hostEmitText(_ run: OpaquePointer?, _ text: UnsafePointer<CChar>?, _ length: Int) -> emend_status {
    guard let run else { return EMEND_E_INVALID_ARGUMENT }
    return PluginHost.run(run).emitText(text, length)
}

private func hostEmitEdit(_ run: OpaquePointer?, _ edit: UnsafePointer<emend_provider_edit>?) -> emend_status {
    guard let run else { return EMEND_E_INVALID_ARGUMENT }
    return PluginHost.run(run).emitEdit(edit)
}

private func hostFinish(_ run: OpaquePointer?, _ status: emend_status, _ message: UnsafePointer<CChar>?) -> emend_status {
    guard let run else { return EMEND_E_INVALID_ARGUMENT }
    return PluginHost.run(run).finish(status, message)
}
