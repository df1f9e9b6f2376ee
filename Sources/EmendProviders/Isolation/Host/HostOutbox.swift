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

    /// The size up to which neighbouring events are merged into one frame: libemend accepts
    /// frames up to max_result_bytes (or max_edit_bytes) plus `FrameLimit.framing`, so a
    /// merged frame must stay below what one event may be (many tiny edits would not).
    static let mergeLimit = 1 << 20

    /// `events` with neighbouring edits (and texts) of the same run joined, each group
    /// gathered in place (appending to a copy per event would be quadratic in a burst), and
    /// a group closed at `mergeLimit` bytes.
    static func merged(_ events: [HostEvent]) -> [HostEvent] {
        var out: [HostEvent] = []
        var edits: (run: UInt64, list: [ProviderEdit], bytes: Int)?
        var text: (run: UInt64, chunk: String, bytes: Int)?
        func flush() {
            if let group = edits { out.append(.edits(run: group.run, group.list)) }
            if let group = text { out.append(.text(run: group.run, group.chunk)) }
            edits = nil
            text = nil
        }
        for event in events {
            switch event {
            case .edits(let run, let more):
                let bytes = more.reduce(0) { $0 + encodedSize($1) }
                if let group = edits, group.run == run, group.bytes + bytes <= mergeLimit {
                    edits!.list.append(contentsOf: more)
                    edits!.bytes += bytes
                } else {
                    flush()
                    edits = (run, more, bytes)
                }
            case .text(let run, let more):
                let bytes = more.utf8.count
                if let group = text, group.run == run, group.bytes + bytes <= mergeLimit {
                    text!.chunk += more
                    text!.bytes += bytes
                } else {
                    flush()
                    text = (run, more, bytes)
                }
            default:
                flush()
                out.append(event)
            }
        }
        flush()
        return out
    }

    /// The bytes one edit takes in an EDITS frame.
    static func encodedSize(_ edit: ProviderEdit) -> Int {
        32 + edit.replacement.utf8.count + edit.explanation.utf8.count + edit.category.utf8.count + edit.ruleID.utf8.count
    }
}
