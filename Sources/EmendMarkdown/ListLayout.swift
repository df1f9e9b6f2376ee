/// Markers and indentation of the items of one Markdown list, nested lists included: each
/// level is indented to its parent item's content column.
struct ListLayout {
    /// "*" and ")" instead of "-" and ".", so that a list right after another stays apart.
    let alternate: Bool
    private var levels: [(contentColumn: Int, ordered: Bool)] = []

    init(alternate: Bool = false) { self.alternate = alternate }

    struct Placement {
        var indent: Int
        var marker: String
        /// The item needs a blank line before it: it changes between bullets and numbers at
        /// its level, or starts a nested list that could not interrupt its parent's text.
        var blankLineBefore: Bool
        var contentColumn: Int { indent + marker.count + 1 }
    }

    /// Places an item of nesting `depth` (a level deeper than the last at most).
    mutating func place(depth: Int, ordinal: Int, isEmpty: Bool) -> Placement {
        let level = min(depth, levels.count + 1)
        let ordered = ordinal != 0
        let indent = level == 1 ? 0 : levels[level - 2].contentColumn
        let marker = ordered ? "\(ordinal)" + (alternate ? ")" : ".") : (alternate ? "*" : "-")
        let blank: Bool
        if level <= levels.count {
            blank = levels[level - 1].ordered != ordered
        } else {
            blank = level > 1 && ((ordered && ordinal != 1) || isEmpty)
        }
        let placement = Placement(indent: indent, marker: marker, blankLineBefore: blank)
        levels = Array(levels.prefix(level - 1)) + [(placement.contentColumn, ordered)]
        return placement
    }
}
