import EmendCore

/// Diagnostics: debounced, incremental (only units not in the cache go to the checker),
/// published for the whole document each time, filtered by the personal dictionary and the
/// ignored rules.
extension LanguageServer {
    /// At most this many bytes of units in one coordinator session: a 1 MB document is
    /// checked in pieces, its diagnostics appear piece by piece, and no piece comes near a
    /// provider's time limit per request (Harper's checker allows 10 s).
    static let batchBytes = 16 * 1024
    /// While a large document is being checked, its diagnostics are published this often.
    static let progressivePublishMilliseconds: Int64 = 500

    /// Which checkers proofread (for `debounce`): those the client names, else the default set.
    var checkersKey: String {
        settings.providers[.proofread]?.joined(separator: ",") ?? "default"
    }

    /// A keystroke check in flight longer than this no longer holds later keystrokes back.
    static let keystrokeCheckPatienceMilliseconds: Int64 = 2000

    /// When to check what a keystroke changed: after the client's fixed `debounceMs`; else at
    /// once, unless the checkers are slow and a keystroke check of the document is in flight
    /// (then when it answers; see `AdaptiveDebounce`).
    func scheduleCheck(_ open: inout OpenDocument) {
        let now = MonotonicClock.nowMilliseconds()
        if let fixed = settings.debounceMilliseconds {
            open.checkDue = now + Int64(fixed)
        } else if debounce.isFast(checkersKey) || open.urgent.isEmpty
                    || now - open.urgentSince > Self.keystrokeCheckPatienceMilliseconds {
            open.checkDue = now
        } else {
            open.checkDue = nil
            open.recheckWhenAnswered = true
        }
    }

    func nextDeadline() -> Int64? {
        documents.values.compactMap(\.checkDue).min()
    }

    func fireDueChecks() {
        let now = MonotonicClock.nowMilliseconds()
        for uri in openURIs {
            guard let due = documents[uri]?.checkDue, due <= now else { continue }
            documents[uri]?.checkDue = nil
            check(uri)
        }
    }

    /// Cuts the document into units, sends the ones never checked to the checker, and
    /// publishes at once when nothing is missing.
    func check(_ uri: String) {
        if submitMissing(uri) == .idle { publish(uri) }
    }

    /// The part of `check` that changes the document; its check state after. Why apart: the
    /// document is back in the table, and no copy of it is left, when `publish` changes it (a
    /// copy would share its arrays, and publish would then copy every unit's findings and
    /// fragments to change one).
    private func submitMissing(_ uri: String) -> CheckState? {
        guard var open = documents.removeValue(forKey: uri) else { return nil }
        let missing = resolve(&open)
        let waiting = !open.owed.isEmpty
        // What the user just changed goes ahead of the rest of a check in progress.
        let urgent = open.changedSinceCheck && !missing.isEmpty
        open.changedSinceCheck = false
        if urgent {
            if open.urgent.isEmpty { open.urgentSince = MonotonicClock.nowMilliseconds() }
            open.urgent.formUnion(missing)
        }
        let batches = submit(missing, urgent: urgent)
        switch (open.check, waiting) {
        case (_, false):
            open.check = .idle
        case (.checking, true):
            break
        case (.idle, true):
            open.check = .checking(progress: batches > 1 && client.workDoneProgress ? startProgress(uri, total: open.units.count) : .silent)
        }
        documents[uri] = open
        return open.check
    }

    /// Sends `units` to the checker in batches of at most `batchBytes`; returns how many.
    /// `retry`: these units failed once; if they fail again they are given up on.
    @discardableResult
    func submit(_ units: [UnitKey], batchBytes: Int = LanguageServer.batchBytes, retry: Bool = false,
                urgent: Bool = false) -> Int {
        var count = 0
        var batch: [UnitKey] = []
        var bytes = 0
        let now = MonotonicClock.nowMilliseconds()
        func flush() {
            guard !batch.isEmpty else { return }
            checkJobs[nextJobID] = CheckJobRecord(submitted: now, bytes: bytes, checkers: checkersKey)
            checker.submit(.check(id: nextJobID, units: batch), urgent: urgent)
            if retry { retries.insert(nextJobID) }
            nextJobID += 1
            count += 1
            batch = []
            bytes = 0
        }
        for unit in units {
            inFlight.insert(unit)
            batch.append(unit)
            bytes += unit.text.count
            if bytes >= batchBytes { flush() }
        }
        flush()
        return count
    }

    func handle(_ report: EngineReport) {
        // The units this report answered for.
        var settled: [UnitKey] = []
        switch report {
        case .checked(let id, let findings, let partial):
            for (key, list) in findings {
                inFlight.remove(key)
                cache[key] = list
            }
            if let job = checkJobs.removeValue(forKey: id) {
                debounce.record(MonotonicClock.nowMilliseconds() - job.submitted, bytes: job.bytes, for: job.checkers)
            }
            settled = findings.map(\.0)
            settle(settled)
            // Honest about what is missing: the diagnostics are not the whole story. Once
            // per distinct message, as failures are.
            if let partial, shownFailures.insert(partial).inserted {
                showMessage(.warning, "Emend: \(partial)")
            }
        case .checkFailed(let id, let units, let message):
            checkJobs[id] = nil
            // A provider that timed out or restarted often manages smaller pieces: once more,
            // a quarter of the size, before the units are given up on (until the next save).
            if message != "cancelled" && retries.remove(id) == nil {
                submit(units, batchBytes: Self.batchBytes / 4, retry: true)
                return
            }
            for key in units {
                inFlight.remove(key)
                failed.insert(key)
            }
            settled = units
            settle(units)
            if message != "cancelled" && shownFailures.insert(message).inserted {
                showMessage(.error, "Emend could not check the text: \(message)")
            }
        case .toolFinished(let id, let outcome):
            return toolFinished(job: id, outcome: outcome)
        }
        let now = MonotonicClock.nowMilliseconds()
        for uri in openURIs {
            // What is needed of the document, read in one expression: a copy of it held while
            // `publish` changes it would make publish copy every unit's findings.
            typealias Standing = (progress: CheckProgress, remaining: Int, edited: Bool, lastPublish: Int64)
            let standing: Standing? = documents[uri].flatMap { open in
                guard case .checking(let progress) = open.check else { return nil }
                return (progress, open.owed.count, !open.urgent.isEmpty && !open.urgent.isDisjoint(with: settled), open.lastPublish)
            }
            guard let (progress, remaining, edited, lastPublish) = standing else { continue }
            if remaining == 0 {
                documents[uri]?.check = .idle
                documents[uri]?.urgent = []
                publish(uri)
                if case .reporting(let token, _) = progress { reportProgress(token: token, kind: "end", percentage: 100, uri: uri) }
                continue
            }
            // The paragraph the user changed is published as soon as it is checked; the rest
            // of a long check every `progressivePublishMilliseconds`.
            if edited { documents[uri]?.urgent.subtract(settled) }
            if edited || now - lastPublish >= Self.progressivePublishMilliseconds { publish(uri) }
            if case .reporting(let token, let total) = progress {
                reportProgress(token: token, kind: "report", percentage: max(0, min(99, 100 * (total - remaining) / max(total, 1))), uri: uri)
            }
        }
        // Keystrokes that came while slow checkers had one in flight: the text as it is now.
        for uri in openURIs {
            guard let open = documents[uri], open.recheckWhenAnswered, open.urgent.isEmpty else { continue }
            documents[uri]?.recheckWhenAnswered = false
            documents[uri]?.checkDue = now
        }
    }

    /// Brings the document's units up to its text and looks up, in the cache, each unit
    /// whose findings are not known (after a keystroke: the one paragraph it changed);
    /// returns the units nobody has asked the checker for yet. What the checker owes the
    /// document is counted afresh: units an edit replaced are owed nothing any more.
    @discardableResult
    func resolve(_ open: inout OpenDocument) -> [UnitKey] {
        open.refreshUnits()
        var missing: [UnitKey] = []
        var seen: Set<UnitKey> = []
        open.owed = []
        for index in open.units.indices where open.findings[index] == nil {
            let key = open.units[index].key
            if let known = cache[key] {
                open.findings[index] = known
            } else if !failed.contains(key) {
                open.owed.insert(key)
                if !inFlight.contains(key) && seen.insert(key).inserted { missing.append(key) }
            }
        }
        return missing
    }

    /// The checker answered for `keys`: no open document is owed them any more.
    func settle(_ keys: [UnitKey]) {
        for uri in openURIs where !(documents[uri]?.owed.isEmpty ?? true) {
            documents[uri]?.owed.subtract(keys)
        }
    }

    /// Whether the user wants to see this finding (dictionary words, ignored rules).
    func isShown(_ finding: UnitFinding) -> Bool {
        if !finding.ruleID.isEmpty && (settings.ignoredRules.contains(finding.ruleID) || dictionary.ignores(rule: finding.ruleID)) {
            return false
        }
        if let word = finding.dictionaryWord, !dictionary.words.isEmpty, dictionary.contains(word) { return false }
        return true
    }

    /// The shown findings of the document as it is now (cached units only; nothing is checked).
    func placedFindings(_ uri: String) -> [PlacedFinding] {
        guard var open = documents.removeValue(forKey: uri) else { return [] }
        lookUp(&open)
        documents[uri] = open
        var placed: [PlacedFinding] = []
        for (unit, findings) in zip(open.units, open.findings) {
            guard let findings else { continue }
            for finding in findings where isShown(finding) {
                placed.append(PlacedFinding(range: (unit.offset + finding.range.lowerBound)..<(unit.offset + finding.range.upperBound),
                                            finding: finding))
            }
        }
        return placed
    }

    func diagnostic(_ placed: PlacedFinding, in document: TextDocument) -> JSON {
        let finding = placed.finding
        var diagnostic: [String: JSON] = [
            "range": document.lspRange(of: placed.range, encoding: encoding).json,
            "severity": .int(settings.severity(for: finding.category)),
            "source": "emend",
            "message": .string(finding.message),
            "data": ["replacement": .string(finding.replacement), "category": .string(finding.category)],
        ]
        if !finding.ruleID.isEmpty { diagnostic["code"] = .string(finding.ruleID) }
        if let link = finding.ruleLink { diagnostic["codeDescription"] = ["href": .string(link)] }
        return .object(diagnostic)
    }

    /// Units cut for the text as it is, with the findings that came since they were looked up.
    func lookUp(_ open: inout OpenDocument) {
        if open.unitsState == .stale { resolve(&open) }
        for index in open.units.indices where open.findings[index] == nil && !failed.contains(open.units[index].key) {
            open.findings[index] = cache[open.units[index].key]
        }
    }

    /// Publishes every shown diagnostic of the document. Each unit's diagnostics are encoded
    /// once and kept (`DiagnosticsFragment`) while its text, start and the filter stay the
    /// same, so a keystroke encodes one paragraph's and copies the rest.
    func publish(_ uri: String) {
        guard var open = documents.removeValue(forKey: uri) else { return }
        lookUp(&open)
        let document = open.document
        var runs: [[UInt8]] = []
        runs.reserveCapacity(open.units.count)
        var severities: [String: Int] = [:]
        for index in open.units.indices {
            guard let findings = open.findings[index] else { continue }
            let unit = open.units[index]
            let start = document.position(of: unit.offset, encoding: encoding)
            if let fragment = open.fragments[index], fragment.start == start, fragment.generation == filterGeneration {
                runs.append(fragment.bytes)
                continue
            }
            var bytes: [UInt8] = []
            var cursor = PositionCursor(document: document, encoding: encoding)
            for finding in findings where isShown(finding) {
                let level: Int
                if let known = severities[finding.category] {
                    level = known
                } else {
                    level = settings.severity(for: finding.category)
                    severities[finding.category] = level
                }
                if !bytes.isEmpty { bytes.append(UInt8(ascii: ",")) }
                DiagnosticsMessage.writeDiagnostic(finding, start: cursor.position(of: unit.offset + finding.range.lowerBound),
                                                   end: cursor.position(of: unit.offset + finding.range.upperBound),
                                                   severity: level, into: &bytes)
            }
            open.fragments[index] = DiagnosticsFragment(start: start, generation: filterGeneration, bytes: bytes)
            runs.append(bytes)
        }
        runs.append(reviewDiagnostics(open))
        open.lastPublish = MonotonicClock.nowMilliseconds()
        documents[uri] = open
        writer.send(bytes: DiagnosticsMessage.message(uri: uri, version: document.version, diagnostics: runs))
    }

    /// The open documents' URIs, for loops that change the documents. Why not
    /// `documents.keys`: the view holds the table's storage, so the first change in the loop
    /// copies the table, and with it every document's arrays are shared; the next change of a
    /// document (a publish) then copies all its units' findings and fragments, thousands in a
    /// large document, at every keystroke.
    var openURIs: [String] { Array(documents.keys) }

    func publishAll() {
        for uri in openURIs { publish(uri) }
    }
}

/// A check job the worker has: when it was submitted (monotonic ms), how many bytes of units
/// it carries, and which checkers (`LanguageServer.checkersKey`) run it.
struct CheckJobRecord {
    let submitted: Int64
    let bytes: Int
    let checkers: String
}
