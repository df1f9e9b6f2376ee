import Glibc
import EmendCore

/// A spinner with the elapsed time on stderr while a provider works; only on a terminal.
final class Progress {
    private static let frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
    private let enabled: Bool
    private let label: String
    private let started = Progress.now()
    private var frame = 0
    private var shown = false
    private var lastDraw: Int64 = 0
    /// Extra words after the time ("1200 changes").
    var detail = ""

    init(label: String, enabled: Bool = Terminal.stderrIsTerminal) {
        self.label = label
        self.enabled = enabled
    }

    static func now() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
    }

    var elapsedMilliseconds: Int64 { Progress.now() - started }

    /// Redraws at most ten times a second; waits a quarter second before the first draw so
    /// quick runs print nothing.
    func tick() {
        guard enabled else { return }
        let now = Progress.now()
        guard now - started >= 250, now - lastDraw >= 100 else { return }
        lastDraw = now
        frame = (frame + 1) % Progress.frames.count
        let seconds = Double(now - started) / 1000
        let time = seconds < 10 ? String(format1(seconds)) + "s" : "\(Int(seconds))s"
        let extra = detail.isEmpty ? "" : ", \(detail)"
        Terminal.err("\r\u{1B}[K\(Progress.frames[frame]) \(label) \(time)\(extra)")
        shown = true
    }

    /// Removes the spinner line.
    func clear() {
        guard shown else { return }
        Terminal.err("\r\u{1B}[K")
        shown = false
    }

    /// Clears and never draws again (output to the same terminal started).
    private(set) var stopped = false
    func stop() {
        clear()
        stopped = true
    }

    func tickIfRunning() { if !stopped { tick() } }

    private func format1(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded(.down))
        return "\(tenths / 10).\(tenths % 10)"
    }
}
