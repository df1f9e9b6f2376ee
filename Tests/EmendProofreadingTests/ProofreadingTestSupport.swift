import Foundation
import EmendCore

/// A ProviderSink that records what a proofreader delivers and can cancel itself after
/// some time.
final class RecordingSink: ProviderSink, @unchecked Sendable {
    private let lock = NSLock()
    private var editList: [ProviderEdit] = []
    private var logLines: [String] = []
    private let cancelAt: Date?

    init(cancelAfterSeconds: Double? = nil) {
        cancelAt = cancelAfterSeconds.map { Date().addingTimeInterval($0) }
    }

    var isCancelled: Bool { cancelAt.map { Date() >= $0 } ?? false }
    func emitText(_ chunk: String) {}
    func emitEdit(_ edit: ProviderEdit) { lock.withLock { editList.append(edit) } }
    func log(_ message: String) { lock.withLock { logLines.append(message) } }

    var edits: [ProviderEdit] { lock.withLock { editList } }
    var logs: [String] { lock.withLock { logLines } }
}

/// The UTF-8 byte range of the first `needle` in `text`.
func byteRange(of needle: String, in text: String) -> Range<Int> {
    let range = text.range(of: needle)!
    let start = text.utf8.distance(from: text.startIndex, to: range.lowerBound)
    return start..<start + needle.utf8.count
}
