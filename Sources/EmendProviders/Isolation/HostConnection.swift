import Glibc
import EmendCore

/// libemend's side of one provider host: the process, its channel and the runs in flight.
/// A reader thread takes the host's events in order and hands each run's output to its sink
/// after checking it again (a host runs plugin code, so it is not trusted); when the channel
/// ends — a crash, garbage, a kill — every run in flight fails with a message naming the
/// plugin and what happened, and `onEnd` tells the provider.
final class HostConnection: @unchecked Sendable {
    /// Where the host is in its life.
    enum Phase {
        /// CREATE sent; the plugin is loading.
        case loading
        case ready(canRetry: Bool)
        /// Loading or create failed: the reason (the host is closed).
        case createFailed(String)
        case ended(HostEnd)
    }

    let providerID: String
    let monitor = Monitor()
    /// Guarded by `monitor`, as are the fields below.
    private(set) var phase = Phase.loading
    private var slots: [UInt64: HostRunSlot] = [:]
    private var nextRun: UInt64 = 1
    /// The end libemend chose (a kill or a close), which wins over what the wait status says.
    private var chosenEnd: HostEnd?
    /// Runs the host finished itself (FINISHED came): a host that does is not crash-looping.
    private(set) var finishedRuns = 0

    private let link: HostLink
    /// The CPU seconds of one run (0: none): a host ended by SIGXCPU used them up.
    private let cpuSeconds: Int
    /// memory_mb in bytes: a sandboxed host that exits with HostEnd.memoryExitStatus went over it.
    private let memoryBytes: Int
    /// When the host was started (monotonic ms): the load limit counts from here.
    private let startedAt = MonotonicClock.nowMilliseconds()
    private let channel: FrameChannel
    private let writeLock = Lock()
    private let logger: @Sendable (String) -> Void
    private let onEnd: @Sendable (HostConnection, HostEnd) -> Void

    private init(providerID: String, link: HostLink, limits: ProviderLimits, logger: @escaping @Sendable (String) -> Void,
                 onEnd: @escaping @Sendable (HostConnection, HostEnd) -> Void) {
        self.providerID = providerID
        self.link = link
        self.cpuSeconds = limits.cpuSeconds
        self.memoryBytes = limits.memoryBytes
        // Frames over the limits are refused at their length, before a byte of them is kept.
        self.channel = FrameChannel(fd: link.channel, frameLimit: FrameLimit.forHost(limits), watching: link.pidfd)
        self.logger = logger
        self.onEnd = onEnd
    }

    /// Starts a host running `executable` (through the checker service when `route` says
    /// so and the service can be had; else as a child) and asks it to load `create`.
    static func start(executable: String, create: HostCreate, route: HostRoute = .ownProcesses,
                      logger: @escaping @Sendable (String) -> Void,
                      onEnd: @escaping @Sendable (HostConnection, HostEnd) -> Void) -> Result<HostConnection, EmendError> {
        let link: HostLink
        switch makeLink(executable: executable, create: create, route: route, logger: logger) {
        case .success(let made): link = made
        case .failure(let error): return .failure(error)
        }
        let connection = HostConnection(providerID: create.id, link: link, limits: create.limits, logger: logger, onEnd: onEnd)
        _ = connection.send(.create(create))
        do {
            try RuntimeThread.start { connection.readLoop() }
        } catch {
            link.kill()
            _ = link.reap(milliseconds: 0)
            Glibc.close(link.channel)
            if link.pidfd >= 0 { Glibc.close(link.pidfd) }
            return .failure(error)
        }
        return .success(connection)
    }

    /// The checker service's channel to a shared host when `route` asks for it and the
    /// service can be had (else, with a log line, as without it), or a host started as a child.
    private static func makeLink(executable: String, create: HostCreate, route: HostRoute,
                                 logger: @Sendable (String) -> Void) -> Result<HostLink, EmendError> {
        if case .service(let endpoint) = route {
            switch ServiceClient.attach(endpoint, executable: executable, create: create) {
            case .success(let channel):
                // Said in the log (EMEND_LOG=1): when a host is asked for is what "lazy" means.
                logger("provider '\(create.id)': provider host attached in the checker service")
                return .success(.service(channel: channel))
            case .failure(let failure):
                logger("provider '\(create.id)': the checker service cannot be used (\(failure.reason)); its host runs in this process's care")
            }
        }
        switch HostProcess.spawn(executable, create: create) {
        case .success(let started):
            // Said in the log (EMEND_LOG=1): when a host starts is what "lazy" means, and tests check it.
            logger("provider '\(create.id)': provider host started (pid \(started.pid))")
            return .success(.child(started))
        case .failure(let error):
            return .failure(EmendError(.provider, "provider '\(create.id)': cannot start the provider host \(error.executable): "
                                       + "\(error.reason) (set EMEND_PROVIDER_HOST, reinstall, or trust the plugin "
                                       + "with isolation = \"none\" in config.toml)"))
        }
    }

    /// What a run is told when the host already ended, or nil.
    var endMessage: String? {
        monitor.withLock {
            switch phase {
            case .ended(let end): return end.message(provider: providerID)
            case .createFailed(let message): return message
            default: return nil
            }
        }
    }

    /// Sends one request; false when the host is gone (the reader ends the runs then).
    @discardableResult
    func send(_ request: HostRequest) -> Bool {
        var encoder = FrameEncoder()
        request.encode(into: &encoder)
        return writeLock.withLock { channel.write(encoder.bytes) }
    }

    /// Registers a run and sends it; nil when the host already ended.
    func begin(_ request: ProviderRequest, sink: ProviderSink, limits: ProviderLimits) -> HostRunSlot? {
        let slot: HostRunSlot? = monitor.withLock {
            // A host being killed or closed takes no new run: it goes to a fresh host.
            guard case .ready = phase, chosenEnd == nil else { return nil }
            let slot = HostRunSlot(id: nextRun, request: request, sink: sink, limits: limits)
            nextRun += 1
            slots[slot.id] = slot
            return slot
        }
        if let slot { send(.run(id: slot.id, request: request)) }
        return slot
    }

    /// Kills the host for `reason` (the reader then ends every run with it).
    func kill(_ reason: HostEnd) {
        monitor.withLock { if chosenEnd == nil { chosenEnd = reason } }
        link.kill()
    }

    /// Whether the host is on its way out (killed, closed, or gone): it takes no new run.
    var isEnding: Bool {
        monitor.withLock {
            if case .ended = phase { return true }
            return chosenEnd != nil
        }
    }

    /// How long a closed host may take to destroy the plugin's instance and exit.
    static let closeGraceMilliseconds = 2000

    /// Closes the channel: the host destroys the plugin's instance and exits. A reaper
    /// thread kills it if it is still there after the grace (a plugin sleeping in destroy
    /// keeps neither its host nor libemend's descriptor); the caller never waits.
    func close() {
        monitor.withLock { if chosenEnd == nil { chosenEnd = .closed } }
        _ = shutdown(channel.fd, Int32(SHUT_WR))
        try? RuntimeThread.start { [self] in
            let deadline = MonotonicClock.nowMilliseconds() + Int64(Self.closeGraceMilliseconds)
            monitor.withLock {
                while true {
                    if case .ended = phase { return }
                    let left = deadline - MonotonicClock.nowMilliseconds()
                    if left <= 0 { break }
                    monitor.wait(milliseconds: Int(min(left, 50)))
                }
            }
            if case .ended = monitor.withLock({ phase }) { return }
            link.kill()
        }
    }

    // MARK: the reader thread

    private func readLoop() {
        while true {
            do {
                try channel.next { (type, payload) throws(ProtocolViolation) in
                    var decoder = FrameDecoder(payload)
                    try handle(HostEvent.decode(type: type, &decoder))
                }
            } catch .violation(let violation) {
                kill(.violated(violation.reason))
                break
            } catch {
                break
            }
        }
        let closing = monitor.withLock { chosenEnd == .closed }
        // A host that closed its end is exiting (or a plugin closed the channel): give it a
        // moment to be reapable, then kill it.
        let exit = link.reap(milliseconds: closing ? 2000 : 500)
        Glibc.close(channel.fd)
        if link.pidfd >= 0 { Glibc.close(link.pidfd) }
        let end: HostEnd = monitor.withLock {
            chosenEnd ?? {
                switch exit {
                case .signalled(let signal)? where signal == SIGXCPU && cpuSeconds > 0: return .cpuSpent(seconds: cpuSeconds)
                case .signalled(let signal)?: return .crashed(signal: signal)
                case .exited(let code)? where code == HostEnd.memoryExitStatus && memoryBytes > 0:
                    return .memorySpent(megabytes: memoryBytes >> 20)
                case .exited(let code)?: return .exited(code: code)
                case .unknown?: return .vanished
                // The service went without a word (killed, stopped, replaced).
                case nil: return .serviceEnded
                }
            }()
        }
        if end != .closed { logger(end.message(provider: providerID)) }
        // The provider hears first, so a run that fails below and is followed at once by
        // the next one finds the host's state already moved on (a new host, or broken).
        onEnd(self, end)
        monitor.withLock {
            phase = .ended(end)
            let message = end.message(provider: providerID)
            let duringCancel = end != .closed && slots.values.contains { $0.cancelSent }
            for slot in slots.values { slot.end(by: end, message: message, duringCancel: duringCancel) }
            slots = [:]
            monitor.broadcast()
        }
    }

    private func handle(_ event: HostEvent) throws(ProtocolViolation) {
        var refused: [UInt64] = []
        monitor.lock()
        let handled = Result { () throws(ProtocolViolation) in
            switch event {
            case .ready(let canRetry):
                guard case .loading = phase else { throw ProtocolViolation("READY twice") }
                phase = .ready(canRetry: canRetry)
            case .createFailed(let message):
                guard case .loading = phase else { throw ProtocolViolation("CREATE_FAILED after READY") }
                phase = .createFailed(message)
                _ = shutdown(channel.fd, Int32(SHUT_WR))
                chosenEnd = .closed
            case .text(let run, let text):
                if let slot = try self.slot(run), !slot.deliver(text: text) { refused.append(run) }
            case .edits(let run, let edits):
                if let slot = try self.slot(run), try !slot.deliver(edits: edits) { refused.append(run) }
            case .log(let run, let line):
                if run != 0, let slot = try self.slot(run) {
                    slot.sink.log(line)
                } else if !line.hasPrefix(SandboxNotice.prefix) || SandboxNotice.isFirst(line) {
                    logger(line)
                }
            case .finished(let run, let outcome):
                if let slot = try self.slot(run) {
                    slot.end(outcome)
                    slots[run] = nil
                }
                finishedRuns += 1
            case .hostEnded(let end):
                guard link.isService else { throw ProtocolViolation("HOST_ENDED from a host") }
                if chosenEnd == nil { chosenEnd = explained(end) }
            }
            monitor.broadcast()
        }
        monitor.unlock()
        try handled.get()
        for run in refused { stopRefused(run) }
    }

    /// How a host the checker service held ended, read with this connection's limits: the
    /// service sees a signal or an exit status, as a parent would; SIGXCPU after `cpu_seconds`
    /// and the memory supervisor's status after `memory_mb` mean what they mean for a child.
    private func explained(_ end: HostEnd) -> HostEnd {
        switch end {
        case .crashed(let signal) where signal == SIGXCPU && cpuSeconds > 0: return .cpuSpent(seconds: cpuSeconds)
        case .exited(let code) where code == HostEnd.memoryExitStatus && memoryBytes > 0:
            return .memorySpent(megabytes: memoryBytes >> 20)
        default: return end
        }
    }

    /// The run `run` if it is in flight, nil if it is over; an id never given out is garbage.
    private func slot(_ run: UInt64) throws(ProtocolViolation) -> HostRunSlot? {
        guard case .ready = phase else { throw ProtocolViolation("output before READY") }
        guard run > 0, run < nextRun else { throw ProtocolViolation("output for run \(run), which was never started") }
        return slots[run]
    }

    /// A run whose output went over a limit: it is over for the session; the host is asked
    /// to stop it (and killed by the waiting run if it does not within the grace).
    private func stopRefused(_ run: UInt64) {
        let needsCancel: Bool = monitor.withLock {
            guard let slot = slots[run], !slot.cancelSent else { return false }
            slot.cancelSent = true
            return true
        }
        if needsCancel { send(.cancel(id: run)) }
    }

    /// Waits until the host is done with `slot` and returns its outcome. Once the session is
    /// cancelled (or the run refused) the host gets CANCEL and the run returns at once; a
    /// reaper thread gives the host `grace` milliseconds to end the run and then kills it, so
    /// a plugin spinning in run stops burning a core and the next run gets a fresh host.
    /// Why not wait here: this thread counts as the coordinator's provider work, which
    /// emend_coordinator_destroy waits for on the engine's thread; the plugin's code runs in
    /// the host, so none of it executes in this process while the reaper waits.
    func wait(for slot: HostRunSlot, grace: Int) -> ProviderOutcome {
        monitor.lock()
        while !slot.hostDone {
            if slot.cancelSent || slot.sink.isCancelled {
                let needsCancel = !slot.cancelSent
                slot.cancelSent = true
                let outcome = slot.outcome ?? .failed("provider '\(providerID)': cancelled")
                monitor.unlock()
                if needsCancel { send(.cancel(id: slot.id)) }
                reap(slot, grace: grace)
                return outcome
            }
            monitor.wait(milliseconds: 5)
        }
        let outcome = slot.outcome!
        monitor.unlock()
        return outcome
    }

    /// Kills the host unless it is done with `slot` within `grace` ms, on a thread of its own
    /// (with no thread to be had, at once: nobody is left waiting either way).
    private func reap(_ slot: HostRunSlot, grace: Int) {
        let deadline = MonotonicClock.nowMilliseconds() + Int64(grace)
        let overdue: @Sendable () -> Void = { [self] in kill(.killedAfterCancel(milliseconds: grace)) }
        do {
            try RuntimeThread.start { [self] in
                let late: Bool = monitor.withLock {
                    while !slot.hostDone {
                        let left = deadline - MonotonicClock.nowMilliseconds()
                        if left <= 0 { return true }
                        monitor.wait(milliseconds: Int(min(left, 50)))
                    }
                    return false
                }
                if late { overdue() }
            }
        } catch {
            overdue()
        }
    }

    /// Waits for the host to load the plugin, watching `sink` (nil when it was cancelled);
    /// a host that has not answered CREATE `loadTimeout` ms after it started is killed.
    func waitUntilLoaded(sink: ProviderSink, loadTimeout: Int) -> Phase? {
        let overdue: Bool = monitor.withLock {
            while case .loading = phase {
                if sink.isCancelled { return false }
                if MonotonicClock.nowMilliseconds() - startedAt >= Int64(loadTimeout) { return true }
                monitor.wait(milliseconds: 5)
            }
            return false
        }
        if overdue {
            kill(.notReady(milliseconds: loadTimeout))
            monitor.withLock { while case .loading = phase { monitor.wait(milliseconds: 5) } }
        }
        return monitor.withLock {
            if case .loading = phase { return nil }
            return phase
        }
    }
}
