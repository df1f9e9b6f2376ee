import EmendCore
import EmendProviders

/// textDocument/codeAction and the dictionary commands.
extension LanguageServer {
    func codeActions(_ params: JSON) throws(ResponseError) -> JSON {
        let open = try document(params)
        let uri = open.document.uri
        let lspRange = try LSPRange(json: params["range"])
        let range = try open.document.byteRange(of: lspRange, encoding: encoding)
        let only = params["context"]?["only"]?.array?.compactMap(\.string)
        func wants(_ kind: String) -> Bool {
            guard let only else { return true }
            return only.contains { kind == $0 || kind.hasPrefix($0 + ".") }
        }
        var actions: [JSON] = []
        if wants("quickfix") {
            let here = placedFindings(uri).filter { placed in
                range.isEmpty ? placed.range.lowerBound <= range.lowerBound && range.lowerBound <= placed.range.upperBound
                              : placed.range.overlaps(range)
            }
            var fixes: [JSON] = []
            var extras: [JSON] = []
            var words: Set<String> = []
            var rules: Set<String> = []
            for placed in here {
                let diagnostic = diagnostic(placed, in: open.document)
                let finding = placed.finding
                // Every replacement the provider named is a fix of its own; the first of the
                // first finding is the preferred one.
                for replacement in [finding.replacement] + finding.alternatives {
                    let title = replacement.isEmpty ? "Remove “\(finding.original)”" : "Replace with “\(replacement)”"
                    let edit: JSON = ["changes": .object([uri: [["range": diagnostic["range"]!, "newText": .string(replacement)]]])]
                    fixes.append(["title": .string(title), "kind": "quickfix", "diagnostics": [diagnostic],
                                  "isPreferred": .bool(fixes.isEmpty), "edit": edit])
                }
                if let word = finding.dictionaryWord, words.insert(word).inserted {
                    let title = "Add “\(word)” to dictionary"
                    extras.append(["title": .string(title), "kind": "quickfix", "diagnostics": [diagnostic],
                                   "command": ["title": .string(title), "command": "emend.addToDictionary", "arguments": [.string(word)]]])
                }
                if !finding.ruleID.isEmpty, rules.insert(finding.ruleID).inserted {
                    let title = "Ignore this rule (\(finding.ruleID))"
                    extras.append(["title": .string(title), "kind": "quickfix", "diagnostics": [diagnostic],
                                   "command": ["title": .string(title), "command": "emend.ignoreRule", "arguments": [.string(finding.ruleID)]]])
                }
            }
            actions += fixes + extras + reviewActions(open, range: range)
        }
        if wants("refactor.rewrite") && !range.isEmpty {
            for tool in SelectionTool.allCases {
                let data: JSON = ["uri": .string(uri), "version": .int(open.document.version), "range": lspRange.json,
                                  "tool": .string(tool.rawValue)]
                if client.resolvesToolEdits {
                    actions.append(["title": .string(tool.title), "kind": "refactor.rewrite", "data": data])
                } else {
                    actions.append(["title": .string(tool.title), "kind": "refactor.rewrite",
                                    "command": ["title": .string(tool.title), "command": "emend.runTool", "arguments": [data]]])
                }
            }
        }
        return .array(actions)
    }

    func executeCommand(id: RequestIdentifier, params: JSON) throws(ResponseError) -> Reply {
        guard let command = params["command"]?.string else { throw .invalidParams("executeCommand needs a command") }
        let argument = params["arguments"]?.array?.first
        switch command {
        case "emend.addToDictionary":
            guard let word = argument?.string else { throw .invalidParams("\(command) needs the word as its argument") }
            do { try dictionary.add(word: word) } catch { throw .requestFailed(error.message) }
            publishAll()
            return .now(.null)
        case "emend.ignoreRule":
            guard let rule = argument?.string else { throw .invalidParams("\(command) needs the rule id as its argument") }
            do { try dictionary.ignore(rule: rule) } catch { throw .requestFailed(error.message) }
            publishAll()
            return .now(.null)
        case "emend.runTool":
            guard let data = argument else { throw .invalidParams("\(command) needs the action's data as its argument") }
            try startTool(data, reply: .applyEdit, workDoneToken: params["workDoneToken"])
            return .now(.null)
        case "emend.keepChange", "emend.keepAllChanges":
            try keepReviewed(command, params["arguments"]?.array ?? [])
            return .now(.null)
        default:
            throw .invalidParams("unknown command \(command) (known: \(Self.commands.joined(separator: ", ")))")
        }
    }
}
