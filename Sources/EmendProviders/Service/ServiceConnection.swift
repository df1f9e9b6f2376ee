import Glibc
import EmendCore

/// One front end's connection to the service, on a thread of its own: HELLO, then (for an
/// attach) the CREATE that picks the shared host, then RUN and CANCEL until the front end
/// closes. A front end that sends what the protocol does not allow is hung up on; its runs
/// are cancelled as if it had gone.
enum ServiceConnection {
    static func serve(fd: Int32, state: ServiceState) {
        let link = ServiceClientLink(fd: fd)
        var host: ServiceHost?
        defer {
            host?.detach(link)
            Glibc.close(fd)
            state.disconnected()
        }
        guard let hello = try? link.channel.next({ (type, payload) throws(ProtocolViolation) -> ServiceHello in
            var decoder = FrameDecoder(payload)
            return try ServiceHello.decode(type: type, &decoder)
        }) else { return }

        switch hello.purpose {
        case .status:
            welcome(link, state: state, accepted: true, status: state.statusText)
            return
        case .stop:
            welcome(link, state: state, accepted: true)
            _ = state.beginStopping()
            return
        case .attach:
            guard hello.identity == state.identity, let attach = hello.attach else {
                welcome(link, state: state, accepted: false)
                return
            }
            welcome(link, state: state, accepted: true)
            host = attachHost(link, attach: attach, state: state)
        }
        guard let host else { return }
        forward(link, to: host)
    }

    private static func welcome(_ link: ServiceClientLink, state: ServiceState, accepted: Bool, status: String = "") {
        var encoder = FrameEncoder()
        ServiceWelcome(accepted: accepted, pid: getpid(), identity: state.identity, status: status).encode(into: &encoder)
        link.send(encoder.bytes)
    }

    /// Reads CREATE and attaches the front end to the host it names (a started one, or a new one).
    private static func attachHost(_ link: ServiceClientLink, attach: ServiceAttach, state: ServiceState) -> ServiceHost? {
        guard let (create, frame) = try? link.channel.next({ (type, payload) throws(ProtocolViolation) -> (HostCreate, [UInt8]) in
            var decoder = FrameDecoder(payload)
            guard case .create(let create) = try HostRequest.decode(type: type, &decoder) else {
                throw ProtocolViolation("the first request is not CREATE")
            }
            return (create, reframed(type: type, payload: payload))
        }) else { return nil }
        let key = ServiceHostKey(attach: ServiceAttachKey(executable: attach.executable, environment: attach.environment,
                                                          loadTimeoutMilliseconds: attach.loadTimeoutMilliseconds),
                                 createFrame: frame)
        // A host found live may end before it takes the front end: then another is started.
        for _ in 0..<2 {
            switch state.host(for: key, create: create) {
            case .failure(let failure):
                var encoder = FrameEncoder()
                HostEvent.createFailed(failure.reason).encode(into: &encoder)
                link.send(encoder.bytes)
                return nil
            case .success(let host):
                if host.attach(link) { return host }
            }
        }
        return nil
    }

    /// RUN and CANCEL from the front end to the host, renumbered; ends when the front end does.
    private static func forward(_ link: ServiceClientLink, to host: ServiceHost) {
        while true {
            do {
                try link.channel.next { (type, payload) throws(ProtocolViolation) in
                    var decoder = FrameDecoder(payload)
                    switch try HostRequest.decode(type: type, &decoder) {
                    case .create: throw ProtocolViolation("CREATE twice")
                    case .run(let id, _):
                        if !host.run(from: link, clientRun: id, payload: payload) {
                            throw ProtocolViolation("RUN before READY or after the host ended")
                        }
                    case .cancel(let id):
                        host.cancel(from: link, clientRun: id)
                    }
                }
            } catch {
                return
            }
        }
    }
}
