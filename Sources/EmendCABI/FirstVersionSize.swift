import CEmend

/// The smallest struct_size the ABI accepts for each versioned struct: where its first
/// version ended (the EMEND_*_MIN_SIZE macros of emend.h).
enum FirstVersionSize {
    static let delegate = MemoryLayout<emend_delegate>.offset(of: \emend_delegate.replace)!
    static let options = MemoryLayout<emend_coordinator_options>.offset(of: \emend_coordinator_options.preferred_result_options)!
    static let toolRequest = MemoryLayout<emend_tool_request>.offset(of: \emend_tool_request.prompt)!
    static let context = MemoryLayout<emend_context_desc>.offset(of: \emend_context_desc.engine_context)!
    static let suggestion = MemoryLayout<emend_suggestion>.offset(of: \emend_suggestion.original)!
    static let providerInfo = MemoryLayout<emend_provider_info>.offset(of: \emend_provider_info.tools)!
}
