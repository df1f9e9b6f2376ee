import EmendCore

/// The descriptor's `tools` field: bit (1 << t) for each emend_tool t.
enum PluginToolBits {
    /// Every bit that names a tool this host knows.
    static let known: UInt32 = WritingTool.allCases.reduce(0) { $0 | (1 << UInt32($1.rawValue)) }

    static func tools(_ bits: UInt32) -> Set<WritingTool> {
        Set(WritingTool.allCases.filter { bits & (1 << UInt32($0.rawValue)) != 0 })
    }

    static func bits(_ tools: Set<WritingTool>) -> UInt32 {
        tools.reduce(0) { $0 | (1 << UInt32($1.rawValue)) }
    }
}
