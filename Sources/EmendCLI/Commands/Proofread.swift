import ArgumentParser
import Glibc
import EmendCore
import EmendText

struct Proofread: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Find spelling and grammar problems; print them, show a diff, apply them, or review them one by one.",
        discussion: """
            Prints file:line:column: category: message, the line, and the suggestion. Exits 1 when \
            there are suggestions (like a linter), 0 when there are none or they were applied.
            Markdown code, quotes and front matter are never changed (--no-protect to allow it).
            """
    )

    @OptionGroup var options: ToolOptions

    @Flag(help: "Print the corrections as a unified diff (for git apply or patch -p1).")
    var diff = false

    @Flag(help: "Apply every suggestion to the file, atomically (for standard input: print the corrected text).")
    var write = false

    @Flag(help: "Review each suggestion: y accept, n reject, w add the word to the dictionary, a accept all, d reject the rest, q quit. Needs a terminal.")
    var interactive = false

    @Argument(help: ArgumentHelp("The text file to check; - or nothing reads standard input.", valueName: "file"))
    var file: String?

    func validate() throws {
        if options.json && diff { throw ValidationError("--json and --diff cannot be combined; choose one output") }
        if interactive {
            if options.json || diff { throw ValidationError("--interactive shows its own review; leave out --json and --diff") }
            if file == nil || file == "-" { throw ValidationError("--interactive needs a FILE (standard input is the terminal you answer on)") }
            guard Terminal.stdinIsTerminal && Terminal.stdoutIsTerminal else {
                throw ValidationError("--interactive needs a terminal on standard input and output; in scripts use --diff, --json or --write")
            }
        }
    }

    func run() throws {
        let setup = try ToolSetup.prepare(file: file, options: options)
        if let language = options.language {
            // Checked against what is installed before any work: an unknown tag is an error, and a
            // checker that cannot serve it is named rather than skipped without a word.
            for note in try LanguageSupport(registry: setup.registry, providerID: options.provider).check(language) {
                Terminal.err("emend: note: \(note)\n")
            }
        }
        let run = ProofreadRun(setup: setup)
        try run.run()
        let findings = run.findings
        let palette = Palette.forStream(STDOUT_FILENO, environment: setup.environment.environment)

        if interactive {
            throw ExitCode(try InteractiveReview(proofread: run).run().rawValue)
        }

        if write && setup.input.isStandardInput {
            try run.acceptAll()
            Terminal.out(String(decoding: run.resultBytes, as: UTF8.self))
            Terminal.err("emend: \(summary(findings, verb: "applied"))\n")
            return
        }

        if options.json {
            let language = options.language ?? "en-US"
            Terminal.out(LanguageToolReport(file: setup.name, bytes: setup.bytes, findings: findings,
                                            encoding: options.encoding, language: language).json())
        } else if diff {
            let edits = findings.map { TextEdit(range: $0.range, replacement: $0.replacement) }
            Terminal.out(UnifiedDiff(oldName: setup.name, newName: setup.name, bytes: setup.bytes, palette: palette).render(edits))
        } else {
            let report = HumanReport(fileName: setup.name, bytes: setup.bytes, encoding: options.encoding.encoding,
                                     palette: palette, width: Terminal.columns() ?? 100)
            Terminal.out(report.render(findings))
        }

        if write {
            try run.acceptAll()
            if !findings.isEmpty, let path = setup.input.path {
                try AtomicFile.write(run.resultBytes, to: path, expected: setup.input.status)
            }
            Terminal.err("emend: \(summary(findings, verb: "applied"))\n")
            return
        }
        if findings.isEmpty {
            if !options.json && !diff { Terminal.err("emend: \(setup.name): no suggestions\n") }
            return
        }
        if !options.json && !diff {
            let hint = setup.input.isStandardInput ? "" : "; review them with --interactive, apply them with --write, or see --diff"
            Terminal.err("emend: \(summary(findings, verb: "found"))\(hint)\n")
        }
        throw ExitCode(ExitStatus.suggestionsFound.rawValue)
    }

    private func summary(_ findings: [Finding], verb: String) -> String {
        let name = file == nil || file == "-" ? "<stdin>" : file!
        guard !findings.isEmpty else { return "\(name): no suggestions" }
        var counts: [String: Int] = [:]
        for finding in findings { counts[finding.category.isEmpty ? "other" : finding.category, default: 0] += 1 }
        let detail = counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            .map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        let noun = findings.count == 1 ? "suggestion" : "suggestions"
        return "\(name): \(verb) \(findings.count) \(noun) (\(detail))"
    }
}
