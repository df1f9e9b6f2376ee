import ArgumentParser
import EmendCore
import EmendText

/// What rewrite, summarize, compose and follow-up share: run the tool, print the result as
/// it streams in, write the file with --write, remember the result for follow-up.
struct TextToolRun {
    let setup: ToolSetup
    let driver: SessionDriver
    let writingTool: WritingTool
    let prompt: String?
    let write: Bool
    /// Remember the result so `emend follow-up` can refine it (rewrite and compose).
    let remembers: Bool

    struct Output: Encodable {
        let file: String
        let tool: String
        let provider: String?
        let encoding: String
        /// The part of the text the tool replaced (in --encoding units of the text before).
        let range: Range?
        let original: String
        let result: String
        let written: Bool
        struct Range: Encodable { let offset: Int; let length: Int }
    }

    /// Runs the tool. `original`: the document before the run when it is not the input (the
    /// rebuilt original of a follow-up); `stateBase`: the follow-up state being refined.
    func run(label: String, providerID: String?, original: [UInt8]? = nil, stateBase: FollowUpState? = nil) throws {
        let json = setup.options.json
        let engine = driver.engine
        var printedAny = false
        var lastPrinted: Character?
        // The provider's text streams to a terminal as it arrives; a pipe gets the result the
        // engine received (Markdown from a model reduced to plain text, protected text kept).
        let echo: ((String) -> Void)? = json || !Terminal.stdoutIsTerminal ? nil : { chunk in
            Terminal.out(chunk)
            printedAny = true
            lastPrinted = chunk.last ?? lastPrinted
        }
        let presents = writingTool.presentsResult
        if presents { engine.presentedAction = write ? .apply : .dismiss }
        if setup.options.force {
            // A poor result of an inline tool arrives presented: apply it as the inline result
            // would have been (written only with --write).
            engine.appliesPoorResults = true
            if !presents { engine.presentedAction = .apply }
        }
        let progress = Progress(label: label)
        do {
            try driver.run(writingTool, prompt: prompt, providerID: providerID, progress: progress, echo: echo)
        } catch {
            progress.clear()
            if printedAny { Terminal.out("\n") }
            throw error
        }
        progress.clear()

        if let explanation = engine.presented?.explanation {
            guard setup.options.force else { throw CLIFailure.from(EmendError(.poorResult, explanation), subject: setup.name) }
            Terminal.err("emend: \(setup.name): warning: \(explanation) (applied because of --force)\n")
        }
        let result = engine.presented?.text ?? driver.coordinator.resultText ?? driver.stream.text
        if !json {
            if !printedAny {
                Terminal.out(result)
                lastPrinted = result.last
            } else if driver.stream.text != result {
                Terminal.err("\nemend: note: the provider's text was changed on delivery (protected text is kept); the result is:\n")
                Terminal.out(result)
                lastPrinted = result.last
            }
            // End with a newline, so the prompt (or the next line of a pipe) starts on its own.
            if let last = lastPrinted, last != "\n" { Terminal.out("\n") }
        }
        // The built-in fixture answers from a fixed table: with no model installed it would
        // otherwise pass for one.
        if driver.catalog.lastChosen.first == FixtureProvider.fixtureID {
            Terminal.err("emend: warning: this answer comes from \(FixtureProvider.fixtureID), a built-in test fixture with "
                         + "fixed answers, not a model; install a model provider (see emend doctor)\n")
        }

        // The document before this run (the file, or the rebuilt original of a follow-up).
        let before = original ?? setup.bytes
        var written = false
        if write {
            if driver.coordinator.state != .inactive {
                do { try driver.coordinator.accept() } catch { throw CLIFailure.from(error, subject: setup.name) }
                try driver.settle()
            }
            // Standard input has no file to write: the result was printed.
            if let path = setup.input.path {
                try AtomicFile.write(engine.bytes, to: path, expected: setup.input.status)
                written = true
            }
        }

        if remembers, let path = setup.input.path, !presents {
            let after = engine.bytes
            // The file holds the result once written; else what it held before this run.
            let inFile = written ? result : stateBase?.inFile
            if var state = FollowUpState.make(path: Paths.absolute(path), tool: writingTool, prompt: prompt,
                                              selection: engine.selection, before: before, after: after, result: result,
                                              inFile: inFile, provider: setup.options.provider) {
                if let base = stateBase {
                    // A follow-up keeps refining the same rewrite: its tool and prompt replay it.
                    state.tool = base.tool
                    state.prompt = base.prompt
                }
                state.save(in: setup.environment.stateDirectory)
            }
        }

        if json {
            let encoding = setup.options.encoding
            // The region the tool worked on, in the text as it was before.
            var region: Range<Int>?
            if let presented = engine.presented {
                region = presented.range
            } else if let split = RegionSplit.find(before: before, after: engine.bytes, result: Array(result.utf8),
                                                   near: engine.selection.lowerBound) {
                region = split.start..<split.originalEnd
            }
            let positions = TextPositions(before, encoding: encoding.encoding)
            let range = region.map { Output.Range(offset: positions.length(of: 0..<$0.lowerBound), length: positions.length(of: $0)) }
            let originalText = region.map { String(decoding: before[$0], as: UTF8.self) } ?? ""
            Terminal.out(JSONOutput.string(Output(file: setup.name, tool: writingTool.name, provider: driver.catalog.lastChosen.first,
                                                  encoding: encoding.rawValue, range: range, original: originalText,
                                                  result: result, written: written)))
        }
    }
}

/// The exit statuses of the model tools (rewrite, summarize, compose, follow-up), for their
/// --help and man pages: a poor result and a timeout are different things to fix.
let modelExitStatuses = """
    Exit status: 0 the result was printed (and written), 2 a usage or input error, \
    3 no result: the provider failed or timed out (standard error says which; a timeout \
    names the time limit to raise, e.g. --timeout), or no model is installed (emend doctor \
    says what to install), 5 a poor result: the model answered but \
    its result changes facts of the text, changes nothing or is no answer, so nothing was \
    applied (standard error says why; --force applies it).
    """

struct Rewrite: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rewrite",
        abstract: "Rewrite the text (or --selection) in a tone, or as you describe; the result streams to stdout.",
        discussion: """
            emend follow-up "..." FILE refines the last rewrite of FILE. \
            \(modelExitStatuses)
            """
    )

    enum Tone: String, ExpressibleByArgument, CaseIterable {
        case friendly, professional, concise
    }

    @OptionGroup var options: ToolOptions

    @Option(help: "friendly, professional or concise.")
    var tone: Tone?

    @Option(help: ArgumentHelp("Describe the change instead, e.g. \"make it shorter\".", valueName: "change"))
    var describe: String?

    @Flag(help: "Replace the selection (or the whole file) with the result, atomically.")
    var write = false

    @Flag(help: "Review the rewrite change by change: \(ReviewKeyMenu.rewrite.summary). Writes the changes kept; exits 0 when the review ends, by q too. Needs a terminal.")
    var interactive = false

    @Flag(help: "Print each change of the rewrite as a hunk instead of the result: its line and position in the original text, with the original (-) and with this change alone made (+), as diff -u shows them.")
    var diff = false

    @Argument(help: ArgumentHelp("The text file; - or nothing reads standard input.", valueName: "file"))
    var file: String?

    func validate() throws {
        if interactive { try ReviewOptions.validate(json: options.json, diff: diff, write: write, file: file) }
        if diff && options.json { throw ValidationError("--json and --diff cannot be combined; choose one output") }
        if tone != nil && describe != nil { throw ValidationError("choose either --tone or --describe, not both") }
        if tone == nil && describe == nil {
            throw ValidationError("say how to rewrite: --tone friendly|professional|concise, or --describe \"...\"")
        }
        if let describe, describe.allSatisfy(\.isWhitespace) { throw ValidationError("--describe needs a description of the change") }
    }

    func run() throws {
        let writingTool: WritingTool
        switch tone {
        case .friendly: writingTool = .rewriteFriendly
        case .professional: writingTool = .rewriteProfessional
        case .concise: writingTool = .rewriteConcise
        case nil: writingTool = .rewriteDescribed
        }
        let setup = try ToolSetup.prepare(file: file, options: options)
        try setup.requireText(toolName: "rewrite")
        if interactive || diff {
            let review = try RewriteReview.rewriting(setup: setup, tool: writingTool, prompt: describe)
            if interactive {
                let status = try review.run()
                if status != .ok { throw ExitCode(status.rawValue) }
                return
            }
            try review.printHunks()
            if write { try review.writeAll() }
            return
        }
        try TextToolRun(setup: setup, driver: try setup.makeDriver(), writingTool: writingTool, prompt: describe, write: write,
                        remembers: true)
            .run(label: "rewriting \(setup.name)", providerID: options.provider)
    }
}

struct Summarize: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "summarize",
        abstract: "Summarize the text (or --selection): a summary, key points, a list or a table, to stdout.",
        discussion: modelExitStatuses
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case summary, keyPoints = "key-points", list, table
        var tool: WritingTool {
            switch self {
            case .summary: return .summary
            case .keyPoints: return .keyPoints
            case .list: return .list
            case .table: return .table
            }
        }
    }

    @OptionGroup var options: ToolOptions

    @Option(help: "summary, key-points, list or table.")
    var format: Format = .summary

    @Flag(help: "Replace the selection (or the whole file) with the result, atomically.")
    var write = false

    @Argument(help: ArgumentHelp("The text file; - or nothing reads standard input.", valueName: "file"))
    var file: String?

    func run() throws {
        let setup = try ToolSetup.prepare(file: file, options: options)
        try setup.requireText(toolName: "summarize")
        try TextToolRun(setup: setup, driver: try setup.makeDriver(), writingTool: format.tool, prompt: nil, write: write,
                        remembers: false)
            .run(label: "summarizing \(setup.name)", providerID: options.provider)
    }
}

struct Compose: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compose",
        abstract: "Write new text from a prompt; with a FILE and --write it goes in at --selection (default: the end).",
        discussion: """
            emend follow-up "..." FILE refines what was composed into FILE. \
            \(modelExitStatuses)
            """
    )

    @OptionGroup var options: ToolOptions

    @Option(help: ArgumentHelp("What to write.", valueName: "text"))
    var prompt: String

    @Flag(help: "Insert the result into the file (at --selection, default the end), atomically.")
    var write = false

    @Flag(help: "Review what was written, change by change, before it goes into the file: \(ReviewKeyMenu.rewrite.summary). Exits 0 when the review ends, by q too. Needs a terminal.")
    var interactive = false

    @Argument(help: ArgumentHelp("A file to write into (optional; - reads standard input).", valueName: "file"))
    var file: String?

    func validate() throws {
        if prompt.allSatisfy(\.isWhitespace) { throw ValidationError("--prompt needs some text: what should be written?") }
        if interactive { try ReviewOptions.validate(json: options.json, diff: false, write: write, file: file) }
    }

    func run() throws {
        let setup = try ToolSetup.prepare(file: file, options: options, caretAtEnd: true, emptyWithoutFile: true)
        if interactive {
            let status = try RewriteReview.rewriting(setup: setup, tool: .compose, prompt: prompt).run()
            if status != .ok { throw ExitCode(status.rawValue) }
            return
        }
        try TextToolRun(setup: setup, driver: try setup.makeDriver(), writingTool: .compose, prompt: prompt, write: write,
                        remembers: true)
            .run(label: "composing", providerID: options.provider)
    }
}

extension ToolSetup {
    /// An input error (exit 2) when the text a tool would work on (the selection, or the
    /// whole file) is empty or only white space: no provider can do anything with it, and
    /// its refusal would read as a provider failure (exit 3, "run `emend providers`").
    func requireText(toolName: String) throws(CLIFailure) {
        let scope = selection.isEmpty ? bytes[...] : bytes[selection]
        guard scope.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) else { return }
        let what = selection.isEmpty ? (bytes.isEmpty ? "is empty" : "has only white space") : "selection has only white space"
        throw .usage("\(name) \(what): nothing to \(toolName)")
    }
}
