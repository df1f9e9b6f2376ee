/// Whether the edits of a rewrite's step are being planned on a runtime thread (see
/// `VersionPlan`), and what happened to the text since the region was copied for it.
///
/// Why a state: while the plan is out, the engine's thread goes on — the engine edits, stops,
/// reverts. The plan's edits are ranges of the region as it was copied; they reach the text
/// only through the engine's edits since, which this keeps, as the anchors of a plan made at
/// once would have followed them. A stop, a revert or a restore that begins meanwhile drops
/// the plan (`cancel`): its answer then finds another ticket, or none, and goes nowhere.
enum VersionAlignment {
    /// No plan is out.
    case none
    /// A plan is out.
    case inFlight(Flight)

    /// Tells one plan's answer from another's (compared by identity).
    final class Ticket {}

    /// A plan that is out.
    struct Flight {
        /// Tells this plan's answer from a dropped one's.
        let ticket = Ticket()
        /// The version the step shows.
        let target: Int
        /// Where the region began (current bytes) when it was copied.
        let regionStart: Int
        /// The engine's edits of the working context since, in order, each in the bytes of
        /// the text as it was then: `range` became `length` bytes.
        var engineEdits: [(range: Range<Int>, length: Int)] = []
    }

    var isInFlight: Bool { if case .inFlight = self { true } else { false } }

    /// The engine edited `range` of the working context into `length` bytes: kept for the
    /// plan that is out (nothing when none is).
    mutating func engineEdited(_ range: Range<Int>, length: Int) {
        guard case .inFlight(var flight) = self else { return }
        flight.engineEdits.append((range, length))
        self = .inFlight(flight)
    }

    /// The flight of `ticket` while it is out; nil once it landed or was dropped.
    func flight(_ ticket: Ticket) -> Flight? {
        guard case .inFlight(let flight) = self, flight.ticket === ticket else { return nil }
        return flight
    }

    /// The plan's answer arrived: the flight it belongs to, which is over; nil when that plan
    /// was dropped (or another one is out).
    mutating func land(_ ticket: Ticket) -> Flight? {
        guard case .inFlight(let flight) = self, flight.ticket === ticket else { return nil }
        self = .none
        return flight
    }

    /// Drops the plan that is out (a stop, a revert, a restore begins).
    mutating func cancel() { self = .none }

    /// Where `range` of the region's copy (relative to it) is in the text now: moved through
    /// the engine's edits since, as an anchor made then would have been; nil when one of them
    /// removed it (the edit is withdrawn, as a planned replace whose text the engine edited).
    static func place(_ range: Range<Int>, of flight: Flight) -> Range<Int>? {
        var now = (range.lowerBound + flight.regionStart)..<(range.upperBound + flight.regionStart)
        for edit in flight.engineEdits {
            guard let moved = Anchor.follow(now, includesEdges: false, edited: edit.range, delta: edit.length - edit.range.count) else {
                return nil
            }
            now = moved
        }
        return now
    }
}
