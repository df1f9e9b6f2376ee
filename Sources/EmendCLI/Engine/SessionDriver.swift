import Glibc
import EmendCore
import EmendText

/// Drives a coordinator over a `FileEngine` on the main thread: starts tools, dispatches
/// until the session rests or ends (polling the coordinator's descriptor), shows progress on
/// a terminal, prints streamed text as it arrives, and turns signals into a clean stop.
final class SessionDriver {
    let engine: FileEngine
    let coordinator: Coordinator
    let catalog: CLICatalog
    let stream: StreamBuffer
    /// The file named in messages.
    let subject: String
    /// Runs before the process exits on a signal (restores the terminal, says what happened).
    var onSignal: [() -> Void] = []

    struct Settings {
        var resultOptions: ResultOptions = []
        var language: String?
        var timeoutSeconds: Double = 600
        var extras: [WritingProvider] = []
    }

    /// `catalog`: one shared with other drivers (a many-file run), whose providers stay up
    /// between files; nil: a catalog of its own over `registry`.
    init(engine: FileEngine, registry: ProviderCatalog, settings: Settings, subject: String,
         catalog: CLICatalog? = nil) throws(CLIFailure) {
        self.engine = engine
        self.subject = subject
        let catalog = catalog ?? CLICatalog(base: registry, extras: settings.extras, language: settings.language, stream: StreamBuffer())
        self.stream = catalog.stream
        self.catalog = catalog
        var options = CoordinatorOptions()
        options.preferredBehavior = .complete
        options.preferredResultOptions = settings.resultOptions
        options.providerTimeoutMilliseconds = Int64(settings.timeoutSeconds * 1000)
        options.providerTimeoutSetting = "--timeout SECONDS"
        // The file is written once at the end: stream the text to stdout (see CLIProvider),
        // not into the document sentence by sentence.
        options.streaming = .wholeResult
        options.animationDuration = 0
        do {
            coordinator = try Coordinator(delegate: engine, options: options, catalog: catalog)
        } catch {
            throw CLIFailure.from(error, subject: subject)
        }
    }

    /// Starts `tool` and dispatches until its session rests (a result to review or accept)
    /// or ends. `echo` receives streamed text as it arrives. Throws the session's failure.
    func run(_ tool: WritingTool, prompt: String? = nil, providerID: String? = nil, progress: Progress,
             echo: ((String) -> Void)? = nil) throws(CLIFailure) {
        stream.reset()
        do {
            try coordinator.start(tool, scope: engine.selection.isEmpty ? .fullDocument : .userSelection,
                                  prompt: prompt, providerID: providerID)
        } catch {
            throw CLIFailure.from(error, subject: subject)
        }
        try settle(progress: progress, echo: echo)
    }

    /// Dispatches until nothing is running or awaited; throws the failure of a session that
    /// failed meanwhile.
    func settle(progress: Progress? = nil, echo: ((String) -> Void)? = nil) throws(CLIFailure) {
        var fds = [pollfd(fd: coordinator.pollDescriptor, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: Signals.descriptor, events: Int16(POLLIN), revents: 0)]
        while true {
            do { try coordinator.dispatch() } catch { throw CLIFailure.from(error, subject: subject) }
            let chunk = stream.take()
            if !chunk.isEmpty, let echo {
                if Terminal.stdoutIsTerminal { progress?.stop() }
                echo(chunk)
            }
            if coordinator.isIdle { break }
            _ = poll(&fds, 2, 100)
            if let signo = Signals.take() { interrupted(signo) }
            progress?.tickIfRunning()
        }
        if let failure = coordinator.lastFailure {
            throw CLIFailure.from(failure, subject: subject)
        }
        if let error = engine.answerErrors.first {
            throw CLIFailure(.provider, "\(subject): internal error: \(error.message)")
        }
    }

    /// A signal came: stop the session (the provider is cancelled), leave the file as it
    /// was, and exit with 128 + the signal number.
    func interrupted(_ signo: Int32) -> Never {
        try? coordinator.stop()
        // Give the stop a moment to cancel the provider; nothing is written either way.
        let deadline = Progress.now() + 500
        while !coordinator.isIdle && Progress.now() < deadline {
            _ = try? coordinator.dispatch()
            var fd = pollfd(fd: coordinator.pollDescriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&fd, 1, 20)
        }
        for action in onSignal { action() }
        let file = subject == "<stdin>" ? "nothing was written" : "\(subject) was not changed"
        Terminal.err("\nemend: \(Signals.name(signo)); \(file)\n")
        exit(Signals.exitStatus(signo))
    }
}
