import EmendCore

/// The sink of one run inside the provider host: output goes to the outbox, cancellation
/// comes from libemend's CANCEL, and the limits on result and edit size are checked here
/// first, so an oversized result stops the plugin instead of crossing the socket.
final class HostRunSink: ProviderSink, @unchecked Sendable {
    let run: UInt64
    private let outbox: HostOutbox
    private let lock = Lock()
    private var meter: OutputMeter
    private var cancelled = false

    init(run: UInt64, outbox: HostOutbox, limits: ProviderLimits) {
        self.run = run
        self.outbox = outbox
        self.meter = OutputMeter(limits: limits)
    }

    /// libemend's CANCEL.
    func cancel() { lock.withLock { cancelled = true } }

    /// Why the run's output was refused (a limit), if it was.
    var refusal: String? { lock.withLock { meter.refusal } }

    var isCancelled: Bool { lock.withLock { cancelled || meter.refusal != nil } }

    func emitText(_ chunk: String) {
        let accepted = lock.withLock { !cancelled && meter.admit(text: chunk) }
        if accepted { outbox.send(.text(run: run, chunk)) }
    }

    func emitEdit(_ edit: ProviderEdit) {
        let accepted = lock.withLock { !cancelled && meter.admit(edit: edit) }
        if accepted { outbox.send(.edits(run: run, [edit])) }
    }

    func log(_ message: String) { outbox.send(.log(run: run, message)) }
}
