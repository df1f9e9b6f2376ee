import Glibc
import EmendCore
import EmendProofreading
import EmendProviders

/// Review of proofreading suggestions on a terminal, like `git add -p`: each suggestion in
/// context, one key to decide. Decisions go to the coordinator (accept or reject each); the
/// file is written once at the end, atomically; quitting keeps what was decided before (as `git add -p`).
struct InteractiveReview {
    let proofread: ProofreadRun

    private var setup: ToolSetup { proofread.setup }

    func run() throws(CLIFailure) -> ExitStatus {
        let name = setup.name
        let findings = proofread.findings
        guard !findings.isEmpty else {
            Terminal.out("\(name): no suggestions\n")
            return .ok
        }
        let palette = Palette.forStream(STDOUT_FILENO, environment: setup.environment.environment)
        let report = HumanReport(fileName: name, bytes: setup.bytes, encoding: setup.options.encoding.encoding,
                                 palette: palette, width: Terminal.columns() ?? 100)
        var positions = TextPositions(setup.bytes, encoding: setup.options.encoding.encoding)
        let raw = RawTerminal()
        proofread.driver?.onSignal.append { raw.restore() }
        defer { raw.restore() }

        var accepted = 0
        var index = 0
        var decideRest: ReviewKey?
        var dictionary = PersonalDictionary.load(environment: setup.environment.environment)
        /// Words added during this review: their later suggestions are rejected without asking.
        var added: Set<String> = []
        let menu = ReviewKeyMenu.proofread
        while index < findings.count {
            let finding = findings[index]
            if added.contains(finding.original) {
                try proofread.reject(finding)
                index += 1
                continue
            }
            let position = positions.position(of: finding.range.lowerBound)
            var key: ReviewKey
            if let rest = decideRest {
                key = rest
            } else {
                Terminal.out("\n" + report.entry(finding, at: position, lineEnd: positions.lineEnd(from: position.lineStart)))
                while true {
                    Terminal.out(palette.bold("(\(index + 1)/\(findings.count)) " + menu.prompt))
                    guard let answer = menu.answer(ReviewKeys.read(driver: proofread.anyDriver)) else {
                        Terminal.out("\n")
                        continue
                    }
                    key = answer
                    if answer == .help {
                        Terminal.out("?\n" + menu.helpText)
                        continue
                    }
                    if answer == .addWord {
                        do throws(EmendError) {
                            try dictionary.add(word: finding.original)
                        } catch {
                            Terminal.out("w\n\(error.message)\n")
                            continue
                        }
                    }
                    break
                }
                Terminal.out("\(key.rawValue)\n")
            }
            switch key {
            case .yes:
                try proofread.accept(finding)
                accepted += 1
            case .no:
                try proofread.reject(finding)
            case .addWord:
                try proofread.reject(finding)
                added.insert(finding.original)
                let file = (dictionary.directory ?? "") + "/" + PersonalDictionary.wordFileName
                Terminal.out("Added “\(finding.original)” to \(file).\n")
            case .all:
                decideRest = .yes
                continue
            case .noneLeft:
                decideRest = .no
                continue
            case .help:   // answered where it was typed: ask again
                continue
            case .quit:   // what was decided stays; this one and the rest are not applied
                for rest in findings[index...] { try proofread.reject(rest) }
                raw.restore()
                try proofread.acceptAll()
                return try finish(accepted: accepted, of: findings.count, quit: true)
            }
            index += 1
        }
        raw.restore()
        try proofread.acceptAll()
        return try finish(accepted: accepted, of: findings.count, quit: false)
    }

    /// Writes what was accepted (once, atomically) and says so. Quitting (`q`, as in
    /// `git add -p`) keeps what was decided before it; the rest is not applied. Exit 0 either
    /// way, as `rewrite --interactive` and `git add -p`: q is a decision (drop the rest, as
    /// `d`), not a failure, and `d` exits 0 too.
    private func finish(accepted: Int, of count: Int, quit: Bool) throws(CLIFailure) -> ExitStatus {
        let name = setup.name
        let prefix = quit ? "Quit: " : ""
        if accepted > 0, let path = setup.input.path {
            try AtomicFile.write(proofread.resultBytes, to: path, expected: setup.input.status)
            Terminal.out("\(prefix)\(name): applied \(accepted) of \(count) suggestions.\n")
        } else {
            Terminal.out("\(prefix)\(name): no changes applied; the file was not changed.\n")
        }
        return .ok
    }
}

/// The terminal in character-at-a-time mode without echo (signals keys still work), put back
/// as it was by `restore`.
final class RawTerminal {
    private var saved = termios()
    private var active = false

    init() {
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { return }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        // TCSANOW: keys typed ahead stay in the queue.
        active = tcsetattr(STDIN_FILENO, TCSANOW, &raw) == 0
    }

    func restore() {
        guard active else { return }
        _ = tcsetattr(STDIN_FILENO, TCSANOW, &saved)
        active = false
    }
}
