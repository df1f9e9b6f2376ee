import EmendMarkdown

/// How a command reads its input: which parts are markup that no tool may change.
enum InputFormat: Equatable {
    case plainText
    /// Code, quotes, links and front matter protected (`MarkdownProtection`).
    case markdown
    /// Commands, math, comments and non-prose environments protected (`LaTeXProtection`).
    case latex

    /// The format the options name, else the one the file's name says.
    static func of(_ input: InputDocument, options: ToolOptions) -> InputFormat {
        if options.latex { return .latex }
        if options.markdown { return .markdown }
        if let path = input.path, LaTeXProtection.isLaTeXFileName(path) { return .latex }
        return input.looksLikeMarkdown ? .markdown : .plainText
    }
}
