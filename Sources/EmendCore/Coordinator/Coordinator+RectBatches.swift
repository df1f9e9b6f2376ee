/// Asking for the rectangles of many suggestions in one request (the engine's
/// `requestsRects`), instead of one request per suggestion.
///
/// Why: one request per suggestion costs the engine an event-loop round trip each (1,600
/// suggestions took ~1,600 dispatches to underline); an engine that lays out its whole
/// buffer (GtkTextView) answers all of them at once.
extension Coordinator {
    /// The most ranges one request names: enough for any screen, small enough that reading
    /// the answer stays well inside one dispatch's budget.
    public static let rectBatchSize = 4096

    /// Whether the engine answers rectangle requests in batches.
    var asksRectsInBatches: Bool { delegate.capabilities.contains(.rectBatches) }

    /// Asks for the rectangles of `suggestions` (`purpose`) in batches of `rectBatchSize`,
    /// one batch after another; `keep` stores each suggestion's answer ([] when the engine
    /// failed the request or gave none), then `then` runs.
    func requestRectBatches(_ purpose: RectPurpose, _ suggestions: ArraySlice<Suggestion>,
                            keep: @escaping (Suggestion, [Rect]) -> Void, then: @escaping () -> Void) {
        // Only suggestions with a place, of one context per request (a session's suggestions
        // are all of its working context).
        var rest = suggestions.drop { $0.anchor.range == nil }
        guard let first = rest.first, let context = try? context(first.contextID) else { return then() }
        var batch: [Suggestion] = []
        var ranges: [Range<Int>] = []
        while let next = rest.first, batch.count < Self.rectBatchSize, next.contextID == first.contextID {
            rest = rest.dropFirst()
            guard let range = next.anchor.range else { continue }
            batch.append(next)
            ranges.append(range)
        }
        call(.rectBatches, .rectBatch(count: ranges.count), invoke: { [unowned self] in
            self.delegate.requestsRects(self, purpose, contextID: context.id, engineContext: context.engineContext,
                                        ranges: ranges, request: $0)
        }) { [weak self] answer in
            if case .rectBatch(let lists) = answer, lists.count == batch.count {
                for (suggestion, rects) in zip(batch, lists) { keep(suggestion, rects) }
            } else {
                for suggestion in batch { keep(suggestion, []) }
            }
            self?.requestRectBatches(purpose, rest, keep: keep, then: then)
        }
    }
}
