import ArgumentParser
import Glibc
import EmendCore
import EmendText
import EmendProofreading

struct Proofread: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Find spelling and grammar problems; print them, show a diff, apply them, or review them one by one.",
        discussion: """
            Prints file:line:column: category: message, the line, and the suggestion. Exits 1 when \
            there are suggestions (like a linter), 0 when there are none or they were applied, \
            4 when the result is partial: a checker did not finish within its time limit (raise \
            --timeout, or timeout_ms in its [providers."ID"] table of config.toml) or failed, so \
            suggestions may be missing; a warning on standard error names it. Checkers that do \
            not serve the language take no part (a note says so).
            Markdown code, quotes and front matter are never changed (--no-protect to allow it).
            """
    )

    @OptionGroup var options: ToolOptions

    @Flag(help: "Print the corrections as a unified diff (for git apply or patch -p1).")
    var diff = false

    @Flag(help: "Apply the suggestions that are safe to apply unseen to the file, atomically (for standard input: print the corrected text). Never one that joins or splits words unless the word is in no dictionary.")
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
        let status = try report(run, setup: setup)
        // Honest about what is missing: after the output, so that it is the last thing read.
        if let completeness = run.completeness, !completeness.message.isEmpty {
            Terminal.err("emend: \(completeness.isPartial ? "warning" : "note"): \(setup.name): \(completeness.message)\n")
            if completeness.isPartial { throw ExitCode(ExitStatus.partial.rawValue) }
        }
        if status != .ok { throw ExitCode(status.rawValue) }
    }

    /// Prints (or applies) the findings; the exit status they call for.
    private func report(_ run: ProofreadRun, setup: ToolSetup) throws -> ExitStatus {
        let findings = run.findings
        let palette = Palette.forStream(STDOUT_FILENO, environment: setup.environment.environment)

        if interactive {
            return try InteractiveReview(proofread: run).run()
        }

        // What --write applies and --diff shows: the rest is left for a person to review.
        let (writable, held) = partitionForWriting(findings, setup: setup)
        if write || diff, !held.isEmpty {
            Terminal.err("emend: \(setup.name): \(held.count) \(held.count == 1 ? "suggestion" : "suggestions") not applied "
                         + "(they join or split words, or their category is off); review them with --interactive\n")
        }
        if write && setup.input.isStandardInput {
            for finding in held { try run.reject(finding) }
            try run.acceptAll()
            Terminal.out(String(decoding: run.resultBytes, as: UTF8.self))
            Terminal.err("emend: \(summary(writable, verb: "applied"))\n")
            return .ok
        }

        if options.json {
            let language = options.language ?? "en-US"
            var report = LanguageToolReport(file: setup.name, bytes: setup.bytes, findings: findings,
                                            encoding: options.encoding, language: language)
            if let completeness = run.completeness, completeness.isPartial {
                report.warnings = .init(incompleteResults: true, incompleteResultsReason: completeness.message)
            }
            report.addDetectedLanguages(run.completeness?.languages ?? [], bytes: setup.bytes, encoding: options.encoding)
            Terminal.out(report.json())
        } else if diff {
            let edits = writable.map { TextEdit(range: $0.range, replacement: $0.replacement) }
            Terminal.out(UnifiedDiff(oldName: setup.name, newName: setup.name, bytes: setup.bytes, palette: palette).render(edits))
        } else {
            let report = HumanReport(fileName: setup.name, bytes: setup.bytes, encoding: options.encoding.encoding,
                                     palette: palette, width: Terminal.columns() ?? 100)
            Terminal.out(report.render(findings))
        }

        if write {
            for finding in held { try run.reject(finding) }
            try run.acceptAll()
            if !writable.isEmpty, let path = setup.input.path {
                try AtomicFile.write(run.resultBytes, to: path, expected: setup.input.status)
            }
            Terminal.err("emend: \(summary(writable, verb: "applied"))\n")
            return .ok
        }
        if findings.isEmpty {
            if !options.json && !diff { Terminal.err("emend: \(setup.name): no suggestions\n") }
            return .ok
        }
        if !options.json && !diff {
            let hint = setup.input.isStandardInput ? "" : "; review them with --interactive, apply them with --write, or see --diff"
            Terminal.err("emend: \(summary(findings, verb: "found"))\(hint)\n")
        }
        return .suggestionsFound
    }

    /// The findings `WriteSafety` lets --write apply, and those it holds back.
    private func partitionForWriting(_ findings: [Finding], setup: ToolSetup) -> (writable: [Finding], held: [Finding]) {
        guard write || diff else { return (findings, []) }
        let registry = setup.registry
        // The dictionaries are read only when some finding moves a word boundary.
        let safety = !findings.contains(where: { WordBoundaries.joinsOrSplits($0.original, $0.replacement) })
            ? WriteSafety(preferences: registry.configuration.proofreading, words: [])
            : WriteSafety.loading(language: options.language ?? "en-US", preferences: registry.configuration.proofreading,
                                         personal: PersonalDictionary.load(directory: registry.dictionaryDirectory))
        var writable: [Finding] = [], held: [Finding] = []
        for finding in findings {
            if safety.refusal(original: finding.original, replacement: finding.replacement, category: finding.category,
                              ruleID: finding.ruleID) == nil {
                writable.append(finding)
            } else {
                held.append(finding)
            }
        }
        return (writable, held)
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
