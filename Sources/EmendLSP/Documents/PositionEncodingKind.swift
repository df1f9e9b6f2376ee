import EmendText

/// LSP's `positionEncoding` names and the coordinator's `PositionEncoding` they map onto.
/// Negotiated once in `initialize`: the first of the client's `general.positionEncodings`
/// the server knows wins (the client lists them by preference), UTF-16 when it lists none,
/// as LSP 3.17 requires.
public enum PositionEncodingKind {
    public static func name(of encoding: PositionEncoding) -> String {
        switch encoding {
        case .utf8: return "utf-8"
        case .utf16: return "utf-16"
        case .codePoint: return "utf-32"
        }
    }

    public static func encoding(named name: String) -> PositionEncoding? {
        switch name.lowercased() {
        case "utf-8": return .utf8
        case "utf-16": return .utf16
        case "utf-32": return .codePoint
        default: return nil
        }
    }

    /// The encoding for the client's offered list (`capabilities.general.positionEncodings`).
    public static func negotiate(_ offered: [String]?) -> PositionEncoding {
        for name in offered ?? [] {
            if let encoding = encoding(named: name) { return encoding }
        }
        return .utf16
    }
}
