import CFFI
import EmendCore

/// A provider made of a plain C function named by a simple-form manifest and called through
/// libffi. The library is opened on the first run (a failure there fails that run and every
/// later one, naming the manifest and the reason); runs call the function on the calling
/// thread, one call at a time per library.
public final class SimpleFormProvider: WritingProvider, @unchecked Sendable {
    public let manifest: SimpleManifest
    /// The values setting arguments receive: the manifest's defaults with the user's overrides.
    public let settings: [String: SimpleSettingValue]
    public var id: String { manifest.id }
    public var tools: Set<WritingTool> { manifest.tools }

    private enum State {
        case unbound
        case bound(SimpleBinding, SimpleCallFrame)
        case broken(String)
    }

    private let lock = Lock()
    private var state = State.unbound

    /// Loads the manifest at `manifestPath`; `settings` is the user's [providers."<id>"] table.
    public convenience init(manifestPath: String, settings: TOMLTable) throws(EmendError) {
        try self.init(manifest: SimpleManifest.load(path: manifestPath), settings: settings)
    }

    /// A provider for a loaded manifest; `settings` override its [settings] (same types).
    public init(manifest: SimpleManifest, settings: TOMLTable) throws(EmendError) {
        self.manifest = manifest
        self.settings = try manifest.settings(overriddenBy: settings)
    }

    public func run(_ request: ProviderRequest, sink: ProviderSink) -> ProviderOutcome {
        if sink.isCancelled { return .failed(cancelled) }
        let binding: SimpleBinding
        let frame: SimpleCallFrame
        switch bind() {
        case .success(let bound): (binding, frame) = bound
        case .failure(let error): return .failed(error.message)
        }
        return binding.libraryLock.withLock {
            manifest.streams ? stream(request, sink, binding, frame) : call(request, sink, binding, frame)
        }
    }

    /// Opens the library now (a provider host does it before its first run).
    func prepare() -> EmendError? {
        if case .failure(let error) = bind() { return error }
        return nil
    }

    /// Opens the library on first use; later runs reuse the binding (or its failure).
    private func bind() -> Result<(SimpleBinding, SimpleCallFrame), EmendError> {
        lock.withLock {
            switch state {
            case .bound(let binding, let frame): return .success((binding, frame))
            case .broken(let message): return .failure(EmendError(.provider, message))
            case .unbound:
                do throws(EmendError) {
                    let binding = try SimpleBinding(manifest)
                    let frame = SimpleCallFrame(arguments: manifest.arguments, settings: settings)
                    state = .bound(binding, frame)
                    return .success((binding, frame))
                } catch {
                    state = .broken(error.message)
                    return .failure(error)
                }
            }
        }
    }

    /// The `string` form: one call, one result, then the free function.
    private func call(_ request: ProviderRequest, _ sink: ProviderSink, _ binding: SimpleBinding, _ frame: SimpleCallFrame) -> ProviderOutcome {
        if let problem = frame.prepare(request, emit: nil) { return .failed("\(manifest.path): \(problem.reason)") }
        defer { frame.releaseCall() }
        ffi_call(binding.cif, binding.function, frame.result, frame.values)
        guard let pointer = frame.result.load(as: UnsafeMutablePointer<CChar>?.self) else {
            return .failed("\(manifest.path): \(manifest.symbol) returned NULL")
        }
        let decoded = SimpleCString.decode(pointer).text
        binding.free?(pointer)
        switch decoded {
        case .failure(let bad):
            return .failed("\(manifest.path): the result of \(manifest.symbol) is not UTF-8 at byte \(bad.byteOffset)")
        case .success(let text):
            if sink.isCancelled { return .failed(cancelled) }
            if !text.isEmpty { sink.emitText(text) }
            return .finished
        }
    }

    /// The streaming form: the function emits through a closure bound to this run.
    private func stream(_ request: ProviderRequest, _ sink: ProviderSink, _ binding: SimpleBinding, _ frame: SimpleCallFrame) -> ProviderOutcome {
        let receiver = SimpleChunkReceiver(sink: sink)
        let closure: SimpleEmitClosure
        do throws(EmendError) {
            closure = try SimpleEmitClosure(cif: binding.emitCif!, receiver: receiver)
        } catch {
            return .failed("\(manifest.path): \(error.message)")
        }
        if let problem = frame.prepare(request, emit: closure.code) { return .failed("\(manifest.path): \(problem.reason)") }
        defer { frame.releaseCall() }
        withExtendedLifetime(closure) {
            ffi_call(binding.cif, binding.function, frame.result, frame.values)
        }
        if let failure = receiver.failure { return .failed("\(manifest.path): \(manifest.symbol) emitted text that is not UTF-8: \(failure)") }
        if sink.isCancelled { return .failed(cancelled) }
        return .finished
    }

    private var cancelled: String { "\(manifest.path): cancelled" }
}
