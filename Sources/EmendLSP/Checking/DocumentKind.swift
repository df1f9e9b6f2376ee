/// What part of a document is prose, by the client's `languageId`: all of it (plain text),
/// all but code, links and front matter (Markdown), or only comments and string literals
/// (source code, as harper-ls does). Languages the server does not know are not checked:
/// a spelling mark on every JSON key helps nobody.
public enum DocumentKind: Sendable, Equatable {
    case plainText
    case markdown
    case source(CommentSyntax)
    case unchecked

    public static func forLanguage(_ id: String) -> DocumentKind {
        switch id.lowercased() {
        case "", "plaintext", "text", "txt", "gitcommit", "git-commit", "mail", "rst", "restructuredtext",
             "asciidoc", "org", "tex", "latex", "help", "changelog":
            return .plainText
        case "markdown", "mdx", "quarto", "rmd", "rmarkdown", "vimwiki", "telekasten":
            return .markdown
        default:
            if let syntax = CommentSyntax.forLanguage(id.lowercased()) { return .source(syntax) }
            return .unchecked
        }
    }
}

/// How a programming language writes comments and strings.
public struct CommentSyntax: Sendable, Equatable {
    /// Markers that start a comment running to the end of the line ("//", "#", "--").
    public var line: [String]
    /// Block comments (and Python's docstrings) as opening and closing markers.
    public var blocks: [Pair]
    /// Characters that open and close a one-line string literal.
    public var quotes: [UInt8]

    public struct Pair: Sendable, Equatable {
        public var open: String
        public var close: String
    }

    static let cFamily = CommentSyntax(line: ["//"], blocks: [Pair(open: "/*", close: "*/")], quotes: [UInt8(ascii: "\"")])

    static func forLanguage(_ id: String) -> CommentSyntax? {
        let dq = UInt8(ascii: "\""), sq = UInt8(ascii: "'"), bt = UInt8(ascii: "`")
        switch id {
        case "c", "cpp", "objective-c", "objective-cpp", "java", "rust", "go", "swift", "kotlin", "scala", "csharp", "cs",
             "dart", "zig", "proto", "glsl", "hlsl", "cuda", "d", "groovy", "jsonc", "solidity", "v", "odin":
            return cFamily
        case "javascript", "javascriptreact", "typescript", "typescriptreact", "php", "vue", "svelte":
            return CommentSyntax(line: ["//"], blocks: [Pair(open: "/*", close: "*/")], quotes: [dq, sq, bt])
        case "css", "scss", "less":
            return CommentSyntax(line: id == "css" ? [] : ["//"], blocks: [Pair(open: "/*", close: "*/")], quotes: [dq, sq])
        case "python":
            return CommentSyntax(line: ["#"], blocks: [Pair(open: "\"\"\"", close: "\"\"\""), Pair(open: "'''", close: "'''")], quotes: [dq, sq])
        case "shellscript", "sh", "bash", "zsh", "fish", "ruby", "perl", "r", "toml", "yaml", "make", "makefile", "cmake",
             "dockerfile", "elixir", "nix", "powershell", "julia", "coffeescript", "tcl", "awk", "conf", "gdscript":
            return CommentSyntax(line: ["#"], blocks: [], quotes: [dq, sq])
        case "lua":
            return CommentSyntax(line: ["--"], blocks: [Pair(open: "--[[", close: "]]")], quotes: [dq, sq])
        case "sql", "haskell", "elm", "ada", "purescript":
            return CommentSyntax(line: ["--"], blocks: [Pair(open: "{-", close: "-}")], quotes: [dq])
        case "html", "xml", "svg":
            return CommentSyntax(line: [], blocks: [Pair(open: "<!--", close: "-->")], quotes: [])
        case "clojure", "lisp", "commonlisp", "scheme", "racket", "ini", "asm", "nasm":
            return CommentSyntax(line: [";"], blocks: [], quotes: [dq])
        case "erlang", "matlab", "octave":
            return CommentSyntax(line: ["%"], blocks: [], quotes: [dq])
        case "vim":
            return CommentSyntax(line: ["\""], blocks: [], quotes: [sq])
        default:
            return nil
        }
    }
}
