/// What a front end asks of the checker service on a new connection.
enum ServicePurpose: UInt8 {
    /// Attach to the shared host for the CREATE that follows; then the host channel.
    case attach = 1
    /// Answer WELCOME with a status text, then close.
    case status = 2
    /// Exit (hosts closed, socket removed); answered first with WELCOME.
    case stop = 3
}

/// How a front end's host is to be started, sent with an attach: the service starts
/// `executable` with exactly `environment` (the front end's HostEnvironment for the
/// provider: the allowlist and the variables its settings name, never the service's own).
struct ServiceAttach: Equatable {
    var executable: String
    var environment: [String]
    var loadTimeoutMilliseconds: Int
}

/// HELLO: the first frame of every connection to the service.
struct ServiceHello {
    var identity: String
    var purpose: ServicePurpose
    /// With `.attach` only.
    var attach: ServiceAttach?

    func encode(into encoder: inout FrameEncoder) {
        encoder.begin(.hello)
        encoder.u32(ServiceIdentity.protocolVersion)
        encoder.string(identity)
        encoder.u8(purpose.rawValue)
        if let attach {
            encoder.string(attach.executable)
            encoder.u32(UInt32(attach.environment.count))
            for entry in attach.environment { encoder.string(entry) }
            encoder.int(attach.loadTimeoutMilliseconds)
        }
        encoder.end()
    }

    static func decode(type: UInt8, _ decoder: inout FrameDecoder) throws(ProtocolViolation) -> ServiceHello {
        guard type == FrameType.hello.rawValue else { throw ProtocolViolation("the first frame is not HELLO") }
        let version = try decoder.u32()
        guard version == ServiceIdentity.protocolVersion else {
            throw ProtocolViolation("service protocol \(version), this service speaks \(ServiceIdentity.protocolVersion)")
        }
        let identity = try decoder.string()
        let raw = try decoder.u8()
        guard let purpose = ServicePurpose(rawValue: raw) else { throw ProtocolViolation("purpose \(raw)") }
        var hello = ServiceHello(identity: identity, purpose: purpose)
        if purpose == .attach {
            let executable = try decoder.string()
            let count = try decoder.u32()
            guard count <= 4096 else { throw ProtocolViolation("\(count) environment entries") }
            var environment: [String] = []
            for _ in 0..<count { environment.append(try decoder.string()) }
            hello.attach = ServiceAttach(executable: executable, environment: environment,
                                         loadTimeoutMilliseconds: try decoder.count())
        }
        try decoder.finish()
        return hello
    }
}

/// WELCOME: the service's answer to HELLO. `accepted` is false when the identities differ
/// (the front end then stops this service and starts its own).
struct ServiceWelcome {
    var accepted: Bool
    var pid: Int32
    var identity: String
    /// The status text (with `.status`; empty otherwise).
    var status: String

    func encode(into encoder: inout FrameEncoder) {
        encoder.begin(.welcome)
        encoder.bool(accepted)
        encoder.u32(UInt32(bitPattern: pid))
        encoder.string(identity)
        encoder.string(status)
        encoder.end()
    }

    static func decode(type: UInt8, _ decoder: inout FrameDecoder) throws(ProtocolViolation) -> ServiceWelcome {
        guard type == FrameType.welcome.rawValue else { throw ProtocolViolation("the answer to HELLO is not WELCOME") }
        let welcome = ServiceWelcome(accepted: try decoder.bool(), pid: Int32(bitPattern: try decoder.u32()),
                                     identity: try decoder.string(), status: try decoder.string())
        try decoder.finish()
        return welcome
    }
}

/// HOST_ENDED's payload: how the shared host ended, so that a front end tells its runs
/// exactly what it would have told them had the host been its own child.
extension HostEnd {
    func encodeFrame(into encoder: inout FrameEncoder) {
        encoder.begin(.hostEnded)
        switch self {
        case .crashed(let signal): encoder.u8(1); encoder.int(Int(signal)); encoder.string("")
        case .exited(let code): encoder.u8(2); encoder.int(Int(code)); encoder.string("")
        case .vanished: encoder.u8(3); encoder.int(0); encoder.string("")
        case .violated(let reason): encoder.u8(4); encoder.int(0); encoder.string(reason)
        case .killedAfterCancel(let milliseconds): encoder.u8(5); encoder.int(milliseconds); encoder.string("")
        case .notReady(let milliseconds): encoder.u8(6); encoder.int(milliseconds); encoder.string("")
        case .closed, .serviceEnded: encoder.u8(7); encoder.int(0); encoder.string("")
        case .memorySpent(let megabytes): encoder.u8(8); encoder.int(megabytes); encoder.string("")
        case .cpuSpent(let seconds): encoder.u8(9); encoder.int(seconds); encoder.string("")
        }
        encoder.end()
    }

    static func decodeFrame(_ decoder: inout FrameDecoder) throws(ProtocolViolation) -> HostEnd {
        let kind = try decoder.u8(), number = try decoder.int(), text = try decoder.string()
        try decoder.finish()
        guard let small = Int32(exactly: number) else { throw ProtocolViolation("HOST_ENDED with \(number)") }
        switch kind {
        case 1: return .crashed(signal: small)
        case 2: return .exited(code: small)
        case 3: return .vanished
        case 4: return .violated(text)
        case 5: return .killedAfterCancel(milliseconds: number)
        case 6: return .notReady(milliseconds: number)
        case 7: return .serviceEnded
        case 8: return .memorySpent(megabytes: number)
        case 9: return .cpuSpent(seconds: number)
        default: throw ProtocolViolation("HOST_ENDED of kind \(kind)")
        }
    }
}
