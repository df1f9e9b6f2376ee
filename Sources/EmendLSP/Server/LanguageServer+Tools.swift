import EmendCore
/// codeAction/resolve, the tool command, $/progress and cancellation.
extension LanguageServer {
    func resolve(id: RequestIdentifier, action: JSON) throws(ResponseError) -> Reply {
        // Quick fixes come complete; some clients resolve every action all the same.
        guard let data = action["data"], data["tool"] != nil else { return .now(action) }
        try startTool(data, reply: .resolve(id, action))
        return .later
    }

    func startTool(_ data: JSON, reply: ToolRun.Reply) throws(ResponseError) {
        guard let uri = data["uri"]?.string, let open = documents[uri] else { throw .invalidParams("the action's document is not open") }
        guard let name = data["tool"]?.string, let tool = SelectionTool(rawValue: name) else {
            throw .invalidParams("unknown tool in the action's data")
        }
        guard data["version"]?.int == open.document.version else {
            throw ResponseError(ResponseError.contentModifiedCode, "the document changed since the action was offered; ask for code actions again")
        }
        let selection = try open.document.byteRange(of: try LSPRange(json: data["range"]), encoding: encoding)
        guard !selection.isEmpty else { throw .invalidParams("select the text to work on") }
        let protected = CheckUnits.protectedRanges(of: open.document.bytes, kind: open.kind)
        let job = nextJobID
        nextJobID += 1
        var run = ToolRun(reply: reply, uri: uri, version: open.document.version, selection: selection, tool: tool)
        toolWorker.submit(.tool(id: job, tool: tool.tool, text: open.document.bytes, selection: selection, protected: protected))
        if client.workDoneProgress {
            run.progress = .creating(finished: nil)
            send("window/workDoneProgress/create", ["token": run.token], purpose: .progressCreate(job: job))
        }
        tools[job] = run
    }

    func progressCreated(job: Int, accepted: Bool) {
        guard var run = tools[job], case .creating(let finished) = run.progress else { return }
        run.progress = accepted ? .begun : .none
        tools[job] = run
        if accepted {
            notify("$/progress", ["token": run.token, "value": ["kind": "begin", "title": .string(run.tool.title),
                                                                "message": "Emend is writing…", "cancellable": true]])
        }
        if let finished { toolFinished(job: job, outcome: finished) }
    }

    func cancelRequest(_ params: JSON) {
        guard let raw = params["id"], let id = RequestIdentifier(raw) else { return }
        for (job, run) in tools where run.reply.id == id { toolWorker.cancel(job) }
    }

    func cancelProgress(_ params: JSON) {
        guard let token = params["token"] else { return }
        for (job, run) in tools where run.token == token { toolWorker.cancel(job) }
    }

    func toolFinished(job: Int, outcome: ToolOutcome) {
        guard var run = tools[job] else { return }
        if case .creating = run.progress {
            run.progress = .creating(finished: outcome)
            tools[job] = run
            return
        }
        tools[job] = nil
        if case .begun = run.progress {
            notify("$/progress", ["token": run.token, "value": ["kind": "end"]])
        }
        let result = edit(for: run, outcome: outcome)
        switch (run.reply, result) {
        case (.resolve(let id, let action), .success(let edit)):
            guard var members = action.object else { return respond(id, error: .invalidParams("the action is not an object")) }
            members["edit"] = edit
            respond(id, result: .object(members))
        case (.command(let id), .success(let edit)):
            send("workspace/applyEdit", ["label": .string(run.tool.title), "edit": edit], purpose: .applyEdit)
            respond(id, result: .null)
        case (_, .failure(let error)):
            respond(run.reply.id, error: error)
        }
    }

    /// The WorkspaceEdit for a finished run, or the error the client gets instead.
    func edit(for run: ToolRun, outcome: ToolOutcome) -> Result<JSON, ResponseError> {
        guard let open = documents[run.uri], open.document.version == run.version else {
            if case .cancelled = outcome { return .failure(.cancelled) }
            return .failure(ResponseError(ResponseError.contentModifiedCode, "the document changed while Emend was writing; try again"))
        }
        let document = open.document
        func textEdit(_ range: Range<Int>, _ text: String) -> JSON {
            ["changes": .object([run.uri: [["range": document.lspRange(of: range, encoding: encoding).json, "newText": .string(text)]]])]
        }
        switch outcome {
        case .replaced(let range, let text):
            return .success(textEdit(range, text))
        case .presented(let text):
            // A summary goes below the selection; the selected text stays.
            let end = run.selection.upperBound
            return .success(textEdit(end..<end, "\n\n" + text.trimmingNewlines() + "\n"))
        case .poor(let reason):
            showMessage(.warning, "Emend: \(run.tool.title): not applied: \(reason)")
            return .failure(.requestFailed("not applied: \(reason)"))
        case .failed(let message):
            showMessage(.error, "Emend: \(run.tool.title) failed: \(message)")
            return .failure(.requestFailed(message))
        case .cancelled:
            return .failure(.cancelled)
        }
    }
}

extension String {
    func trimmingNewlines() -> String {
        var s = Substring(self)
        while s.first == "\n" { s = s.dropFirst() }
        while s.last == "\n" { s = s.dropLast() }
        return String(s)
    }
}
