import CEmend
import EmendCore

@_cdecl("emend_coordinator_provider_count")
public func emend_coordinator_provider_count(_ coordinator: OpaquePointer?, _ count: UnsafeMutablePointer<Int>?) -> emend_status {
    withHandle(coordinator) { handle throws(EmendError) in
        try handle.coordinator.checkOwnerThread()
        try required(count, "count").pointee = handle.coordinator.providerSummaries.count
    }
}

@_cdecl("emend_coordinator_get_provider")
public func emend_coordinator_get_provider(_ coordinator: OpaquePointer?, _ index: Int, _ out: UnsafeMutablePointer<emend_provider_info>?) -> emend_status {
    withHandle(coordinator) { handle throws(EmendError) in
        try handle.coordinator.checkOwnerThread()
        let out = try required(out, "out")
        let all = handle.coordinator.providerSummaries
        guard index >= 0, index < all.count else { throw EmendError(.notFound, "no provider \(index) (there are \(all.count))") }
        let p = all[index]
        var flags: UInt32 = 0
        if p.streams { flags |= UInt32(EMEND_PROVIDER_INFO_STREAMS) }
        if p.usesNetwork { flags |= UInt32(EMEND_PROVIDER_INFO_USES_NETWORK) }
        if p.builtIn { flags |= UInt32(EMEND_PROVIDER_INFO_BUILT_IN) }
        if p.simpleForm { flags |= UInt32(EMEND_PROVIDER_INFO_SIMPLE_FORM) }
        let tools = p.tools.reduce(UInt32(0)) { $0 | (1 << UInt32($1.rawValue)) }
        let value = emend_provider_info(
            struct_size: MemoryLayout<emend_provider_info>.size, id: handle.lend(p.id), name: handle.lend(p.name),
            version: handle.lend(p.version), path: handle.lend(p.path), tools: tools,
            languages: handle.lend(p.languages.joined(separator: ",")), flags: flags, priority: Int32(clamping: p.priority),
            enabled: p.enabled ? 1 : 0, reason: handle.lend(p.reason))
        try StructReader.write(value, to: UnsafeMutableRawPointer(out), StructLayouts.providerInfo)
    }
}

@_cdecl("emend_coordinator_choose_provider")
public func emend_coordinator_choose_provider(_ coordinator: OpaquePointer?, _ tool: emend_tool, _ providerID: UnsafePointer<CChar>?) -> emend_status {
    withMutatingHandle(coordinator) { handle throws(EmendError) in
        guard let value = WritingTool(rawValue: Int(tool.rawValue)) else {
            throw EmendError(.invalidArgument, "unknown tool \(tool.rawValue)")
        }
        try handle.coordinator.chooseProvider(try CText.optionalCString(providerID, name: "provider_id"), for: value)
    }
}
