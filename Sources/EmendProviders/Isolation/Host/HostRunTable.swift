import EmendCore

/// The runs a provider host is serving, by id, so that CANCEL finds its run's sink.
final class HostRunTable: @unchecked Sendable {
    private let lock = Lock()
    private var sinks: [UInt64: HostRunSink] = [:]

    func add(_ sink: HostRunSink) { lock.withLock { sinks[sink.run] = sink } }
    func remove(_ id: UInt64) { lock.withLock { sinks[id] = nil } }
    func cancel(_ id: UInt64) { lock.withLock { sinks[id] }?.cancel() }
    var isEmpty: Bool { lock.withLock { sinks.isEmpty } }
}
