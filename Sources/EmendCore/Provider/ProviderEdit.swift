/// A suggested edit: `range` of the request's text (UTF-8 bytes) becomes `replacement`.
public struct ProviderEdit: Sendable, Equatable {
    public var range: Range<Int>
    public var replacement: String
    public var explanation: String
    /// "spelling", "grammar", "style", ...
    public var category: String
    public var ruleID: String

    public init(range: Range<Int>, replacement: String, explanation: String = "", category: String = "", ruleID: String = "") {
        self.range = range
        self.replacement = replacement
        self.explanation = explanation
        self.category = category
        self.ruleID = ruleID
    }
}
