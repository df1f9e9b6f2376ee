/// The kind of prose an opened document holds, from its languageId and its file name, with
/// a line for the client's log when the server had to guess or decide against the client.
///
/// Why the name counts: one eglot entry for several modes sends the languageId of the first
/// mode for every file (a Python file arrives as "markdown"). A file name whose extension
/// says clearly what the file is (`.py`, `.md`) wins over a languageId of another kind; a
/// weak one (`.txt`, none) leaves the languageId as it is.
public struct DocumentLanguage: Sendable, Equatable {
    public var kind: DocumentKind
    /// For window/logMessage: the languageId was unknown, or the file name overruled it.
    public var note: String?

    public static func of(languageID: String, uri: String) -> DocumentLanguage {
        let claimed = DocumentKind.known(languageID)
        let name = fileName(of: uri)
        if let ext = fileExtension(of: name), let byName = Self.languageID(forExtension: ext),
           let nameKind = DocumentKind.known(byName), nameKind != claimed {
            return DocumentLanguage(kind: nameKind, note: "\(name) came with languageId \"\(languageID)\"; checked as \(byName), as its name says")
        }
        switch claimed {
        case .some(.unchecked):
            return DocumentLanguage(kind: .unchecked, note: "\(name): languageId \"\(languageID)\" is data, not prose: not checked")
        case .some(let kind):
            return DocumentLanguage(kind: kind, note: nil)
        case .none:
            return DocumentLanguage(kind: .plainText, note: "\(name): languageId \"\(languageID)\" is not one Emend knows: checked as plain text")
        }
    }

    /// The last path segment of a URI, without a query or fragment.
    static func fileName(of uri: String) -> String {
        var path = Substring(uri)
        if let cut = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = path[..<cut] }
        return String(path.split(separator: "/").last ?? path)
    }

    static func fileExtension(of name: String) -> String? {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        let ext = name[name.index(after: dot)...].lowercased()
        return ext.isEmpty ? nil : ext
    }

    /// The languageId an extension clearly means; nil for extensions that say little
    /// (`.txt`, `.h` in a C++ project, templates).
    static func languageID(forExtension ext: String) -> String? {
        switch ext {
        case "md", "markdown", "mkd", "mdown", "mdwn", "mkdn": return "markdown"
        case "mdx": return "mdx"
        case "rmd": return "rmd"
        case "qmd": return "quarto"
        case "tex", "ltx", "sty", "cls": return "latex"
        case "py", "pyi": return "python"
        case "rs": return "rust"
        case "c": return "c"
        case "cc", "cpp", "cxx", "hpp", "hh": return "cpp"
        case "go": return "go"
        case "swift": return "swift"
        case "java": return "java"
        case "kt", "kts": return "kotlin"
        case "js", "mjs", "cjs", "jsx": return "javascript"
        case "ts", "mts", "cts", "tsx": return "typescript"
        case "rb": return "ruby"
        case "sh", "bash", "zsh": return "shellscript"
        case "lua": return "lua"
        case "el": return "emacs-lisp"
        case "hs": return "haskell"
        case "sql": return "sql"
        case "toml": return "toml"
        case "yaml", "yml": return "yaml"
        case "html", "htm": return "html"
        case "css": return "css"
        case "rst": return "restructuredtext"
        case "org": return "org"
        case "adoc": return "asciidoc"
        default: return nil
        }
    }
}
