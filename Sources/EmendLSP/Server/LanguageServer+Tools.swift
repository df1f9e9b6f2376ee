import EmendCore
/// codeAction/resolve, the tool command, $/progress and cancellation.
extension LanguageServer {
    func resolve(id: RequestIdentifier, action: JSON) throws(ResponseError) -> Reply {
        // Quick fixes come complete; some clients resolve every action all the same.
        guard let data = action["data"], data["tool"] != nil else { return .now(action) }
        try startTool(data, reply: .resolve(id, action))
        return .later
    }

    /// Starts `data`'s tool on the tool worker. `workDoneToken`: the token the request
    /// brought (progress begins at once); without one, a client that can show progress is
    /// asked to create one.
    func startTool(_ data: JSON, reply: ToolRun.Reply, workDoneToken: JSON? = nil) throws(ResponseError) {
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
        let token = workDoneToken.flatMap { $0.string != nil || $0.int != nil ? $0 : nil } ?? .string("emend-tool-\(job)")
        var run = ToolRun(reply: reply, uri: uri, version: open.document.version, selection: selection, tool: tool, token: token)
        toolWorker.submit(.tool(id: job, tool: tool.tool, text: open.document.bytes, selection: selection, protected: protected))
        if token == workDoneToken {
            beginProgress(&run)
        } else if client.workDoneProgress {
            run.progress = .creating(finished: nil)
            send("window/workDoneProgress/create", ["token": run.token], purpose: .progressCreate(job: job))
        }
        tools[job] = run
    }

    func beginProgress(_ run: inout ToolRun) {
        run.progress = .begun(reported: MonotonicClock.nowMilliseconds())
        notify("$/progress", ["token": run.token, "value": ["kind": "begin", "title": .string("Emend: " + run.tool.title),
                                                            "message": "writing…", "cancellable": true]])
    }

    func progressCreated(job: Int, accepted: Bool) {
        guard var run = tools[job], case .creating(let finished) = run.progress else { return }
        run.progress = .none
        if accepted { beginProgress(&run) }
        tools[job] = run
        if let finished { toolFinished(job: job, outcome: finished) }
    }

    /// How often a running tool reports that it is still writing.
    static let toolReportMilliseconds: Int64 = 1000

    /// When the next tool progress report is due (monotonic ms), if any tool runs.
    func nextToolReport() -> Int64? {
        tools.values.compactMap { run in
            if case .begun(let reported) = run.progress { return reported + Self.toolReportMilliseconds }
            return nil
        }.min()
    }

    /// A report for every run whose last one is a second old: how long the model has been
    /// writing, so that a client's status line shows it is alive.
    func reportToolProgress() {
        let now = MonotonicClock.nowMilliseconds()
        for (job, run) in tools {
            guard case .begun(let reported) = run.progress, now >= reported + Self.toolReportMilliseconds else { continue }
            tools[job]?.progress = .begun(reported: now)
            let seconds = (now - run.started) / 1000
            notify("$/progress", ["token": run.token, "value": ["kind": "report", "message": .string("writing… \(seconds) s")]])
        }
    }

    func cancelRequest(_ params: JSON) {
        guard let raw = params["id"], let id = RequestIdentifier(raw) else { return }
        for (job, run) in tools where run.reply.requestID == id { toolWorker.cancel(job) }
    }

    func cancelProgress(_ params: JSON) {
        guard let token = params["token"] else { return }
        for (job, run) in tools where run.token == token { toolWorker.cancel(job) }
    }

    /// An edit of `uri` (nil range: the whole text) reaches every tool run on it.
    func toolRunsSee(_ uri: String, _ range: Range<Int>?, becameLength length: Int) {
        for (job, run) in tools where run.uri == uri { tools[job]?.see(range, becameLength: length) }
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
            let message = outcome == .cancelled ? "cancelled" : "done"
            notify("$/progress", ["token": run.token, "value": ["kind": "end", "message": .string(message)]])
        }
        let result = edit(for: run, outcome: outcome)
        switch (run.reply, result) {
        case (.resolve(let id, let action), .success(let edit)):
            guard var members = action.object else { return respond(id, error: .invalidParams("the action is not an object")) }
            members["edit"] = edit
            respond(id, result: .object(members))
        case (.resolve(let id, _), .failure(let error)):
            respond(id, error: error)
        case (.applyEdit, .success(let edit)):
            guard lifecycle == .running else { return }
            let params: JSON = ["label": .string("Emend: " + run.tool.title), "edit": edit]
            let due = run.started + Self.applyEditGapMilliseconds
            if MonotonicClock.nowMilliseconds() < due {
                heldEdits.append(HeldEdit(due: due, params: params, title: run.tool.title))
            } else {
                send("workspace/applyEdit", params, purpose: .applyEdit(title: run.tool.title))
            }
        case (.applyEdit, .failure(let error)):
            // The command was answered long ago: the user reads why nothing came.
            if error.code == ResponseError.contentModifiedCode {
                showMessage(.warning, "Emend: \(run.tool.title): \(error.message)")
            } else if outcome == .cancelled {
                logMessage(.info, "Emend: \(run.tool.title): cancelled")
            }
        }
    }

    /// The least time between a command's answer and the workspace/applyEdit with its
    /// result. Why: Emacs 28's jsonrpc leaves its process filter when a response completes
    /// a synchronous request (eglot's executeCommand), and a message that came in the same
    /// read stays unparsed until the server writes again; an edit right behind the answer
    /// (a fast provider) would wait for the next, unrelated message.
    static let applyEditGapMilliseconds: Int64 = 50

    /// Sends the held tool results whose time has come.
    func sendHeldEdits() {
        guard !heldEdits.isEmpty else { return }
        let now = MonotonicClock.nowMilliseconds()
        let due = heldEdits.filter { $0.due <= now }
        heldEdits.removeAll { $0.due <= now }
        for held in due where lifecycle == .running {
            send("workspace/applyEdit", held.params, purpose: .applyEdit(title: held.title))
        }
    }

    /// The WorkspaceEdit for a finished run, or the error the client gets instead.
    func edit(for run: ToolRun, outcome: ToolOutcome) -> Result<JSON, ResponseError> {
        if case .cancelled = outcome { return .failure(.cancelled) }
        guard let open = documents[run.uri], case .at = run.placement else {
            return .failure(ResponseError(ResponseError.contentModifiedCode, "the selected text changed while Emend was writing; try again"))
        }
        let document = open.document
        func textEdit(_ range: Range<Int>, _ text: String) -> Result<JSON, ResponseError> {
            guard let now = run.mapped(range, currentVersion: document.version) else {
                return .failure(ResponseError(ResponseError.contentModifiedCode, "the document changed while Emend was writing; try again"))
            }
            return .success(["changes": .object([run.uri: [["range": document.lspRange(of: now, encoding: encoding).json,
                                                             "newText": .string(text)]]])])
        }
        switch outcome {
        case .replaced(let range, let text):
            let edit = textEdit(range, text)
            if case .success = edit, let now = run.mapped(range, currentVersion: document.version) {
                // Once the client applied it, each change of the rewrite is offered for review,
                // split over the whole lines it is on (the edit is trimmed to the bytes it
                // changes: "It is" -> "It's" arrives as "is" -> "'s").
                let bytes = document.bytes
                var start = now.lowerBound, end = now.upperBound
                while start > 0, bytes[start - 1] != 0x0A { start -= 1 }
                while end < bytes.count, bytes[end] != 0x0A { end += 1 }
                let original = String(decoding: bytes[start..<end], as: UTF8.self)
                let result = Array(bytes[start..<now.lowerBound]) + Array(text.utf8) + Array(bytes[now.upperBound..<end])
                documents[run.uri]?.pendingReview = PendingReview(
                    start: start, result: result, changes: ReviewedChanges.changes(from: original, to: String(decoding: result, as: UTF8.self)))
            }
            return edit
        case .presented(let text):
            // A summary goes below the selection; the selected text stays.
            let end = run.selection.upperBound
            return textEdit(end..<end, "\n\n" + text.trimmingNewlines() + "\n")
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
