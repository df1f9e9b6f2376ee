// The longest single dispatch while very many tiny edits are delivered, then reverted or
// accepted: a proofreader that finds something in every word of a large text must not freeze
// the engine's thread, whatever order it emits its edits in.
//
// A provider emits `count` one-byte edits ("a" -> "b" in a text of `count` times "a x ": typos
// two words apart, so that each stays a change of its own) in ascending, descending or
// shuffled order, and in a text of `count` times "a " (every word: one space apart, all of
// them join into phrases of at most `ChangePhrases.longestJoined` bytes, which revert restores
// a replace each, over the anchors of that phrase's suggestions); a rewrite changes every other word of "a x " repeated, and is shown original,
// shown rewritten and reverted. A minimal engine (answers every callback at once, edits a
// byte buffer in place) dispatches whenever the coordinator's descriptor is readable, like an
// event loop, until the coordinator is idle. The longest dispatch of each stage is reported
// (wall clock and the thread's CPU clock); the call that begins a stage (revert(), accept(),
// showOriginal()) runs on the engine's thread too and counts as one of its dispatches.
import EmendCore
import EmendText
import Glibc

/// Proofreads every "a" of the request ("a x " or "a " repeated: `stride` bytes apart) as "b",
/// in the order asked for.
private final class EveryWordProvider: WritingProvider, @unchecked Sendable {
    let id = "org.emend.bench.every-word"
    let tools: Set<WritingTool> = [.proofread]
    let order: EditOrder
    let stride: Int
    init(order: EditOrder, stride: Int) {
        self.order = order
        self.stride = stride
    }

    func run(_ request: ProviderRequest, sink: ProviderSink) -> ProviderOutcome {
        let words = request.selection.count / stride
        var sequence = Array(0..<words)
        switch order {
        case .ascending: break
        case .descending: sequence.reverse()
        case .shuffled:
            var rng = SplitMix64(seed: 27)
            for index in sequence.indices.dropLast().reversed() {
                sequence.swapAt(index, Int(rng.next() % UInt64(index + 1)))
            }
        }
        for word in sequence {
            let start = request.selection.lowerBound + stride * word
            sink.emitEdit(ProviderEdit(range: start..<(start + 1), replacement: "b", category: "spelling"))
        }
        return .finished
    }
}

/// Keeps its text as UTF-8 bytes edited in place (a gap buffer: `GapBytes`) and answers
/// every callback at once.
private final class ByteEngine: CoordinatorDelegate {
    var text: GapBytes
    /// The text as one array (for checks between stages).
    var bytes: [UInt8] { text.bytes }
    /// Replaces applied so far.
    var replaces = 0
    /// The context the last replace was in (where the engine's own edits go).
    var contextID: UInt64 = 0
    let capabilities: DelegateCapabilities = [.replace, .selectRanges, .willChangeState]
    /// `reserving`: room for that many bytes made at once, so that the engine's own buffer
    /// never doubles inside a dispatch (its copy is the engine's cost, not Emend's).
    init(_ text: String, reserving: Int = 0) {
        self.text = GapBytes(text, reserving: reserving)
    }

    /// The text to answer with, made before the session (the utf16-building shape: the
    /// engine's own copy of 10 MB into its answer is then not in the answering dispatch).
    var preparedAnswer: String?

    func requestsContexts(_ coordinator: Coordinator, scope: ContextScope, request: RequestID) {
        // A prepared answer serves once: a later request reads the text as it is then.
        let answer = preparedAnswer ?? text.string
        preparedAnswer = nil
        try? coordinator.answer(request, .contexts([ContextDescription(text: AttributedText(answer), selection: 0..<text.count)]))
    }
    func replace(_ coordinator: Coordinator, _ proposal: ReplaceProposal, request: RequestID) {
        text.replace(proposal.range, with: proposal.text.utf8)
        replaces += 1
        contextID = proposal.contextID
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

/// Rewrites every "a" of the selection ("a x " repeated) as "b": a result that differs from
/// its text in every other word, emitted whole in 64 KB pieces.
private final class EveryWordRewriter: WritingProvider, @unchecked Sendable {
    let id = "org.emend.bench.every-word-rewrite"
    let tools: Set<WritingTool> = [.rewriteFriendly]

    func run(_ request: ProviderRequest, sink: ProviderSink) -> ProviderOutcome {
        let bytes = Array(request.text.utf8)[request.selection].map { $0 == UInt8(ascii: "a") ? UInt8(ascii: "b") : $0 }
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + 65_536)
            sink.emitText(String(decoding: bytes[start..<end], as: UTF8.self))
            start = end
        }
        return .finished
    }
}

/// Answers a rewrite of one short sentence with sentences beyond any limit, in 64 KB pieces, as
/// a provider host hands over a plugin's flood: each piece until the next would pass
/// `limit` bytes (max_result_bytes), then the run fails with the host's refusal. The pieces
/// come 2 ms apart, so that each streams into the text before the next (the worst case: all
/// 16 MiB in the text); the refusal takes them back out.
private final class FloodingRewriter: WritingProvider, @unchecked Sendable {
    let id = "org.emend.bench.flooding-rewrite"
    let tools: Set<WritingTool> = [.rewriteFriendly]
    let limit: Int
    init(limit: Int) { self.limit = limit }

    func run(_ request: ProviderRequest, sink: ProviderSink) -> ProviderOutcome {
        let piece = String(repeating: "This sentence goes on and on. ", count: 65_536 / 30)
        var sent = 0
        while sent + piece.utf8.count <= limit {
            sink.emitText(piece)
            sent += piece.utf8.count
            usleep(2_000)
        }
        return .failed("the result is over the limit of \(limit) bytes (max_result_bytes in config.toml); it was refused")
    }
}

/// How a provider orders the edits of a proofread.
enum EditOrder: String, CaseIterable {
    case ascending, descending
    /// A seeded shuffle: no order at all.
    case shuffled
}

struct EditsBenchmark {
    let count: Int
    /// Which parts to run ("ascending", "descending", "shuffled", "accept", "every-word",
    /// "engine-edit", "engine-adopt", "rewrite", "rewrite-engine-edit", "refused-rewrite",
    /// "utf16-building", "reflow", "shrink-rewrite"); nil: all.
    var shapes: Set<String>?

    /// The longest dispatch (or engine-thread call such as revert()) of a stage.
    struct Stage {
        var wall: UInt64 = 0, cpu: UInt64 = 0, dispatches = 0, total: UInt64 = 0, replaces = 0
        /// How many replaces the engine had applied in the stage when the dispatch longest on
        /// the CPU began (where in the stage it was).
        var replacesBeforeLongest = 0
        /// When (CLOCK_MONOTONIC) the dispatch longest on the CPU began and ended: with
        /// EMEND_BENCH_WINDOWS=1 it is printed, to pick its samples out of `perf record -k
        /// CLOCK_MONOTONIC` (`perf script --time`).
        var longestWindow: (UInt64, UInt64) = (0, 0)
        /// The longest dispatches on the CPU: (CPU ns, its number in the stage, replaces before it).
        /// With EMEND_BENCH_WINDOWS=1 each also prints its CLOCK_MONOTONIC window.
        var top: [(cpu: UInt64, number: Int, replaces: Int, window: (UInt64, UInt64))] = []

        mutating func note(wall: UInt64, cpu: UInt64, replacesBefore: Int) {
            dispatches += 1
            let end = monotonicNanoseconds()
            top.append((cpu, dispatches, replacesBefore, (end - wall, end)))
            top.sort { $0.cpu > $1.cpu }
            if top.count > 5 { top.removeLast() }
            self.wall = max(self.wall, wall)
            if cpu > self.cpu {
                replacesBeforeLongest = replacesBefore
                let now = monotonicNanoseconds()
                longestWindow = (now - wall, now)
            }
            self.cpu = max(self.cpu, cpu)
        }

        var description: String {
            "longest dispatch \(fmt(Double(wall) / 1e6, 2)) ms (\(fmt(Double(cpu) / 1e6, 2)) ms on the CPU), "
                + "\(dispatches) dispatches, \(replaces) replaces (the longest began after \(replacesBeforeLongest)), "
                + "\(fmt(Double(total) / 1e6, 0)) ms in all; longest on the CPU (ms, dispatch number, replaces before): "
                + top.map {
                    "\(fmt(Double($0.cpu) / 1e6, 2)) #\($0.number) r\($0.replaces)"
                        + (getenv("EMEND_BENCH_WINDOWS") == nil ? "" : " [\(seconds($0.window.0)),\(seconds($0.window.1))]")
                }.joined(separator: ", ")
                + (getenv("EMEND_BENCH_WINDOWS") == nil ? "" : " [longest: \(seconds(longestWindow.0)),\(seconds(longestWindow.1))]")
        }
    }

    /// Times `body` (a call on the engine's thread: revert(), accept(), show original) as
    /// the first "dispatch" of a stage, then dispatches until the coordinator is idle.
    /// When a stage ends: once the coordinator is idle, right after the call, or once a
    /// condition holds after a dispatch.
    enum StageEnd {
        case idle, afterCall
        case when(() -> Bool)

        var reached: Bool {
            switch self {
            case .idle: false
            case .afterCall: true
            case .when(let holds): holds()
            }
        }
    }

    private func stage(_ coordinator: Coordinator, _ what: String, ending: StageEnd = .idle,
                       starting body: () throws(EmendError) -> Void = {}) -> Stage {
        var result = Stage()
        let engine = coordinator.delegate as! ByteEngine
        let replacesBefore = engine.replaces
        result.total = nanoseconds {
            var failure: EmendError?
            var elapsed: UInt64 = 0
            let cpu = threadNanoseconds { elapsed = nanoseconds { do throws(EmendError) { try body() } catch { failure = error } } }
            if let failure { fail("\(what): \(failure)") }
            result.note(wall: elapsed, cpu: cpu, replacesBefore: 0)
            while !ending.reached, !coordinator.isIdle {
                var pfd = pollfd(fd: coordinator.pollDescriptor, events: Int16(POLLIN), revents: 0)
                _ = poll(&pfd, 1, 1000)
                var ran = 0
                let before = engine.replaces - replacesBefore
                let cpu = threadNanoseconds { elapsed = nanoseconds { ran = (try? coordinator.dispatch()) ?? 0 } }
                guard ran > 0 else { continue }
                result.note(wall: elapsed, cpu: cpu, replacesBefore: before)
            }
        }
        result.replaces = engine.replaces - replacesBefore
        return result
    }

    private func wants(_ shape: String) -> Bool { shapes?.contains(shape) ?? true }

    private func coordinator(_ engine: ByteEngine, _ provider: WritingProvider, _ tool: WritingTool,
                             streaming: StreamingPolicy = .wholeResult) -> Coordinator {
        do {
            var options = CoordinatorOptions()
            options.streaming = streaming
            // EMEND_BENCH_CONTEXTS_BUILT_HERE=1: every context built in the dispatch that takes
            // the engine's answer (the way before the ropes were built elsewhere), to compare.
            if getenv("EMEND_BENCH_CONTEXTS_BUILT_HERE") != nil { options.contextsBuiltElsewhereBytes = .max }
            let coordinator = try Coordinator(delegate: engine, options: options, providers: [provider])
            try coordinator.start(tool)
            return coordinator
        } catch { fail("the session did not start: \(error)") }
    }

    func run() {
        var proofreads: [(word: String, order: EditOrder, ends: String)] = []
        for order in EditOrder.allCases where wants(order.rawValue) { proofreads.append(("a x ", order, "revert")) }
        if wants("accept") { proofreads.append(("a x ", .ascending, "accept")) }
        if wants("every-word") { proofreads.append(("a ", .ascending, "revert")) }
        if wants("engine-edit") { proofreads.append(("a x ", .ascending, "engine-edit")) }
        if wants("engine-adopt") { proofreads.append(("a x ", .ascending, "engine-adopt")) }
        for (word, order, ends) in proofreads {
            let original = String(repeating: word, count: count)
            let engine = ByteEngine(original)
            let coordinator = coordinator(engine, EveryWordProvider(order: order, stride: word.utf8.count), .proofread)
            let delivered = stage(coordinator, "delivering")
            guard engine.bytes == Array(String(repeating: "b" + word.dropFirst(), count: count).utf8) else {
                fail("the engine's text is not the corrected one")
            }
            var edited: Stage?
            if ends == "engine-adopt" {
                // The engine edits inside the first of Emend's changes ("b" -> "c"): that change
                // becomes the engine's and leaves the ledger (before every other change), then
                // revert, which must keep it.
                edited = stage(coordinator, "an engine edit inside the first change") { () throws(EmendError) in
                    engine.text.replace(0..<1, with: "c".utf8)
                    try coordinator.updateRange(contextID: engine.contextID, range: 0..<1, text: "c", reason: .typing)
                }
            }
            if ends == "engine-edit" {
                // The engine types at the start of the document, before every one of Emend's
                // changes (each of which the ledger moves), then reverts: its text stays.
                edited = stage(coordinator, "an engine edit at the start") { () throws(EmendError) in
                    engine.text.replace(0..<0, with: "z ".utf8)
                    try coordinator.updateRange(contextID: engine.contextID, range: 0..<0, text: "z ", reason: .typing)
                }
            }
            let ended: Stage
            if ends == "accept" {
                ended = stage(coordinator, "accepting") { () throws(EmendError) in try coordinator.accept() }
                guard engine.bytes == Array(String(repeating: "b" + word.dropFirst(), count: count).utf8) else {
                    fail("accept changed the text")
                }
            } else {
                ended = stage(coordinator, "reverting") { () throws(EmendError) in try coordinator.revert() }
                let expected = ends == "engine-adopt" ? "c" + original.dropFirst() : edited == nil ? original : "z " + original
                guard engine.bytes == Array(expected.utf8) else { fail("revert did not put the original back") }
            }
            let shape = word == "a " ? "every word (1 KiB phrases)" : ends == "engine-edit" ? "then an engine edit at the start"
                : ends == "engine-adopt" ? "then an engine edit inside the first change" : order.rawValue
            print("\(count) one-byte edits, \(shape): delivering: \(delivered.description); "
                  + (edited.map { "\(ends == "engine-adopt" ? "engine edit inside the first change" : "engine edit at the start"): \($0.description); " } ?? "")
                  + "\(ends == "accept" ? "accepting" : "reverting"): \(ended.description)")
        }
        // The rewrite's alignment runs off the engine's thread (VersionPlan): measured at
        // 10,000 words (the figure before it moved) and at 100,000.
        if wants("rewrite") { for words in [10_000, 100_000] where words <= max(count, 10_000) { rewrite(words: words) } }
        if wants("rewrite-engine-edit") {
            // Up to a million words (4 MB): what the keystroke read grew with the region.
            for words in [10_000, 100_000, 1_000_000] where words <= max(count, 10_000) { rewriteThenEngineEdits(words: words) }
        }
        if wants("refused-rewrite") { refusedRewrite() }
        if wants("utf16-building") { utf16WhileBuilding() }
        if wants("reflow") { reflowAfterDelivery() }
        if wants("shrink-rewrite") { shrinkRewrite() }
    }

    /// A rewrite of one sentence answered with 20 MiB, refused at 16 MiB (the default
    /// max_result_bytes) by the provider host: what streamed in goes back out.
    private func refusedRewrite() {
        let original = "The text is short. "
        // Room for all that streams in: the engine's byte array doubling from 8 to 16 MiB was
        // part of the longest dispatch (the engine's cost, not Emend's).
        let engine = ByteEngine(original, reserving: 17 << 20)
        let coordinator = coordinator(engine, FloodingRewriter(limit: 16 << 20), .rewriteFriendly, streaming: .standard)
        let refused = stage(coordinator, "streaming until refused")
        guard engine.bytes == Array(original.utf8) else { fail("the refusal did not put the original back") }
        guard case .failed = coordinator.lastSessionOutcome else { fail("the session did not fail") }
        print("rewrite answered with 20 MiB, refused at 16 MiB: streaming, refusal and restore: \(refused.description)")
    }

    /// A rewrite that changes every other word: delivered, shown original, shown rewritten,
    /// then reverted.
    private func rewrite(words count: Int) {
        let original = String(repeating: "a x ", count: count)
        let rewritten = Array(String(repeating: "b x ", count: count).utf8)
        let engine = ByteEngine(original)
        let coordinator = coordinator(engine, EveryWordRewriter(), .rewriteFriendly)
        let delivered = stage(coordinator, "delivering")
        guard engine.bytes == rewritten else { fail("the engine's text is not the rewritten one") }
        let shown = stage(coordinator, "show original") { () throws(EmendError) in try coordinator.showOriginal(true) }
        guard engine.bytes == Array(original.utf8) else { fail("show original did not show the original") }
        let back = stage(coordinator, "show rewritten") { () throws(EmendError) in try coordinator.showOriginal(false) }
        guard engine.bytes == rewritten else { fail("show rewritten did not show the result") }
        let reverted = stage(coordinator, "reverting") { () throws(EmendError) in try coordinator.revert() }
        guard engine.bytes == Array(original.utf8) else { fail("revert did not put the original back") }
        print("rewrite of \(count) words: delivering: \(delivered.description); show original: \(shown.description); "
              + "show rewritten: \(back.description); reverting: \(reverted.description)")
    }
}

extension EditsBenchmark {
    /// A rewrite that changes every other word, delivered, then the engine types twice in the
    /// region beside Emend's change (each keystroke checks that the version shown is still
    /// what the region shows: `keepShownVersionTrue`), then revert, which keeps what it typed.
    fileprivate func rewriteThenEngineEdits(words count: Int) {
        let original = String(repeating: "a x ", count: count)
        let engine = ByteEngine(original)
        let coordinator = coordinator(engine, EveryWordRewriter(), .rewriteFriendly)
        let delivered = stage(coordinator, "delivering")
        guard engine.bytes == Array(String(repeating: "b x ", count: count).utf8) else { fail("the engine's text is not the rewritten one") }
        // Typed before the region's last byte (a space): beside the rewrite's change, in the region.
        let typed = (1...2).map { _ in
            stage(coordinator, "an engine edit in the region") { () throws(EmendError) in
                let at = engine.text.count - 1
                engine.text.replace(at..<at, with: "z".utf8)
                try coordinator.updateRange(contextID: engine.contextID, range: at..<at, text: "z", reason: .typing)
            }
        }
        let reverted = stage(coordinator, "reverting") { () throws(EmendError) in try coordinator.revert() }
        guard engine.bytes == Array((String(original.dropLast()) + "zz ").utf8) else { fail("revert did not keep the engine's text") }
        print("rewrite of \(count) words: delivering: \(delivered.description); "
              + typed.enumerated().map { "engine edit \($0.offset + 1) in the region: \($0.element.description); " }.joined()
              + "reverting: \(reverted.description)")
    }
}

extension EditsBenchmark {
    /// An engine that counts in UTF-16 units (emend_coordinator_options.encoding) with a 10 MB
    /// document (ASCII, and one with "é" in every word), calling while the context's rope is
    /// built on a thread of its own: right after the dispatch that takes its contexts answer, a
    /// getter's conversion at the text's end (as emend_session_get_suggestion and every
    /// callback's range convert), an edit it reports at the end in UTF-16 (as
    /// emend_coordinator_update_range converts and takes it), and the getter again; then the
    /// session runs, and once built, a lookup at an offset with no suggestion (as
    /// emend_session_suggestion_at_offset answers a click beside the underlines, its message
    /// said in UTF-16 units). Each call is timed on the CPU like a dispatch; the C layer does
    /// exactly these conversions (`CText.byteRange`/`cRange` over `contextPositions`).
    fileprivate func utf16WhileBuilding() {
        for word in ["a x ", "a \u{e9} "] {
            let original = String(repeating: word, count: (10 << 20) / word.utf8.count)
            let engine = ByteEngine(original)
            engine.preparedAnswer = original
            // A word corrected every 1,000,000 bytes (the calls, not the delivery, are measured).
            let coordinator = coordinator(engine, EveryWordProvider(order: .ascending, stride: 1_000_000), .proofread)
            // Dispatch until the contexts answer is taken: the context exists, its rope is being built.
            let answering = stage(coordinator, "taking the contexts answer", ending: .when { !coordinator.contextIDs.isEmpty })
            guard let id = coordinator.contextIDs.first else { fail("no context after the answer") }
            let length = original.utf16.count
            /// A UTF-16 range as UTF-8 bytes, as the C layer converts one (`CText.byteRange`).
            func bytes(_ location: Int, _ count: Int) throws(EmendError) -> Range<Int> {
                let positions = try coordinator.contextPositions(id)
                do throws(PositionError) {
                    return try positions.utf8Range(location: location, length: count, from: .utf16)
                } catch { throw EmendError(.range, "\(error)") }
            }
            func converted() throws(EmendError) -> Range<Int> { try bytes(length - 1, 1) }
            var checked = 0..<0
            let firstGetter = stage(coordinator, "a getter's conversion while building", ending: .afterCall) { () throws(EmendError) in
                checked = try converted()
            }
            guard checked == (original.utf8.count - 1)..<original.utf8.count else { fail("the conversion is wrong: \(checked)") }
            // The engine's own edit of its bytes is made before each call is timed.
            engine.text.replace(engine.text.count..<engine.text.count, with: "z".utf8)
            let edit = stage(coordinator, "an engine edit in UTF-16 while building", ending: .afterCall) { () throws(EmendError) in
                let range = try bytes(length, 0)
                try coordinator.updateRange(contextID: id, range: range, text: "z", reason: .typing)
            }
            let secondGetter = stage(coordinator, "a getter's conversion after it", ending: .afterCall) { () throws(EmendError) in
                checked = try converted()
            }
            // Typed at the start: the engine's text as the context keeps it changes at its start.
            engine.text.replace(0..<0, with: "y".utf8)
            let editAtStart = stage(coordinator, "an engine edit at the start while building", ending: .afterCall) { () throws(EmendError) in
                let range = try bytes(0, 0)
                try coordinator.updateRange(contextID: id, range: range, text: "y", reason: .typing)
            }
            let delivered = stage(coordinator, "delivering")
            var missed: String?
            let lookup = stage(coordinator, "a lookup beside the suggestions", ending: .afterCall) { () throws(EmendError) in
                do throws(EmendError) {
                    _ = try coordinator.suggestionIndex(contextID: id, offset: original.utf8.count)
                } catch { missed = error.located?.text(in: .utf16) ?? error.message }
            }
            guard missed != nil else { fail("a suggestion was found at a space") }
            let reverted = stage(coordinator, "reverting") { () throws(EmendError) in try coordinator.revert() }
            guard engine.bytes == Array(("y" + original + "z").utf8) else { fail("revert did not keep the engine's edits") }
            print("10 MB context (\(word == "a x " ? "ASCII" : "\"é\" in every word")) in UTF-16 while its rope is built: "
                  + "taking the answer: \(answering.description); first getter: \(firstGetter.description); "
                  + "engine edit at the end: \(edit.description); getter after it: \(secondGetter.description); "
                  + "engine edit at the start: \(editAtStart.description); "
                  + "delivering: \(delivered.description); lookup beside the suggestions (\(missed!)): \(lookup.description); "
                  + "reverting: \(reverted.description)")
        }
    }
}

extension EditsBenchmark {
    /// A million suggestions delivered, then the engine says its layout changed
    /// (emend_coordinator_update_for_reflowed_text: every rectangle known is forgotten and the
    /// underlines of pending suggestions asked for again), then revert. The call is timed on
    /// the CPU like a dispatch: it ran over every suggestion on the engine's thread.
    fileprivate func reflowAfterDelivery() {
        let original = String(repeating: "a x ", count: count)
        let engine = ByteEngine(original)
        let coordinator = coordinator(engine, EveryWordProvider(order: .ascending, stride: 4), .proofread)
        let delivered = stage(coordinator, "delivering")
        guard engine.bytes == Array(String(repeating: "b x ", count: count).utf8) else { fail("the engine's text is not the corrected one") }
        let reflowed = stage(coordinator, "reflow") { () throws(EmendError) in try coordinator.updateForReflowedText() }
        let reverted = stage(coordinator, "reverting") { () throws(EmendError) in try coordinator.revert() }
        guard engine.bytes == Array(original.utf8) else { fail("revert did not put the original back") }
        print("\(count) one-byte edits, then a reflow: delivering: \(delivered.description); reflow: \(reflowed.description); "
              + "reverting: \(reverted.description)")
    }
}

/// CLOCK_MONOTONIC now, in nanoseconds.
private func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) &* 1_000_000_000 &+ UInt64(now.tv_nsec)
}

/// Nanoseconds as perf script's seconds.microseconds.
private func seconds(_ nanoseconds: UInt64) -> String {
    let micros = nanoseconds / 1_000
    let fraction = String(micros % 1_000_000)
    return "\(micros / 1_000_000).\(String(repeating: "0", count: 6 - fraction.count))\(fraction)"
}

/// Rewrites the whole request as one short sentence.
private final class ShortRewriter: WritingProvider, @unchecked Sendable {
    let id = "org.emend.bench.short-rewrite"
    let tools: Set<WritingTool> = [.rewriteFriendly]
    /// The sentence is not in the text: the fact guard would refuse it (measured here: the
    /// text going out and coming back).
    var needsFactCheck: Bool { false }
    static let sentence = "The text is short."

    func run(_ request: ProviderRequest, sink: ProviderSink) -> ProviderOutcome {
        sink.emitText(Self.sentence)
        return .finished
    }
}

extension EditsBenchmark {
    /// A rewrite of a 16 MiB region answered with one short sentence: delivered (16 MiB go
    /// out), shown original (they come back), shown rewritten, reverted (they come back).
    /// `RestoringPiece` covered changes whose current text is long; this one's base is.
    fileprivate func shrinkRewrite() {
        let original = String(repeating: "Words go on and on. ", count: (16 << 20) / 20)
        // The region's trailing space stays.
        let rewritten = Array((ShortRewriter.sentence + " ").utf8)
        let engine = ByteEngine(original)
        // The engine's own 16 MB copy into its answer is made before the session (as in
        // utf16-building): the answering dispatch measures Emend taking the answer.
        engine.preparedAnswer = original
        let coordinator = coordinator(engine, ShortRewriter(), .rewriteFriendly)
        let delivered = stage(coordinator, "delivering")
        guard engine.bytes == rewritten else {
            fail("the engine's text is not the rewritten one (\(engine.bytes.count) bytes; the session: \(String(describing: coordinator.lastSessionOutcome)))")
        }
        let shown = stage(coordinator, "show original") { () throws(EmendError) in try coordinator.showOriginal(true) }
        guard engine.bytes == Array(original.utf8) else { fail("show original did not show the original") }
        let back = stage(coordinator, "show rewritten") { () throws(EmendError) in try coordinator.showOriginal(false) }
        guard engine.bytes == rewritten else { fail("show rewritten did not show the result") }
        let reverted = stage(coordinator, "reverting") { () throws(EmendError) in try coordinator.revert() }
        guard engine.bytes == Array(original.utf8) else { fail("revert did not put the original back") }
        print("rewrite of 16 MiB into one sentence: delivering: \(delivered.description); show original: \(shown.description); "
              + "show rewritten: \(back.description); reverting: \(reverted.description)")
    }
}
