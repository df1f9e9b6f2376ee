extension AttributeKey {
    /// The key a run of an inline style takes in a result for an engine: the intent key
    /// (strong, emphasis, code) when it takes presentation intents, the display key (bold,
    /// italic, monospace) otherwise, so that no text carries both forms of one style. Keys
    /// that are no such style (link, strikethrough, font, colour ...) stay as they are.
    public static func form(of key: String, presentationIntents: Bool) -> String {
        switch key {
        case bold, strong: return presentationIntents ? strong : bold
        case italic, emphasis: return presentationIntents ? emphasis : italic
        case monospace, code: return presentationIntents ? code : monospace
        default: return key
        }
    }
}
