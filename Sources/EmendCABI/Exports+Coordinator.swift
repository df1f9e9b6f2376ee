import CEmend
import EmendCore
import EmendText
import EmendProviders

@_cdecl("emend_coordinator_create")
public func emend_coordinator_create(_ delegate: UnsafePointer<emend_delegate>?, _ options: UnsafePointer<emend_coordinator_options>?,
                                     _ out: UnsafeMutablePointer<OpaquePointer?>?) -> emend_status {
    exporting { () throws(EmendError) in
        let out = try required(out, "out")
        out.pointee = nil
        let table = try StructReader.read(UnsafeRawPointer(try required(delegate, "delegate")), StructLayouts.delegate)
        guard table.requests_contexts != nil else { throw EmendError(.invalidArgument, "delegate.requests_contexts is required") }
        var settings = CoordinatorOptions()
        var encoding = PositionEncoding.utf8
        // No language given: proofread detects each paragraph's (see emend.h).
        var languageGiven = false
        // No options, or a struct_size before provider_hosts (zero-filled): DEFAULT.
        var hosts = HostPreference.ownUnlessConfigured
        if let options {
            let given = try StructReader.read(UnsafeRawPointer(options), StructLayouts.options)
            guard let chosen = PositionEncoding(rawValue: Int(given.encoding.rawValue)) else {
                throw EmendError(.invalidArgument, "unknown position encoding \(given.encoding.rawValue)")
            }
            encoding = chosen
            guard let behavior = Behavior(rawValue: Int(given.preferred_behavior.rawValue)) else {
                throw EmendError(.invalidArgument, "unknown behavior \(given.preferred_behavior.rawValue)")
            }
            settings.preferredBehavior = behavior
            let resultOptions = ResultOptions(rawValue: given.preferred_result_options)
            guard resultOptions.isSubset(of: .known) else {
                throw EmendError(.invalidArgument, "unknown result option bits in 0x\(String(given.preferred_result_options, radix: 16))")
            }
            settings.preferredResultOptions = resultOptions
            if given.completion_timeout_ms > 0 { settings.completionTimeoutMilliseconds = Int64(given.completion_timeout_ms) }
            if given.provider_timeout_ms > 0 { settings.providerTimeoutMilliseconds = Int64(given.provider_timeout_ms) }
            if let language = try CText.optionalCString(given.language, name: "options.language") {
                guard !language.isEmpty, language.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
                    throw EmendError(.invalidArgument, "options.language \"\(language)\" is not a BCP 47 tag")
                }
                settings.language = language
                languageGiven = true
            }
            settings.streaming = StreamingPolicy(streamChunkBytes: given.stream_chunk_bytes)
            guard let preference = ProviderSetup.hostPreference(given.provider_hosts) else {
                throw EmendError(.invalidArgument, "unknown provider hosts \(given.provider_hosts.rawValue)")
            }
            hosts = preference
        }
        let adapter = CDelegate(table: table, encoding: encoding)
        let handle = try CoordinatorHandle(delegate: adapter, options: settings, encoding: encoding,
                                           detectsLanguage: !languageGiven, hosts: hosts)
        adapter.handle = handle.opaque
        adapter.positionsOf = { [unowned handle] id in handle.positions(of: id) }
        let pointer = OpaquePointer(Unmanaged.passRetained(handle).toOpaque())
        LiveHandles.insert(pointer)
        out.pointee = pointer
    }
}

/// Cancels the providers and waits for their code to return (bounded), drops owed answers
/// and queued work, then lets the handle go (see Coordinator.shutdown). A pointer that is not
/// a live coordinator (destroyed twice) is ignored rather than freed again.
@_cdecl("emend_coordinator_destroy")
public func emend_coordinator_destroy(_ coordinator: OpaquePointer?) {
    guard let coordinator, LiveHandles.remove(coordinator) else { return }
    let handle = Unmanaged<CoordinatorHandle>.fromOpaque(UnsafeRawPointer(coordinator))
    _ = handle._withUnsafeGuaranteedRef { $0.coordinator.shutdown() }
    handle.release()
}

@_cdecl("emend_coordinator_fd")
public func emend_coordinator_fd(_ coordinator: OpaquePointer?) -> Int32 {
    guard let coordinator else { return -1 }
    return Unmanaged<CoordinatorHandle>.fromOpaque(UnsafeRawPointer(coordinator))._withUnsafeGuaranteedRef { $0.coordinator.pollDescriptor }
}

@_cdecl("emend_coordinator_dispatch")
public func emend_coordinator_dispatch(_ coordinator: OpaquePointer?, _ processed: UnsafeMutablePointer<Int>?) -> emend_status {
    withHandle(coordinator) { handle throws(EmendError) in
        // Strings lent by the getters end here, as emend.h says of every call that is not a
        // getter: an engine that reads suggestions in each suggestions_changed would
        // otherwise pile them up for the whole session.
        if handle.coordinator.isOnOwnerThreadOutsideCallbacks { handle.releaseLentStrings() }
        let count = try handle.coordinator.dispatch()
        processed?.pointee = count
    }
}

@_cdecl("emend_coordinator_run_until_idle")
public func emend_coordinator_run_until_idle(_ coordinator: OpaquePointer?, _ timeoutMs: Int32) -> emend_status {
    withHandle(coordinator) { handle throws(EmendError) in
        try handle.coordinator.runUntilIdle(timeoutMilliseconds: Int(timeoutMs))
    }
}

@_cdecl("emend_coordinator_set_preferred_behavior")
public func emend_coordinator_set_preferred_behavior(_ coordinator: OpaquePointer?, _ behavior: emend_behavior) -> emend_status {
    withHandle(coordinator) { handle throws(EmendError) in
        guard let value = Behavior(rawValue: Int(behavior.rawValue)) else {
            throw EmendError(.invalidArgument, "unknown behavior \(behavior.rawValue)")
        }
        try handle.coordinator.setPreferredBehavior(value)
    }
}

@_cdecl("emend_coordinator_get_behavior")
public func emend_coordinator_get_behavior(_ coordinator: OpaquePointer?, _ preferred: UnsafeMutablePointer<emend_behavior>?,
                                           _ resolved: UnsafeMutablePointer<emend_behavior>?) -> emend_status {
    withHandle(coordinator) { handle throws(EmendError) in
        try handle.coordinator.checkOwnerThread()
        preferred?.pointee = emend_behavior(rawValue: numericCast(handle.coordinator.preferredBehavior.rawValue))
        resolved?.pointee = emend_behavior(rawValue: numericCast(handle.coordinator.resolvedBehavior.rawValue))
    }
}

@_cdecl("emend_coordinator_set_preferred_result_options")
public func emend_coordinator_set_preferred_result_options(_ coordinator: OpaquePointer?, _ options: UInt32) -> emend_status {
    withHandle(coordinator) { handle throws(EmendError) in
        try handle.coordinator.setPreferredResultOptions(ResultOptions(rawValue: options))
    }
}

@_cdecl("emend_coordinator_get_result_options")
public func emend_coordinator_get_result_options(_ coordinator: OpaquePointer?, _ preferred: UnsafeMutablePointer<UInt32>?,
                                                 _ resolved: UnsafeMutablePointer<UInt32>?) -> emend_status {
    withHandle(coordinator) { handle throws(EmendError) in
        try handle.coordinator.checkOwnerThread()
        preferred?.pointee = handle.coordinator.preferredResultOptions.rawValue
        resolved?.pointee = handle.coordinator.resolvedResultOptions.rawValue
    }
}

@_cdecl("emend_coordinator_get_state")
public func emend_coordinator_get_state(_ coordinator: OpaquePointer?, _ state: UnsafeMutablePointer<emend_state>?) -> emend_status {
    withHandle(coordinator) { handle throws(EmendError) in
        try handle.coordinator.checkOwnerThread()
        try required(state, "state").pointee = emend_state(rawValue: numericCast(handle.coordinator.state.rawValue))
    }
}

@_cdecl("emend_coordinator_start")
public func emend_coordinator_start(_ coordinator: OpaquePointer?, _ request: UnsafePointer<emend_tool_request>?) -> emend_status {
    withMutatingHandle(coordinator) { handle throws(EmendError) in
        let given = try StructReader.read(UnsafeRawPointer(try required(request, "request")), StructLayouts.toolRequest)
        guard let tool = WritingTool(rawValue: Int(given.tool.rawValue)) else {
            throw EmendError(.invalidArgument, "unknown tool \(given.tool.rawValue)")
        }
        guard let scope = ContextScope(rawValue: Int(given.scope.rawValue)) else {
            throw EmendError(.invalidArgument, "unknown scope \(given.scope.rawValue)")
        }
        let prompt = try CText.optionalCString(given.prompt, name: "request.prompt")
        let provider = try CText.optionalCString(given.provider_id, name: "request.provider_id")
        try handle.coordinator.start(tool, scope: scope, prompt: prompt, providerID: provider)
    }
}

@_cdecl("emend_coordinator_stop")
public func emend_coordinator_stop(_ coordinator: OpaquePointer?) -> emend_status {
    withMutatingHandle(coordinator) { handle throws(EmendError) in try handle.coordinator.stop() }
}

@_cdecl("emend_coordinator_update_range")
public func emend_coordinator_update_range(_ coordinator: OpaquePointer?, _ contextID: UInt64, _ range: emend_range,
                                           _ text: UnsafePointer<CChar>?, _ length: Int,
                                           _ reason: emend_text_update_reason) -> emend_status {
    withMutatingHandle(coordinator) { handle throws(EmendError) in
        guard let why = TextUpdateReason(rawValue: Int(reason.rawValue)) else {
            throw EmendError(.invalidArgument, "unknown update reason \(reason.rawValue)")
        }
        let current = try handle.coordinator.contextPositions(contextID)
        let byteRange = try CText.byteRange(range, in: current, encoding: handle.encoding, name: "range")
        let replacement = try CText.string(text, length, name: "text")
        try handle.coordinator.updateRange(contextID: contextID, range: byteRange, text: replacement, reason: why)
    }
}

@_cdecl("emend_coordinator_update_for_reflowed_text")
public func emend_coordinator_update_for_reflowed_text(_ coordinator: OpaquePointer?) -> emend_status {
    withMutatingHandle(coordinator) { handle throws(EmendError) in try handle.coordinator.updateForReflowedText() }
}
