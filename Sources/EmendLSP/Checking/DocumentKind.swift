/// What part of a document is prose, by the client's `languageId`: all of it (plain text),
/// all but code, links and front matter (Markdown, in every flavour), all but commands, math,
/// comments and non-prose environments (LaTeX, `LaTeXProtection`), or only comments and
/// string literals (source code, as harper-ls does). Data formats (JSON, CSV) are not
/// checked: a spelling mark on every key helps nobody. A languageId the server does not
/// know is checked as plain text (`DocumentLanguage` says so in the client's log).
public enum DocumentKind: Sendable, Equatable {
    case plainText
    case markdown
    case latex
    case source(CommentSyntax)
    case unchecked

    public static func forLanguage(_ id: String) -> DocumentKind {
        known(id) ?? .plainText
    }

    /// The kind of a languageId the server knows; nil for one it does not.
    public static func known(_ id: String) -> DocumentKind? {
        let id = id.lowercased()
        switch id {
        case "", "plaintext", "text", "txt", "gitcommit", "git-commit", "mail", "rst", "restructuredtext",
             "asciidoc", "org", "help", "changelog", "typst", "context", "bibtex":
            return .plainText
        case "latex", "tex", "plaintex", "context-tex", "latex-expl3", "doctex":
            return .latex
        case "markdown", "md", "mkd", "gfm", "commonmark", "mdx", "quarto", "qmd", "rmd", "rmarkdown", "pandoc",
             "multimarkdown", "vimwiki", "telekasten", "obsidian":
            return .markdown
        case "json", "jsonl", "json5", "csv", "tsv", "diff", "patch":
            return .unchecked
        default:
            // "markdown.mdx", "markdown_github", "pandoc-markdown", "rmarkdown"...
            if id.contains("markdown") { return .markdown }
            if let syntax = CommentSyntax.forLanguage(id) { return .source(syntax) }
            return nil
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
        case "clojure", "lisp", "commonlisp", "scheme", "racket", "emacs-lisp", "elisp", "fennel", "ini", "asm", "nasm":
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
