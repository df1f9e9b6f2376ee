import EmendText
import EmendMarkdown

/// What a provider's text result means, worked out away from the engine's thread: its rich
/// form, whether it is poor, which facts it changes, and the edits that turn the text the
/// provider read into it.
///
/// Why a worker: these read the whole result and the whole text the provider read. For a
/// long rewrite (300,000 streamed pieces) that took a second inside one dispatch — the
/// engine's UI frozen. Everything the analysis reads is copied into `Input` on the engine's
/// thread; the analysis shares nothing with the coordinator.
struct ResultAnalysis {
    struct Input {
        let tool: WritingTool
        let prompt: String?
        /// The region's text as the provider read it.
        let original: AttributedText
        /// What the request was built from (the region's base), for the version's edits.
        let requestBase: AttributedText
        /// Where `requestBase` starts in the base text.
        let requestBaseStart: Int
        /// The provider's text, joined here (on the analysis's thread: a 16 MB result joined
        /// on the engine's thread cost milliseconds of one dispatch).
        let resultText: ResultPieces
        let writesMarkdown: Bool
        let placeholders: [String: PlaceholderText]
        let options: ResultOptions
        let paragraphSeparator: String
        /// Spaces or breaks compose adds around its text (nil: not compose at a caret).
        let composition: ResultComposition?
        /// Whether the provider's text is a model's answer to check (its facts, its chatter);
        /// false for a result the person already saw.
        let needsFactCheck: Bool
    }

    /// The result as the engine gets it: rich, styled from the original, composed.
    let result: AttributedText
    /// Why the result is poor (ResultQuality), if it is.
    let problem: String?
    /// The facts it changes, when it is not poor and the provider's results are checked.
    let factReport: FactGuard.Report?
    /// The result as edits of `Input.requestBase` (not yet rebased through the engine's edits).
    let edits: [VersionEdit]
    /// The same as changes of the base text, saved as phrases (the changes emend.h's CHANGES
    /// rule counts whole), not yet rebased through the engine's edits. Why here: each change
    /// copies its base text out of `requestBase`, a rewrite replaced whole is a copy of all of
    /// it (4 MB for a million words: 3-6 ms of the engine's thread when it was made there).
    let versionChanges: [LedgerHunk]

    /// The result as the engine gets it: the model's chatter around its answer dropped,
    /// Markdown read back, reduced to the result options, placeholders restored, the
    /// original's attributes carried onto the words that survive and its own whitespace kept
    /// at both ends (SurroundingWhitespace); then judged and diffed.
    static func make(_ input: Input) -> ResultAnalysis {
        let shape = input.options.richShape(paragraphSeparator: input.paragraphSeparator)
        // A result handed back as the person saw it (the CLI's replay of a finished rewrite:
        // nothing to check) is taken as it is, byte for byte.
        let text = input.resultText.string
        let answer = input.needsFactCheck ? ModelChatter.stripped(text, source: input.original.string) : text
        let parsed = input.writesMarkdown ? MarkdownDocument.parse(answer).render(shape) : AttributedText(answer)
        var result = AttributeTransfer.apply(original: input.original, result: parsed, placeholders: input.placeholders,
                                             styled: input.options.carriesStyling, presentationIntents: shape.presentationIntents,
                                             paragraphSeparator: input.paragraphSeparator)
        result = SurroundingWhitespace.kept(around: result, from: input.original)
        if let composition = input.composition { result = composition.apply(to: result) }
        let problem = ResultQuality.problem(tool: input.tool, source: input.original.string, result: result.string)
        let report = problem == nil && input.needsFactCheck
            ? FactGuard.check(tool: input.tool, source: input.original.string, result: result.string, prompt: input.prompt)
            : nil
        let edits = VersionEdits.edits(from: input.requestBase, to: result, styled: true)
        return ResultAnalysis(result: result, problem: problem, factReport: report, edits: edits,
                              versionChanges: changes(edits, of: input.requestBase, at: input.requestBaseStart))
    }

    /// `edits` of `base` (which starts at `start` in the base text) as the base text's changes,
    /// joined into phrases.
    static func changes(_ edits: [VersionEdit], of base: AttributedText, at start: Int) -> [LedgerHunk] {
        let hunks = edits.map { edit in
            LedgerHunk(base: (edit.range.lowerBound + start)..<(edit.range.upperBound + start),
                       baseText: base.slice(edit.range), text: edit.replacement)
        }
        return ChangePhrases.phrases(hunks, in: base, offset: start)
    }
}

/// Compose at a caret writes between words as a writer would: a space (or the paragraph
/// break the text uses) where the new text would otherwise touch the text around it. The
/// bytes around the caret are read on the engine's thread; `apply` is pure.
struct ResultComposition {
    /// The bytes before and after the caret (nil: the text's start or end).
    let before: UInt8?
    let after: UInt8?
    /// What follows new text that would touch the text after it.
    let breakAfter: String
    /// At the text's end: the line breaks the text ended with ("\n" for most files), which
    /// the new text ends with in turn, so the text still ends as it did.
    var finalBreaks = ""

    func apply(to result: AttributedText) -> AttributedText {
        guard !result.string.isEmpty else { return result }
        let isSpace = { (byte: UInt8?) in byte.map { $0 == 0x20 || $0 == 0x0A || $0 == 0x09 || $0 == 0x0D } ?? true }
        let first = result.string.utf8.first, last = result.string.utf8.last
        var composed = result
        if !isSpace(before) && !isSpace(first) { composed = AttributedText(" ").appending(composed) }
        if !isSpace(after) && !isSpace(last) { composed = composed.appending(AttributedText(breakAfter)) }
        if after == nil && !finalBreaks.isEmpty && !composed.string.hasSuffix(finalBreaks) {
            composed = composed.appending(AttributedText(finalBreaks))
        }
        return composed
    }
}
