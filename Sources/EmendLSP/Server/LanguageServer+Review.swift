import EmendCore

/// Reviewing a rewrite change by change in an editor: once the client applied a rewrite's
/// edit, each of its changes (whole words, as emend_session_review_changes splits them) is a
/// diagnostic (hint, code "rewrite") with the quick fixes "Keep this change" (the mark goes)
/// and "Undo this change" (its original comes back; every other change stays), and "Keep all
/// changes" ends the review. Typing in a change makes it the writer's: its item goes.
extension LanguageServer {
    /// The review items of `open` as diagnostic objects, comma-separated (a run for
    /// `DiagnosticsMessage.message`).
    func reviewDiagnostics(_ open: OpenDocument) -> [UInt8] {
        var out: [UInt8] = []
        for item in open.reviewItems {
            if !out.isEmpty { out.append(UInt8(ascii: ",")) }
            JSONWriter.write(reviewDiagnostic(item, in: open.document), into: &out)
        }
        return out
    }

    private func reviewDiagnostic(_ item: ReviewItem, in document: TextDocument) -> JSON {
        let message = item.original.isEmpty ? "Rewrite added “\(item.replacement)”"
            : item.replacement.isEmpty ? "Rewrite removed “\(item.original)”"
            : "Rewrite: “\(item.original)” → “\(item.replacement)”"
        return ["range": document.lspRange(of: item.range, encoding: encoding).json, "severity": 4, "source": "emend",
                "code": "rewrite", "message": .string(message), "data": ["review": .int(item.id)]]
    }

    /// The quick fixes of the review items at `range`: keep, undo, keep all.
    func reviewActions(_ open: OpenDocument, range: Range<Int>) -> [JSON] {
        let uri = open.document.uri
        let here = open.reviewItems.filter { item in
            range.isEmpty ? item.range.lowerBound <= range.lowerBound && range.lowerBound <= item.range.upperBound
                          : item.range.overlaps(range) || (item.range.isEmpty && range.contains(item.range.lowerBound))
        }
        var actions: [JSON] = []
        for item in here {
            let diagnostic = reviewDiagnostic(item, in: open.document)
            let undoTitle = item.original.isEmpty ? "Undo this change (remove “\(item.replacement)”)"
                                                  : "Undo this change (back to “\(item.original)”)"
            let edit: JSON = ["changes": .object([uri: [["range": diagnostic["range"]!, "newText": .string(item.original)]]])]
            actions.append(["title": "Keep this change", "kind": "quickfix", "diagnostics": [diagnostic], "isPreferred": true,
                            "command": ["title": "Keep this change", "command": "emend.keepChange",
                                        "arguments": [.string(uri), .int(item.id)]]])
            actions.append(["title": .string(undoTitle), "kind": "quickfix", "diagnostics": [diagnostic], "edit": edit])
        }
        if !here.isEmpty {
            actions.append(["title": "Keep all changes of the rewrite", "kind": "quickfix",
                            "command": ["title": "Keep all changes of the rewrite", "command": "emend.keepAllChanges",
                                        "arguments": [.string(uri)]]])
        }
        return actions
    }

    /// emend.keepChange [uri, id] and emend.keepAllChanges [uri]: the marks go, the text stays.
    func keepReviewed(_ command: String, _ arguments: [JSON]) throws(ResponseError) {
        guard let uri = arguments.first?.string, var open = documents[uri] else {
            throw .invalidParams("\(command) needs the document's uri as its first argument")
        }
        if command == "emend.keepAllChanges" {
            open.reviewItems = []
        } else {
            guard let id = arguments.dropFirst().first?.int else { throw .invalidParams("\(command) needs the change's id as its second argument") }
            open.reviewItems.removeAll { $0.id == id }
        }
        documents[uri] = open
        publish(uri)
    }
}
