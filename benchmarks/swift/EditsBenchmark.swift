// The longest single dispatch while very many tiny edits are delivered and then reverted: a
// proofreader that finds something in every word of a large text must not freeze the
// engine's thread, whatever order it emits its edits in.
//
// A provider emits `count` one-byte edits ("a" -> "b" in a text of `count` times "a x ": typos
// two words apart, so that each stays a change of its own) in ascending or descending order,
// and in a text of `count` times "a " (every word: one space apart, all of them join into one
// phrase, which revert restores as one replace over every suggestion's anchor); a minimal engine (answers every callback at once, edits a
// byte buffer in place) dispatches whenever the coordinator's descriptor is readable, like an
// event loop, until the result rests in the text; then revert puts the original back. The
// longest dispatch of each stage is reported (wall clock and the thread's CPU clock).
import EmendCore
import EmendText
import Glibc

/// Proofreads every "a" of the request ("a x " or "a " repeated: `stride` bytes apart) as "b",
/// in the order asked for.
private final class EveryWordProvider: WritingProvider, @unchecked Sendable {
    let id = "org.emend.bench.every-word"
    let tools: Set<WritingTool> = [.proofread]
    let descending: Bool
    let stride: Int
    init(descending: Bool, stride: Int) {
        self.descending = descending
        self.stride = stride
    }

    func run(_ request: ProviderRequest, sink: ProviderSink) -> ProviderOutcome {
        let words = request.selection.count / stride
        for index in 0..<words {
            let word = descending ? words - 1 - index : index
            let start = request.selection.lowerBound + stride * word
            sink.emitEdit(ProviderEdit(range: start..<(start + 1), replacement: "b", category: "spelling"))
        }
        return .finished
    }
}

/// Keeps its text as UTF-8 bytes edited in place and answers every callback at once.
private final class ByteEngine: CoordinatorDelegate {
    var bytes: [UInt8]
    let capabilities: DelegateCapabilities = [.replace, .selectRanges, .willChangeState]
    init(_ text: String) { bytes = Array(text.utf8) }

    func requestsContexts(_ coordinator: Coordinator, scope: ContextScope, request: RequestID) {
        let text = String(decoding: bytes, as: UTF8.self)
        try? coordinator.answer(request, .contexts([ContextDescription(text: AttributedText(text), selection: 0..<bytes.count)]))
    }
    func replace(_ coordinator: Coordinator, _ proposal: ReplaceProposal, request: RequestID) {
        bytes.replaceSubrange(proposal.range, with: proposal.text.utf8)
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

struct EditsBenchmark {
    let count: Int

    /// The longest dispatch (wall, CPU ns), the number of dispatches and the wall time of one
    /// stage: dispatching until the coordinator is idle.
    private func stage(_ coordinator: Coordinator) -> (wall: UInt64, cpu: UInt64, dispatches: Int, total: UInt64) {
        var longest: UInt64 = 0, longestCPU: UInt64 = 0, dispatches = 0
        let total = nanoseconds {
            while !coordinator.isIdle {
                var pfd = pollfd(fd: coordinator.pollDescriptor, events: Int16(POLLIN), revents: 0)
                _ = poll(&pfd, 1, 1000)
                var ran = 0
                var elapsed: UInt64 = 0
                let cpu = threadNanoseconds { elapsed = nanoseconds { ran = (try? coordinator.dispatch()) ?? 0 } }
                guard ran > 0 else { continue }
                dispatches += 1
                longest = max(longest, elapsed)
                longestCPU = max(longestCPU, cpu)
            }
        }
        return (longest, longestCPU, dispatches, total)
    }

    func run() {
        for (word, descending) in [("a x ", false), ("a x ", true), ("a ", false)] {
            // Joining each change into one growing phrase copies the phrase (EditLedger's
            // joinIfOneSpaceApart): quadratic, so that shape is measured on at most 100,000.
            let count = word == "a " ? min(count, 100_000) : count
            let original = String(repeating: word, count: count)
            let engine = ByteEngine(original)
            let coordinator: Coordinator
            do {
                coordinator = try Coordinator(delegate: engine, options: CoordinatorOptions(),
                                              providers: [EveryWordProvider(descending: descending, stride: word.utf8.count)])
                try coordinator.start(.proofread)
            } catch { fail("the proofread did not start: \(error)") }
            let delivered = stage(coordinator)
            guard engine.bytes == Array(String(repeating: "b" + word.dropFirst(), count: count).utf8) else {
                fail("the engine's text is not the corrected one")
            }
            do { try coordinator.revert() } catch { fail("revert: \(error)") }
            let reverted = stage(coordinator)
            guard engine.bytes == Array(original.utf8) else { fail("revert did not put the original back") }
            func describe(_ s: (wall: UInt64, cpu: UInt64, dispatches: Int, total: UInt64)) -> String {
                "longest dispatch \(fmt(Double(s.wall) / 1e6, 2)) ms (\(fmt(Double(s.cpu) / 1e6, 2)) ms on the CPU), "
                    + "\(s.dispatches) dispatches, \(fmt(Double(s.total) / 1e6, 0)) ms in all"
            }
            let shape = word == "a " ? "every word (one phrase)" : descending ? "descending" : "ascending"
            print("\(count) one-byte edits, \(shape): delivering: \(describe(delivered)); "
                  + "reverting: \(describe(reverted))")
        }
    }
}
