import EmendCore
import EmendText

/// One run as libemend tracks it on a provider host's channel: the session's sink, the checks
/// its output must pass again on this side (ranges, UTF-8, limits) and how it ended. Guarded
/// by its connection's monitor.
final class HostRunSlot {
    let id: UInt64
    let sink: ProviderSink
    private var meter: OutputMeter
    private var edits: PluginEditCheck
    /// The request's bytes, which `edits` reads; owned by the slot.
    private let text: UnsafeMutableBufferPointer<UInt8>
    /// How the run ended for the session: the first of a refusal on this side, the host's
    /// FINISHED, or the host's end.
    private(set) var outcome: ProviderOutcome?
    /// Whether the host is done with the run (FINISHED came, or the host ended): until then
    /// a cancelled or refused run may still be executing plugin code.
    private(set) var hostDone = false
    /// Whether CANCEL was sent.
    var cancelSent = false
    /// Whether any output reached the sink.
    private(set) var delivered = false
    /// The host ended (killed, or crashed) while another run on it was being cancelled, or
    /// the checker service holding it ended, before this one delivered anything: it goes to
    /// a fresh host instead of failing. (A cancelled run returns at once, so the next run may
    /// meet its host on the way out.)
    private(set) var shouldRetry = false

    init(id: UInt64, request: ProviderRequest, sink: ProviderSink, limits: ProviderLimits) {
        self.id = id
        self.sink = sink
        self.meter = OutputMeter(limits: limits)
        let bytes = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: request.text.utf8.count)
        _ = bytes.initialize(from: request.text.utf8)
        self.text = bytes
        self.edits = PluginEditCheck(text: UnsafeBufferPointer(bytes), selection: request.selection,
                                     protectedText: AttributedText(request.text, protectedRanges: request.protectedRanges))
    }

    /// Text from the host; false when it goes over the result limit (the run is then refused).
    func deliver(text chunk: String) -> Bool {
        guard outcome == nil else { return true }
        guard meter.admit(text: chunk) else {
            outcome = .failed(meter.refusal!)
            return false
        }
        delivered = true
        sink.emitText(chunk)
        return true
    }

    /// Edits from the host; a range the host should have refused is a protocol violation.
    func deliver(edits batch: [ProviderEdit]) throws(ProtocolViolation) -> Bool {
        guard outcome == nil else { return true }
        for edit in batch {
            if let problem = edits.problem(start: edit.range.lowerBound, end: edit.range.upperBound) {
                throw ProtocolViolation("an edit at \(edit.range.lowerBound)..<\(edit.range.upperBound): \(problem)")
            }
            guard meter.admit(edit: edit) else {
                outcome = .failed(meter.refusal!)
                return false
            }
            edits.accept(edit.range)
            delivered = true
            sink.emitEdit(edit)
        }
        return true
    }

    deinit { text.deallocate() }

    /// The host is done with the run: `result` unless the run was refused before.
    func end(_ result: ProviderOutcome) {
        if outcome == nil { outcome = result }
        hostDone = true
    }

    /// The host ended with `end`, which says `message`: a bystander of another run's cancel
    /// (`duringCancel`: a kill after it, or a crash while the plugin was stopping), or of the
    /// checker service's end, with nothing delivered yet, is to be run again on a fresh host.
    func end(by end: HostEnd, message: String, duringCancel: Bool) {
        let bystander: Bool
        switch end {
        case .killedAfterCancel, .serviceEnded: bystander = true
        default: bystander = duringCancel
        }
        if bystander, !cancelSent, !delivered, outcome == nil { shouldRetry = true }
        self.end(.failed(message))
    }
}
