// The proofreading-quality figures of EmendBenchmarks: each checker alone (as it answers, and
// through Emend's false-alarm filter) and Emend's combination, on the project's own labelled
// development set in benchmarks/quality (spelling pairs, learner sentences with their
// corrections, technical README sentences). Every sentence is its own request, as an editor
// would send a paragraph. The checkers run once per sentence; the filter and the combination
// are then applied to their answers exactly as FilteringProofreader and CombinedProofreader do.
//
// Usage: EmendBenchmarks --quality DIR --providers DIR --scanner PATH
import EmendCore
import EmendProofreading
import EmendProviders

#if canImport(Glibc)
import Glibc
#endif

struct QualityBenchmark {
    var dataDirectory: String
    var providers: String
    var scanner: String

    struct Learner { var grammar: Bool; var wrong: String; var right: String }

    /// What one system flagged on each sentence.
    typealias Answers = [String: [ProviderEdit]]

    func run() {
        let spelling = Self.lines(dataDirectory + "/spelling.tsv").compactMap { line -> (String, String)? in
            let parts = line.split(separator: "\t").map(String.init)
            return parts.count == 2 ? (parts[0], parts[1]) : nil
        }
        var learner = Self.lines(dataDirectory + "/learner.tsv").compactMap { line -> Learner? in
            let parts = line.split(separator: "\t").map(String.init)
            return parts.count == 3 ? Learner(grammar: parts[0] == "grammar", wrong: parts[1], right: parts[2]) : nil
        }
        var technical = Self.lines(dataDirectory + "/technical.txt")
        // The per-rule precision set (precision.tsv, when the set has one): its errors join the
        // learner sentences, its correct everyday sentences the corrected ones (false alarms),
        // its README-style ones the technical sentences.
        var correct: [String] = []
        for line in Self.lines(dataDirectory + "/precision.tsv", optional: true) {
            let parts = line.split(separator: "\t").map(String.init)
            switch (parts.first, parts.count) {
            case ("ok"?, 2): correct.append(parts[1])
            case ("tech"?, 2): technical.append(parts[1])
            case ("grammar"?, 3), ("spelling"?, 3): learner.append(Learner(grammar: parts[0] == "grammar", wrong: parts[1], right: parts[2]))
            default: fail("precision.tsv: a line that is no ok, tech, grammar or spelling item: \(line)")
            }
        }
        let carrier = { (word: String) in "Yesterday she wrote \(word) in her notes." }
        var sentences = spelling.map { carrier($0.0) } + learner.flatMap { [$0.wrong, $0.right] } + correct + technical
        var seen: Set<String> = []
        sentences = sentences.filter { seen.insert($0).inserted }

        let cache = "/tmp/emend-quality-\(getpid()).cache"
        defer { unlink(cache) }
        let discovery = ProviderDiscovery(searchPath: [providers], cachePath: cache, scannerPath: scanner).run()
        let registry = ProviderRegistry(discovery: discovery, configuration: ProviderConfiguration(), builtins: [])
        let members: [WritingProvider]
        do { members = try registry.membersToCombine(for: .proofread) } catch { fail("no proofreading provider: \(error.message)") }
        print("set \(dataDirectory): \(spelling.count) misspellings, \(learner.count) learner sentences with corrections "
              + "(\(learner.filter(\.grammar).count) grammar), \(correct.count) correct sentences, \(technical.count) technical sentences; checkers: "
              + members.map(\.id).joined(separator: ", "))

        // Each checker once per sentence, as it answers (the filter's base).
        var raw: [String: Answers] = [:]
        for member in members {
            let base = (member as? FilteringProofreader)?.base ?? member
            var answers: Answers = [:]
            for sentence in sentences { answers[sentence] = Self.check(base, sentence) }
            raw[member.id] = answers
        }
        let filter = { (text: String, edits: [ProviderEdit]) in
            let f = ProofreadingFilter(text: text)
            return edits.filter { f.verdict(for: $0) == .keep }
        }
        // EMEND_QUALITY_DUMP=PREFIX: every checker's answer to every sentence, to PREFIX.<pid>,
        // so that two runs whose figures differ can be diffed sentence by sentence.
        if let prefix = getenv("EMEND_QUALITY_DUMP").map({ String(cString: $0) }), !prefix.isEmpty,
           let file = fopen("\(prefix).\(getpid())", "w") {
            for member in members {
                for sentence in sentences {
                    let bytes = Array(sentence.utf8)
                    let shown = raw[member.id]![sentence]!.map {
                        "\(String(decoding: bytes[$0.range.clamped(to: 0..<bytes.count)], as: UTF8.self))→\($0.replacement) [\($0.ruleID)]"
                    }
                    fputs("\(Self.short(member.id))\t\(sentence)\t\(shown.joined(separator: ", "))\n", file)
                }
            }
            fclose(file)
        }
        var systems: [(name: String, answers: Answers)] = []
        for member in members {
            let name = Self.short(member.id)
            systems.append((name + " alone, as it answers", raw[member.id]!))
            systems.append((name + " alone, through Emend's filter", raw[member.id]!.mapValues { $0 }.reduce(into: Answers()) {
                $0[$1.key] = filter($1.key, $1.value)
            }))
        }
        var union: Answers = [:], combined: Answers = [:]
        let combiner = ProofreadingCombiner()
        for sentence in sentences {
            let batches = members.enumerated().map { rank, member in
                MemberEdits(providerID: member.id, rank: rank, edits: filter(sentence, raw[member.id]![sentence]!))
            }
            union[sentence] = Self.union(batches)
            combined[sentence] = combiner.combine(batches, text: sentence).map(\.edit)
        }
        if members.count > 1 {
            // Emend before this work: Hunspell and Harper as they answer, the preferred one
            // winning overlaps (Harper, by priority), nothing filtered.
            let old = members.filter { $0.id == "org.emend.harper" || $0.id == "org.emend.hunspell" }
            if old.count == 2 {
                var before: Answers = [:]
                for sentence in sentences {
                    before[sentence] = Self.union(old.enumerated().map { MemberEdits(providerID: $1.id, rank: $0, edits: raw[$1.id]![sentence]!) })
                }
                systems.append(("emend before (Hunspell + Harper, union, no filter)", before))
            }
            systems.append(("union of the filtered checkers", union))
            systems.append(("emend combined (filter + ProofreadingCombiner)", combined))
        }

        print("")
        print(Self.row(["system", "caught", "grammar caught", "false alarms", "first right", "misspellings caught",
                        "first right (spelling)", "technical flagged"]))
        for (name, answers) in systems {
            let figures = Self.score(answers, spelling: spelling, learner: learner, correct: correct, technical: technical, carrier: carrier)
            print(Self.row([name] + figures))
        }
        // The technical sentences as one README: what `emend proofread README.md` sends, where
        // a name the text keeps using is recognised as such.
        let document = technical.joined(separator: "\n")
        var documentBatches: [MemberEdits] = []
        for (rank, member) in members.enumerated() {
            let base = (member as? FilteringProofreader)?.base ?? member
            documentBatches.append(MemberEdits(providerID: member.id, rank: rank,
                                               edits: filter(document, Self.check(base, document))))
        }
        let lineStarts = technical.reduce(into: [0]) { $0.append($0.last! + $1.utf8.count + 1) }
        func flaggedLines(_ edits: [ProviderEdit]) -> Int {
            Set(edits.map { edit in lineStarts.lastIndex { $0 <= edit.range.lowerBound } ?? 0 }).count
        }
        print("\ntechnical sentences checked as one document (\(technical.count) lines), lines flagged:")
        for batch in documentBatches {
            print("  \(Self.short(batch.providerID)) alone, through Emend's filter: "
                  + Self.percent(flaggedLines(batch.edits), technical.count))
        }
        print("  emend combined: " + Self.percent(flaggedLines(combiner.combine(documentBatches, text: document).map(\.edit)),
                                                    technical.count))
        print("""

            caught: learner sentences with an error where a flag touches a changed word; false alarms:
            corrected and correct sentences with any flag; first right: of the flags on changed words, those whose
            replacement brings the sentence closer to its correction (word diff shrinks); misspellings
            caught / first right (spelling): the word flagged / its first suggestion is the right word;
            technical flagged: technical sentences with any flag (all are spelled right).
            """)
        printRuleStatistics(raw: raw, members: members, spelling: spelling, carrier: carrier, learner: learner, correct: correct,
                            technical: technical, filter: filter)
        if getenv("EMEND_QUALITY_VERBOSE") != nil {
            printDetails(raw: raw, members: members, combined: combined, spelling: spelling, learner: learner,
                         technical: technical, carrier: carrier)
        }
    }

    /// With EMEND_QUALITY_VERBOSE set: every flag on technical sentences, every misspelling
    /// whose combined first suggestion is wrong, every learner error the combination misses
    /// (with each checker's flags and the combination's on that sentence).
    func printDetails(raw: [String: Answers], members: [WritingProvider], combined: Answers, spelling: [(String, String)],
                      learner: [Learner], technical: [String], carrier: (String) -> String) {
        func show(_ text: String, _ edits: [ProviderEdit]) -> String {
            let bytes = Array(text.utf8)
            return edits.map { "\(String(decoding: bytes[$0.range], as: UTF8.self))→\($0.replacement) [\($0.ruleID)]" }
                .joined(separator: ", ")
        }
        print("\ntechnical sentences, each checker's flags (raw) and the combination's:")
        for sentence in technical {
            let parts = members.map { Self.short($0.id) + ": " + show(sentence, raw[$0.id]![sentence]!) }
            print("  \(sentence)\n    \(parts.joined(separator: "\n    "))\n    combined: \(show(sentence, combined[sentence]!))")
        }
        print("\nmisspellings whose combined first suggestion is not the right word:")
        for (wrong, right) in spelling {
            let sentence = carrier(wrong)
            let first = combined[sentence]!.first { Self.touches($0.range, Self.byteRange(of: wrong, in: sentence)) }
            if first?.replacement.lowercased() != right.lowercased() {
                let each = members.map { m in
                    Self.short(m.id) + "=" + (raw[m.id]![sentence]!.first { Self.touches($0.range, Self.byteRange(of: wrong, in: sentence)) }?.replacement ?? "-")
                }
                print("  \(wrong) → \(right): combined \(first?.replacement ?? "-"); \(each.joined(separator: " "))")
            }
        }
        print("\nlearner errors the combination misses:")
        for item in learner {
            let changed = Self.changedRanges(item.wrong, item.right)
            if !(combined[item.wrong]!.contains { edit in changed.contains { Self.touches(edit.range, $0) } }) {
                // The combination's own flags too: a flag it kept on a word the correction does
                // not change is not a flag the combination dropped.
                let each = members.map { Self.short($0.id) + ": " + show(item.wrong, raw[$0.id]![item.wrong]!) }
                    + ["combined: " + show(item.wrong, combined[item.wrong]!)]
                print("  \(item.wrong) → \(item.right)\n    \(each.joined(separator: "\n    "))")
            }
        }
    }

    // MARK: - Scoring

    static func score(_ answers: Answers, spelling: [(String, String)], learner: [Learner], correct: [String], technical: [String],
                      carrier: (String) -> String) -> [String] {
        var caught = 0, grammarCaught = 0, falseAlarms = 0, onChange = 0, firstRight = 0
        for item in learner {
            let changed = changedRanges(item.wrong, item.right)
            let hits = (answers[item.wrong] ?? []).filter { edit in changed.contains { touches(edit.range, $0) } }
            if !hits.isEmpty {
                caught += 1
                if item.grammar { grammarCaught += 1 }
            }
            for edit in hits {
                onChange += 1
                let fixed = apply(edit, to: item.wrong)
                if wordDiff(fixed, item.right) < wordDiff(item.wrong, item.right) { firstRight += 1 }
            }
            if !(answers[item.right] ?? []).isEmpty { falseAlarms += 1 }
        }
        var spellingCaught = 0, spellingRight = 0
        for (wrong, right) in spelling {
            let sentence = carrier(wrong)
            let at = byteRange(of: wrong, in: sentence)
            let edits = (answers[sentence] ?? []).filter { touches($0.range, at) }
            if let first = edits.first {
                spellingCaught += 1
                if first.range == at && first.replacement.lowercased() == right.lowercased() { spellingRight += 1 }
            }
        }
        falseAlarms += correct.filter { !(answers[$0] ?? []).isEmpty }.count
        let flaggedTechnical = technical.filter { !(answers[$0] ?? []).isEmpty }.count
        let grammarCount = learner.filter(\.grammar).count
        return [percent(caught, learner.count), percent(grammarCaught, grammarCount), percent(falseAlarms, learner.count + correct.count),
                percent(firstRight, onChange), percent(spellingCaught, spelling.count), percent(spellingRight, spellingCaught),
                percent(flaggedTechnical, technical.count)]
    }

    /// Per checker and rule, through the filter: flags on changed words of learner sentences and
    /// on misspelt words (right), anywhere else in them (elsewhere), on corrected and correct
    /// sentences, on technical sentences. With EMEND_QUALITY_PRECISION_OUT set, the counts are
    /// also written there as the Swift table `RulePrecision.estimates` that the combiner reads.
    func printRuleStatistics(raw: [String: Answers], members: [WritingProvider], spelling: [(String, String)],
                             carrier: (String) -> String, learner: [Learner], correct: [String], technical: [String],
                             filter: (String, [ProviderEdit]) -> [ProviderEdit]) {
        struct Counts { var right = 0, wrongPlace = 0, onCorrect = 0, onTechnical = 0 }
        var table: [String: Counts] = [:]
        for member in members {
            let answers = raw[member.id]!
            func key(_ edit: ProviderEdit) -> String { member.id + " " + edit.ruleID }
            for item in learner {
                let changed = Self.changedRanges(item.wrong, item.right)
                for edit in filter(item.wrong, answers[item.wrong] ?? []) {
                    if changed.contains(where: { Self.touches(edit.range, $0) }) { table[key(edit), default: Counts()].right += 1 }
                    else { table[key(edit), default: Counts()].wrongPlace += 1 }
                }
            }
            for (wrong, _) in spelling {
                let sentence = carrier(wrong)
                let at = Self.byteRange(of: wrong, in: sentence)
                for edit in filter(sentence, answers[sentence] ?? []) {
                    if Self.touches(edit.range, at) { table[key(edit), default: Counts()].right += 1 }
                    else { table[key(edit), default: Counts()].wrongPlace += 1 }
                }
            }
            for sentence in learner.map(\.right) + correct {
                for edit in filter(sentence, answers[sentence] ?? []) { table[key(edit), default: Counts()].onCorrect += 1 }
            }
            for sentence in technical {
                for edit in filter(sentence, answers[sentence] ?? []) { table[key(edit), default: Counts()].onTechnical += 1 }
            }
        }
        let evidence = EvidenceModel.standard
        print("\nper checker and rule (through the filter; every set): right / elsewhere / on correct / on technical; estimated precision")
        for (key, counts) in table.sorted(by: { ($0.value.onCorrect + $0.value.onTechnical + $0.value.wrongPlace, $0.key)
                                                 > ($1.value.onCorrect + $1.value.onTechnical + $1.value.wrongPlace, $1.key) }) {
            let fired = counts.right + counts.wrongPlace + counts.onCorrect + counts.onTechnical
            let estimate = RulePrecision.Record(right: counts.right, fired: fired).estimate
            let lone = estimate < evidence.minimumLonePrecision ? " (alone: dropped unless a second checker agrees)" : ""
            print("  \(Self.short(key.split(separator: " ")[0].description)) \(key.split(separator: " ").dropFirst().joined(separator: " ")): "
                  + "\(counts.right) / \(counts.wrongPlace) / \(counts.onCorrect) / \(counts.onTechnical); \(Int((estimate * 100).rounded()))%\(lone)")
        }
        if let out = getenv("EMEND_QUALITY_PRECISION_OUT").map({ String(cString: $0) }), !out.isEmpty {
            var lines = table.sorted { $0.key < $1.key }.map { key, counts in
                "        \"\(key)\": Record(right: \(counts.right), fired: \(counts.right + counts.wrongPlace + counts.onCorrect + counts.onTechnical)),"
            }
            if lines.isEmpty { lines = ["        :"] }
            let source = """
                // Generated by `EMEND_QUALITY_PRECISION_OUT=<this file> bash benchmarks/quality/run.sh` from the
                // project's labelled development set (benchmarks/quality: spelling.tsv, learner.tsv,
                // technical.txt, precision.tsv); do not edit by hand. Each checker's rule (through Emend's
                // filter): how often it flagged the right word, of how often it fired.
                extension RulePrecision {
                    public static let estimates: [String: Record] = [
                \(lines.joined(separator: "\n"))
                    ]
                }

                """
            guard let file = fopen(out, "w") else { fail("cannot write \(out)") }
            fputs(source, file)
            fclose(file)
            let note = Array("wrote \(table.count) rules' counts to \(out)\n".utf8)
            _ = note.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
        }
    }

    // MARK: - Helpers

    static func check(_ provider: WritingProvider, _ text: String) -> [ProviderEdit] {
        let sink = CollectingSink()
        _ = provider.run(ProviderRequest(tool: .proofread, text: text, selection: 0..<text.utf8.count), sink: sink)
        return sink.edits.sorted { $0.range.lowerBound < $1.range.lowerBound }
    }

    /// The old merge: the most preferred checker's edit wins where edits overlap.
    static func union(_ batches: [MemberEdits]) -> [ProviderEdit] {
        var kept: [ProviderEdit] = []
        for batch in batches {
            for edit in batch.edits where !kept.contains(where: { touches($0.range, edit.range) || $0.range == edit.range }) {
                kept.append(edit)
            }
        }
        return kept.sorted { $0.range.lowerBound < $1.range.lowerBound }
    }

    static func touches(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
        if a.isEmpty || b.isEmpty { return a.lowerBound <= b.upperBound && b.lowerBound <= a.upperBound }
        return a.overlaps(b)
    }

    static func apply(_ edit: ProviderEdit, to text: String) -> String {
        let bytes = Array(text.utf8)
        return String(decoding: bytes[..<edit.range.lowerBound] + Array(edit.replacement.utf8) + bytes[edit.range.upperBound...],
                      as: UTF8.self)
    }

    /// Words and punctuation marks, with their byte ranges.
    static func tokens(_ text: String) -> [(String, Range<Int>)] {
        var result: [(String, Range<Int>)] = []
        var offset = 0, start: Int?, current = ""
        for character in text {
            let width = character.utf8.count
            if character.isLetter || character.isNumber || character == "'" {
                if start == nil { start = offset }
                current.append(character)
            } else {
                if let s = start { result.append((current, s..<offset)); start = nil; current = "" }
                if !character.isWhitespace { result.append((String(character), offset..<(offset + width))) }
            }
            offset += width
        }
        if let s = start { result.append((current, s..<offset)) }
        return result
    }

    /// Byte ranges of `wrong` whose words the correction changes; where words are only
    /// inserted, the words on both sides of the insertion.
    static func changedRanges(_ wrong: String, _ right: String) -> [Range<Int>] {
        let a = tokens(wrong), b = tokens(right)
        let table = lcsTable(a.map(\.0), b.map(\.0))
        var i = 0, j = 0, ranges: [Range<Int>] = []
        var start: Int?   // index in a where a changed run starts
        func close() {
            guard let first = start, !a.isEmpty else { start = nil; return }
            // Deleted or replaced words a[first..<i]; a pure insertion: a[first - 1] and a[first].
            let from = i > first ? first : max(first - 1, 0)
            let to = i > first ? i - 1 : min(first, a.count - 1)
            ranges.append(a[from].1.lowerBound..<a[max(from, to)].1.upperBound)
            start = nil
        }
        while i < a.count || j < b.count {
            if i < a.count, j < b.count, a[i].0 == b[j].0 {
                close()
                i += 1; j += 1
            } else if j < b.count, i == a.count || table[i][j + 1] >= table[i + 1][j] {
                if start == nil { start = i }
                j += 1
            } else {
                if start == nil { start = i }
                i += 1
            }
        }
        close()
        return ranges
    }

    static func wordDiff(_ x: String, _ y: String) -> Int {
        let a = tokens(x).map(\.0), b = tokens(y).map(\.0)
        return a.count + b.count - 2 * lcsTable(a, b)[0][0]
    }

    /// table[i][j]: the length of the longest common subsequence of a[i...] and b[j...].
    static func lcsTable(_ a: [String], _ b: [String]) -> [[Int]] {
        var table = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                table[i][j] = a[i] == b[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
            }
        }
        return table
    }

    static func byteRange(of needle: String, in text: String) -> Range<Int> {
        let bytes = Array(text.utf8), n = Array(needle.utf8)
        for start in 0...(bytes.count - n.count) where bytes[start..<(start + n.count)].elementsEqual(n) {
            return start..<(start + n.count)
        }
        return 0..<0
    }

    static func percent(_ part: Int, _ whole: Int) -> String {
        whole == 0 ? "-" : String(Double(Int(Double(part) * 1000 / Double(whole) + 0.5)) / 10) + "% (\(part)/\(whole))"
    }

    static func short(_ id: String) -> String { String(id.split(separator: ".").last ?? Substring(id)) }

    static func row(_ cells: [String]) -> String {
        let widths = [52, 17, 17, 17, 19, 20, 22, 17]
        return zip(cells, widths).map { $0.0 + String(repeating: " ", count: max(0, $0.1 - $0.0.count)) }.joined(separator: " ")
    }

    static func lines(_ path: String, optional: Bool = false) -> [String] {
        guard let file = fopen(path, "rb") else {
            if optional { return [] }
            fail("cannot read \(path)")
        }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = fread(&buffer, 1, buffer.count, file)
            if n <= 0 { break }
            bytes += buffer[..<n]
        }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }
}

/// Collects what a provider emits (the benchmark runs one request at a time).
final class CollectingSink: ProviderSink, @unchecked Sendable {
    private let lock = Lock()
    private var collected: [ProviderEdit] = []
    var edits: [ProviderEdit] { lock.withLock { collected } }
    var isCancelled: Bool { false }
    func emitText(_ chunk: String) {}
    func emitEdit(_ edit: ProviderEdit) { lock.withLock { collected.append(edit) } }
    func log(_ message: String) {}
}
