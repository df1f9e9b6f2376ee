import CEmend
import EmendCore

/// Names and labels of the tools, for an engine's menus and actions. Static strings: any
/// thread, nothing to free.
enum ToolText {
    /// The label Apple's Writing Tools panel shows for each tool ("Proofread", "Friendly",
    /// "Summary", "Key Points", "Table", "Describe Your Change", ...): a GUI on Emend reads as
    /// Writing Tools does elsewhere.
    static func label(_ tool: WritingTool) -> StaticString {
        switch tool {
        case .proofread: "Proofread"
        case .rewriteFriendly: "Friendly"
        case .rewriteProfessional: "Professional"
        case .rewriteConcise: "Concise"
        case .rewriteDescribed: "Describe Your Change"
        case .summary: "Summary"
        case .keyPoints: "Key Points"
        case .list: "List"
        case .table: "Table"
        case .compose: "Compose"
        case .followUp: "Follow-Up"
        }
    }

    /// WritingTool.name as static storage (the C caller keeps the pointer forever).
    static func name(_ tool: WritingTool) -> StaticString {
        switch tool {
        case .proofread: "proofread"
        case .rewriteFriendly: "rewrite-friendly"
        case .rewriteProfessional: "rewrite-professional"
        case .rewriteConcise: "rewrite-concise"
        case .rewriteDescribed: "rewrite-described"
        case .summary: "summary"
        case .keyPoints: "key-points"
        case .list: "list"
        case .table: "table"
        case .compose: "compose"
        case .followUp: "follow-up"
        }
    }

    /// The tool an emend_tool value names; nil for one the header does not define (the C enum
    /// arrives as UInt32, so a negative value is a large one).
    static func tool(_ value: emend_tool) -> WritingTool? {
        WritingTool(rawValue: Int(Int32(bitPattern: value.rawValue)))
    }

    static func pointer(_ text: StaticString) -> UnsafePointer<CChar> {
        UnsafeRawPointer(text.utf8Start).assumingMemoryBound(to: CChar.self)
    }
}

@_cdecl("emend_tool_label")
public func emend_tool_label(_ tool: emend_tool) -> UnsafePointer<CChar>? {
    ToolText.tool(tool).map { ToolText.pointer(ToolText.label($0)) }
}

@_cdecl("emend_tool_name")
public func emend_tool_name(_ tool: emend_tool) -> UnsafePointer<CChar>? {
    ToolText.tool(tool).map { ToolText.pointer(ToolText.name($0)) }
}
