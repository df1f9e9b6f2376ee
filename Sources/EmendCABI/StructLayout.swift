import CEmend

/// The fields of a versioned struct as byte ranges, in order, so that reading and writing
/// stop at the last field a struct_size covers whole.
///
/// Why: a struct_size that ends inside a field (20 for emend_tool_request ends half way into
/// `prompt`) would otherwise copy half a pointer, and the runtime would follow a pointer made
/// of the caller's bytes and ours. A field is read only if struct_size covers all of it;
/// otherwise it is zero, as if the caller's header did not have it.
struct StructLayout<T> {
    let name: String
    /// Where the struct's first version ended (EMEND_*_MIN_SIZE).
    let minimumSize: Int
    /// Byte ranges of the fields, ascending.
    let fields: [Range<Int>]

    init(_ name: String, minimumSize: Int, fields: [Range<Int>]) {
        self.name = name
        self.minimumSize = minimumSize
        self.fields = fields.sorted { $0.lowerBound < $1.lowerBound }
    }

    /// The byte range of one field.
    static func field<V>(_ path: KeyPath<T, V>) -> Range<Int> {
        let start = MemoryLayout<T>.offset(of: path)!
        return start..<(start + MemoryLayout<V>.size)
    }

    /// How many leading bytes of a struct of `structSize` bytes hold whole fields.
    func wholeFieldBytes(_ structSize: Int) -> Int {
        fields.last { $0.upperBound <= structSize }?.upperBound ?? 0
    }
}

/// The layouts of the structs the ABI reads or fills, each with every field of emend.h.
enum StructLayouts {
    typealias D = StructLayout<emend_delegate>
    static let delegate = D("emend_delegate", minimumSize: FirstVersionSize.delegate, fields: [
        D.field(\.struct_size), D.field(\.user_data), D.field(\.requests_contexts), D.field(\.replace),
        D.field(\.select_ranges), D.field(\.requests_bounding_rects), D.field(\.requests_underline_rects),
        D.field(\.prepare_for_text_animation), D.field(\.requests_preview), D.field(\.finish_text_animation),
        D.field(\.will_change_to_state), D.field(\.present_result), D.field(\.session_ended),
        D.field(\.suggestions_changed), D.field(\.requests_rects),
    ])

    typealias O = StructLayout<emend_coordinator_options>
    static let options = O("emend_coordinator_options", minimumSize: FirstVersionSize.options, fields: [
        O.field(\.struct_size), O.field(\.encoding), O.field(\.preferred_behavior), O.field(\.preferred_result_options),
        O.field(\.completion_timeout_ms), O.field(\.provider_timeout_ms), O.field(\.stream_chunk_bytes), O.field(\.language),
        O.field(\.provider_hosts),
    ])

    typealias R = StructLayout<emend_tool_request>
    static let toolRequest = R("emend_tool_request", minimumSize: FirstVersionSize.toolRequest, fields: [
        R.field(\.struct_size), R.field(\.tool), R.field(\.scope), R.field(\.prompt), R.field(\.provider_id),
    ])

    typealias C = StructLayout<emend_context_desc>
    static let context = C("emend_context_desc", minimumSize: FirstVersionSize.context, fields: [
        C.field(\.struct_size), C.field(\.text), C.field(\.text_length), C.field(\.selection), C.field(\.engine_context),
        C.field(\.protected_ranges), C.field(\.protected_range_count), C.field(\.attribute_runs),
        C.field(\.attribute_run_count), C.field(\.block_intents), C.field(\.block_intent_count),
    ])

    typealias S = StructLayout<emend_suggestion>
    static let suggestion = S("emend_suggestion", minimumSize: FirstVersionSize.suggestion, fields: [
        S.field(\.struct_size), S.field(\.context_id), S.field(\.range), S.field(\.original), S.field(\.replacement),
        S.field(\.explanation), S.field(\.category), S.field(\.rule_id), S.field(\.state),
    ])

    typealias P = StructLayout<emend_provider_info>
    static let providerInfo = P("emend_provider_info", minimumSize: FirstVersionSize.providerInfo, fields: [
        P.field(\.struct_size), P.field(\.id), P.field(\.name), P.field(\.version), P.field(\.path), P.field(\.tools),
        P.field(\.languages), P.field(\.flags), P.field(\.priority), P.field(\.enabled), P.field(\.reason),
    ])
}
