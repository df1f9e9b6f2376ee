import CEmendSystem
import Glibc
import EmendCore

/// A front end's side of the checker service: attach a provider host (starting the service
/// on first use, replacing one of another identity), ask its status, stop it.
public enum ServiceClient {
    public struct Failure: Error {
        public let reason: String
    }

    /// How long a front end waits for a service it started to listen, and for one it asked
    /// to stop to go.
    static let startMilliseconds: Int64 = 5000

    /// A channel to the shared host for `create`, run by the service of `endpoint` (with
    /// `executable` as its host). The service is started if there is none and replaced once
    /// if it is of another identity (another build's).
    static func attach(_ endpoint: ServiceEndpoint, executable: String, create: HostCreate) -> Result<Int32, Failure> {
        let identity = ServiceIdentity.of(executable: executable)
        let hello = ServiceHello(identity: identity, purpose: .attach,
                                 attach: ServiceAttach(executable: executable, environment: HostEnvironment.strings(for: create),
                                                       loadTimeoutMilliseconds: create.limits.loadTimeoutMilliseconds))
        var replaced = false
        var lastFailure: Failure?
        for _ in 0..<3 {
            guard let fd = connect(endpoint) else {
                if let failure = launch(endpoint, executable: executable) { return .failure(failure) }
                continue
            }
            switch exchange(fd, hello) {
            case .failure(let failure):
                // A service that was dying when it took the connection: the next attempt finds
                // its socket dead and starts another.
                Glibc.close(fd)
                lastFailure = failure
                usleep(10_000)
            case .success(let welcome) where welcome.accepted:
                return .success(fd)
            case .success(let welcome):
                Glibc.close(fd)
                guard !replaced else {
                    return .failure(Failure(reason: "the service at \(endpoint.socketPath) (pid \(welcome.pid)) is of another build "
                                            + "and was not replaced"))
                }
                replaced = true
                _ = stop(endpoint)
                if let failure = launch(endpoint, executable: executable) { return .failure(failure) }
            }
        }
        return .failure(lastFailure ?? Failure(reason: "no service answered at \(endpoint.socketPath)"))
    }

    /// The running service's answer to a status request (its text in `status`), or nil
    /// when none runs.
    public static func status(_ endpoint: ServiceEndpoint) -> ServiceAnswer? {
        guard let fd = connect(endpoint) else { return nil }
        defer { Glibc.close(fd) }
        guard case .success(let welcome) = exchange(fd, ServiceHello(identity: "", purpose: .status)) else { return nil }
        return ServiceAnswer(pid: welcome.pid, identity: welcome.identity, status: welcome.status)
    }

    /// Asks the running service to exit and waits (a few seconds at most) until its socket
    /// is gone; the pid it had, or nil when none ran.
    @discardableResult
    public static func stop(_ endpoint: ServiceEndpoint) -> Int32? {
        guard let fd = connect(endpoint) else { return nil }
        let answer = exchange(fd, ServiceHello(identity: "", purpose: .stop))
        Glibc.close(fd)
        guard case .success(let welcome) = answer else { return nil }
        let deadline = MonotonicClock.nowMilliseconds() + startMilliseconds
        while MonotonicClock.nowMilliseconds() < deadline {
            guard let probe = connect(endpoint) else { break }
            // Under systemd's emend.socket the socket stays: a new service answering is the end.
            let answer = exchange(probe, ServiceHello(identity: "", purpose: .status))
            Glibc.close(probe)
            if case .success(let next) = answer, next.pid != welcome.pid { break }
            usleep(5000)
        }
        return welcome.pid
    }

    /// A connection to the service, or nil when none listens (no socket, or a stale one).
    static func connect(_ endpoint: ServiceEndpoint) -> Int32? {
        let fd = emendsys_unix_connect(endpoint.socketPath)
        return fd >= 0 ? fd : nil
    }

    /// Sends HELLO and reads WELCOME (a service that does not answer within the start time
    /// is a failure, not a hang: the front end then runs its own hosts).
    static func exchange(_ fd: Int32, _ hello: ServiceHello) -> Result<ServiceWelcome, Failure> {
        var timeout = timeval(tv_sec: Int(startMilliseconds / 1000), tv_usec: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        defer {
            var none = timeval(tv_sec: 0, tv_usec: 0)
            _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &none, socklen_t(MemoryLayout<timeval>.size))
        }
        var encoder = FrameEncoder()
        hello.encode(into: &encoder)
        let channel = FrameChannel(fd: fd, frameLimit: 1 << 20)
        guard channel.write(encoder.bytes) else { return .failure(Failure(reason: "the service closed the connection")) }
        do {
            let welcome = try channel.next { (type, payload) throws(ProtocolViolation) -> ServiceWelcome in
                var decoder = FrameDecoder(payload)
                return try ServiceWelcome.decode(type: type, &decoder)
            }
            return .success(welcome)
        } catch .violation(let violation) {
            return .failure(Failure(reason: "the service answered garbage (\(violation.reason))"))
        } catch {
            return .failure(Failure(reason: "the service refused the connection or did not answer"))
        }
    }

    /// Starts the service (`executable --service`, which detaches itself: a new session, no
    /// terminal, reparented to init) and waits until it listens; nil when it does.
    static func launch(_ endpoint: ServiceEndpoint, executable: String) -> Failure? {
        let arguments = [executable, "--service", "--detach", "--directory", endpoint.directory,
                         "--idle-ms", String(endpoint.idleTimeoutMilliseconds)]
        switch ServiceLauncher.spawn(executable, arguments: arguments) {
        case .failure(let failure): return failure
        case .success: break
        }
        let deadline = MonotonicClock.nowMilliseconds() + startMilliseconds
        while MonotonicClock.nowMilliseconds() < deadline {
            if let fd = connect(endpoint) {
                Glibc.close(fd)
                return nil
            }
            usleep(2000)
        }
        return Failure(reason: "the service did not start listening at \(endpoint.socketPath) within \(startMilliseconds) ms")
    }
}

/// What a running service says about itself.
public struct ServiceAnswer: Sendable {
    public let pid: Int32
    public let identity: String
    public let status: String
}
