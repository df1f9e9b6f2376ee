import Glibc
import EmendCore

/// The provider host's side of the channel (the `emend-provider-host` executable is only
/// this): read CREATE, load the provider with the in-process loader (PluginProvider or
/// SimpleFormProvider, so every plugin form works as it does in process), then serve RUN and
/// CANCEL until libemend closes the channel. Each run has a thread of its own; the plugin's
/// host calls become events on the outbox.
public enum ProviderHostServer {
    /// The channel's descriptor in the host (set up by libemend with posix_spawn).
    public static let channelDescriptor: Int32 = 3

    /// Enters the sandbox a CREATE asks for, with the bound on the memory of all its
    /// processes together (memory_mb), and says how it went: nil when every layer held, else
    /// a line naming the refused ones. The executable passes the C sandbox (CEmendSandbox);
    /// libemend itself does not link it.
    public typealias Confine = @Sendable (HostSandbox, Int) -> String?

    /// Serves the channel on `fd` and never returns. CREATE is read on the only thread there
    /// is, so that `confine` (namespaces, Landlock, seccomp) covers every thread the host and
    /// the plugin start afterwards.
    public static func serve(fd: Int32 = channelDescriptor, confine: Confine? = nil) -> Never {
        let channel = FrameChannel(fd: fd)
        let received: Result<HostCreate, ProtocolViolation>
        do {
            received = try channel.next({ (type, payload) throws(ProtocolViolation) -> Result<HostCreate, ProtocolViolation> in
                var decoder = FrameDecoder(payload)
                do throws(ProtocolViolation) {
                    guard case .create(let create) = try HostRequest.decode(type: type, &decoder) else {
                        throw ProtocolViolation("the first request is not CREATE")
                    }
                    return .success(create)
                } catch {
                    return .failure(error)
                }
            })
        } catch .violation(let violation) {
            received = .failure(violation)
        } catch {
            _exit(65)
        }
        var notice: String?
        if case .success(let create) = received, create.sandbox.enabled, let confine {
            notice = confine(create.sandbox, create.limits.memoryBytes)
        }
        let outbox = HostOutbox(channel: channel, onClosed: { _exit(0) })
        do { try outbox.start() } catch { _exit(70) }

        let create: HostCreate
        switch received {
        case .success(let made): create = made
        case .failure(let violation):
            // A CREATE this host cannot read (another build's, another version): say why, as
            // CREATE_FAILED allows, and leave when libemend closes the channel. (A closed
            // channel has no one to tell.)
            outbox.send(.createFailed("emend-provider-host: \(violation.reason)"))
            _ = try? channel.next { (_, _) throws(ProtocolViolation) in }
            _exit(65)
        }
        if let notice { outbox.send(.log(run: 0, notice)) }

        if create.limits.memoryBytes > 0 {
            var limit = rlimit(rlim_cur: rlim_t(create.limits.memoryBytes), rlim_max: rlim_t(create.limits.memoryBytes))
            _ = setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit)
        }

        serveRuns(create, channel: channel, outbox: outbox)
        // The provider was released above (its instance destroyed) unless a run was still going.
        _exit(0)
    }

    /// Loads the provider, then serves RUN and CANCEL until libemend closes the channel. The
    /// provider is released on return, which destroys the plugin's instance, unless a run is
    /// still going (then the host exits with it alive: plugin code is still executing).
    private static func serveRuns(_ create: HostCreate, channel: FrameChannel, outbox: HostOutbox) {
        let provider: WritingProvider
        switch load(create, outbox: outbox) {
        case .success(let made): provider = made
        case .failure(let error):
            outbox.send(.createFailed(error.message))
            // The outbox's writer sends it; libemend closes the channel then.
            _ = try? channel.next { (_, _) throws(ProtocolViolation) in }
            return
        }
        outbox.send(.ready(canRetry: provider.canRetry))

        let runs = HostRunTable(cpuSeconds: create.limits.cpuSeconds)
        while true {
            let request: HostRequest
            do {
                request = try channel.next { (type, payload) throws(ProtocolViolation) -> HostRequest in
                    var decoder = FrameDecoder(payload)
                    return try HostRequest.decode(type: type, &decoder)
                }
            } catch {
                // libemend closed the channel (or sent garbage): nothing more to serve.
                if !runs.isEmpty { _exit(0) }
                return
            }
            switch request {
            case .create: _exit(65)
            case .cancel(let id): runs.cancel(id)
            case .run(let id, let providerRequest):
                let sink = HostRunSink(run: id, outbox: outbox, limits: create.limits)
                runs.add(sink)
                do {
                    try RuntimeThread.start {
                        let outcome = provider.run(providerRequest, sink: sink)
                        runs.remove(id)
                        outbox.send(.finished(run: id, sink.refusal.map(ProviderOutcome.failed) ?? outcome))
                    }
                } catch {
                    runs.remove(id)
                    outbox.send(.finished(run: id, .failed(error.message)))
                }
            }
        }
    }

    /// The provider for `create`, loaded and with its instance made.
    private static func load(_ create: HostCreate, outbox: HostOutbox) -> Result<WritingProvider, EmendError> {
        let logger: @Sendable (String) -> Void = { line in outbox.send(.log(run: 0, line)) }
        switch create.kind {
        case .plugin:
            let record = ProviderRecord(path: create.path, kind: .plugin, id: create.id, name: create.id, version: "",
                                        tools: Set(WritingTool.allCases), languages: ["*"], outputs: 0, streams: false,
                                        usesNetwork: false, priority: 0)
            let settings = create.settings.keys.compactMap { key in create.settings[key].map { (key: key, value: $0.plainText) } }
            // No grace of its own: libemend kills the host when a cancelled run outlasts its limit.
            let provider = PluginProvider(record: record, settings: settings, logger: logger, cancelGrace: Int64.max / 4)
            if let error = provider.prepare() { return .failure(error) }
            return .success(provider)
        case .simple:
            do throws(EmendError) {
                let provider = try SimpleFormProvider(manifestPath: create.path, settings: create.settings)
                if let error = provider.prepare() { return .failure(error) }
                return .success(provider)
            } catch {
                return .failure(error)
            }
        }
    }
}
