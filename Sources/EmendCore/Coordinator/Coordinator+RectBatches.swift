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

    /// Asks for the rectangles of the request's next suggestions in one batch of at most
    /// `rectBatchSize` (`.rectBatchAnswered` goes on with the rest); when none is left, handles
    /// what follows the request.
    func requestRectBatch(_ request: RectRequest) {
        // Only suggestions with a place, of one context per request (a session's suggestions
        // are all of its working context).
        var rest = request.rest.drop { $0.anchor.range == nil }
        guard let first = rest.first, let context = try? context(first.contextID) else { return handle(request.then) }
        var batch: [Suggestion] = []
        var ranges: [Range<Int>] = []
        while let next = rest.first, batch.count < Self.rectBatchSize, next.contextID == first.contextID {
            rest = rest.dropFirst()
            guard let range = next.anchor.range else { continue }
            batch.append(next)
            ranges.append(range)
        }
        var after = request
        after.rest = rest
        let purpose = request.purpose
        let stamp = LayoutStamp()
        call(.rectBatches, .rectBatch(count: ranges.count), invoke: { [unowned self] in
            stamp.layout = self.session?.layout ?? 0
            self.delegate.requestsRects(self, purpose, contextID: context.id, engineContext: context.engineContext,
                                        ranges: ranges, request: $0)
        }, then: { [after] answer in
            var asked = after
            asked.askedIn = stamp.layout
            return .rectsAnswered(asked, batch, answer)
        })
    }

}
