/// A request for the rectangles of suggestions, asked one after another or in batches, and
/// the event handled once all were answered.
///
/// Why a value: each answer arrives in a later dispatch; the request goes on from its event
/// (`SessionEvent.rectsAnswered`) instead of from a closure chain.
struct RectRequest {
    /// Underlines (proofreading marks) or bounding rectangles (hit testing).
    let purpose: RectPurpose
    /// The suggestions not asked for yet.
    var rest: ArraySlice<Suggestion>
    /// Handled once every suggestion was asked for and answered.
    let then: SessionEvent
    /// The layout (`Session.layout`) the engine worked out the rectangles out in (see
    /// `LayoutStamp`): the answer is of that layout, whatever changed it before the answer
    /// came (rectangles tagged with the layout at their arrival were taken as current after a
    /// reflow that made them stale).
    var askedIn = 0
    /// How many times an answer of an earlier layout was asked again (see `mayAskAgain`).
    var askedAgain = 0

    /// An answer of an earlier layout is asked again this many times at most: an engine that
    /// reflows whenever it is asked for rectangles would otherwise never let the request end.
    static let mostAskedAgain = 2

    /// Whether an answer of an earlier layout is asked again (else it is kept, tagged with the
    /// layout it is of: a later lookup finds none for the layout now).
    var mayAskAgain: Bool { askedAgain < Self.mostAskedAgain }

    /// The rectangles each of `count` suggestions keeps from `answer` (`batched`: the answer
    /// to one request for all of them), or nil when they keep what they had. A batch's answer
    /// gives each its list ([] for all when the engine failed the request or gave another
    /// number of lists); a single underline request keeps only a real answer; a single
    /// bounding request keeps [] for any other (the click is tested against what is known).
    func kept(_ answer: DelegateAnswer, count: Int, batched: Bool) -> [[Rect]]? {
        if batched {
            if case .rectBatch(let lists) = answer, lists.count == count { return lists }
            return Array(repeating: [], count: count)
        }
        if case .rects(let rects) = answer { return Array(repeating: rects, count: count) }
        return purpose == .bounding ? Array(repeating: [], count: count) : nil
    }
}

/// The layout a rectangle request was made in: written when the call reaches the engine (a
/// dispatch after it was queued, maybe after a reflow) and read when its answer comes.
final class LayoutStamp {
    var layout = 0
}
