import EmendCore

/// The runs a provider host is serving, by id, so that CANCEL finds its run's sink; it also
/// keeps the CPU time of a run (RunCPUTime) while any run is going, lifted when none is.
final class HostRunTable: @unchecked Sendable {
    private let lock = Lock()
    private var sinks: [UInt64: HostRunSink] = [:]
    /// A run's CPU seconds (0: none).
    private let cpuSeconds: Int

    init(cpuSeconds: Int = 0) { self.cpuSeconds = cpuSeconds }

    func add(_ sink: HostRunSink) {
        lock.withLock {
            sinks[sink.run] = sink
            RunCPUTime.allow(seconds: cpuSeconds)
        }
    }

    func remove(_ id: UInt64) {
        lock.withLock {
            sinks[id] = nil
            if sinks.isEmpty && cpuSeconds > 0 { RunCPUTime.lift() }
        }
    }
    func cancel(_ id: UInt64) { lock.withLock { sinks[id] }?.cancel() }
    var isEmpty: Bool { lock.withLock { sinks.isEmpty } }
}
