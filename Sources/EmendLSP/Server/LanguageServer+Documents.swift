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
        // Each document's own languageId (and file name) decides; an unknown one is checked
        // as plain text, and the client's log says why.
        let language = DocumentLanguage.of(languageID: document.languageID, uri: uri)
        if let note = language.note {
            configuration.logger(note)
            logMessage(.info, "Emend: " + note)
        }
        var open = OpenDocument(document, kind: language.kind)
        open.checkDue = MonotonicClock.nowMilliseconds()
        documents[uri] = open
    }

    /// Applies the changes in order (each range is in the text as the previous change left
    /// it). A change that names no place in the text is refused whole: the document stays
    /// as it was and the user is told, rather than drifting out of step with the editor.
    func didChange(_ params: JSON) throws(ResponseError) {
        let uri = try document(params).document.uri
        guard let changes = params["contentChanges"]?.array else { throw .invalidParams("didChange needs contentChanges") }
        // Taken out of the table while it changes, so that its arrays are not copied; with
        // several changes a copy is kept to go back to when a later one is refused.
        var open = documents.removeValue(forKey: uri)!
        let before = changes.count > 1 ? open : nil
        // What each change did in bytes, for the tools running on this document.
        var applied: [(range: Range<Int>?, length: Int)] = []
        do throws(ResponseError) {
            for change in changes {
                guard let text = change["text"]?.string else { throw .invalidParams("a content change needs text") }
                if let rangeJSON = change["range"] {
                    let range = try open.document.byteRange(of: try LSPRange(json: rangeJSON), encoding: encoding)
                    open.replace(range, with: Array(text.utf8))
                    applied.append((range, text.utf8.count))
                } else {
                    open.replaceAll(with: Array(text.utf8))
                    applied.append((nil, text.utf8.count))
                }
            }
        } catch {
            documents[uri] = before ?? open
            throw error
        }
        if !tools.isEmpty {
            for change in applied { toolRunsSee(uri, change.range, becameLength: change.length) }
        }
        open.document.version = params["textDocument"]?["version"]?.int ?? open.document.version + 1
        scheduleCheck(&open)
        open.changedSinceCheck = true
        let reviewed = open.reviewItems.count
        let arrived = open.takePendingReview(nextID: &nextReviewID)
        let reviewChanged = arrived || open.reviewItems.count != reviewed
        // Moved in, not copied (see `check`).
        documents[uri] = consume open
        // A rewrite's changes arrived, or an edit took one: the review items show at once.
        if reviewChanged { publish(uri) }
    }

    func didClose(_ params: JSON) throws(ResponseError) {
        let open = try document(params)
        documents[open.document.uri] = nil
        toolRunsSee(open.document.uri, nil, becameLength: 0)
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
        for uri in openURIs { documents[uri]?.forgetFindings() }
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
