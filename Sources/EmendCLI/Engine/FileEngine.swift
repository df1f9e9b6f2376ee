import EmendCore
import EmendText

/// The CLI as a text engine: one document (a file's text, or stdin's) with the selection
/// and protected ranges the user gave. It implements only what a file needs: replaces
/// (applied to the document at once) and presented results (summary, key points). The file
/// on disk is written by the command at the end, never from here.
final class FileEngine: ScreenlessDelegate {
    /// The document's UTF-8 bytes as the coordinator's replaces left them.
    var bytes: [UInt8] { document.bytes }
    private var document: GapBuffer
    /// Selected UTF-8 byte range; empty = the whole text (or the caret, for compose).
    let selection: Range<Int>
    let protectedRanges: [Range<Int>]
    let capabilities: DelegateCapabilities = [.replace, .presentResult]

    /// What to answer when the coordinator presents a result: apply it (`--write`) or not.
    var presentedAction: PresentedAction = .dismiss
    /// `--force`: a poor result is answered like a good one.
    var appliesPoorResults = false
    private(set) var presented: PresentedResult?
    /// Replaces applied so far (for the progress line).
    private(set) var replaceCount = 0
    /// Answers the coordinator rejected (a bug if ever non-empty).
    private(set) var answerErrors: [EmendError] = []

    init(text: [UInt8], selection: Range<Int>, protectedRanges: [Range<Int>]) {
        self.document = GapBuffer(text)
        self.selection = selection
        self.protectedRanges = protectedRanges
    }

    var text: String { String(decoding: bytes, as: UTF8.self) }

    func reply(_ coordinator: Coordinator, _ request: RequestID, _ answer: DelegateAnswer) {
        do { try coordinator.answer(request, answer) } catch { answerErrors.append(error) }
    }

    func requestsContexts(_ coordinator: Coordinator, scope: ContextScope, request: RequestID) {
        let context = ContextDescription(text: AttributedText(text, protectedRanges: protectedRanges), selection: selection)
        reply(coordinator, request, .contexts([context]))
    }

    func replace(_ coordinator: Coordinator, _ proposal: ReplaceProposal, request: RequestID) {
        guard proposal.range.lowerBound >= 0, proposal.range.upperBound <= document.count else {
            return reply(coordinator, request, .failed(EmendError(.range, "replace at \(proposal.range) is outside the document")))
        }
        document.replace(proposal.range, with: proposal.text.utf8)
        replaceCount += 1
        reply(coordinator, request, .replaced(nil))
    }

    func presentResult(_ coordinator: Coordinator, _ result: PresentedResult, request: RequestID) {
        presented = result
        // A poor result (or one that changes a fact) is shown with its reason, never written,
        // unless the user said --force.
        let action = result.explanation == nil || appliesPoorResults ? presentedAction : .dismiss
        reply(coordinator, request, .presented(action))
    }
}
