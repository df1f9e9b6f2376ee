import EmendCore

/// The host's way out: plugin threads queue events and one writer thread sends whatever
/// has piled up in one write, merging the edits (and texts) of one run that follow each
/// other into one frame. A plugin that emits faster than the socket drains gets large
/// frames; one that emits now and then gets its events at once, with no timer in between.
final class HostOutbox: @unchecked Sendable {
    private let channel: FrameChannel
    private let monitor = Monitor()
    private var queue: [HostEvent] = []
    /// Set when a write failed (libemend is gone): the host exits.
    private let onClosed: @Sendable () -> Void

    init(channel: FrameChannel, onClosed: @escaping @Sendable () -> Void) {
        self.channel = channel
        self.onClosed = onClosed
    }

    func start() throws(EmendError) {
        try RuntimeThread.start { [self] in writeLoop() }
    }

    func send(_ event: HostEvent) {
        monitor.withLock {
            queue.append(event)
            if queue.count == 1 { monitor.broadcast() }
        }
    }

    private func writeLoop() {
        var encoder = FrameEncoder()
        while true {
            let batch: [HostEvent] = monitor.withLock {
                while queue.isEmpty { monitor.wait(milliseconds: 1000) }
                defer { queue.removeAll(keepingCapacity: true) }
                return queue
            }
            encoder.removeAll()
            for event in Self.merged(batch) { event.encode(into: &encoder) }
            if !channel.write(encoder.bytes) {
                onClosed()
                return
            }
        }
    }

    /// `events` with neighbouring edits (and texts) of the same run joined.
    static func merged(_ events: [HostEvent]) -> [HostEvent] {
        var out: [HostEvent] = []
        out.reserveCapacity(events.count)
        for event in events {
            switch (out.last, event) {
            case (.edits(let run, let earlier)?, .edits(let next, let more)) where run == next:
                out[out.count - 1] = .edits(run: run, earlier + more)
            case (.text(let run, let earlier)?, .text(let next, let more)) where run == next:
                out[out.count - 1] = .text(run: run, earlier + more)
            default:
                out.append(event)
            }
        }
        return out
    }
}
