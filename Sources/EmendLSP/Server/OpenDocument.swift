import EmendCore
import EmendText

/// The server's state for one open document: the text, what kind of prose it holds, when
/// its next check is due, its units with their findings and encoded diagnostics, and when it
/// was last published.
struct OpenDocument {
    /// Whether `units` describe the text as it is now.
    enum UnitsState: Equatable {
        /// Never cut, or an edit could not be patched in: cut the whole text again.
        case stale
        /// Cut (or patched edit by edit) for the current text.
        case current
    }

    var document: TextDocument
    var kind: DocumentKind
    /// When the debounce for the last change ends (monotonic ms); nil: nothing to do.
    var checkDue: Int64?
    var unitsState = UnitsState.stale
    var units: [CheckUnit] = []
    /// The findings of each of `units` (same order), nil while not known. Why kept here:
    /// a keystroke in a large document would otherwise hash every paragraph again at each
    /// step (check, each report, publish); now only the units an edit changed are looked up.
    var findings: [[UnitFinding]?] = []
    /// Each unit's diagnostics as last encoded (same order), nil when not encoded yet or
    /// changed; see `DiagnosticsFragment`.
    var fragments: [DiagnosticsFragment?] = []
    /// Units of this document the checker still owes findings for.
    var owed: Set<UnitKey> = []
    var check = CheckState.idle
    var lastPublish: Int64 = 0
    /// The changes of the last rewrite applied here, offered for review (see ReviewItems).
    var reviewItems: [ReviewItem] = []
    /// A rewrite's edit sent and not seen back yet.
    var pendingReview: PendingReview?
    /// Changed by the user since the last check: the next check's units go first.
    var changedSinceCheck = false
    /// Units of a keystroke's check still awaited: their findings are published the moment
    /// they come, ahead of the rest of a check in progress.
    var urgent: Set<UnitKey> = []
    /// When the keystroke check in flight (`urgent`) was submitted (monotonic ms).
    var urgentSince: Int64 = 0
    /// Changed while a keystroke check of slow checkers was in flight: checked again the
    /// moment that check answers (`AdaptiveDebounce`).
    var recheckWhenAnswered = false

    init(_ document: TextDocument, kind: DocumentKind? = nil) {
        self.document = document
        self.kind = kind ?? DocumentKind.forLanguage(document.languageID)
    }

    /// Forgets the units' findings (the cache or the failed units changed): the next check
    /// looks every unit up again.
    mutating func forgetFindings() {
        findings = Array(repeating: nil, count: units.count)
        fragments = Array(repeating: nil, count: units.count)
    }

    /// Cuts the units again when an edit could not be patched in.
    mutating func refreshUnits() {
        guard unitsState == .stale else { return }
        units = CheckUnits.units(of: document.bytes, kind: kind)
        unitsState = .current
        findings = Array(repeating: nil, count: units.count)
        fragments = Array(repeating: nil, count: units.count)
        owed = []
    }

    /// Replaces `range` (bytes of the text as it is) with `text`, keeping the units current
    /// when the edit stays inside one of them (`UnitPatch`): that unit alone changes and the
    /// ones after it move. Otherwise the units go stale and are cut again at the next check.
    mutating func replace(_ range: Range<Int>, with text: [UInt8]) {
        moveReviewItems(range, length: text.count)
        defer { document.replace(range, with: text) }
        guard unitsState == .current else { return }
        guard let index = unitIndex(holding: range),
              let patched = UnitPatch.patched(units[index], replacing: range, with: text, kind: kind) else {
            unitsState = .stale
            return
        }
        let delta = text.count - range.count
        units[index] = patched
        findings[index] = nil
        fragments[index] = nil
        if delta != 0 {
            for later in (index + 1)..<units.count {
                units[later] = CheckUnit(offset: units[later].offset + delta, key: units[later].key)
            }
        }
    }

    /// The whole text replaced: the units are cut again at the next check.
    mutating func replaceAll(with text: [UInt8]) {
        // (The whole text replaced: no change can be followed through it.)
        reviewItems = []
        document.replaceAll(with: text)
        unitsState = .stale
    }

    /// The unit whose range holds `range` (its end may be the unit's end), by bisection.
    private func unitIndex(holding range: Range<Int>) -> Int? {
        var low = 0
        var high = units.count
        while low < high {
            let mid = (low + high) / 2
            if units[mid].offset <= range.lowerBound { low = mid + 1 } else { high = mid }
        }
        let index = low - 1
        guard index >= 0, range.upperBound <= units[index].range.upperBound else { return nil }
        return index
    }
}
