import EmendText

/// The parts of a LaTeX document no Writing Tool may change, found by a small scanner (no
/// TeX engine: LaTeX's syntax is what the macros make it, so this protects what is markup in
/// every common document and leaves the prose between). One rule set for the CLI (`.tex`,
/// `.ltx`, `.sty`, `.cls`, `--latex`) and the language server (languageId `latex`, `tex`),
/// as `MarkdownProtection` is for Markdown.
///
/// Protected:
/// - comments: `%` to the end of its line (`\%` is a percent sign);
/// - every command's name with its backslash (`\frac`, `\nabla`, `\\`, `\%`), and its
///   optional arguments `[…]` (options such as `width=0.5\textwidth`);
/// - the whole argument of commands whose arguments are not prose: labels, references,
///   citations, file names, packages, URLs, lengths, definitions (`LaTeXCommands`);
/// - math: `$…$`, `$$…$$`, `\(…\)`, `\[…\]`, whole;
/// - environments that are not prose, whole with their `\begin`/`\end` (equation, align,
///   verbatim, lstlisting, tikzpicture, … `LaTeXCommands.nonProseEnvironments`); the
///   environment name and table column specs of any other;
/// - braces and the characters TeX gives a meaning (`{ } & ~ ^ _ #`).
///
/// The arguments of other commands (`\emph{…}`, `\section{…}`, `\caption{…}`) are prose.
/// What does not close (a `$` without its pair, an unbalanced brace group) is protected to
/// the end of the text: a missed correction costs less than a broken document. Ranges are
/// UTF-8 byte ranges, sorted, disjoint and not touching; every bound is next to an ASCII
/// character, so none splits a character.
public enum LaTeXProtection {
    public static func protectedRanges(in bytes: [UInt8]) -> [Range<Int>] {
        var scanner = LaTeXScanner(bytes: bytes)
        scanner.scan()
        return scanner.ranges.mergedRanges()
    }

    /// Whether a file of this name is LaTeX (`.tex`, `.ltx`, `.sty`, `.cls`).
    public static func isLaTeXFileName(_ path: String) -> Bool {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return false }
        return ["tex", "ltx", "sty", "cls", "latex"].contains(path[path.index(after: dot)...].lowercased())
    }
}
