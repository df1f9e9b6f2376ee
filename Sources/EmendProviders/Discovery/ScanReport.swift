import EmendCore

/// What emend-scan printed about one file: `ok` with fields, or `broken` with a reason.
enum ScanReport: Equatable {
    case ok([String: String])
    case broken(String)

    /// The layout this reader knows: REPORT_FORMAT of scanner/emend-scan.c.
    static let format = "2"

    /// Reads the scanner's stdout; nil when it is not a complete report. A report in another
    /// format (a scanner from another build) is a broken verdict that says so, not a guess.
    init?(_ text: String) {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: true)
        guard let first = lines.first else { return nil }
        lines.removeFirst()
        guard let fields = LineEscaping.fields(lines) else { return nil }
        guard first == "ok" || first == "broken" else { return nil }
        guard fields["format"] == Self.format else {
            self = .broken("the scanner writes report format \(fields["format"] ?? "1"), this host reads \(Self.format) "
                           + "(emend-scan and libemend come from different builds)")
            return
        }
        switch first {
        case "ok": self = .ok(fields)
        case "broken":
            guard let reason = fields["reason"] else { return nil }
            self = .broken(reason)
        default: return nil
        }
    }

    /// The record of a plugin from the fields of an `ok` report; nil if one is missing.
    static func pluginRecord(path: String, fields: [String: String]) -> ProviderRecord? {
        guard let id = fields["id"], let name = fields["name"], let version = fields["version"],
              let toolBits = fields["tools"].flatMap({ UInt32($0) }),
              let outputs = fields["outputs"].flatMap({ UInt32($0) }),
              let flags = fields["flags"].flatMap({ UInt32($0) }),
              let priority = fields["priority"].flatMap({ Int32($0) }) else { return nil }
        var record = ProviderRecord(
            path: path, kind: .plugin, id: id, name: name, version: version,
            tools: tools(bits: toolBits), languages: languages(fields["languages"] ?? "*"),
            outputs: outputs, streams: flags & 1 != 0, usesNetwork: flags & 2 != 0, priority: Int(priority))
        record.declaredPaths = paths(fields["paths"])
        return record
    }

    /// EMEND_PROVIDES bits as tools (unknown bits dropped).
    static func tools(bits: UInt32) -> Set<WritingTool> {
        Set(WritingTool.allCases.filter { bits & (1 << UInt32($0.rawValue)) != 0 })
    }

    /// The bits of `tools`, as EMEND_PROVIDES spells them.
    static func bits(of tools: Set<WritingTool>) -> UInt32 {
        tools.reduce(0) { $0 | (1 << UInt32($1.rawValue)) }
    }

    /// The declared read paths ("/a\n/b"): the absolute ones.
    /// Absolute paths, and `$EMEND_NAME`: the path an `EMEND_` variable names (`HostSandbox`).
    static func paths(_ list: String?) -> [String] {
        (list ?? "").split(separator: "\n").map(String.init).filter { $0.hasPrefix("/") || $0.hasPrefix("$EMEND_") }
    }

    /// "en, de" -> ["en", "de"]; empty -> ["*"].
    static func languages(_ list: String) -> [String] {
        let tags = list.split(separator: ",").map { String($0.filter { $0 != " " }) }.filter { !$0.isEmpty }
        return tags.isEmpty ? ["*"] : tags
    }
}
