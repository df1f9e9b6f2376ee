// The longest single dispatch while a provider streams many tiny pieces with no sentence end
// (a model writing one endless sentence): the engine's thread must never be held for long.
//
// A provider emits `pieces` pieces of "word " as fast as it can, then one sentence end; a
// minimal engine (answers every callback at once) dispatches each time the coordinator's
// descriptor is readable, like an event loop, and the longest dispatch is reported, split
// into the dispatches while the pieces arrive and the one that handles the whole result.
import EmendCore
import EmendText
import Glibc

/// Emits `count` pieces of "word ", then ". Done." — no sentence end before that.
private final class EndlessSentenceProvider: WritingProvider, @unchecked Sendable {
    let id = "org.emend.bench.endless"
    let tools: Set<WritingTool> = [.rewriteFriendly]
    let count: Int
    var needsFactCheck: Bool { false }
    /// Set once every piece was emitted: dispatches that start later may hold the whole
    /// result's handling, those that start before only pieces.
    private let lock = Lock()
    private var emittedAll = false
    var isDone: Bool { lock.withLock { emittedAll } }
    init(count: Int) { self.count = count }

    func run(_ request: ProviderRequest, sink: ProviderSink) -> ProviderOutcome {
        for _ in 0..<count {
            if sink.isCancelled { return .finished }
            sink.emitText("word ")
        }
        sink.emitText("end. Done.")
        lock.withLock { emittedAll = true }
        return .finished
    }
}

/// An engine that keeps its text as UTF-8 bytes, edited in place as an editor's buffer is
/// (rebuilding a whole String per replace cost the engine a millisecond and more of each
/// dispatch once the streamed text reached a megabyte), and answers every callback at once.
private final class BenchEngine: CoordinatorDelegate {
    var bytes: [UInt8]
    var text: String { String(decoding: bytes, as: UTF8.self) }
    var replaces = 0
    let capabilities: DelegateCapabilities = [.replace, .selectRanges, .willChangeState]
    init(_ text: String) { bytes = Array(text.utf8) }

    func requestsContexts(_ coordinator: Coordinator, scope: ContextScope, request: RequestID) {
        let all = 0..<bytes.count
        try? coordinator.answer(request, .contexts([ContextDescription(text: AttributedText(text), selection: all)]))
    }
    func replace(_ coordinator: Coordinator, _ proposal: ReplaceProposal, request: RequestID) {
        bytes.replaceSubrange(proposal.range, with: proposal.text.utf8)
        replaces += 1
        try? coordinator.answer(request, .replaced(nil))
    }
    func selectRanges(_ coordinator: Coordinator, contextID: UInt64, engineContext: UInt, ranges: [Range<Int>], request: RequestID) {
        try? coordinator.answer(request, .done)
    }
    func requestsBoundingRects(_ coordinator: Coordinator, contextID: UInt64, engineContext: UInt, range: Range<Int>, request: RequestID) {}
    func requestsUnderlineRects(_ coordinator: Coordinator, contextID: UInt64, engineContext: UInt, range: Range<Int>, request: RequestID) {}
    func prepareForTextAnimation(_ coordinator: Coordinator, _ animation: TextAnimation, contextID: UInt64, engineContext: UInt, range: Range<Int>, request: RequestID) {}
    func requestsPreview(_ coordinator: Coordinator, _ animation: TextAnimation, contextID: UInt64, engineContext: UInt, range: Range<Int>, request: RequestID) {}
    func finishTextAnimation(_ coordinator: Coordinator, _ animation: TextAnimation, contextID: UInt64, engineContext: UInt, range: Range<Int>, preview: UInt, request: RequestID) {}
    func willChangeToState(_ coordinator: Coordinator, _ state: CoordinatorState, request: RequestID) {
        try? coordinator.answer(request, .done)
    }
    func presentResult(_ coordinator: Coordinator, _ result: PresentedResult, request: RequestID) {}
}

struct StreamBenchmark {
    let pieces: Int

    func run() {
        let engine = BenchEngine("Short one. Another one.")
        let provider = EndlessSentenceProvider(count: pieces)
        let coordinator: Coordinator
        do {
            coordinator = try Coordinator(delegate: engine, options: CoordinatorOptions(), providers: [provider])
            try coordinator.start(.rewriteFriendly)
        } catch { fail("the streaming session did not start: \(error)") }
        var longest: UInt64 = 0, longestFinal: UInt64 = 0, dispatches = 0, items = 0, over5ms = 0, streamingDispatches = 0
        // The same on the thread's CPU clock: a dispatch the machine preempted is long on the
        // wall clock, not in work.
        var longestCPU: UInt64 = 0, longestFinalCPU: UInt64 = 0
        let total = nanoseconds {
            while !coordinator.isIdle {
                var pfd = pollfd(fd: coordinator.pollDescriptor, events: Int16(POLLIN), revents: 0)
                _ = poll(&pfd, 1, 1000)
                let streaming = !provider.isDone
                var ran = 0
                var elapsed: UInt64 = 0
                let cpu = threadNanoseconds { elapsed = nanoseconds { ran = (try? coordinator.dispatch()) ?? 0 } }
                guard ran > 0 else { continue }
                dispatches += 1
                items += ran
                if streaming {
                    longest = max(longest, elapsed)
                    longestCPU = max(longestCPU, cpu)
                    streamingDispatches += 1
                    if elapsed > 5_000_000 { over5ms += 1 }
                } else {
                    longestFinal = max(longestFinal, elapsed)
                    longestFinalCPU = max(longestFinalCPU, cpu)
                }
            }
        }
        let expected = String(repeating: "word ", count: pieces) + "end. Done."
        guard engine.text == expected else { fail("the engine's text is not the streamed result (\(engine.text.utf8.count) bytes)") }
        print("streaming \(pieces) pieces with no sentence end: longest dispatch \(fmt(Double(longest) / 1e6, 2)) ms while the pieces arrive"
              + " (\(fmt(Double(longestCPU) / 1e6, 2)) ms on the CPU; \(over5ms) of \(streamingDispatches) over 5 ms: wall clock, a busy machine preempts),"
              + " \(fmt(Double(longestFinal) / 1e6, 2)) ms (\(fmt(Double(longestFinalCPU) / 1e6, 2)) ms on the CPU) after the last piece;"
              + " \(dispatches) dispatches, \(items) items, \(fmt(Double(total) / 1e6, 0)) ms in all")
        try? coordinator.accept()
        try? coordinator.runUntilIdle(timeoutMilliseconds: 10_000)
    }
}
