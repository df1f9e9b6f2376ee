/// `$/progress` for the long check of a document (opening a large file): begin when the
/// client created the token, a percentage as batches come back, end after the last publish.
extension LanguageServer {
    /// Asks the client for a progress token for a long check of `uri`.
    func startProgress(_ uri: String, total: Int) -> CheckProgress {
        let token = "emend-check-\(nextOutgoingID)"
        send("window/workDoneProgress/create", ["token": .string(token)], purpose: .checkProgressCreate(uri: uri, token: token))
        return .creating(token: token, total: total)
    }

    func progressCreated(uri: String, token: String, accepted: Bool) {
        guard let open = documents[uri] else { return }
        switch open.check {
        case .checking(.creating(let current, let total)) where current == token:
            documents[uri]?.check = .checking(progress: accepted ? .reporting(token: token, total: total) : .silent)
            if accepted { reportProgress(token: token, kind: "begin", percentage: 0, uri: uri) }
        case .idle where accepted:
            // Done before the client answered: a complete report all the same.
            reportProgress(token: token, kind: "begin", percentage: 0, uri: uri)
            reportProgress(token: token, kind: "end", percentage: 100, uri: uri)
        default:
            break
        }
    }

    func reportProgress(token: String, kind: String, percentage: Int, uri: String) {
        var value: [String: JSON] = ["kind": .string(kind)]
        let name = uri.split(separator: "/").last.map(String.init) ?? uri
        switch kind {
        case "begin":
            value["title"] = "Emend"
            value["message"] = .string("checking \(name)")
            value["percentage"] = .int(percentage)
        case "report":
            value["percentage"] = .int(percentage)
        default:
            value["message"] = .string("checked \(name)")
        }
        notify("$/progress", ["token": .string(token), "value": .object(value)])
    }
}
