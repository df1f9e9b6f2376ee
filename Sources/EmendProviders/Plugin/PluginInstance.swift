import CEmend
import EmendCore

/// A plugin instance made by descriptor.create. It runs requests (one at a time unless the
/// plugin is CONCURRENT) and keeps every run object until it is destroyed.
final class PluginInstance: @unchecked Sendable {
    let library: PluginLibrary
    private let handle: UnsafeMutableRawPointer?
    private let settings: PluginSettingsBuffer
    private let logger: @Sendable (String) -> Void
    private let logContext: PluginLogContext
    private let monitor = Monitor()
    /// Every run handed to the plugin: a handle stays valid until destroy.
    private var runs: [PluginRun] = []
    /// The run in progress of a plugin that takes one at a time.
    private var busy: PluginRun?

    /// How often the host looks at the sink's cancellation while it waits.
    static let pollMilliseconds = 5
    /// How long a cancelled run may take to finish before the host stops waiting, in process.
    static let cancelGraceMilliseconds: Int64 = 1000
    /// This instance's grace: in a provider host it is unbounded, since libemend kills the
    /// whole host when a cancelled run outlasts its own grace (ProviderLimits).
    private let cancelGrace: Int64

    private init(library: PluginLibrary, handle: UnsafeMutableRawPointer?, settings: PluginSettingsBuffer,
                 logger: @escaping @Sendable (String) -> Void, logContext: PluginLogContext, cancelGrace: Int64) {
        self.library = library
        self.cancelGrace = cancelGrace
        self.handle = handle
        self.settings = settings
        self.logger = logger
        self.logContext = logContext
    }

    /// Calls descriptor.create with the user's settings. A failure names the path, the status
    /// and the last warning or error the plugin logged while creating.
    static func create(library: PluginLibrary, settings: [(key: String, value: String)],
                       logger: @escaping @Sendable (String) -> Void,
                       cancelGrace: Int64 = cancelGraceMilliseconds) throws(EmendError) -> PluginInstance {
        let context = PluginLogContext(prefix: library.record.id, logger: logger)
        let buffer = PluginSettingsBuffer(settings)
        var handle: UnsafeMutableRawPointer?
        let create = library.descriptor.create!
        let status = PluginLogContext.with(context) { create(PluginHost.table, buffer.pointer, buffer.count, &handle) }
        guard status == EMEND_OK else {
            let detail = context.lastProblem.map { ": \($0)" } ?? ""
            throw EmendError(.provider, "\(library.record.path): create failed with \(PluginStatusName.of(status))\(detail)")
        }
        PluginLogContext.adoptAsFallback(context)
        return PluginInstance(library: library, handle: handle, settings: buffer, logger: logger, logContext: context,
                              cancelGrace: cancelGrace)
    }

    /// Runs `request` and waits for the plugin to be done with it, or for the sink to be
    /// cancelled (then asks the plugin to cancel and waits at most the grace time).
    func perform(_ request: ProviderRequest, sink: ProviderSink) -> ProviderOutcome {
        let record = library.record
        let run = PluginRun(request: request, sink: sink, monitor: monitor, id: record.id, path: record.path, logger: logger)
        monitor.lock()
        if !library.isConcurrent {
            while let earlier = busy, !earlier.isComplete {
                if earlier.abandoned {
                    monitor.unlock()
                    return .failed("\(record.id): an earlier run did not finish after it was cancelled")
                }
                if sink.isCancelled {
                    monitor.unlock()
                    return .failed("cancelled")
                }
                monitor.wait(milliseconds: Self.pollMilliseconds)
            }
            busy = run
        }
        runs.append(run)
        monitor.unlock()

        // The plugin's run function may outlive this call (the host stops waiting for a
        // cancelled run after the grace): the coordinator keeps a record of it until the
        // plugin is done with the run, so its idle and its destroy wait for that.
        run.onDoneExecuting = sink.beginWorkOutlivingRun()
        start(run)
        return wait(for: run, sink: sink)
    }

    /// Calls descriptor.run on a thread of its own, so the host can stop waiting for a
    /// plugin that works inside run and never returns.
    private func start(_ run: PluginRun) {
        let runFunction = library.descriptor.run!
        let instance = handle
        let request = run.requestPointer
        let handle = run.handle
        let context = PluginLogContext(prefix: library.record.id, logger: { [run] line in run.note(line) })
        do {
            try RuntimeThread.start { [monitor] in
                let status = PluginLogContext.with(context) { runFunction(instance, request, handle) }
                monitor.withLock { run.runReturned(status) }
            }
        } catch {
            monitor.withLock { run.failToStart(error.message) }
        }
    }

    /// Waits until the run is over for the plugin (finished and returned from run), or
    /// until the sink is cancelled: then asks the plugin to cancel and gives it the grace
    /// time to finish.
    private func wait(for run: PluginRun, sink: ProviderSink) -> ProviderOutcome {
        monitor.lock()
        defer { monitor.unlock() }
        var deadline: Int64?
        while !run.isComplete {
            if let deadline {
                if MonotonicClock.nowMilliseconds() >= deadline { break }
            } else if sink.isCancelled {
                if let outcome = run.outcome {
                    // Finished; only descriptor.run has not returned yet.
                    run.detach()
                    return outcome
                }
                run.markCancelled()
                deadline = MonotonicClock.nowMilliseconds() + cancelGrace
                if let cancel = library.descriptor.cancel {
                    // Not under the lock: a plugin may finish from inside cancel.
                    monitor.unlock()
                    PluginLogContext.with(logContext) { cancel(handle, run.handle) }
                    monitor.lock()
                }
                continue
            }
            monitor.wait(milliseconds: Self.pollMilliseconds)
        }
        run.detach()
        return deadline == nil ? run.outcome! : .failed("cancelled")
    }

    /// Destroys the instance when no run may still be using it. With an abandoned run still
    /// unfinished, the plugin's instance, its settings and every run handle are kept for the
    /// process instead: the plugin may call the host with them at any time.
    deinit {
        let complete = monitor.withLock { runs.allSatisfy(\.isComplete) }
        guard complete else {
            for run in runs { _ = Unmanaged.passRetained(run) }
            _ = Unmanaged.passRetained(settings)
            logger("\(library.record.path): instance not destroyed: a cancelled run never finished")
            return
        }
        let destroy = library.descriptor.destroy!
        PluginLogContext.with(logContext) { destroy(handle) }
    }
}
