import EmendCore

/// Exit codes of the `emend` command (like linters: 1 means "found something").
enum ExitStatus: Int32 {
    /// Nothing to report, or everything was applied.
    case ok = 0
    /// Proofreading found suggestions (and they were not applied).
    case suggestionsFound = 1
    /// A usage or input error: bad option, missing file, invalid UTF-8, bad selection.
    case usage = 2
    /// The provider failed, timed out, or none could serve the tool: there is no result.
    case provider = 3
    /// Proofreading gave a partial result: a checker timed out or failed and was left out,
    /// so suggestions may be missing (those found were still printed or applied).
    case partial = 4
    /// A model tool's result came, but was judged poor (it changes facts of the text, changes
    /// nothing, or is not an answer), so nothing was applied. Apart from 3: a poor result asks
    /// for another try or --force, a timeout for more time or a quieter machine.
    case poorResult = 5

    /// The worse of two statuses, for a run over many files: a file that could not be read
    /// (2) over a checker that failed (3), over a poor result (5), over a partial result (4),
    /// over suggestions (1), over nothing to report (0).
    func worse(_ other: ExitStatus) -> ExitStatus {
        other.severity > severity ? other : self
    }

    private var severity: Int {
        switch self {
        case .ok: return 0
        case .suggestionsFound: return 1
        case .partial: return 2
        case .poorResult: return 3
        case .provider: return 4
        case .usage: return 5
        }
    }
}

/// A failure that ends the command: what went wrong, for a person, and the exit status.
struct CLIFailure: Error {
    let status: ExitStatus
    let message: String

    init(_ status: ExitStatus, _ message: String) {
        self.status = status
        self.message = message
    }

    static func usage(_ message: String) -> CLIFailure { CLIFailure(.usage, message) }

    /// A runtime error while working on `subject` (a file name, or nil), with a hint on what
    /// to do where one helps.
    static func from(_ error: EmendError, subject: String?) -> CLIFailure {
        let prefix = subject.map { "\($0): " } ?? ""
        switch error.status {
        case .poorResult:
            return CLIFailure(.poorResult, "\(prefix)the result is poor, so nothing was applied: \(error.message) (--force applies it)")
        case .provider, .timeout, .cancelled, .internal:
            var hint = ""
            // A timeout's message names the setting that gives more time.
            if error.status == .timeout && !error.message.contains("--timeout") { hint = " (try a longer --timeout, or a smaller --selection)" }
            if error.status == .provider { hint = " (run `emend providers` to see what is installed; EMEND_LOG=1 shows the provider's log)" }
            return CLIFailure(.provider, "\(prefix)\(error.message)\(hint)")
        case .notFound:
            return CLIFailure(.usage, "\(prefix)\(error.message); run `emend providers` to list the providers")
        case .unsupported where error.message.hasPrefix("no enabled provider"):
            // Nothing installed serves the tool (none is off either): say so plainly.
            if !error.message.contains("; off: ") {
                let missing = error.message.hasPrefix("no enabled provider serves proofread") ? "no checker" : "no model"
                return CLIFailure(.provider, "\(prefix)\(error.message): \(missing) is installed; `emend doctor` says what to install")
            }
            return CLIFailure(.provider, "\(prefix)\(error.message); run `emend providers` and `emend config`")
        case .unsupported, .refused:
            return CLIFailure(.usage, "\(prefix)\(error.message); run `emend providers` to see what each provider serves")
        default:
            return CLIFailure(.usage, "\(prefix)\(error.message)")
        }
    }
}
