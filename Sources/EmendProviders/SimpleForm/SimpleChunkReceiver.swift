import EmendCore

/// Where the emit callback of one streaming run delivers: each chunk is checked as UTF-8 and
/// forwarded to the run's sink. After a bad chunk, the rest are dropped and the run fails.
/// Safe to call from any thread the C function uses, while the call lasts.
final class SimpleChunkReceiver: @unchecked Sendable {
    private let sink: ProviderSink
    private let lock = Lock()
    private var chunks = 0
    private var bytes = 0
    private var problem: String?

    init(sink: ProviderSink) { self.sink = sink }

    /// Why the output was refused, once a chunk was bad.
    var failure: String? { lock.withLock { problem } }

    /// One chunk from C (NULL and empty chunks are ignored).
    func receive(_ chunk: UnsafePointer<CChar>?) {
        lock.withLock {
            chunks += 1
            guard problem == nil, let chunk else { return }
            let (text, count) = SimpleCString.decode(chunk)
            switch text {
            case .failure(let bad):
                problem = "chunk \(chunks) is not UTF-8 at byte \(bad.byteOffset) (byte \(bytes + bad.byteOffset) of the output)"
            case .success(let string):
                bytes += count
                if count > 0, !sink.isCancelled { sink.emitText(string) }
            }
        }
    }
}
