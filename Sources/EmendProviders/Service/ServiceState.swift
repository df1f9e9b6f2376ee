import Glibc
import EmendCore

/// What the service holds: its shared hosts by key, the front ends connected, and whether it
/// is serving or on its way out. Guarded by `monitor`.
final class ServiceState: @unchecked Sendable {
    enum Phase {
        case serving
        /// A stop was asked for (or the idle time ran out): no new attach is taken.
        case stopping
    }

    let identity: String
    let idleTimeoutMilliseconds: Int
    let startedAt = MonotonicClock.nowMilliseconds()
    let monitor = Monitor()
    private(set) var phase = Phase.serving
    private var hosts: [ServiceHostKey: ServiceHost] = [:]
    private var connections = 0
    /// When the last front end went (or the service started): the idle time counts from here.
    private var idleSince = MonotonicClock.nowMilliseconds()

    init(identity: String, idleTimeoutMilliseconds: Int) {
        self.identity = identity
        self.idleTimeoutMilliseconds = idleTimeoutMilliseconds
    }

    func connected() { monitor.withLock { connections += 1 } }

    func disconnected() {
        monitor.withLock {
            connections -= 1
            if connections == 0 { idleSince = MonotonicClock.nowMilliseconds() }
        }
    }

    /// The live host for `key`, started if there is none; nil with the reason when the
    /// service is stopping or the host cannot start.
    func host(for key: ServiceHostKey, create: HostCreate) -> Result<ServiceHost, ServiceClient.Failure> {
        monitor.withLock {
            guard case .serving = phase else { return .failure(ServiceClient.Failure(reason: "the checker service is stopping")) }
            if let host = hosts[key], !host.isEnding { return .success(host) }
            let started = ServiceHost.start(key: key, create: create, onEnded: { [weak self] host in self?.forget(host) })
            if case .success(let host) = started { hosts[key] = host }
            return started
        }
    }

    private func forget(_ host: ServiceHost) {
        monitor.withLock { if hosts[host.key] === host { hosts[host.key] = nil } }
    }

    /// Moves to stopping; true the first time.
    func beginStopping() -> Bool {
        monitor.withLock {
            guard case .serving = phase else { return false }
            phase = .stopping
            return true
        }
    }

    var isStopping: Bool { monitor.withLock { if case .stopping = phase { return true } else { return false } } }

    var liveHosts: [ServiceHost] { monitor.withLock { Array(hosts.values) } }

    /// Whether no front end has been connected for the idle time.
    func idleExpired(now: Int64) -> Bool {
        monitor.withLock { connections == 0 && now - idleSince >= Int64(idleTimeoutMilliseconds) }
    }

    /// The text of `emend service status`.
    var statusText: String {
        let (count, hostList) = monitor.withLock { (connections, Array(hosts.values)) }
        let uptime = (MonotonicClock.nowMilliseconds() - startedAt) / 1000
        let idle = idleTimeoutMilliseconds % 1000 == 0 ? "\(idleTimeoutMilliseconds / 1000) s" : "\(idleTimeoutMilliseconds) ms"
        var lines = ["pid \(getpid()), up \(uptime) s, exits after \(idle) without front ends",
                     "identity: \(identity)",
                     // Not counting the connection that asks.
                     "front ends connected: \(max(count - 1, 0))"]
        lines += hostList.map(\.statusLine).sorted()
        return lines.joined(separator: "\n")
    }
}
