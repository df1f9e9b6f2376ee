import ArgumentParser
import Glibc
import EmendCore
import EmendText
import EmendProofreading
import EmendProviders

struct Proofread: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "proofread",
        abstract: "Find spelling and grammar problems; print them, show a diff, apply them, or review them one by one.",
        discussion: """
            Prints file:line:column: category: message, the line, and the suggestion. Exits 1 when \
            there are suggestions (like a linter), 0 when there are none or they were applied \
            (--write) or reviewed (--interactive, ended by q or not), \
            4 when the result is partial: a checker did not finish within its time limit (raise \
            --timeout, or timeout_ms in its [providers."ID"] table of config.toml) or failed, so \
            suggestions may be missing; a warning on standard error names it. Checkers that do \
            not serve the language take no part (a note says so).
            Markdown code, quotes and front matter are never changed (--no-protect to allow it).
            Several files and directories are checked in one run with the same checkers \
            (started once): a directory gives its text files by extension (.md, .txt, .tex, \
            .rst, .adoc, .org and others), hidden ones left out; binary files are skipped with a note. \
            Each file is reported under its name (--json: one object keyed by file name; \
            --diff: one diff for all; --write: each file written on its own); the exit status \
            is the worst of all files (2 over 3 over 4 over 1 over 0). --interactive and \
            --selection take one file.
            """
    )

    @OptionGroup var options: ToolOptions

    @Flag(help: "Print the corrections as a unified diff (for git apply or patch -p1).")
    var diff = false

    @Flag(help: "Apply the suggestions that are safe to apply unseen to the file, atomically (for standard input: print the corrected text). Never one that joins or splits words unless the word is in no dictionary, nor one the checkers no longer propose once the suggestions before it in its sentence are applied (it read a neighbour's words: \"you're message\" is not written as \"your messaged\").")
    var write = false

    @Flag(help: "Review each suggestion: \(ReviewKeyMenu.proofread.summary). Exits 0 when the review ends, by q too. Needs a terminal.")
    var interactive = false

    @Argument(help: ArgumentHelp("Text files and directories to check (a directory: its text files by extension, recursively; binary files are skipped with a note); - or nothing reads standard input.",
                                 valueName: "file"))
    var files: [String] = []

    /// The one file of a single-file run (nil: standard input).
    private var file: String? { files.first }

    /// More than one file, or a directory: one report per file, one set of checkers for all.
    private var isManyFiles: Bool {
        files.count > 1 || files.first.map { $0 != "-" && Paths.isDirectory($0) } == true
    }

    func validate() throws {
        if options.json && diff { throw ValidationError("--json and --diff cannot be combined; choose one output") }
        if files.count > 1 && files.contains("-") {
            throw ValidationError("- (standard input) cannot be combined with files; check it in a run of its own")
        }
        if interactive {
            if options.json || diff { throw ValidationError("--interactive shows its own review; leave out --json and --diff") }
            if file == nil || file == "-" { throw ValidationError("--interactive needs a FILE (standard input is the terminal you answer on)") }
            if isManyFiles { throw ValidationError("--interactive reviews one file at a time; give one FILE (not several, nor a directory)") }
            guard Terminal.stdinIsTerminal && Terminal.stdoutIsTerminal else {
                throw ValidationError("--interactive needs a terminal on standard input and output; in scripts use --diff, --json or --write")
            }
        }
        if options.selection != nil && isManyFiles {
            throw ValidationError("--selection applies to one file; give one FILE")
        }
    }

    func run() throws {
        if isManyFiles { return try runMany() }
        let setup = try ToolSetup.prepare(file: file, options: options)
        try checkLanguage(setup.registry)
        let run = ProofreadRun(setup: setup)
        try run.run()
        var json: [String: FileReport]? = nil
        let status = try report(run, setup: setup, json: &json)
        // Honest about what is missing: after the output, so that it is the last thing read.
        if let completeness = run.completeness, !completeness.message.isEmpty {
            Terminal.err("emend: \(completeness.isPartial ? "warning" : "note"): \(setup.name): \(completeness.message)\n")
            if completeness.isPartial { throw ExitCode(ExitStatus.partial.rawValue) }
        }
        if status != .ok { throw ExitCode(status.rawValue) }
    }

    /// Checked against what is installed before any work: an unknown tag is an error, and a
    /// checker that cannot serve it is named rather than skipped without a word.
    private func checkLanguage(_ registry: ProviderRegistry) throws {
        guard let language = options.language else { return }
        for note in try LanguageSupport(registry: registry, providerID: options.provider).check(language) {
            Terminal.err("emend: note: \(note)\n")
        }
    }

    /// Several files (or directories): each file once, in the order given, with the same
    /// checkers (one registry and catalog, so each checker starts once); a file that cannot
    /// be read or checked is reported and the others still are. Exits with the worst status.
    private func runMany() throws {
        let inputs = InputFiles(files)
        for note in inputs.notes { Terminal.err("emend: note: \(note)\n") }
        var worst = ExitStatus.ok
        var json: [String: FileReport]? = options.json ? [:] : nil
        for (path, failure) in inputs.failures {
            Terminal.err("emend: \(failure.message)\n")
            // In the JSON too, as the README promises: a file that could not be checked has
            // `error` and `exitStatus` (a reader of the JSON alone learns why the status is 2).
            json?[path] = .failed(failure.message, status: failure.status.rawValue)
            worst = worst.worse(failure.status)
        }
        let environment = ProviderEnvironment()
        let registry = try environment.registry()
        try checkLanguage(registry)
        let catalog = CLICatalog(base: registry, language: options.language, proofreadProvider: options.provider,
                                 stream: StreamBuffer())
        var checked = 0, withFindings = 0, total = 0, skipped = 0
        for entry in inputs.entries {
            do {
                let document = try InputDocument.readUnchecked(entry.path)
                if InputFiles.looksBinary(document.bytes) {
                    Terminal.err("emend: note: \(entry.path): skipped (a binary file)\n")
                    skipped += 1
                    continue
                }
                do { try document.checkUTF8() } catch {
                    guard !entry.named else { throw error }
                    Terminal.err("emend: note: \(entry.path): skipped (not UTF-8 text)\n")
                    skipped += 1
                    continue
                }
                var setup = try ToolSetup.prepare(file: entry.path, options: options, document: document,
                                                  providers: (environment, registry))
                setup.catalog = catalog
                let run = ProofreadRun(setup: setup)
                try run.run()
                checked += 1
                var status = try report(run, setup: setup, json: &json, many: true)
                if !write && !run.findings.isEmpty {
                    withFindings += 1
                    total += run.findings.count
                }
                if let completeness = run.completeness, !completeness.message.isEmpty {
                    Terminal.err("emend: \(completeness.isPartial ? "warning" : "note"): \(setup.name): \(completeness.message)\n")
                    if completeness.isPartial { status = status.worse(.partial) }
                }
                worst = worst.worse(status)
            } catch {
                let failure = error as? CLIFailure ?? CLIFailure(.provider, "\(entry.path): \(error)")
                Terminal.err("emend: \(failure.message)\n")
                json?[entry.path] = .failed(failure.message, status: failure.status.rawValue)
                worst = worst.worse(failure.status)
            }
        }
        if let json { Terminal.out(JSONOutput.string(json)) }
        if inputs.entries.isEmpty && inputs.failures.isEmpty {
            throw CLIFailure.usage("no text files in \(files.joined(separator: " ")) (emend reads \(InputFiles.textExtensions.sorted().map { "." + $0 }.joined(separator: " ")))")
        }
        if !options.json && !diff && !write {
            let noun = checked == 1 ? "file" : "files"
            var line = "emend: \(checked) \(noun) checked"
            if skipped > 0 { line += ", \(skipped) skipped" }
            line += total == 0 ? ": no suggestions" : ": \(total) \(total == 1 ? "suggestion" : "suggestions") in \(withFindings) \(withFindings == 1 ? "file" : "files")"
            if total > 0 { line += "; review them with --interactive FILE, apply them with --write, or see --diff" }
            Terminal.err(line + "\n")
        }
        if worst != .ok { throw ExitCode(worst.rawValue) }
    }

    /// A file's entry in the JSON of a many-file run: its report, or why it was not checked.
    enum FileReport: Encodable {
        case checked(LanguageToolReport)
        case failed(String, status: Int32)

        func encode(to encoder: Encoder) throws {
            switch self {
            case .checked(let report): try report.encode(to: encoder)
            case .failed(let message, let status):
                try Failure(error: message, exitStatus: status).encode(to: encoder)
            }
        }
    }

    private struct Failure: Encodable {
        let error: String
        let exitStatus: Int32
    }

    /// Prints (or applies) the findings; the exit status they call for.
    /// `json`: where a many-file run collects the reports (nil: print this one); `many`: one
    /// of several files (the hint on what to do next is said once, at the end).
    private func report(_ run: ProofreadRun, setup: ToolSetup, json: inout [String: FileReport]?,
                        many: Bool = false) throws -> ExitStatus {
        let findings = run.findings
        let palette = Palette.forStream(STDOUT_FILENO, environment: setup.environment.environment)

        if interactive {
            return try InteractiveReview(proofread: run).run()
        }

        // What --write applies and --diff shows: the rest is left for a person to review.
        var (writable, held) = partitionForWriting(findings, setup: setup, detected: run.completeness?.languages ?? [])
        if write || diff, !held.isEmpty {
            Terminal.err("emend: \(setup.name): \(held.count) \(held.count == 1 ? "suggestion" : "suggestions") not applied "
                         + "(not safe unseen: they join or split words, respell a word beyond a slip, change hyphens, "
                         + "or their category is off); review them with --interactive\n")
        }
        if write || diff {
            let dependent = try holdingDependentNeighbours(&writable, run: run, setup: setup)
            if !dependent.isEmpty {
                Terminal.err("emend: \(setup.name): \(dependent.count) \(dependent.count == 1 ? "suggestion" : "suggestions") not applied "
                             + "(the checkers no longer propose \(dependent.count == 1 ? "it" : "them") once the suggestions before "
                             + "in the sentence are applied: \(dependent.count == 1 ? "it reads" : "they read") a neighbour's words); "
                             + "review them with --interactive\n")
                held += dependent
            }
        }
        if write && setup.input.isStandardInput {
            for finding in held { try run.reject(finding) }
            try run.acceptAll()
            Terminal.out(String(decoding: run.resultBytes, as: UTF8.self))
            Terminal.err("emend: \(summary(writable, verb: "applied", name: setup.name))\n")
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
            if json != nil { json?[setup.name] = .checked(report) } else { Terminal.out(report.json()) }
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
            Terminal.err("emend: \(summary(writable, verb: "applied", name: setup.name))\n")
            return .ok
        }
        if findings.isEmpty {
            if !options.json && !diff { Terminal.err("emend: \(setup.name): no suggestions\n") }
            return .ok
        }
        if !options.json && !diff {
            let hint = setup.input.isStandardInput || many ? "" : "; review them with --interactive, apply them with --write, or see --diff"
            Terminal.err("emend: \(summary(findings, verb: "found", name: setup.name))\(hint)\n")
        }
        return .suggestionsFound
    }

    /// The findings `WriteSafety` lets --write apply, and those it holds back: each judged with
    /// the dictionaries of its paragraph's language (`detected`: the paragraphs language
    /// detection checked in another language than the request's).
    private func partitionForWriting(_ findings: [Finding], setup: ToolSetup,
                                     detected: [Completeness.DetectedLanguage]) -> (writable: [Finding], held: [Finding]) {
        guard write || diff else { return (findings, []) }
        let registry = setup.registry
        // The dictionaries are read only when some finding moves a word boundary.
        let readsDictionaries = findings.contains(where: { WordBoundaries.joinsOrSplits($0.original, $0.replacement) })
        var safeties = WriteSafetyByLanguage(language: options.language ?? "en-US", detected: detected,
                                             preferences: registry.configuration.proofreading,
                                             personal: readsDictionaries ? PersonalDictionary.load(directory: registry.dictionaryDirectory) : PersonalDictionary())
        let wordless = WriteSafety(preferences: registry.configuration.proofreading, words: [])
        var writable: [Finding] = [], held: [Finding] = []
        for finding in findings {
            let safety = readsDictionaries ? safeties.safety(at: finding.range.lowerBound) : wordless
            if safety.refusal(original: finding.original, replacement: finding.replacement, category: finding.category,
                              ruleID: finding.ruleID) == nil {
                writable.append(finding)
            } else {
                held.append(finding)
            }
        }
        return (writable, held)
    }

    /// Moves out of `writable` (and returns) the suggestions that stand only on a neighbour's
    /// original words: those the checkers no longer propose once the suggestions before them
    /// in their sentence are applied (`NeighbourRecheck`; "thanks for you're message" gives
    /// `you're` → `your` and `message` → `messaged`, which read "you are message").
    private func holdingDependentNeighbours(_ writable: inout [Finding], run: ProofreadRun,
                                            setup: ToolSetup) throws(CLIFailure) -> [Finding] {
        // A spelling suggestion judges its own word alone: it needs no re-check.
        let candidates = writable.map {
            NeighbourRecheck.Candidate(range: $0.range, replacement: $0.replacement,
                                       readsNeighbours: $0.category != FixedCategory.spelling.rawValue)
        }
        let standing = try NeighbourRecheck.standing(in: setup.bytes, candidates: candidates) { (bytes) throws(CLIFailure) in
            try run.recheck(bytes)
        }
        let dependent = zip(writable, standing).filter { !$0.1 }.map(\.0)
        writable = zip(writable, standing).filter { $0.1 }.map(\.0)
        return dependent
    }

    private func summary(_ findings: [Finding], verb: String, name: String) -> String {
        guard !findings.isEmpty else { return "\(name): no suggestions" }
        var counts: [String: Int] = [:]
        for finding in findings { counts[finding.category.isEmpty ? "other" : finding.category, default: 0] += 1 }
        let detail = counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            .map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        let noun = findings.count == 1 ? "suggestion" : "suggestions"
        return "\(name): \(verb) \(findings.count) \(noun) (\(detail))"
    }
}
