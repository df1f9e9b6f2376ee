import EmendCore
import Glibc

/// Runs emend-scan for several files at once, each with a time limit: a child still
/// running at its limit is killed with its process group.
struct ScannerBatch {
    var scanner: String
    var timeoutMilliseconds: Int
    /// Children at the same time.
    var parallel: Int

    /// One outcome per job, in order; a job is the scanner's arguments.
    func run(_ jobs: [[String]]) -> [ScanOutcome] {
        var outcomes = [ScanOutcome?](repeating: nil, count: jobs.count)
        var running: [(job: Int, child: ScannerChild, deadline: Int64)] = []
        var next = 0
        var pause: UInt32 = 50
        while next < jobs.count || !running.isEmpty {
            while running.count < max(1, parallel) && next < jobs.count {
                switch ScannerChild.spawn(scanner, jobs[next]) {
                case .success(let child):
                    running.append((next, child, MonotonicClock.nowMilliseconds() + Int64(timeoutMilliseconds)))
                case .failure(let error):
                    outcomes[next] = .notStarted(error.message)
                }
                next += 1
            }
            wait(for: running.map(\.child), until: running.map(\.deadline).min() ?? 0, pause: &pause)
            let now = MonotonicClock.nowMilliseconds()
            var index = 0
            while index < running.count {
                running[index].child.drain()
                if let outcome = running[index].child.reap() {
                    running[index].child.drain()
                    running[index].child.closeOutput()
                    outcomes[running[index].job] = outcome
                    running.remove(at: index)
                    pause = 50
                } else if now >= running[index].deadline {
                    running[index].child.kill()
                    outcomes[running[index].job] = .timedOut(milliseconds: timeoutMilliseconds)
                    running.remove(at: index)
                } else {
                    index += 1
                }
            }
        }
        return outcomes.map { $0 ?? .notStarted("not scanned") }
    }

    /// Sleeps until a child's output is readable or the deadline passes. A child that closed
    /// its output is about to exit (or misbehaves): then sleep briefly, 50 µs doubling up to
    /// 5 ms, so that its exit is seen at once without spinning.
    private func wait(for children: [ScannerChild], until deadline: Int64, pause: inout UInt32) {
        guard !children.isEmpty else { return }
        var fds = children.filter { $0.output >= 0 }.map { pollfd(fd: $0.output, events: Int16(POLLIN), revents: 0) }
        if fds.count == children.count {
            pause = 50
            let timeout = max(0, deadline - MonotonicClock.nowMilliseconds())
            _ = poll(&fds, nfds_t(fds.count), Int32(min(timeout, Int64(Int32.max))))
        } else if poll(&fds, nfds_t(fds.count), 0) <= 0 {
            usleep(pause)
            pause = min(pause * 2, 5000)
        }
    }
}
