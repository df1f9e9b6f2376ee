import ArgumentParser
import Glibc
import EmendCore

/// A rewrite reviewed change by change on a terminal, like `git add -p` (and like
/// `proofread --interactive`): the rewrite rests in the document, each of its changes is
/// shown as a hunk, one key keeps or drops it (dropping puts its original back). The file is
/// written once at the end, atomically, with the changes kept; `q` keeps what was decided
/// and drops the rest. `--diff` prints the same hunks without asking.
struct RewriteReview {
    let setup: ToolSetup
    let driver: SessionDriver

    private var coordinator: Coordinator { driver.coordinator }

    /// Runs `tool` on the file until its result rests in the document, printing nothing of
    /// it (the review shows it change by change). A poor result is never reviewed: it fails
    /// as `rewrite` without --force does.
    static func rewriting(setup: ToolSetup, tool: WritingTool, prompt: String?,
                          driver given: SessionDriver? = nil) throws(CLIFailure) -> RewriteReview {
        let driver: SessionDriver
        if let given { driver = given } else { driver = try setup.makeDriver() }
        let progress = Progress(label: "\(tool == .compose ? "composing" : tool == .followUp ? "refining" : "rewriting") \(setup.name)")
        defer { progress.clear() }
        try driver.run(tool, prompt: prompt, providerID: setup.options.provider, progress: progress)
        if let explanation = driver.engine.presented?.explanation {
            throw CLIFailure.from(EmendError(.poorResult, explanation), subject: setup.name)
        }
        return RewriteReview(setup: setup, driver: driver)
    }

    /// --diff --write: keeps every change and writes the file.
    func writeAll() throws(CLIFailure) {
        do { try coordinator.accept() } catch { throw CLIFailure.from(error, subject: setup.name) }
        try driver.settle()
        if let path = setup.input.path {
            try AtomicFile.write(driver.engine.bytes, to: path, expected: setup.input.status)
        } else {
            Terminal.out(String(decoding: driver.engine.bytes, as: UTF8.self))
        }
    }

    /// Splits the resting rewrite into its changes; their number.
    private func split() throws(CLIFailure) -> Int {
        do { _ = try coordinator.reviewChanges() } catch { throw CLIFailure.from(error, subject: setup.name) }
        try driver.settle()
        return coordinator.suggestions.count
    }

    /// Where each change (by index) was in the text before the rewrite, `setup.bytes`.
    private func originalRanges() -> [Int: Range<Int>] {
        Dictionary(Finding.from(coordinator.suggestions).map { ($0.index, $0.range) }, uniquingKeysWith: { a, _ in a })
    }

    private var hunks: ChangeHunk {
        ChangeHunk(fileName: setup.name, encoding: setup.options.encoding.encoding,
                   palette: Palette.forStream(STDOUT_FILENO, environment: setup.environment.environment))
    }

    /// --diff: every change as a hunk of the original text, as `diff -u` shows it. The session
    /// stays as it is (the caller accepts it for --write, or leaves the file alone).
    func printHunks() throws(CLIFailure) {
        let count = try split()
        let ranges = originalRanges()
        let render = hunks
        for (index, change) in coordinator.suggestions.enumerated() {
            guard let range = ranges[index] else { continue }
            Terminal.out(render.render(change, at: range, number: index + 1, count: count, in: setup.bytes))
        }
        if count == 0 { Terminal.err("emend: \(setup.name): the rewrite changed nothing\n") }
    }

    func run() throws(CLIFailure) -> ExitStatus {
        let name = setup.name
        let count = try split()
        guard count > 0 else {
            Terminal.out("\(name): the rewrite changed nothing; the file was not changed.\n")
            try? coordinator.revert()
            try driver.settle()
            return .ok
        }
        let palette = Palette.forStream(STDOUT_FILENO, environment: setup.environment.environment)
        let render = hunks
        let ranges = originalRanges()
        let raw = RawTerminal()
        driver.onSignal.append { raw.restore() }
        defer { raw.restore() }
        var kept = 0
        var decideRest: ReviewKey?
        var quit = false
        let menu = ReviewKeyMenu.rewrite
        for index in 0..<count {
            let change = coordinator.suggestions[index]
            // (An edit cannot reach a change here: the CLI's engine never types.)
            guard change.state == .pending, let range = ranges[index] else { continue }
            var key: ReviewKey
            if let rest = decideRest {
                key = rest
            } else {
                Terminal.out("\n" + render.render(change, at: range, number: index + 1, count: count, in: setup.bytes))
                while true {
                    Terminal.out(palette.bold("(\(index + 1)/\(count)) " + menu.prompt))
                    guard let answer = menu.answer(ReviewKeys.read(driver: driver)) else {
                        Terminal.out("\n")
                        continue
                    }
                    key = answer
                    if answer != .help { break }
                    Terminal.out("?\n" + menu.helpText)
                }
                Terminal.out("\(key.rawValue)\n")
            }
            let keep: Bool
            switch key {
            case .yes: keep = true
            case .no: keep = false
            case .all: decideRest = .yes; keep = true
            case .noneLeft: decideRest = .no; keep = false
            case .quit: decideRest = .no; keep = false; quit = true
            case .addWord, .help: keep = false   // never here: the menu offers no w, and ? is answered above
            }
            do {
                if keep {
                    try coordinator.acceptSuggestion(index)
                    kept += 1
                } else {
                    try coordinator.rejectSuggestion(index)
                }
            } catch {
                throw CLIFailure.from(error, subject: name)
            }
            try driver.settle()
        }
        raw.restore()
        do { try coordinator.accept() } catch { throw CLIFailure.from(error, subject: name) }
        try driver.settle()
        let prefix = quit ? "Quit: " : ""
        if kept > 0, let path = setup.input.path {
            try AtomicFile.write(driver.engine.bytes, to: path, expected: setup.input.status)
            Terminal.out("\(prefix)\(name): kept \(kept) of \(count) changes.\n")
        } else {
            Terminal.out("\(prefix)\(name): no changes kept; the file was not changed.\n")
        }
        return .ok
    }
}

/// What --interactive needs of the other options (rewrite, compose, follow-up).
enum ReviewOptions {
    static func validate(json: Bool, diff: Bool, write: Bool, file: String?) throws {
        if json || diff || write {
            throw ValidationError("--interactive shows its own review and writes what you keep; leave out --json, --diff and --write")
        }
        if file == nil || file == "-" { throw ValidationError("--interactive needs a FILE (standard input is the terminal you answer on)") }
        guard Terminal.stdinIsTerminal && Terminal.stdoutIsTerminal else {
            throw ValidationError("--interactive needs a terminal on standard input and output; in scripts use --diff, --json or --write")
        }
    }
}
