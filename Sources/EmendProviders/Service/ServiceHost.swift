import Glibc
import EmendCore

/// One provider host in the checker service, shared by every front end that attached with
/// the same CREATE, executable and environment. Runs of several front ends go to it at once
/// (the host runs each on a thread of its own, as it does for one front end), renumbered so
/// that each front end keeps its own run ids. The service keeps the promises a parent
/// keeps: a host that does not load within its load limit, or a cancelled run that outlasts
/// its grace (also the runs of a front end that went away), gets the host killed; when the
/// host ends, every attached front end is told how (HOST_ENDED) and its connection closed,
/// so each run in flight fails with the reason, never silently.
final class ServiceHost: @unchecked Sendable {
    enum Phase {
        case loading
        /// READY's frame, handed to every front end that attaches later.
        case ready(frame: [UInt8])
        case createFailed(frame: [UInt8])
        case ended(HostEnd)
    }

    /// A run in flight: whose it is, its id there, and when it must be over once cancelled.
    struct Route {
        let link: ServiceClientLink
        let clientRun: UInt64
        var cancelDeadline: Int64?
    }

    let providerID: String
    let key: ServiceHostKey
    private let process: HostProcess
    private let channel: FrameChannel
    private let writeLock = Lock()
    private let startedAt = MonotonicClock.nowMilliseconds()
    private let loadTimeout: Int
    private let cancelGrace: Int
    private let onEnded: @Sendable (ServiceHost) -> Void

    let monitor = Monitor()
    /// Guarded by `monitor`, as are the fields below.
    private(set) var phase = Phase.loading
    private var attached: [ObjectIdentifier: ServiceClientLink] = [:]
    private var routes: [UInt64: Route] = [:]
    private var nextRun: UInt64 = 1
    private var chosenEnd: HostEnd?
    /// Sandbox notices (LOG of run 0) for front ends that attach after they were sent.
    private var notices: [[UInt8]] = []
    private(set) var servedRuns = 0

    private init(providerID: String, key: ServiceHostKey, process: HostProcess, create: HostCreate, loadTimeout: Int,
                 onEnded: @escaping @Sendable (ServiceHost) -> Void) {
        self.providerID = providerID
        self.key = key
        self.process = process
        self.channel = FrameChannel(fd: process.channel, frameLimit: FrameLimit.forHost(create.limits), watching: process.pidfd)
        self.loadTimeout = loadTimeout
        self.cancelGrace = create.limits.cancelGraceMilliseconds
        self.onEnded = onEnded
    }

    var pid: pid_t { process.pid }

    /// Whether the host is ending, ended or failed to load: a new attach starts another.
    var isEnding: Bool {
        monitor.withLock {
            if chosenEnd != nil { return true }
            switch phase {
            case .ended, .createFailed: return true
            case .loading, .ready: return false
            }
        }
    }

    /// Starts the host of `key` (its CREATE frame sent) and its reader.
    static func start(key: ServiceHostKey, create: HostCreate, onEnded: @escaping @Sendable (ServiceHost) -> Void) -> Result<ServiceHost, ServiceClient.Failure> {
        switch HostProcess.spawn(key.attach.executable, create: create, environment: key.attach.environment) {
        case .failure(let error):
            return .failure(ServiceClient.Failure(reason: "provider '\(create.id)': the checker service cannot start the provider host \(error.executable): \(error.reason)"))
        case .success(let process):
            let host = ServiceHost(providerID: create.id, key: key, process: process, create: create,
                                   loadTimeout: key.attach.loadTimeoutMilliseconds, onEnded: onEnded)
            _ = host.writeLock.withLock { host.channel.write(key.createFrame) }
            do {
                try RuntimeThread.start { host.readLoop() }
            } catch {
                process.kill()
                _ = process.reap(milliseconds: 0)
                Glibc.close(process.channel)
                if process.pidfd >= 0 { Glibc.close(process.pidfd) }
                return .failure(ServiceClient.Failure(reason: error.message))
            }
            return .success(host)
        }
    }

    /// Adds a front end; it gets READY (or CREATE_FAILED) now if the host answered already,
    /// else when it does. False when the host is on its way out (the caller starts another).
    func attach(_ link: ServiceClientLink) -> Bool {
        let greeting: [[UInt8]]? = monitor.withLock {
            guard chosenEnd == nil else { return nil }
            switch phase {
            case .ended: return nil
            case .loading:
                attached[ObjectIdentifier(link)] = link
                return []
            case .ready(let frame):
                attached[ObjectIdentifier(link)] = link
                return [frame] + notices
            case .createFailed(let frame):
                return [frame]
            }
        }
        guard let greeting else { return false }
        for frame in greeting { link.send(frame) }
        return true
    }

    /// The front end went away: its runs in flight are cancelled (and must end within the grace).
    func detach(_ link: ServiceClientLink) {
        let cancels: [UInt64] = monitor.withLock {
            attached[ObjectIdentifier(link)] = nil
            var ids: [UInt64] = []
            let now = MonotonicClock.nowMilliseconds()
            for (id, route) in routes where route.link === link && route.cancelDeadline == nil {
                routes[id]?.cancelDeadline = now + Int64(cancelGrace)
                ids.append(id)
            }
            return ids
        }
        for id in cancels { sendRequest(.cancel(id: id)) }
    }

    /// A RUN from `link` (its payload: the front end's run id, then the request).
    func run(from link: ServiceClientLink, clientRun: UInt64, payload: UnsafeRawBufferPointer) -> Bool {
        let hostRun: UInt64? = monitor.withLock {
            guard case .ready = phase, chosenEnd == nil else { return nil }
            let id = nextRun
            nextRun += 1
            routes[id] = Route(link: link, clientRun: clientRun, cancelDeadline: nil)
            return id
        }
        guard let hostRun else { return false }
        let frame = renumbered(type: FrameType.run.rawValue, payload: payload, run: hostRun)
        writeLock.withLock { _ = channel.write(frame) }
        return true
    }

    /// A CANCEL from `link` for its run `clientRun`.
    func cancel(from link: ServiceClientLink, clientRun: UInt64) {
        let hostRun: UInt64? = monitor.withLock {
            guard let (id, route) = routes.first(where: { $0.value.link === link && $0.value.clientRun == clientRun }),
                  route.cancelDeadline == nil else { return nil }
            routes[id]?.cancelDeadline = MonotonicClock.nowMilliseconds() + Int64(cancelGrace)
            return id
        }
        if let hostRun { sendRequest(.cancel(id: hostRun)) }
    }

    private func sendRequest(_ request: HostRequest) {
        var encoder = FrameEncoder()
        request.encode(into: &encoder)
        writeLock.withLock { _ = channel.write(encoder.bytes) }
    }

    /// Called often by the service: kills the host when loading or a cancelled run is overdue.
    func tick(now: Int64) {
        let overdue: HostEnd? = monitor.withLock {
            guard chosenEnd == nil else { return nil }
            if case .loading = phase, now - startedAt >= Int64(loadTimeout) { return .notReady(milliseconds: loadTimeout) }
            if routes.values.contains(where: { ($0.cancelDeadline ?? Int64.max) <= now }) {
                return .killedAfterCancel(milliseconds: cancelGrace)
            }
            return nil
        }
        if let overdue { kill(overdue) }
    }

    func kill(_ reason: HostEnd) {
        monitor.withLock { if chosenEnd == nil { chosenEnd = reason } }
        process.kill()
    }

    /// The service is stopping: the host destroys its plugin's instance and exits (killed if
    /// it is still there after `HostConnection.closeGraceMilliseconds`).
    func close() {
        monitor.withLock { if chosenEnd == nil { chosenEnd = .serviceEnded } }
        _ = shutdown(channel.fd, Int32(SHUT_WR))
    }

    /// Waits (at most `milliseconds`) until the reader saw the host end; kills it after.
    func waitUntilEnded(milliseconds: Int) {
        let deadline = MonotonicClock.nowMilliseconds() + Int64(milliseconds)
        let ended: Bool = monitor.withLock {
            while true {
                if case .ended = phase { return true }
                let left = deadline - MonotonicClock.nowMilliseconds()
                if left <= 0 { return false }
                monitor.wait(milliseconds: Int(min(left, 20)))
            }
        }
        if !ended { process.kill() }
    }

    /// A line of `emend service status`.
    var statusLine: String {
        monitor.withLock {
            let state: String
            switch phase {
            case .loading: state = "loading"
            case .ready: state = "ready"
            case .createFailed: state = "failed to load"
            case .ended(let end): state = end.message(provider: providerID)
            }
            return "host \(providerID): pid \(process.pid), \(state), \(attached.count) front end(s), "
                + "\(routes.count) run(s) in flight, \(servedRuns) served"
        }
    }

    // MARK: the reader thread

    private func readLoop() {
        while true {
            do {
                try channel.next { (type, payload) throws(ProtocolViolation) in
                    var decoder = FrameDecoder(payload)
                    let event = try HostEvent.decode(type: type, &decoder)
                    try route(event, type: type, payload: payload)
                }
            } catch .violation(let violation) {
                kill(.violated(violation.reason))
                break
            } catch {
                break
            }
        }
        let closing = monitor.withLock { chosenEnd == .serviceEnded }
        let exit = process.reap(milliseconds: closing ? HostConnection.closeGraceMilliseconds : 500)
        Glibc.close(channel.fd)
        if process.pidfd >= 0 { Glibc.close(process.pidfd) }
        let (end, links): (HostEnd, [ServiceClientLink]) = monitor.withLock {
            let end = chosenEnd ?? {
                switch exit {
                case .signalled(let signal): return .crashed(signal: signal)
                case .exited(let code): return .exited(code: code)
                case .unknown: return .vanished
                }
            }()
            phase = .ended(end)
            let links = Array(attached.values)
            attached = [:]
            routes = [:]
            monitor.broadcast()
            return (end, links)
        }
        onEnded(self)
        var encoder = FrameEncoder()
        end.encodeFrame(into: &encoder)
        for link in links {
            link.send(encoder.bytes)
            link.hangUp()
        }
    }

    /// Hands a host event to the front end whose run it is (READY and CREATE_FAILED to all).
    private func route(_ event: HostEvent, type: UInt8, payload: UnsafeRawBufferPointer) throws(ProtocolViolation) {
        var deliveries: [(ServiceClientLink, [UInt8])] = []
        monitor.lock()
        let routed = Result { () throws(ProtocolViolation) in
            switch event {
            case .ready:
                guard case .loading = phase else { throw ProtocolViolation("READY twice") }
                let frame = reframed(type: type, payload: payload)
                phase = .ready(frame: frame)
                deliveries = attached.values.map { ($0, frame) }
            case .createFailed:
                guard case .loading = phase else { throw ProtocolViolation("CREATE_FAILED after READY") }
                let frame = reframed(type: type, payload: payload)
                phase = .createFailed(frame: frame)
                deliveries = attached.values.map { ($0, frame) }
                attached = [:]
                _ = shutdown(channel.fd, Int32(SHUT_WR))
            case .log(let run, let line) where run == 0:
                let frame = reframed(type: type, payload: payload)
                if line.hasPrefix(SandboxNotice.prefix) { notices.append(frame) }
                deliveries = attached.values.map { ($0, frame) }
            case .text(let run, _), .edits(let run, _), .log(let run, _), .finished(let run, _):
                guard case .ready = phase else { throw ProtocolViolation("output before READY") }
                guard run > 0, run < nextRun else { throw ProtocolViolation("output for run \(run), which was never started") }
                if let route = routes[run] {
                    deliveries = [(route.link, renumbered(type: type, payload: payload, run: route.clientRun))]
                    if case .finished = event {
                        routes[run] = nil
                        servedRuns += 1
                    }
                }
            case .hostEnded:
                throw ProtocolViolation("HOST_ENDED from a host")
            }
            monitor.broadcast()
        }
        monitor.unlock()
        try routed.get()
        for (link, frame) in deliveries { link.send(frame) }
    }
}

/// What makes two attaches share a host: the same executable, environment and CREATE.
struct ServiceHostKey: Hashable {
    let attach: ServiceAttachKey
    let createFrame: [UInt8]
}

/// The parts of an attach that decide the host (the load limit is the first front end's).
struct ServiceAttachKey: Hashable {
    let executable: String
    let environment: [String]
    let loadTimeoutMilliseconds: Int
}
