import EmendText

/// One context of a session: the engine's text as the runtime knows it now.
final class SessionContext {
    let id: UInt64
    let engineContext: UInt
    /// The context's text with every change delivered or reported since it was given.
    private(set) var text: AttributedText
    let selection: Range<Int>
    private var anchors: [Anchor] = []

    init(id: UInt64, description: ContextDescription) {
        self.id = id
        self.engineContext = description.engineContext
        self.text = description.text
        self.selection = description.selection
    }

    /// A new anchor that follows changes to this context's text.
    func anchor(_ range: Range<Int>, includesEdges: Bool = false) -> Anchor {
        let anchor = Anchor(range, includesEdges: includesEdges)
        anchors.append(anchor)
        return anchor
    }

    /// Stops following an anchor.
    func release(_ anchor: Anchor) {
        anchors.removeAll { $0 === anchor }
    }

    /// Applies a change to the mirror text and moves every anchor.
    func apply(_ range: Range<Int>, _ replacement: String) {
        text.replace(range, with: replacement)
        let delta = replacement.utf8.count - range.count
        for anchor in anchors { anchor.follow(range, delta: delta) }
    }
}
