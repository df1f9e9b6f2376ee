import CEmend
import EmendCore
import EmendText

/// One run of a plugin as the host tracks it: the object behind an `emend_run *`. It checks
/// what the plugin sends, forwards what is valid to the sink and records how the run ended.
/// Its state is guarded by the instance's monitor; it lives as long as the instance, so a
/// late call from the plugin is refused, never a crash.
final class PluginRun: @unchecked Sendable {
    private let monitor: Monitor
    /// The plugin's id and path, for outcomes and log lines.
    private let id: String
    private let path: String
    private let logger: @Sendable (String) -> Void
    /// Where output goes while the host waits for this run; nil afterwards.
    private var sink: ProviderSink?
    private var request: PluginRequestBuffer?
    private var edits: PluginEditCheck?
    /// Set by finish (or by run failing at once): the run is over for the plugin.
    private(set) var outcome: ProviderOutcome?
    /// Whether descriptor.run has returned.
    private(set) var returned = false
    /// Whether the host asked the run to stop.
    private(set) var cancelled = false
    /// Whether the host stopped waiting before the plugin was done with the run.
    private(set) var abandoned = false
    /// Called once when the plugin's code is done with the run (see `isDoneExecuting`): it
    /// ends the run's record in the coordinator's RunActivity (ProviderSink.beginWorkOutlivingRun).
    var onDoneExecuting: (() -> Void)?

    init(request: ProviderRequest, sink: ProviderSink, monitor: Monitor, id: String, path: String,
         logger: @escaping @Sendable (String) -> Void) {
        let buffer = PluginRequestBuffer(request)
        self.monitor = monitor
        self.id = id
        self.path = path
        self.logger = logger
        self.sink = sink
        self.request = buffer
        self.edits = PluginEditCheck(text: buffer.text, selection: request.selection,
                                     protectedText: AttributedText(request.text, protectedRanges: request.protectedRanges))
    }

    /// The handle the plugin sees.
    var handle: OpaquePointer { OpaquePointer(Unmanaged.passUnretained(self).toOpaque()) }

    /// The C request; valid until the run is complete.
    var requestPointer: UnsafePointer<emend_provider_request> { UnsafePointer(request!.pointer) }

    /// Finished (or failed at once) and returned from descriptor.run: the plugin is done with it.
    var isComplete: Bool { outcome != nil && returned }

    /// Whether the plugin's code is done with the run as far as the host can tell: complete,
    /// or returned from descriptor.run after a cancel (a cancelled run that never finishes
    /// keeps no plugin code executing).
    private var isDoneExecuting: Bool { returned && (outcome != nil || cancelled) }

    // MARK: host side (the monitor held)

    /// descriptor.run returned `status`; anything but OK fails the run at once.
    func runReturned(_ status: emend_status) {
        returned = true
        if status == EMEND_E_UNSUPPORTED, outcome == nil {
            outcome = .declined("\(id): it does not serve this request (\(PluginStatusName.of(status)))")
        } else if status != EMEND_OK, outcome == nil {
            outcome = .failed("\(id): run failed with \(PluginStatusName.of(status))")
        }
        settle()
    }

    /// The run could not be started.
    func failToStart(_ reason: String) {
        outcome = .failed("\(id): \(reason)")
        returned = true
        settle()
    }

    /// From now on is_cancelled says 1 and emits are refused.
    func markCancelled() {
        cancelled = true
        reportDoneExecuting()
    }

    /// Runs `onDoneExecuting` once the plugin's code is done with the run.
    private func reportDoneExecuting() {
        guard isDoneExecuting, let report = onDoneExecuting else { return }
        onDoneExecuting = nil
        report()
    }

    /// The host stopped waiting: nothing more reaches the sink.
    func detach() {
        if !isComplete { abandoned = true }
        sink = nil
    }

    /// Frees what a complete run no longer needs and wakes the waiters.
    private func settle() {
        if outcome != nil { sink = nil }
        if isComplete {
            edits = nil
            request?.release()
            request = nil
        }
        reportDoneExecuting()
        monitor.broadcast()
    }

    // MARK: plugin side (each takes the monitor)

    func log(_ level: emend_log_level, _ message: String) {
        note("\(id): \(PluginLogContext.name(of: level)): \(message)")
    }

    /// A log line: to the sink while the host waits for the run, else to the provider's logger.
    func note(_ line: String) {
        monitor.withLock {
            if let sink { sink.log(line) } else { logger(line) }
        }
    }

    func isCancelled() -> Int32 {
        monitor.withLock { cancelled || (outcome == nil && sink?.isCancelled == true) ? 1 : 0 }
    }

    func emitText(_ pointer: UnsafePointer<CChar>?, _ length: Int) -> emend_status {
        monitor.withLock {
            if let refusal = refusalForOutput() { return refusal }
            guard length >= 0, length == 0 || pointer != nil else {
                return refuse(.invalidArgument, "emit_text with a NULL text of \(length) bytes")
            }
            guard let text = PluginCString.decode(pointer, length: length) else {
                return refuse(.invalidUTF8, "dropped emitted text that is not valid UTF-8 (\(length) bytes)")
            }
            if !text.isEmpty { sink?.emitText(text) }
            // The sink refuses the whole result (NULByte); the plugin hears why.
            if NULByte.isIn(text) { return refuse(.invalidArgument, "emitted text holds a NUL byte: the result is refused") }
            return EMEND_OK
        }
    }

    func emitEdit(_ pointer: UnsafePointer<emend_provider_edit>?) -> emend_status {
        monitor.withLock {
            if let refusal = refusalForOutput() { return refusal }
            guard let pointer else { return refuse(.invalidArgument, "emit_edit with a NULL edit") }
            let raw = UnsafeRawPointer(pointer)
            let size = raw.load(as: Int.self)
            let minimum = MemoryLayout<emend_provider_edit>.offset(of: \.explanation)!
            guard size >= minimum else {
                return refuse(.structSize, "dropped an edit with struct_size \(size), smaller than the first version (\(minimum))")
            }
            var edit = emend_provider_edit()
            // Whole fields only: every field of emend_provider_edit is 8 bytes, so a struct_size
            // ending inside one (half a pointer) is rounded down and that field reads as absent.
            let whole = min(size, MemoryLayout<emend_provider_edit>.size) / 8 * 8
            withUnsafeMutableBytes(of: &edit) { $0.copyMemory(from: UnsafeRawBufferPointer(start: raw, count: whole)) }
            let start = edit.range.start, end = edit.range.end
            if let problem = edits!.problem(start: start, end: end) {
                return refuse(.range, "dropped the edit at \(start)..<\(end): \(problem)")
            }
            guard edit.replacement_length >= 0, edit.replacement_length == 0 || edit.replacement != nil else {
                return refuse(.invalidArgument, "dropped the edit at \(start)..<\(end): NULL replacement of \(edit.replacement_length) bytes")
            }
            guard let replacement = PluginCString.decode(edit.replacement, length: edit.replacement_length),
                  let explanation = optional(edit.explanation), let category = optional(edit.category),
                  let rule = optional(edit.rule_id) else {
                return refuse(.invalidUTF8, "dropped the edit at \(start)..<\(end): its text is not valid UTF-8")
            }
            edits!.accept(start..<end)
            sink?.emitEdit(ProviderEdit(range: start..<end, replacement: replacement, explanation: explanation,
                                        category: category, ruleID: rule))
            // The sink refuses the whole result (NULByte); the plugin hears why.
            if NULByte.isIn(replacement) {
                return refuse(.invalidArgument, "the edit at \(start)..<\(end): its replacement holds a NUL byte: the result is refused")
            }
            return EMEND_OK
        }
    }

    func finish(_ status: emend_status, _ message: UnsafePointer<CChar>?) -> emend_status {
        monitor.withLock {
            guard outcome == nil else { return refuse(.state, "finish called again (or after run failed)") }
            let text = message.map(PluginCString.lenient)
            if status == EMEND_OK {
                outcome = .finished
            } else if status == EMEND_E_UNSUPPORTED {
                // Not served (a language without its dictionary): a combined proofread skips it.
                outcome = .declined("\(id): \(text.flatMap { $0.isEmpty ? nil : $0 } ?? "it does not serve this request")")
            } else {
                outcome = .failed("\(id): \(text.flatMap { $0.isEmpty ? nil : $0 } ?? PluginStatusName.of(status))")
            }
            settle()
            return EMEND_OK
        }
    }

    // MARK: helpers (the monitor held)

    /// STATE after finish, CANCELLED once cancelled or abandoned, nil while output is welcome.
    private func refusalForOutput() -> emend_status? {
        if outcome != nil { return refuse(.state, "output after finish was ignored") }
        if cancelled || sink == nil || sink!.isCancelled { return PluginStatusName.c(.cancelled) }
        return nil
    }

    /// Logs why something the plugin sent was refused, naming the plugin's path.
    private func refuse(_ status: EmendStatus, _ reason: String) -> emend_status {
        let line = "\(path): \(reason) (\(PluginStatusName.of(PluginStatusName.c(status))))"
        if let sink { sink.log(line) } else { logger(line) }
        return PluginStatusName.c(status)
    }

    /// An optional NUL-terminated field: "" when NULL, nil when not valid UTF-8.
    private func optional(_ pointer: UnsafePointer<CChar>?) -> String? {
        guard let pointer else { return "" }
        return PluginCString.decode(pointer)
    }
}
