/// Attribute keys of the runs Markdown turns into, and reads back. Values are strings: "1"
/// for a flag, the URL for a link. Other keys (font, colour...) are not Markdown.
public enum AttributeKey {
    // Display attributes, for rich text engines.
    public static let bold = "bold"
    public static let italic = "italic"
    public static let underline = "underline"
    public static let strikethrough = "strikethrough"
    public static let link = "link"
    public static let monospace = "monospace"
    public static let superscript = "superscript"
    public static let `subscript` = "subscript"
    // Inline presentation intents, for engines that take them ("link" is shared).
    public static let strong = "strong"
    public static let emphasis = "emphasis"
    public static let code = "code"
    /// The value of a flag attribute that is on.
    public static let on = "1"
}
