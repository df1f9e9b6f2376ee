import Glibc
import EmendCore
import EmendText
import EmendProofreading
import EmendProviders

/// `emend lsp`: a Language Server Protocol 3.17 server over one pair of file descriptors.
///
/// Three kinds of thread, so that reading never waits for a model: a reader turns frames
/// into events; this loop (the caller's thread) owns every piece of state, answers requests
/// and writes every message; two engine workers (diagnostics, selection tools) each own a
/// coordinator and report back through the same event queue.
public final class LanguageServer {
    enum Lifecycle {
        case awaitingInitialize
        case running
        case shutDown
    }

    /// What the client said it can do, in `initialize`.
    struct ClientFeatures {
        /// The selection tools are offered for `codeAction/resolve` to fill in their edit:
        /// only for clients that can resolve an edit but cannot take a command back. Why:
        /// lsp-mode resolves synchronously (the editor would wait for the model); a client
        /// that can resolve a command, or cannot resolve at all (eglot), gets `emend.runTool`,
        /// answered at once, whose result comes as workspace/applyEdit.
        var resolvesToolEdits = false
        var workDoneProgress = false
        var configuration = false
        /// Hover text as Markdown (else plain text), as textDocument.hover.contentFormat says.
        var hoverMarkdown = true
    }

    let configuration: ServerConfiguration
    let events = EventQueue()
    let writer: FrameWriter
    var lifecycle = Lifecycle.awaitingInitialize
    var encoding: PositionEncoding = .utf16 { didSet { filterGeneration += 1 } }
    var client = ClientFeatures()
    /// `initializationOptions` as sent; `workspace/configuration` answers go on top.
    var initialSettings = ServerSettings()
    var settings = ServerSettings() { didSet { filterGeneration += 1 } }
    var documents: [String: OpenDocument] = [:]
    var dictionary: PersonalDictionary { didSet { filterGeneration += 1 } }
    /// Counts changes of what decides which findings are shown and how (settings, dictionary,
    /// position encoding): encoded diagnostics of an older generation are written again.
    var filterGeneration = 0
    /// Findings by unit, for every unit a worker checked.
    var cache: [UnitKey: [UnitFinding]] = [:]
    var inFlight: Set<UnitKey> = []
    /// Units whose check failed: not tried again until the file is saved or settings change.
    var failed: Set<UnitKey> = []
    var shownFailures: Set<String> = []
    /// Check jobs that retry units which failed once.
    var retries: Set<Int> = []
    /// Check jobs in the worker: when each was submitted, its bytes and its checkers (for
    /// `debounce`).
    var checkJobs: [Int: CheckJobRecord] = [:]
    /// The pause after a keystroke, from the checkers' recent times (unless the client fixes one).
    var debounce = AdaptiveDebounce()
    var nextJobID = 1
    /// The id of the next review item (see ReviewItems).
    var nextReviewID = 1
    var tools: [Int: ToolRun] = [:]
    /// Tool results held back a moment after their command's answer (`applyEditGap`).
    var heldEdits: [HeldEdit] = []
    var outgoing: [Int: OutgoingRequest] = [:]
    var nextOutgoingID = 1
    let catalog: SharedCatalog
    var checker: EngineWorker!
    var toolWorker: EngineWorker!
    var exitCode: Int32?

    public init(configuration: ServerConfiguration) {
        self.configuration = configuration
        self.writer = FrameWriter(fd: configuration.output)
        self.dictionary = PersonalDictionary.load(environment: configuration.environment)
        self.catalog = SharedCatalog(make: configuration.makeCatalog)
    }

    /// Serves until `exit` (or the end of input); returns the exit status LSP asks for:
    /// 0 after `shutdown`, else 1.
    public func run() -> Int32 {
        let events = self.events
        let deliver: @Sendable (EngineReport) -> Void = { events.post(.engine($0)) }
        let shared = catalog
        do {
            checker = try EngineWorker(catalog: { shared.get() }, providerTimeoutMilliseconds: configuration.providerTimeoutMilliseconds,
                                       logger: configuration.logger, deliver: deliver)
            toolWorker = try EngineWorker(catalog: { shared.get() }, providerTimeoutMilliseconds: configuration.providerTimeoutMilliseconds,
                                          logger: configuration.logger, deliver: deliver)
            let input = configuration.input
            try RuntimeThread.start { MessageReading.run(fd: input, into: events) }
        } catch {
            configuration.logger("cannot start: \(error.message)")
            return 1
        }
        while exitCode == nil {
            let deadlines = [nextDeadline(), nextToolReport(), heldEdits.map(\.due).min()].compactMap { $0 }
            let event = events.next(until: deadlines.min())
            if let event { handle(event) }
            fireDueChecks()
            reportToolProgress()
            sendHeldEdits()
        }
        checker.quit()
        toolWorker.quit()
        return exitCode ?? 1
    }

    func handle(_ event: ServerEvent) {
        switch event {
        case .message(let message): handle(message)
        case .invalid(let id, let error): respond(id, error: error)
        case .inputEnded: exitCode = lifecycle == .shutDown ? 0 : 1
        case .engine(let report): handle(report)
        }
    }

    func handle(_ message: RPCMessage) {
        switch message {
        case .request(let id, let method, let params):
            // An exit is an exit, sent as a request too (some clients do): answered, then
            // the loop ends with the status the specification gives a notification.
            if method == "exit" {
                respond(id, result: .null)
                return receivedExit()
            }
            switch lifecycle {
            case .awaitingInitialize where method != "initialize":
                return respond(id, error: ResponseError(ResponseError.serverNotInitializedCode, "the server is not initialized yet: send initialize first"))
            case .shutDown:
                return respond(id, error: .invalidRequest("the server is shut down: only exit is accepted"))
            default:
                break
            }
            do {
                switch try request(id: id, method: method, params: params) {
                case .now(let result): respond(id, result: result)
                case .later: break
                }
            } catch {
                respond(id, error: error)
            }
        case .notification(let method, let params):
            if method == "exit" { return receivedExit() }
            guard lifecycle == .running else { return }
            do {
                try notification(method: method, params: params)
            } catch {
                configuration.logger("\(method): \(error.message)")
                showMessage(.warning, "Emend: \(method): \(error.message)")
            }
        case .response(let id, let result, let error):
            guard case .number(let number) = id, let purpose = outgoing.removeValue(forKey: number) else { return }
            answered(purpose, result: result, error: error)
        }
    }

    /// Ends the loop: status 0 after `shutdown`, 1 without it (LSP 3.17, `exit`).
    func receivedExit() {
        exitCode = lifecycle == .shutDown ? 0 : 1
    }

    enum Reply {
        case now(JSON)
        /// Answered when a worker reports (codeAction/resolve, a tool command).
        case later
    }

    func request(id: RequestIdentifier, method: String, params: JSON) throws(ResponseError) -> Reply {
        switch method {
        case "initialize": return .now(try initialize(params))
        case "shutdown": return .now(shutdown())
        case "textDocument/codeAction": return .now(try codeActions(params))
        case "textDocument/hover": return .now(try hover(params))
        case "codeAction/resolve": return try resolve(id: id, action: params)
        case "workspace/executeCommand": return try executeCommand(id: id, params: params)
        default: throw .methodNotFound(method)
        }
    }

    func notification(method: String, params: JSON) throws(ResponseError) {
        switch method {
        case "initialized": initialized()
        case "textDocument/didOpen": try didOpen(params)
        case "textDocument/didChange": try didChange(params)
        case "textDocument/didClose": try didClose(params)
        case "textDocument/didSave": try didSave(params)
        case "workspace/didChangeConfiguration": didChangeConfiguration(params)
        case "$/cancelRequest": cancelRequest(params)
        case "window/workDoneProgress/cancel": cancelProgress(params)
        default: break   // Unknown notifications ($/setTrace, ...) are ignored, as LSP allows.
        }
    }

    // MARK: Writing

    func respond(_ id: RequestIdentifier?, result: JSON) {
        writer.send(["jsonrpc": "2.0", "id": id?.json ?? .null, "result": result])
    }

    func respond(_ id: RequestIdentifier?, error: ResponseError) {
        writer.send(["jsonrpc": "2.0", "id": id?.json ?? .null, "error": error.json])
    }

    func notify(_ method: String, _ params: JSON) {
        writer.send(["jsonrpc": "2.0", "method": .string(method), "params": params])
    }

    /// Sends a request to the client; its answer comes to `answered(_:result:error:)`.
    func send(_ method: String, _ params: JSON, purpose: OutgoingRequest) {
        let id = nextOutgoingID
        nextOutgoingID += 1
        outgoing[id] = purpose
        writer.send(["jsonrpc": "2.0", "id": .int(id), "method": .string(method), "params": params])
    }

    enum MessageType: Int {
        case error = 1, warning, info, log
    }

    func showMessage(_ type: MessageType, _ text: String) {
        notify("window/showMessage", ["type": .int(type.rawValue), "message": .string(text)])
    }

    /// A line for the client's log (not shown as a message).
    func logMessage(_ type: MessageType, _ text: String) {
        notify("window/logMessage", ["type": .int(type.rawValue), "message": .string(text)])
    }

    /// The document `uri` names, or an invalid-params error.
    func document(_ params: JSON) throws(ResponseError) -> OpenDocument {
        guard let uri = params["textDocument"]?["uri"]?.string else { throw .invalidParams("textDocument.uri is missing") }
        guard let open = documents[uri] else { throw .invalidParams("\(uri) is not open") }
        return open
    }
}
