/// What a review step keeps of the session's undo history: a step to record once it
/// happened, or a step to put back when the engine refused it.
///
/// Why a value: a review step's replace is answered in a later dispatch; what its end does to
/// the history travels with the step's events (`SessionEvent.suggestionSet`,
/// `.reviewStepTakenBack`) instead of in a closure, and is decided here, purely.
enum ReviewHistory: Equatable {
    /// Show original or rewritten: no history.
    case none
    /// A reject of suggestion `index`: a step to undo, once it happened.
    case reject(Int)
    /// An undo of `step`, moved to the redo stack when it began: back to undo if it did not happen.
    case undo(Session.UndoStep)
    /// A redo of `step`, moved to the undo stack when it began: back to redo if it did not happen.
    case redo(Session.UndoStep)

    /// The step ended; `happened`: it changed the text as asked (not refused; a reject's
    /// suggestion is rejected now). Updates the undo and redo stacks accordingly.
    func ended(happened: Bool, undo: inout [Session.UndoStep], redo: inout [Session.UndoStep]) {
        switch self {
        case .none:
            return
        case .reject(let index):
            // Only a reject that happened is a step (the engine may have edited the text first).
            guard happened else { return }
            undo.append(.reject(index))
            redo.removeAll()
        case .undo(let step):
            // Refused: the step was not undone; it stays to undo.
            guard !happened, redo.last == step else { return }
            redo.removeLast()
            undo.append(step)
        case .redo(let step):
            // Refused: the step was not redone; it stays to redo.
            guard !happened, undo.last == step else { return }
            undo.removeLast()
            redo.append(step)
        }
    }
}
