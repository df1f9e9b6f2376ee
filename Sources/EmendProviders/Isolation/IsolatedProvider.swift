import EmendCore

/// A plugin (or simple-form manifest) run in a provider host process: the WritingProvider
/// libemend uses unless config.toml trusts the plugin in process. It starts the host on the
/// first run (nothing is loaded before), forwards each run over the host's channel and
/// survives the host: after a crash the next run starts a new host, after a back-off; a
/// plugin whose host crashes `crashLimit` times in a row is broken, with the reason.
public final class IsolatedProvider: WritingProvider, ProviderHealth, @unchecked Sendable {
    public let record: ProviderRecord
    public var id: String { record.id }
    public var tools: Set<WritingTool> { record.tools }
    public let writesMarkdown: Bool
    public let limits: ProviderLimits

    /// The host's state: there is none (yet, or since it ended), one is up, or the plugin
    /// cannot run at all.
    enum HostState {
        /// No host. `crashes` in a row so far; the next may start at `notBefore` (monotonic ms).
        case none(crashes: Int, notBefore: Int64)
        case live(HostConnection, crashes: Int)
        /// Loading or create failed (not a crash): every run fails with the reason, as in process.
        case failed(String)
        /// Crashed `crashLimit` times in a row.
        case broken(String)
    }

    /// Crashes in a row after which the plugin is broken.
    public static let crashLimit = 3
    /// The back-off before the host after the n-th crash in a row: 100 ms, doubling.
    static func backOff(afterCrashes crashes: Int) -> Int64 { crashes == 0 ? 0 : 100 << Int64(min(crashes - 1, 6)) }

    private let create: HostCreate
    private let executable: String?
    /// Whether the host is this process's child or held by the checker service.
    private let route: HostRoute
    private let logger: @Sendable (String) -> Void
    /// Told the reason once the plugin is broken (the registry remembers it in the cache).
    private let onBroken: @Sendable (String) -> Void
    private let monitor = Monitor()
    private var state = HostState.none(crashes: 0, notBefore: 0)
    private var canRetryValue = true

    /// `executable` is the emend-provider-host to start (nil: not found, every run fails
    /// saying so); `settings` the provider's table of config.toml; `sandbox` what its host
    /// lets it do (nil: the default sandbox for its record and settings).
    public init(record: ProviderRecord, settings: TOMLTable, limits: ProviderLimits, executable: String?,
                writesMarkdown: Bool, sandbox: HostSandbox? = nil, route: HostRoute = .ownProcesses, logger: @escaping @Sendable (String) -> Void = { _ in },
                onBroken: @escaping @Sendable (String) -> Void = { _ in }) {
        self.record = record
        self.onBroken = onBroken
        self.limits = limits
        self.executable = executable
        self.route = route
        self.writesMarkdown = writesMarkdown
        self.logger = logger
        self.create = HostCreate(kind: record.kind == .plugin ? .plugin : .simple, path: record.path, id: record.id,
                                 settings: settings, limits: limits,
                                 sandbox: sandbox ?? HostSandbox.policy(record: record, settings: settings, enabled: true,
                                                                        userPaths: []))
    }

    deinit {
        if case .live(let connection, _) = state { connection.close() }
    }

    public var canRetry: Bool { monitor.withLock { canRetryValue } }

    /// Why the plugin may not run any more (it kept crashing), or nil.
    public var brokenReason: String? {
        monitor.withLock {
            if case .broken(let reason) = state { return reason }
            return nil
        }
    }

    public func run(_ request: ProviderRequest, sink: ProviderSink) -> ProviderOutcome {
        guard tools.contains(request.tool) else { return .failed("\(id): does not serve \(request.tool.name)") }
        // Twice at most: a host may end between being found live and taking the run.
        for attempt in 1...2 {
            let connection: HostConnection
            switch connect(sink: sink) {
            case .success(let live): connection = live
            case .failure(let failure): return .failed(failure.message)
            }
            guard let slot = connection.begin(request, sink: sink, limits: limits) else {
                if attempt == 2 { return .failed(connection.endMessage ?? "\(id): its host ended") }
                // A host being killed (a run ignored its cancel) takes no run: the next
                // attempt starts a fresh one instead of waiting for it to go.
                retire(connection)
                continue
            }
            let outcome = connection.wait(for: slot, grace: limits.cancelGraceMilliseconds)
            // Its host was killed for another run that ignored its cancel: a fresh host.
            if slot.shouldRetry && attempt < 2 { continue }
            return outcome
        }
        return .failed("\(id): its host ended")
    }

    /// The live host, started (after the back-off) and loaded if needed.
    private func connect(sink: ProviderSink) -> Result<HostConnection, Failure> {
        while true {
            let step: Step = monitor.withLock {
                switch state {
                case .failed(let message), .broken(let message): return .fail(message)
                case .live(let connection, _): return .use(connection)
                case .none(let crashes, let notBefore):
                    let now = MonotonicClock.nowMilliseconds()
                    if now < notBefore { return .sleep(min(notBefore - now, 5)) }
                    guard let executable else {
                        return .fail("provider '\(id)': emend-provider-host not found (set EMEND_PROVIDER_HOST, reinstall, "
                                     + "or trust the plugin with isolation = \"none\" in config.toml)")
                    }
                    switch HostConnection.start(executable: executable, create: create, route: route, logger: logger,
                                                onEnd: { [weak self] connection, end in self?.hostEnded(connection, end) }) {
                    case .success(let connection):
                        state = .live(connection, crashes: crashes)
                        return .use(connection)
                    case .failure(let error):
                        return .fail(error.message)
                    }
                }
            }
            switch step {
            case .fail(let message): return .failure(Failure(message))
            case .sleep(let milliseconds):
                if sink.isCancelled { return .failure(Failure("\(id): cancelled")) }
                monitor.withLock { monitor.wait(milliseconds: Int(milliseconds)) }
            case .use(let connection):
                switch connection.waitUntilLoaded(sink: sink, loadTimeout: limits.loadTimeoutMilliseconds) {
                case nil: return .failure(Failure("\(id): cancelled"))
                case .ready(let canRetry)?:
                    monitor.withLock { canRetryValue = canRetry }
                    return .success(connection)
                case .createFailed(let message)?:
                    monitor.withLock { state = .failed(message) }
                    logger(message)
                    return .failure(Failure(message))
                case .ended(let end)?:
                    // This run fails; the next one starts a new host (after the back-off).
                    return .failure(Failure("\(end.message(provider: id)) while loading"))
                case .loading?:
                    continue
                }
            }
        }
    }

    /// Forgets `connection` if it is the live one and on its way out, keeping the crash count.
    private func retire(_ connection: HostConnection) {
        guard connection.isEnding else { return }
        monitor.withLock {
            if case .live(let current, let crashes) = state, current === connection {
                state = .none(crashes: crashes, notBefore: 0)
            }
        }
    }

    private enum Step {
        case fail(String)
        case sleep(Int64)
        case use(HostConnection)
    }

    struct Failure: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }

    /// The reader of `connection` saw its host end: count a crash (a run finished since the
    /// last one resets the count), back off, or mark the plugin broken.
    private func hostEnded(_ connection: HostConnection, _ end: HostEnd) {
        let broken: String? = monitor.withLock {
            guard case .live(let current, var crashes) = state, current === connection else { return nil }
            if connection.finishedRuns > 0 { crashes = 0 }
            if end.countsAsCrash {
                crashes += 1
                if crashes >= Self.crashLimit {
                    let reason = "\(end.message(provider: id)), \(crashes) times in a row; it is not started again "
                        + "until the file changes"
                    state = .broken(reason)
                    return reason
                }
            }
            let wait = end.countsAsCrash ? Self.backOff(afterCrashes: crashes) : 0
            state = .none(crashes: crashes, notBefore: MonotonicClock.nowMilliseconds() + wait)
            monitor.broadcast()
            return nil
        }
        if let broken {
            logger(broken)
            onBroken(broken)
        }
    }
}

/// A provider that can tell it may not run any more (a plugin that keeps crashing): the
/// registry lists it as broken, with the reason.
protocol ProviderHealth {
    var brokenReason: String? { get }
}
