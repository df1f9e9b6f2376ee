import ArgumentParser
import Glibc

/// `emend`: Writing Tools on files and pipes. Exit codes: 0 nothing to report or applied,
/// 1 suggestions found, 2 usage or input error, 3 provider failure or timeout, 4 partial
/// proofread, 5 a poor result not applied.
@main
enum EmendMain {
    static func main() {
        do {
            var command = try EmendCommand.parseAsRoot()
            try command.run()
            exit(ExitStatus.ok.rawValue)
        } catch let failure as CLIFailure {
            Terminal.err("emend: \(failure.message)\n")
            exit(failure.status.rawValue)
        } catch let code as ExitCode {
            exit(code.rawValue)
        } catch {
            let text = EmendCommand.fullMessage(for: error)
            if EmendCommand.exitCode(for: error) == .success {
                Terminal.out(text.hasSuffix("\n") ? text : text + "\n")
                exit(ExitStatus.ok.rawValue)
            }
            Terminal.err(text.hasSuffix("\n") ? text : text + "\n")
            exit(ExitStatus.usage.rawValue)
        }
    }
}

/// Every command names itself (`commandName`): without it ArgumentParser derives the name from
/// the type's with `String(describing:)`, whose first use looks the type up in every protocol
/// conformance of the process, on each run of `emend` (a twelfth of a warm one-line proofread's CPU).
struct EmendCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "emend",
        abstract: "Writing Tools for files and pipes: proofread, rewrite, summarize, compose, follow up.",
        discussion: """
            Exit codes: 0 nothing to report (or everything applied), 1 suggestions found, \
            2 usage or input error, 3 provider failure: the provider failed, timed out \
            (no result; raise --timeout) or none serves the tool, 4 a partial proofread (a \
            checker timed out or failed and was left out: suggestions may be missing; see the \
            warning), 5 a poor result: the model answered, but its result changes facts of \
            the text, changes nothing or is no answer, so nothing was applied (--force applies \
            it). Standard error says which, and why.

            Examples:
              emend proofread notes.md                 # problems as file:line:column
              emend proofread --interactive notes.md   # one by one: \(ReviewKeyMenu.proofread.keyList)
              emend proofread --diff notes.md | git apply
              emend rewrite --tone concise --selection 0:200 notes.md
              emend follow-up "make it warmer" notes.md
              emend providers
              emend doctor                             # is the installation working?
              emend service status                     # the service holding the checkers
            """,
        version: EmendVersion.string,
        subcommands: [Proofread.self, Rewrite.self, Summarize.self, Compose.self, FollowUp.self, Providers.self, Config.self, Doctor.self, Lsp.self, Service.self]
    )
}
