/// An engine with no screen — a file on disk (`emend proofread`), a language server's copy
/// of a document — answers the callbacks about display at once: nothing to select, no
/// rectangles, no animation, every state change accepted. Why a protocol: both engines wrote
/// the same seven answers; an engine that shows its text implements them itself.
public protocol ScreenlessDelegate: CoordinatorDelegate {
    /// Answers `request` (the engine decides what to do when the coordinator refuses it).
    func reply(_ coordinator: Coordinator, _ request: RequestID, _ answer: DelegateAnswer)
}

extension ScreenlessDelegate {
    public func selectRanges(_ coordinator: Coordinator, contextID: UInt64, engineContext: UInt, ranges: [Range<Int>], request: RequestID) {
        reply(coordinator, request, .done)
    }
    public func requestsBoundingRects(_ coordinator: Coordinator, contextID: UInt64, engineContext: UInt, range: Range<Int>, request: RequestID) {
        reply(coordinator, request, .rects([]))
    }
    public func requestsUnderlineRects(_ coordinator: Coordinator, contextID: UInt64, engineContext: UInt, range: Range<Int>, request: RequestID) {
        reply(coordinator, request, .rects([]))
    }
    public func prepareForTextAnimation(_ coordinator: Coordinator, _ animation: TextAnimation, contextID: UInt64, engineContext: UInt,
                                        range: Range<Int>, request: RequestID) {
        reply(coordinator, request, .done)
    }
    public func requestsPreview(_ coordinator: Coordinator, _ animation: TextAnimation, contextID: UInt64, engineContext: UInt,
                                range: Range<Int>, request: RequestID) {
        reply(coordinator, request, .preview(0))
    }
    public func finishTextAnimation(_ coordinator: Coordinator, _ animation: TextAnimation, contextID: UInt64, engineContext: UInt,
                                    range: Range<Int>, preview: UInt, request: RequestID) {
        reply(coordinator, request, .done)
    }
    public func willChangeToState(_ coordinator: Coordinator, _ state: CoordinatorState, request: RequestID) {
        reply(coordinator, request, .done)
    }
}
