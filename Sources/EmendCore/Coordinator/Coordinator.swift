import Glibc
import EmendText

/// Manages Writing Tools for one text view (Apple's WritingToolsCoordinator).
///
/// Everything but `answer(_:_:)` and `pollDescriptor` must be used on the thread that created
/// the coordinator; delegate methods run only inside `dispatch()` on that thread.
public final class Coordinator: @unchecked Sendable {
    public let delegate: CoordinatorDelegate
    public let options: CoordinatorOptions
    let queue: WorkQueue
    let pending = PendingRequests()
    private let ownerThread: pthread_t
    let catalog: ProviderCatalog
    /// Providers the engine chose per tool for this coordinator.
    public internal(set) var chosenProviders: [WritingTool: String] = [:]
    /// Receives log lines from providers (any thread).
    public var logger: @Sendable (String) -> Void = { _ in }

    public private(set) var preferredBehavior: Behavior
    public private(set) var preferredResultOptions: ResultOptions
    public internal(set) var state: CoordinatorState = .inactive
    var session: Session?
    var nextGeneration: UInt64 = 1
    var nextContextID: UInt64 = 1
    var inDispatch = false
    /// Moves the session state machine refused in ended sessions ("resting → starting"...):
    /// empty unless the runtime has a bug; tests check it.
    public internal(set) var refusedMoves: [String] = []
    /// Why the last session failed, until the next run_until_idle or start reads it.
    public internal(set) var lastFailure: EmendError?
    /// What ends the current session, once it is known (see Coordinator+SessionEnd).
    var endingFailure: EmendError?
    /// How the last ended session ended; nil before the first one ends.
    public internal(set) var lastSessionOutcome: SessionOutcome?
    /// What became of each provider's part in the latest provider run's result (the current
    /// session's, else the last ended one's); nil until a provider reported it (a single
    /// provider does not: its result is whole or the run failed), and nil for a session that
    /// failed (it has no result; see `noteEndingFailure`). Reset when a run starts.
    public internal(set) var completeness: Completeness?
    var providerDeadline: Int64?
    /// Suggestions changed and not reported to the engine yet (see SuggestionChanges).
    var suggestionChanges = SuggestionChanges()

    public convenience init(delegate: CoordinatorDelegate, options: CoordinatorOptions = CoordinatorOptions(),
                providers: [WritingProvider] = [FixtureProvider()]) throws(EmendError) {
        try self.init(delegate: delegate, options: options, catalog: ProviderList(providers))
    }

    /// A coordinator whose providers come from `catalog` (e.g. the plugin registry).
    public init(delegate: CoordinatorDelegate, options: CoordinatorOptions, catalog: ProviderCatalog) throws(EmendError) {
        self.delegate = delegate
        self.options = options
        self.catalog = catalog
        self.preferredBehavior = options.preferredBehavior
        self.preferredResultOptions = options.preferredResultOptions
        self.queue = try WorkQueue(slicesByTime: options.dispatchBudget.isTimed)
        self.ownerThread = pthread_self()
    }

    deinit {
        session?.cancelProviders()
    }

    /// Readable while dispatch has work (an epoll descriptor). Any thread.
    public var pollDescriptor: Int32 { queue.pollDescriptor }

    /// Fails unless called on the coordinator's thread.
    public func checkOwnerThread() throws(EmendError) { try checkThread() }

    /// Fails inside a delegate callback, where only answers and getters are allowed.
    public func checkOutsideCallbacks() throws(EmendError) {
        guard !inDispatch else {
            throw EmendError(.inCallback, "not allowed inside a delegate callback: call it after the callback returns")
        }
    }

    func checkThread() throws(EmendError) {
        guard pthread_equal(pthread_self(), ownerThread) != 0 else {
            throw EmendError(.wrongThread, "this coordinator belongs to another thread")
        }
    }

    // MARK: Behavior and result options

    /// The behavior in effect: never `.default`.
    public var resolvedBehavior: Behavior {
        let caps = delegate.capabilities
        let possible: Behavior = caps.contains(.replace) ? .complete : caps.contains(.presentResult) ? .limited : .none
        switch preferredBehavior {
        case .none: return .none
        case .default: return possible
        case .complete: return possible == .complete ? .complete : possible
        case .limited: return caps.contains(.presentResult) ? .limited : possible
        }
    }

    public var resolvedResultOptions: ResultOptions { preferredResultOptions.resolved }

    public func setPreferredBehavior(_ behavior: Behavior) throws(EmendError) {
        try checkThread()
        guard session == nil else { throw EmendError(.state, "the behavior cannot change during a session") }
        preferredBehavior = behavior
    }

    public func setPreferredResultOptions(_ options: ResultOptions) throws(EmendError) {
        try checkThread()
        guard options.isSubset(of: .known) else {
            throw EmendError(.invalidArgument, "unknown result option bits 0x\(String(options.subtracting(.known).rawValue, radix: 16))")
        }
        guard session == nil else { throw EmendError(.state, "the result options cannot change during a session") }
        preferredResultOptions = options
    }

    // MARK: Dispatch

    /// Runs pending work and expired deadlines until nothing is left or the dispatch budget
    /// (`CoordinatorOptions.dispatchBudget`) is spent; returns how many items ran. Work left
    /// over stays queued and the poll descriptor stays readable, so the engine's loop calls
    /// dispatch again.
    @discardableResult
    public func dispatch() throws(EmendError) -> Int {
        try checkThread()
        guard !inDispatch else { throw EmendError(.inCallback, "dispatch was called from inside a delegate callback") }
        inDispatch = true
        queue.beginDispatch()
        defer {
            queue.endDispatch()
            inDispatch = false
        }
        let meter = DispatchBudget.Meter(options.dispatchBudget)
        var processed = 0
        // Deadlines once per dispatch: they are due in milliseconds, work in microseconds.
        var checkedDeadlines = false
        running: while true {
            let work = queue.take(limit: 64)
            for index in work.indices {
                if (work[index].kind == .work && meter.isSpent(after: processed))
                    || (work[index].kind == .fresh && meter.defersFresh(after: processed)) {
                    queue.putBack(work[index...])
                    break running
                }
                work[index].run()
                processed += 1
            }
            if !work.isEmpty { continue }
            if !checkedDeadlines {
                checkedDeadlines = true
                if runExpiredDeadlines(&processed) { continue }
            }
            queue.clearSignals()
            if !queue.hasPendingWork { break }
        }
        // A dispatch that spent its budget on work still looks at the deadlines: a session
        // busy for a long time must still time out.
        if !checkedDeadlines { _ = runExpiredDeadlines(&processed) }
        reportSuggestionChanges()
        queue.armTimer(at: [pending.earliestDeadline, providerDeadline, queue.activity.nextAbandonment].compactMap { $0 }.min())
        return processed
    }

    /// Fails requests whose answer is overdue and a provider that ran too long; returns
    /// whether anything expired (which posts or runs more work).
    private func runExpiredDeadlines(_ processed: inout Int) -> Bool {
        let expired = pending.takeExpired(now: MonotonicClock.nowMilliseconds())
        for entry in expired {
            entry.continuation(.failed(EmendError(.timeout, "the engine did not answer a \(entry.kind) request in time")))
            processed += 1
        }
        return !expired.isEmpty || providerTimedOut()
    }

    /// Whether nothing is running or awaited, and no provider code of this coordinator still
    /// executes (a cancelled run that has not returned yet; see RunActivity).
    public var isIdle: Bool {
        pending.isEmpty && !queue.hasPendingWork && (session.map { $0.state.activity == .resting || $0.state.isEnded } ?? true)
            && queue.activity.isQuiet
    }

    /// Dispatches until idle or until `timeoutMilliseconds` pass (negative: no limit).
    /// Throws the failure of a session that failed meanwhile, or `.busy` when the limit
    /// passed first (nothing failed: the work goes on).
    public func runUntilIdle(timeoutMilliseconds: Int = -1) throws(EmendError) {
        try checkThread()
        lastFailure = nil
        let start = MonotonicClock.nowMilliseconds()
        while true {
            try dispatch()
            if let failure = lastFailure, isIdle { lastFailure = nil; throw failure }
            if isIdle { return }
            var wait: Int32 = -1
            if timeoutMilliseconds >= 0 {
                let left = Int64(timeoutMilliseconds) - (MonotonicClock.nowMilliseconds() - start)
                if left <= 0 { throw EmendError(.busy, "the coordinator was still busy after \(timeoutMilliseconds) ms") }
                wait = Int32(min(left, Int64(Int32.max)))
            }
            queue.wait(timeoutMilliseconds: wait)
        }
    }

    private func providerTimedOut() -> Bool {
        guard let deadline = providerDeadline, deadline <= MonotonicClock.nowMilliseconds() else { return false }
        providerDeadline = nil
        let limit = options.providerTimeoutMilliseconds, setting = options.providerTimeoutSetting
        session?.cancelProviders()
        if let session { stopStreaming(session.run) }   // the session fails: nothing more goes in
        afterStreamedPart(.fail(EmendError(.timeout, ProviderTimeout.message(milliseconds: limit, setting: setting))))
        return true
    }

    // MARK: Answers (any thread)

    /// Answers a delegate call. Any thread; acted on in the next dispatch.
    public func answer(_ request: RequestID, _ answer: DelegateAnswer) throws(EmendError) {
        if case .presented(.apply) = answer, !delegate.capabilities.contains(.replace), pending.isAwaiting(request) {
            // Applying needs replaces: an engine without the replace callback applies the
            // result itself (copy) or dismisses it. The request still awaits a fitting answer.
            throw EmendError(.unsupported, "the engine has no replace callback, so Emend cannot apply the result: answer COPY and insert the text yourself, or DISMISS")
        }
        let result = pending.take(request) { kind in
            switch (answer, kind) {
            case (.failed, _): return true
            case (.contexts, .contexts), (.replaced, .replace), (.refused, .replace), (.rects, .rects),
                 (.preview, .preview), (.presented, .presented), (.done, .done): return true
            case (.rectBatch(let lists), .rectBatch(let count)): return lists.count == count
            default: return false
            }
        }
        switch result {
        case .failure(let error): throw error
        case .success(let entry): queue.postAnswer { entry.continuation(answer) }
        }
    }

    // MARK: Contexts

    /// The current text of a context of the session.
    public func contextText(_ contextID: UInt64) throws(EmendError) -> AttributedText {
        try checkThread()
        return try context(contextID).attributedNow
    }

    /// Range conversion for a context's current text between UTF-8 bytes and the engine's
    /// encoding; costs a chunk of the text, not its length (the C layer converts every range
    /// of every callback).
    public func contextPositions(_ contextID: UInt64) throws(EmendError) -> any PositionMapping {
        try context(contextID).positions
    }

    func context(_ contextID: UInt64) throws(EmendError) -> SessionContext {
        guard let found = session?.contexts.first(where: { $0.id == contextID }) else {
            throw EmendError(.notFound, "no context \(contextID) in the current session")
        }
        return found
    }

    /// Ids of the session's contexts, the working one first.
    public var contextIDs: [UInt64] { session?.contexts.map(\.id) ?? [] }
}
