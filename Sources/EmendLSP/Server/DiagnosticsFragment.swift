import EmendText

/// One unit's shown diagnostics, encoded (`DiagnosticsMessage.writeDiagnostic`, joined by
/// commas), and what they were encoded for. Why: every publish must carry every diagnostic
/// of the document (LSP replaces the client's whole set), and a keystroke changes one
/// paragraph; a unit whose text, place and filter are the same reuses its bytes instead of
/// counting positions again.
struct DiagnosticsFragment {
    /// Where the unit started in the text (its positions are absolute).
    let start: LSPPosition
    /// `LanguageServer.filterGeneration` when encoded: the settings, dictionary and position
    /// encoding that decided which findings show and how.
    let generation: Int
    let bytes: [UInt8]
}
