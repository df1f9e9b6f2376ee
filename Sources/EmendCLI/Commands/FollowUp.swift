import ArgumentParser
import EmendCore

/// `emend follow-up "make it warmer" FILE`: refines the last rewrite of FILE.
///
/// The coordinator refines only a finished rewrite of its current session, and a CLI
/// process ends after each command. So follow-up rebuilds that session through the public
/// API: the engine gives the original document, a replay provider (`ReplayProvider`) gives
/// the stored result back as the rewrite's output, and once that session rests, `.followUp`
/// starts on it with the user's provider. The follow-up then runs exactly as in an editor:
/// the provider sees the previous result, a failure goes back to it, and --write or not
/// behaves like rewrite. (Running a described rewrite on the stored result instead would
/// lose the original and the previous result the follow-up request is about.)
struct FollowUp: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "follow-up",
        abstract: "Refine the last rewrite (or compose) of a file with a request, e.g. \"make it warmer\".",
        discussion: """
            The last result of `emend rewrite` or `emend compose` on FILE is kept in $XDG_STATE_HOME/emend/rewrites/. \
            \(modelExitStatuses)
            """
    )

    @OptionGroup var options: ToolOptions

    @Flag(help: "Replace the rewritten text in the file with the refined result, atomically.")
    var write = false

    @Flag(help: "Review the refined result change by change (against the original): \(ReviewKeyMenu.rewrite.summary). Writes the changes kept; exits 0 when the review ends, by q too. Needs a terminal.")
    var interactive = false

    @Flag(help: "Print each change of the refined result (against the original) as a hunk instead of the result.")
    var diff = false

    @Argument(help: ArgumentHelp("What to change in the last result.", valueName: "request"))
    var request: String

    @Argument(help: ArgumentHelp("The file that was rewritten.", valueName: "file"))
    var file: String

    func validate() throws {
        if request.allSatisfy(\.isWhitespace) { throw ValidationError("say what to change, e.g. emend follow-up \"make it warmer\" FILE") }
        if file == "-" { throw ValidationError("follow-up needs the FILE that was rewritten (standard input has no history)") }
        if options.selection != nil { throw ValidationError("follow-up works on the last result; leave out --selection") }
        if interactive { try ReviewOptions.validate(json: options.json, diff: diff, write: write, file: file) }
        if diff && options.json { throw ValidationError("--json and --diff cannot be combined; choose one output") }
    }

    func run() throws {
        let environment = ProviderEnvironment()
        let path = Paths.absolute(file)
        let input = try InputDocument.read(file)
        guard let state = FollowUpState.load(for: path, in: environment.stateDirectory), let replayedTool = state.writingTool else {
            throw CLIFailure.usage("\(file): no earlier rewrite to follow up on; run `emend rewrite --tone friendly \(file)` (or compose) first")
        }
        guard let original = state.originalDocument(from: input.bytes) else {
            throw CLIFailure.usage("\(file) changed since its last rewrite, so the result cannot be found in it; run `emend rewrite` again")
        }
        let selection = state.selectionStart..<state.selectionEnd
        guard selection.upperBound <= original.count else {
            throw CLIFailure.usage("\(file): the saved follow-up state does not fit the file; run `emend rewrite` again")
        }
        let setup = try ToolSetup.prepare(file: file, options: options, extras: [ReplayProvider(result: state.result)],
                                          replacingText: original, selectionOverride: selection)
        let driver = try setup.makeDriver()
        // Rebuild the finished rewrite: the replay provider hands back the stored result.
        let progress = Progress(label: "restoring the last rewrite")
        try driver.run(replayedTool, prompt: state.prompt, providerID: ReplayProvider.replayID, progress: progress)
        progress.clear()
        guard driver.coordinator.resultText == state.result else {
            throw CLIFailure.usage("\(file): the last rewrite could not be restored; run `emend rewrite` again")
        }
        if interactive || diff {
            let review = try RewriteReview.rewriting(setup: setup, tool: .followUp, prompt: request, driver: driver)
            if interactive {
                let status = try review.run()
                if status != .ok { throw ExitCode(status.rawValue) }
                return
            }
            try review.printHunks()
            if write { try review.writeAll() }
            return
        }
        try TextToolRun(setup: setup, driver: driver, writingTool: .followUp, prompt: request, write: write, remembers: true)
            .run(label: "refining \(setup.name)", providerID: options.provider, original: original, stateBase: state)
    }
}
