/// Which LaTeX commands and environments hold no prose, for `LaTeXProtection`.
enum LaTeXCommands {
    /// Commands whose every argument is a name, a key, a file, a URL or code: changing it
    /// breaks the document (`\label{sec:intro}`, `\cite{knuth84}`, `\input{chapter1}`).
    static let nonProseArguments: Set<String> = [
        "label", "ref", "eqref", "pageref", "autoref", "nameref", "cref", "Cref", "vref", "Vref", "cpageref",
        "cite", "citep", "citet", "citealp", "citealt", "citeauthor", "citeyear", "parencite", "textcite",
        "autocite", "footcite", "fullcite", "nocite", "Cite", "Parencite", "Textcite",
        "input", "include", "includeonly", "includegraphics", "includepdf", "subfile", "import", "subimport",
        "usepackage", "RequirePackage", "documentclass", "LoadClass", "bibliography", "bibliographystyle",
        "addbibresource", "graphicspath", "lstinputlisting", "inputminted", "url", "path", "doi",
        "newcommand", "renewcommand", "providecommand", "DeclareMathOperator", "newenvironment", "renewenvironment",
        "newtheorem", "def", "gdef", "edef", "let", "setlength", "addtolength", "setcounter", "addtocounter",
        "newcounter", "newlength", "hspace", "vspace", "rule", "color", "pagecolor", "definecolor", "textcolor",
        "pagestyle", "thispagestyle", "pagenumbering", "hypersetup", "geometry", "lstset", "setmainfont",
        "setsansfont", "setmonofont", "fontsize", "selectfont", "linespread", "bibitem", "hyperref", "hyperlink",
        "hypertarget", "tikz", "tikzset", "usetikzlibrary", "pgfplotsset", "mathrm", "mathbf", "mathit", "mathcal",
        "mathbb", "operatorname", "ensuremath", "si", "SI", "num", "qty", "unit", "texttt", "verb", "lstinline",
        "mintinline", "acrshort", "acrlong", "acrfull", "ac", "acp", "gls", "glspl", "Gls", "newacronym",
        "newglossaryentry", "index", "glossary", "printbibliography", "makeatletter", "makeatother",
    ]

    /// Commands whose first argument is not prose and whose second is (`\href{url}{text}`).
    static let firstArgumentOnly: Set<String> = ["href", "textcolor", "colorbox", "resizebox", "scalebox", "rotatebox"]

    /// Environments whose body is math, code, a picture or a file: protected whole.
    static let nonProseEnvironments: Set<String> = [
        "equation", "equation*", "align", "align*", "alignat", "alignat*", "flalign", "flalign*", "gather",
        "gather*", "multline", "multline*", "eqnarray", "eqnarray*", "math", "displaymath", "split", "cases",
        "array", "matrix", "pmatrix", "bmatrix", "vmatrix", "Vmatrix", "subequations", "dmath", "dmath*",
        "verbatim", "verbatim*", "Verbatim", "BVerbatim", "LVerbatim", "alltt", "lstlisting", "minted", "comment",
        "filecontents", "filecontents*", "tikzpicture", "pgfpicture", "picture", "axis", "forest", "tikzcd",
        "circuitikz", "pspicture", "asy", "dot2tex", "sagesilent", "sageblock", "pycode", "luacode", "luacode*",
        "thebibliography",
    ]

    /// Environments whose `\begin` takes arguments that are not prose (column specifications).
    static let specifiedEnvironments: Set<String> = [
        "tabular", "tabular*", "tabularx", "tabulary", "longtable", "tabu", "supertabular", "xtabular", "NiceTabular",
        "minipage", "wrapfigure", "multicols", "figure", "table", "figure*", "table*", "enumerate", "itemize",
    ]
}
