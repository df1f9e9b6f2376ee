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

    /// `events` with neighbouring edits (and texts) of the same run joined, each group
    /// gathered in place (appending to a copy per event would be quadratic in a burst).
    static func merged(_ events: [HostEvent]) -> [HostEvent] {
        var out: [HostEvent] = []
        var edits: (run: UInt64, list: [ProviderEdit])?
        var text: (run: UInt64, chunk: String)?
        func flush() {
            if let group = edits { out.append(.edits(run: group.run, group.list)) }
            if let group = text { out.append(.text(run: group.run, group.chunk)) }
            edits = nil
            text = nil
        }
        for event in events {
            switch event {
            case .edits(let run, let more):
                if edits?.run == run {
                    edits!.list.append(contentsOf: more)
                } else {
                    flush()
                    edits = (run, more)
                }
            case .text(let run, let more):
                if text?.run == run {
                    text!.chunk += more
                } else {
                    flush()
                    text = (run, more)
                }
            default:
                flush()
                out.append(event)
            }
        }
        flush()
        return out
    }
}
