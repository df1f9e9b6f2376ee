import EmendCore
import EmendText

/// The text engine a worker's coordinator talks to: a copy of the text being checked or
/// rewritten, changed by the coordinator's replaces. Why a copy: the client owns the real
/// document; the server turns what changed here into LSP edits and diagnostics.
final class WorkerEngine: ScreenlessDelegate {
    private(set) var bytes: [UInt8] = []
    private(set) var selection: Range<Int> = 0..<0
    private(set) var protectedRanges: [Range<Int>] = []
    private(set) var presented: PresentedResult?
    let capabilities: DelegateCapabilities = [.replace, .presentResult]

    /// A new text for the next session.
    func load(_ text: [UInt8], selection: Range<Int>, protected: [Range<Int>]) {
        bytes = text
        self.selection = selection
        protectedRanges = protected
        presented = nil
    }

    func reply(_ coordinator: Coordinator, _ request: RequestID, _ answer: DelegateAnswer) {
        try? coordinator.answer(request, answer)
    }

    func requestsContexts(_ coordinator: Coordinator, scope: ContextScope, request: RequestID) {
        let text = String(decoding: bytes, as: UTF8.self)
        let context = ContextDescription(text: AttributedText(text, protectedRanges: protectedRanges), selection: selection)
        reply(coordinator, request, .contexts([context]))
    }

    func replace(_ coordinator: Coordinator, _ proposal: ReplaceProposal, request: RequestID) {
        guard proposal.range.lowerBound >= 0, proposal.range.upperBound <= bytes.count else {
            return reply(coordinator, request, .failed(EmendError(.range, "replace at \(proposal.range) is outside the text")))
        }
        bytes.replaceSubrange(proposal.range, with: Array(proposal.text.utf8))
        reply(coordinator, request, .replaced(nil))
    }

    /// Kept, not applied: a summary becomes an inserted paragraph, a poor result an error
    /// the user reads; either way the server decides, not the coordinator.
    func presentResult(_ coordinator: Coordinator, _ result: PresentedResult, request: RequestID) {
        presented = result
        reply(coordinator, request, .presented(.dismiss))
    }
}
