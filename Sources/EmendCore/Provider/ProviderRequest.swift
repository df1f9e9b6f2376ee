import EmendText

/// What a provider is asked to do: a tool on part of a text.
public struct ProviderRequest: Sendable {
    public var tool: WritingTool
    /// The text around the work (surrounding paragraphs) as model context.
    public var text: String
    /// The part of `text` to work on (UTF-8 byte offsets); edits and output replace it.
    public var selection: Range<Int>
    /// Ranges of `text` that must not change (code, quotes, attachments).
    public var protectedRanges: [Range<Int>]
    /// The shapes the engine accepts.
    public var resultOptions: ResultOptions
    /// The described change, compose prompt or follow-up request.
    public var prompt: String?
    /// For a follow-up: the result being refined (it is what `selection` now holds).
    public var previousResult: String?
    /// BCP 47 language tag, e.g. "en-US".
    public var language: String
    /// The selection as Markdown, with placeholders for protected text and attachments;
    /// what providers that write Markdown read (nil: the selected text as it is).
    public var markdown: String?
    /// When Emend asks again because the last answer changed facts of the text: what to
    /// keep ("Keep these facts exactly as the text states them: ‘next week’, ..."); nil on a
    /// first request.
    public var guidance: String?
    /// The time the whole run may take, from its start (the coordinator's provider time
    /// limit: the command's `--timeout`, libemend's provider_timeout_ms); nil: no limit. A
    /// provider that combines others ends its members before it, so that it can still
    /// answer with what the others found (a partial result, reported) rather than fail.
    public var timeLimitMilliseconds: Int64?
    /// The instant the run must have answered by, on `MonotonicClock.nowMilliseconds()`: the
    /// coordinator's provider time limit counted from the run's start; nil: no limit. Why an
    /// instant and not only `timeLimitMilliseconds`: a provider that combines others
    /// (`answersByDeadline`) ends its members before it and answers with what they found,
    /// and the coordinator waits `ProviderTimeout.graceMilliseconds` past it for that answer.
    /// Two relative timers (the coordinator's, the combination's from its own start) raced
    /// on a loaded machine, and the coordinator's could fire first: a failed session instead
    /// of the honest partial result.
    public var deadline: Int64?

    public init(tool: WritingTool, text: String, selection: Range<Int>, protectedRanges: [Range<Int>] = [],
                resultOptions: ResultOptions = .plainText, prompt: String? = nil, previousResult: String? = nil,
                language: String = "en-US", markdown: String? = nil) {
        self.tool = tool
        self.text = text
        self.selection = selection
        self.protectedRanges = protectedRanges
        self.resultOptions = resultOptions
        self.prompt = prompt
        self.previousResult = previousResult
        self.language = language
        self.markdown = markdown
    }

    /// The Markdown a provider that writes Markdown reads: `markdown`, else the selected text.
    public var selectedMarkdown: String { markdown ?? selectedText }

    /// The text of `selection`.
    public var selectedText: String { AttributedText(text).substring(selection) }
}
