import EmendCore
import EmendProofreading
import EmendProviders

/// Requests the server sent and what their answers are for.
enum OutgoingRequest {
    case configuration
    /// window/workDoneProgress/create for a tool run (job id).
    case progressCreate(job: Int)
    /// window/workDoneProgress/create for the long check of a document.
    case checkProgressCreate(uri: String, token: String)
    /// workspace/applyEdit with a tool's result (its title, for a refusal's message).
    case applyEdit(title: String)
}

/// initialize / initialized / shutdown and settings.
extension LanguageServer {
    static let commands = ["emend.addToDictionary", "emend.ignoreRule", "emend.runTool", "emend.keepChange", "emend.keepAllChanges"]

    func initialize(_ params: JSON) throws(ResponseError) -> JSON {
        guard lifecycle == .awaitingInitialize else { throw .invalidRequest("initialize was already received") }
        let capabilities = params["capabilities"]
        encoding = PositionEncodingKind.negotiate(capabilities?["general"]?["positionEncodings"]?.array?.compactMap(\.string))
        let codeAction = capabilities?["textDocument"]?["codeAction"]
        let resolvable = codeAction?["resolveSupport"]?["properties"]?.array ?? []
        client.resolvesToolEdits = resolvable.contains(.string("edit")) && !resolvable.contains(.string("command"))
        client.workDoneProgress = capabilities?["window"]?["workDoneProgress"]?.bool ?? false
        client.configuration = capabilities?["workspace"]?["configuration"]?.bool ?? false
        if let formats = capabilities?["textDocument"]?["hover"]?["contentFormat"]?.array?.compactMap(\.string), !formats.isEmpty {
            client.hoverMarkdown = formats.first == "markdown"
        }
        let (fromOptions, problems) = ServerSettings().merged(with: params["initializationOptions"])
        initialSettings = fromOptions
        apply(fromOptions)
        lifecycle = .running
        if !problems.isEmpty { showMessage(.warning, "Emend settings: " + problems.joined(separator: "; ")) }
        return [
            "capabilities": [
                "positionEncoding": .string(PositionEncodingKind.name(of: encoding)),
                "textDocumentSync": ["openClose": true, "change": 2, "save": ["includeText": false]],
                "hoverProvider": true,
                "codeActionProvider": ["codeActionKinds": ["quickfix", "refactor.rewrite"], "resolveProvider": true],
                "executeCommandProvider": ["commands": .array(Self.commands.map { .string($0) })],
            ],
            "serverInfo": ["name": "emend", "version": .string(configuration.version)],
        ]
    }

    func initialized() {
        requestConfiguration()
    }

    func requestConfiguration() {
        guard client.configuration else { return }
        send("workspace/configuration", ["items": [["section": "emend"]]], purpose: .configuration)
    }

    func didChangeConfiguration(_ params: JSON) {
        if let pushed = params["settings"], pushed["emend"] != nil {
            let (merged, problems) = initialSettings.merged(with: pushed)
            if !problems.isEmpty { showMessage(.warning, "Emend settings: " + problems.joined(separator: "; ")) }
            apply(merged)
        } else {
            requestConfiguration()
        }
    }

    func shutdown() -> JSON {
        lifecycle = .shutDown
        for (job, _) in tools { toolWorker.cancel(job) }
        return .null
    }

    /// New settings: providers and language go to the catalog; cached findings were made
    /// with the old ones, so every document is checked again.
    func apply(_ new: ServerSettings) {
        let providersChanged = new.language != settings.language || new.providers != settings.providers
        settings = new
        catalog.update(new)
        dictionary = PersonalDictionary.load(environment: configuration.environment)
        if providersChanged {
            cache.removeAll()
            failed.removeAll()
            for uri in openURIs { documents[uri]?.forgetFindings() }
        }
        for uri in openURIs {
            documents[uri]?.checkDue = MonotonicClock.nowMilliseconds()
        }
    }

    func answered(_ purpose: OutgoingRequest, result: JSON?, error: JSON?) {
        switch purpose {
        case .configuration:
            guard error == nil, let first = result?.array?.first, first != .null else { return }
            let (merged, problems) = initialSettings.merged(with: first)
            if !problems.isEmpty { showMessage(.warning, "Emend settings: " + problems.joined(separator: "; ")) }
            if merged != settings { apply(merged) }
        case .progressCreate(let job):
            progressCreated(job: job, accepted: error == nil)
        case .checkProgressCreate(let uri, let token):
            progressCreated(uri: uri, token: token, accepted: error == nil)
        case .applyEdit(let title):
            if error != nil || result?["applied"]?.bool == false {
                let reason = result?["failureReason"]?.string ?? error?["message"]?.string ?? "no reason given"
                showMessage(.warning, "Emend: \(title): the editor did not apply the result: \(reason)")
            }
        }
    }
}
