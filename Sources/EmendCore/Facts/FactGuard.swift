/// Checks a model's result against its source so that a changed fact is never applied
/// silently. A rewrite (tone, described change, follow-up) must keep every fact of the
/// source and add none that the source or the prompt does not hold; a summary, key points, a
/// list or a table may leave facts out but must not add or change any; no result may flip a
/// negation. Formatting is free: "5" / "five", "Friday" / "friday".
public enum FactGuard {
    /// What a result changed, in words a writer reads: "drops ‘next week’", "changes ‘5’ to
    /// ‘7’", "negation of ‘tell customers a date’ lost".
    public struct Report: Equatable, Sendable {
        public let changes: [String]
        /// The facts to name when the provider is asked once more.
        public let factsToKeep: [String]

        public var explanation: String {
            "The result changes facts of the text: " + changes.joined(separator: ", ") + "."
        }
    }

    /// Whether `tool` is guarded at all (proofreading and compose are not: proofreading's
    /// edits are reviewed one by one, compose writes new text).
    public static func guards(_ tool: WritingTool) -> Bool {
        tool.isRewrite || tool == .summary || tool == .keyPoints || tool == .list || tool == .table
    }

    /// What `result` of `tool` on `source` changed; nil when it keeps the facts.
    public static func check(tool: WritingTool, source: String, result: String, prompt: String? = nil) -> Report? {
        guard guards(tool) else { return nil }
        let result = tool == .table || tool == .list || tool == .keyPoints ? withoutScaffolding(result) : result
        let sourceFacts = FactExtractor.facts(in: source)
        let resultFacts = FactExtractor.facts(in: result)
        let promptFacts = prompt.map(FactExtractor.facts(in:)) ?? []
        let sourceWords = FactWords.words(in: source), resultWords = FactWords.words(in: result)
        let resultText = PhraseIndex(resultWords), sourceText = PhraseIndex(sourceWords)
        let promptText = PhraseIndex(FactWords.words(in: prompt ?? ""))

        var dropped: [Fact] = []
        if tool.isRewrite {
            // A described change may replace a fact with one its prompt names ("move it to Tuesday").
            let promptKinds = Set(promptFacts.map(\.kind))
            for fact in sourceFacts where fact.kind != .negation && !isStated(fact, facts: resultFacts, text: resultText)
                && !promptKinds.contains(fact.kind) {
                if !dropped.contains(where: { $0.matches(fact) }) { dropped.append(fact) }
            }
        }
        var added: [Fact] = []
        for fact in resultFacts where fact.kind != .negation
            && !isStated(fact, facts: sourceFacts, text: sourceText) && !isStated(fact, facts: promptFacts, text: promptText) {
            if !added.contains(where: { $0.matches(fact) }) { added.append(fact) }
        }

        var changes: [String] = []
        // A drop and an addition of the same kind read as one change.
        var unpairedAdded = added
        for fact in dropped {
            if let pair = unpairedAdded.firstIndex(where: { $0.kind == fact.kind }) {
                changes.append("changes ‘\(fact.shown)’ to ‘\(unpairedAdded[pair].shown)’")
                unpairedAdded.remove(at: pair)
            } else {
                changes.append("drops ‘\(fact.shown)’")
            }
        }
        changes += unpairedAdded.map { "adds ‘\($0.shown)’" }
        changes += negationChanges(tool: tool, source: sourceFacts, result: resultFacts, sourceWords: sourceWords, resultWords: resultWords)
        guard !changes.isEmpty else { return nil }
        let keep = sourceFacts.filter { fact in
            dropped.contains { $0.matches(fact) } || (fact.kind == .negation && changes.contains { $0.contains(fact.shown) })
        }.map { $0.kind == .negation ? "not \($0.shown)" : $0.shown }
        return Report(changes: changes, factsToKeep: keep)
    }

    /// A list's or table's own scaffolding is no fact of the text: row numbers ("1", "#"),
    /// a table's header row, separator rows. Cells become words of their line.
    static func withoutScaffolding(_ text: String) -> String {
        var lines: [String] = []
        var inTable = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let separator: Character? = line.contains("|") ? "|" : line.contains("\t") ? "\t" : nil
            guard let separator else {
                inTable = false
                lines.append(String(line))
                continue
            }
            var cells = line.split(separator: separator).map { String($0).trimmingSpaces }.filter { !$0.isEmpty }
            if cells.allSatisfy({ $0.allSatisfy { "-:".contains($0) } }) { continue }
            if !inTable {
                // The header row names the columns: the table's own words.
                inTable = true
                continue
            }
            if let first = cells.first, first == "#" || first.allSatisfy(\.isNumber) { cells.removeFirst() }
            lines.append(cells.joined(separator: " "))
        }
        return lines.joined(separator: "\n")
    }

    /// Whether `fact` is among `facts`, or (names, quotations, code, links) written in `text`.
    private static func isStated(_ fact: Fact, facts: [Fact], text: PhraseIndex) -> Bool {
        if facts.contains(where: { $0.matches(fact) }) { return true }
        switch fact.kind {
        case .name, .quote, .code, .url, .email, .weekday, .date:
            return text.contains(fact.key)
        case .number:
            // "1" is also "one", "a single".
            if fact.key == "1" { return text.contains("one") || text.contains("a single") }
            return false
        case .time, .negation:
            return false
        }
    }

    /// Negations lost (the clause's word kept plainly, or a rewrite with fewer negations
    /// and the clause gone) and negations added to a clause the source says plainly.
    private static func negationChanges(tool: WritingTool, source: [Fact], result: [Fact],
                                        sourceWords: [FactWord], resultWords: [FactWord]) -> [String] {
        let sourceNegations = source.filter { $0.kind == .negation }
        let resultNegations = result.filter { $0.kind == .negation }
        let resultPlain = NegationFinder.plainStems(resultWords)
        let resultAll = Set(resultWords.map { NegationFinder.stem($0.lower) })
        let sourcePlain = NegationFinder.plainStems(sourceWords)
        var changes: [String] = []
        for negation in sourceNegations where !resultNegations.contains(where: { $0.key == negation.key }) {
            let keptPlainly = resultPlain.contains(negation.key)
            let gone = !resultAll.contains(negation.key)
            if keptPlainly || (tool.isRewrite && gone && resultNegations.count < sourceNegations.count) {
                changes.append("negation of ‘\(negation.shown)’ lost")
            }
        }
        for negation in resultNegations where !sourceNegations.contains(where: { $0.key == negation.key })
            && sourcePlain.contains(negation.key) {
            changes.append("adds a negation to ‘\(negation.shown)’")
        }
        return changes
    }
}

/// The phrases of a text (runs of up to eight words, lower case), to ask in constant time
/// whether the text states a name or a phrase; longer phrases are looked for in the words.
struct PhraseIndex {
    private let phrases: Set<String>
    private let joined: String

    init(_ words: [FactWord]) {
        let lower = words.map { $0.lower.hasSuffix("'s") && !$0.isAddress ? String($0.lower.dropLast(2)) : $0.lower }
        var phrases: Set<String> = []
        for start in lower.indices {
            var phrase = ""
            for length in 0..<min(8, lower.count - start) {
                phrase += (length == 0 ? "" : " ") + lower[start + length]
                phrases.insert(phrase)
            }
        }
        self.phrases = phrases
        joined = " " + words.map(\.lower).joined(separator: " ") + " "
    }

    func contains(_ phrase: String) -> Bool {
        if phrases.contains(phrase) { return true }
        return phrase.split(separator: " ").count > 8 && joined.contains(" " + phrase + " ")
    }
}
