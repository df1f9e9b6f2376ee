import Foundation
import EmendCore

/// A ProviderSink that records what a plugin run delivers and can cancel itself: after a
/// number of text pieces, or after some time.
final class PluginTestSink: ProviderSink, @unchecked Sendable {
    private let lock = NSLock()
    private var cancelled = false
    private var textPieces: [String] = []
    private var editList: [ProviderEdit] = []
    private var logLines: [String] = []
    private let cancelAfterTexts: Int?
    private let cancelAt: Date?

    init(cancelAfterTexts: Int? = nil, cancelAfterSeconds: Double? = nil) {
        self.cancelAfterTexts = cancelAfterTexts
        cancelAt = cancelAfterSeconds.map { Date().addingTimeInterval($0) }
    }

    var isCancelled: Bool {
        lock.withLock {
            if let cancelAt, Date() >= cancelAt { cancelled = true }
            return cancelled
        }
    }

    func cancel() { lock.withLock { cancelled = true } }

    func emitText(_ chunk: String) {
        lock.withLock {
            textPieces.append(chunk)
            if let cancelAfterTexts, textPieces.count >= cancelAfterTexts { cancelled = true }
        }
    }

    func emitEdit(_ edit: ProviderEdit) { lock.withLock { editList.append(edit) } }
    func log(_ message: String) { lock.withLock { logLines.append(message) } }

    var texts: [String] { lock.withLock { textPieces } }
    var text: String { texts.joined() }
    var edits: [ProviderEdit] { lock.withLock { editList } }
    var logs: [String] { lock.withLock { logLines } }
}

/// Collects the lines a PluginProvider logs outside runs.
final class PluginLogCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    var logger: @Sendable (String) -> Void { { [self] line in lock.withLock { lines.append(line) } } }
    var all: [String] { lock.withLock { lines } }
}

/// The UTF-8 byte range of the first `needle` in `text`.
func byteRange(of needle: String, in text: String) -> Range<Int> {
    let range = text.range(of: needle)!
    let start = text.utf8.distance(from: text.startIndex, to: range.lowerBound)
    return start..<start + needle.utf8.count
}
