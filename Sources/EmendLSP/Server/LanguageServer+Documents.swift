import EmendCore
import EmendText

/// didOpen / didChange / didClose / didSave.
extension LanguageServer {
    func didOpen(_ params: JSON) throws(ResponseError) {
        guard let item = params["textDocument"], let uri = item["uri"]?.string, let text = item["text"]?.string else {
            throw .invalidParams("didOpen needs textDocument.uri and textDocument.text")
        }
        let document = TextDocument(uri: uri, languageID: item["languageId"]?.string ?? "", version: item["version"]?.int ?? 0,
                                    text: Array(text.utf8))
        var open = OpenDocument(document)
        open.checkDue = MonotonicClock.nowMilliseconds()
        documents[uri] = open
    }

    /// Applies the changes in order (each range is in the text as the previous change left
    /// it). A change that names no place in the text is refused whole: the document stays
    /// as it was and the user is told, rather than drifting out of step with the editor.
    func didChange(_ params: JSON) throws(ResponseError) {
        var open = try document(params)
        guard let changes = params["contentChanges"]?.array else { throw .invalidParams("didChange needs contentChanges") }
        var updated = open.document
        for change in changes {
            guard let text = change["text"]?.string else { throw .invalidParams("a content change needs text") }
            if let rangeJSON = change["range"] {
                let range = try updated.byteRange(of: try LSPRange(json: rangeJSON), encoding: encoding)
                updated.replace(range, with: Array(text.utf8))
            } else {
                updated.replaceAll(with: Array(text.utf8))
            }
        }
        updated.version = params["textDocument"]?["version"]?.int ?? updated.version + 1
        open.document = updated
        open.checkDue = MonotonicClock.nowMilliseconds() + Int64(settings.debounceMilliseconds)
        documents[updated.uri] = open
    }

    func didClose(_ params: JSON) throws(ResponseError) {
        let open = try document(params)
        documents[open.document.uri] = nil
        if case .checking(.reporting(let token, _)) = open.check {
            reportProgress(token: token, kind: "end", percentage: 100, uri: open.document.uri)
        }
        notify("textDocument/publishDiagnostics", ["uri": .string(open.document.uri), "diagnostics": []])
        pruneCache()
    }

    /// Saving is when a user expects a fresh look: failed checks are tried again and the
    /// personal dictionary is read again (another program may have added words).
    func didSave(_ params: JSON) throws(ResponseError) {
        let open = try document(params)
        failed.removeAll()
        dictionary = .load(environment: configuration.environment)
        for uri in documents.keys { documents[uri]?.forgetFindings() }
        documents[open.document.uri]?.checkDue = MonotonicClock.nowMilliseconds()
    }

    /// Drops findings of units no open document holds any more, once the cache has grown.
    func pruneCache() {
        guard cache.count > 20_000 else { return }
        var live: Set<UnitKey> = []
        for open in documents.values { for unit in open.units { live.insert(unit.key) } }
        cache = cache.filter { live.contains($0.key) }
    }
}
