/// Something a text states that a rewrite must keep and a summary must not invent: a number,
/// a date, a name, a link, a quotation, a negation. Found by `FactExtractor`, compared by
/// `FactGuard`.
struct Fact: Equatable, Sendable {
    enum Kind: String, Sendable {
        case number, date, time, weekday, name, url, email, quote, code, negation
    }

    let kind: Kind
    /// As the text writes it ("five days", "Friday", "not tell customers a date").
    let shown: String
    /// What two writings of the same fact share: a number's value ("5"), a name in lower
    /// case, a negated clause's first content word.
    let key: String
    /// A number's unit or currency ("$", "%", "days"), lower case; empty when none.
    var unit: String = ""

    /// Whether `other` states the same fact (formatting aside: "5" / "five", "Friday" /
    /// "friday", "5 days" / "five days"; a unit on one side only still matches).
    func matches(_ other: Fact) -> Bool {
        guard kind == other.kind || (Self.timeLike.contains(kind) && Self.timeLike.contains(other.kind)) else { return false }
        guard key == other.key else { return false }
        return unit.isEmpty || other.unit.isEmpty || unit == other.unit
    }

    /// Kinds one writing may turn into another ("Friday" / "this Friday", "3pm" / "15:00").
    private static let timeLike: Set<Kind> = [.date, .weekday, .time]
}
