import Glibc
import EmendCore

/// A thread that owns one coordinator and runs jobs on it one at a time, so the server's
/// loop never waits for a provider: it submits, goes on reading messages, and gets an
/// `EngineReport` through `deliver` when the job ends. Cancellation is a flag the running
/// job looks at between dispatches (it stops the coordinator, which cancels the provider).
final class EngineWorker: @unchecked Sendable {
    private enum Slot {
        case idle
        case running(id: Int)
    }

    private let monitor = Monitor()
    /// Guarded by `monitor`.
    private var queue: [EngineJob] = []
    /// How many jobs at the head of `queue` are urgent (they go ahead of the others, in order).
    private var urgentCount = 0
    private var cancelled: Set<Int> = []
    private var slot = Slot.idle
    private var quitting = false

    private let catalog: () -> Result<ProviderCatalog, EmendError>
    private let deliver: @Sendable (EngineReport) -> Void
    private let logger: @Sendable (String) -> Void
    /// How long (ms) a provider may take before the coordinator gives up on it.
    private let providerTimeoutMilliseconds: Int64
    /// The setting a timeout names (the server command's option).
    private let providerTimeoutSetting: String

    init(catalog: @escaping () -> Result<ProviderCatalog, EmendError>, providerTimeoutMilliseconds: Int64,
         providerTimeoutSetting: String = ServerConfiguration.providerTimeoutSetting,
         logger: @escaping @Sendable (String) -> Void, deliver: @escaping @Sendable (EngineReport) -> Void) throws(EmendError) {
        self.catalog = catalog
        self.deliver = deliver
        self.logger = logger
        self.providerTimeoutMilliseconds = providerTimeoutMilliseconds
        self.providerTimeoutSetting = providerTimeoutSetting
        try RuntimeThread.start { [self] in self.main() }
    }

    /// Queues `job`; an urgent one (the paragraph the user just changed) goes after the
    /// urgent jobs already waiting and before every other.
    func submit(_ job: EngineJob, urgent: Bool = false) {
        monitor.withLock {
            if urgent {
                queue.insert(job, at: urgentCount)
                urgentCount += 1
            } else {
                queue.append(job)
            }
            monitor.broadcast()
        }
    }

    /// Cancels a queued or running job (its report says `.cancelled` / failed).
    func cancel(_ id: Int) {
        monitor.withLock {
            cancelled.insert(id)
            monitor.broadcast()
        }
    }

    func quit() {
        monitor.withLock {
            quitting = true
            monitor.broadcast()
        }
    }

    private func isCancelled(_ id: Int) -> Bool {
        monitor.withLock { cancelled.contains(id) || quitting }
    }

    private func nextJob() -> EngineJob? {
        monitor.lock()
        defer { monitor.unlock() }
        slot = .idle
        while queue.isEmpty && !quitting { monitor.wait(milliseconds: 1000) }
        if quitting { return nil }
        let job = queue.removeFirst()
        if urgentCount > 0 { urgentCount -= 1 }
        slot = .running(id: job.id)
        return job
    }

    private func main() {
        let engine = WorkerEngine()
        let made: Result<Coordinator, EmendError> = catalog().flatMap { catalog in
            var options = CoordinatorOptions()
            options.preferredBehavior = .complete
            options.providerTimeoutMilliseconds = providerTimeoutMilliseconds
            options.providerTimeoutSetting = providerTimeoutSetting
            options.streaming = .wholeResult
            options.animationDuration = 0
            do throws(EmendError) { return .success(try Coordinator(delegate: engine, options: options, catalog: catalog)) } catch { return .failure(error) }
        }
        while let job = nextJob() {
            switch made {
            case .failure(let error):
                report(failure: error.message, for: job)
            case .success(let coordinator):
                coordinator.logger = logger
                run(job, coordinator: coordinator, engine: engine)
            }
            monitor.withLock { _ = cancelled.remove(job.id) }
        }
        if case .success(let coordinator) = made {
            if coordinator.state != .inactive { try? coordinator.stop() }
            _ = coordinator.shutdown()
        }
    }

    private func report(failure message: String, for job: EngineJob) {
        switch job {
        case .check(let id, let units): deliver(.checkFailed(id: id, units: units, message: message))
        case .tool(let id, _, _, _, _): deliver(.toolFinished(id: id, outcome: .failed(message)))
        }
    }

    /// Dispatches until the session rests or ends; false when it was cancelled.
    private func settle(_ coordinator: Coordinator, job id: Int) -> Bool {
        var stopped = false
        while true {
            _ = try? coordinator.dispatch()
            if coordinator.isIdle { return !stopped }
            if !stopped && isCancelled(id) {
                stopped = true
                try? coordinator.stop()
                continue
            }
            var fd = pollfd(fd: coordinator.pollDescriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&fd, 1, 50)
        }
    }

    /// Ends a resting session (its text is a throwaway copy).
    private func finish(_ coordinator: Coordinator) {
        if coordinator.state != .inactive {
            try? coordinator.accept()
            _ = settle(coordinator, job: -1)
        }
    }

    private func run(_ job: EngineJob, coordinator: Coordinator, engine: WorkerEngine) {
        if isCancelled(job.id) {
            if case .tool(let id, _, _, _, _) = job { deliver(.toolFinished(id: id, outcome: .cancelled)) }
            else { report(failure: "cancelled", for: job) }
            return
        }
        switch job {
        case .check(let id, let units):
            let joined = FindingPlacement.join(units)
            engine.load(joined.text, selection: 0..<0, protected: joined.protected)
            do {
                try coordinator.start(.proofread, scope: .fullDocument)
            } catch {
                return deliver(.checkFailed(id: id, units: units, message: error.message))
            }
            let completed = settle(coordinator, job: id)
            if let failure = coordinator.lastFailure, completed {
                finish(coordinator)
                return deliver(.checkFailed(id: id, units: units, message: failure.message))
            }
            let findings = FindingPlacement.place(coordinator.suggestions)
            finish(coordinator)
            guard completed else { return deliver(.checkFailed(id: id, units: units, message: "cancelled")) }
            let partial = coordinator.completeness.flatMap { $0.isPartial ? $0.message : nil }
            deliver(.checked(id: id, findings: FindingPlacement.split(findings, units: units, starts: joined.starts), partial: partial))

        case .tool(let id, let tool, let text, let selection, let protected):
            engine.load(text, selection: selection, protected: protected)
            do {
                try coordinator.start(tool, scope: selection.isEmpty ? .fullDocument : .userSelection)
            } catch {
                return deliver(.toolFinished(id: id, outcome: .failed(error.message)))
            }
            let completed = settle(coordinator, job: id)
            let failure = coordinator.lastFailure
            let outcome: ToolOutcome
            if !completed {
                outcome = .cancelled
            } else if let failure {
                outcome = .failed(failure.message)
            } else if let presented = engine.presented {
                outcome = presented.explanation.map { .poor($0) } ?? .presented(text: presented.text)
            } else if let edit = ChangedSpan.between(text, engine.bytes) {
                outcome = .replaced(range: edit.range, text: edit.text)
            } else {
                outcome = .poor("the result is the same as the text")
            }
            finish(coordinator)
            deliver(.toolFinished(id: id, outcome: outcome))
        }
    }
}
