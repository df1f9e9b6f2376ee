extension InlineStyle {
    /// The style an attribute run stands for: bold or strong, italic or emphasis, monospace
    /// or code, strikethrough, link. nil for other keys and for flags that are off.
    init?(attributeKey key: String, value: String) {
        if key == AttributeKey.link {
            guard !value.isEmpty else { return nil }
            self = .link(url: value)
            return
        }
        guard !value.isEmpty, value != "0" else { return nil }
        switch key {
        case AttributeKey.bold, AttributeKey.strong: self = .strong
        case AttributeKey.italic, AttributeKey.emphasis: self = .emphasis
        case AttributeKey.monospace, AttributeKey.code: self = .code
        case AttributeKey.strikethrough: self = .strikethrough
        default: return nil
        }
    }

    /// The attribute run (key, value) for this style: intent keys (strong, emphasis, code)
    /// when the engine takes presentation intents, display keys otherwise.
    func attribute(presentationIntents: Bool) -> (key: String, value: String) {
        switch self {
        case .strong: return (presentationIntents ? AttributeKey.strong : AttributeKey.bold, AttributeKey.on)
        case .emphasis: return (presentationIntents ? AttributeKey.emphasis : AttributeKey.italic, AttributeKey.on)
        case .code: return (presentationIntents ? AttributeKey.code : AttributeKey.monospace, AttributeKey.on)
        case .strikethrough: return (AttributeKey.strikethrough, AttributeKey.on)
        case .link(let url): return (AttributeKey.link, url)
        }
    }
}
