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
        let sourceWords = FactWords.words(in: source), resultWords = FactWords.words(in: result)
        let promptWords = FactWords.words(in: prompt ?? "")
        let sourceFacts = FactExtractor.facts(in: source, words: sourceWords)
        let resultFacts = FactExtractor.facts(in: result, words: resultWords)
        let promptFacts = prompt.map { FactExtractor.facts(in: $0, words: promptWords) } ?? []
        let sourceIndex = FactIndex(sourceFacts), resultIndex = FactIndex(resultFacts), promptIndex = FactIndex(promptFacts)
        let resultText = PhraseIndex(resultWords), sourceText = PhraseIndex(sourceWords)
        let promptText = PhraseIndex(promptWords)

        var dropped: [Fact] = []
        var droppedIndex = FactIndex()
        if tool.isRewrite {
            // A described change may replace a fact with one its prompt names ("move it to Tuesday").
            let promptKinds = Set(promptFacts.map(\.kind))
            for fact in sourceFacts where fact.kind != .negation && !isStated(fact, facts: resultIndex, text: resultText)
                && !promptKinds.contains(fact.kind) {
                if droppedIndex.insert(fact) { dropped.append(fact) }
            }
        }
        var added: [Fact] = []
        var addedIndex = FactIndex()
        for fact in resultFacts where fact.kind != .negation
            && !isStated(fact, facts: sourceIndex, text: sourceText) && !isStated(fact, facts: promptIndex, text: promptText) {
            if addedIndex.insert(fact) { added.append(fact) }
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
        let negations = negationChanges(tool: tool, source: sourceFacts, result: resultFacts, sourceWords: sourceWords, resultWords: resultWords)
        changes += negations.map(\.change)
        guard !changes.isEmpty else { return nil }
        let lostNegations = Set(negations.compactMap(\.lost))
        let keep = sourceFacts.filter { fact in
            fact.kind == .negation ? lostNegations.contains(fact.shown) : droppedIndex.containsMatch(for: fact)
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
    private static func isStated(_ fact: Fact, facts: FactIndex, text: PhraseIndex) -> Bool {
        if facts.containsMatch(for: fact) { return true }
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
    /// and the clause gone) and negations added to a clause the source says plainly. `lost`
    /// is the source clause whose negation was lost (to name when asking again).
    private static func negationChanges(tool: WritingTool, source: [Fact], result: [Fact],
                                        sourceWords: [FactWord], resultWords: [FactWord]) -> [(change: String, lost: String?)] {
        let sourceNegations = source.filter { $0.kind == .negation }
        let resultNegations = result.filter { $0.kind == .negation }
        let sourceKeys = Set(sourceNegations.map(\.key)), resultKeys = Set(resultNegations.map(\.key))
        let resultPlain = NegationFinder.plainStems(resultWords)
        let resultAll = Set(resultWords.map { NegationFinder.stem($0.lower) })
        let sourcePlain = NegationFinder.plainStems(sourceWords)
        var changes: [(change: String, lost: String?)] = []
        for negation in sourceNegations where !resultKeys.contains(negation.key) {
            let keptPlainly = resultPlain.contains(negation.key)
            let gone = !resultAll.contains(negation.key)
            if keptPlainly || (tool.isRewrite && gone && resultNegations.count < sourceNegations.count) {
                changes.append(("negation of ‘\(negation.shown)’ lost", negation.shown))
            }
        }
        for negation in resultNegations where !sourceKeys.contains(negation.key) && sourcePlain.contains(negation.key) {
            changes.append(("adds a negation to ‘\(negation.shown)’", nil))
        }
        return changes
    }
}

/// The phrases of a text (runs of up to eight words, lower case), to ask in constant time
/// whether the text states a name or a phrase; longer phrases are looked for in the words.
/// Phrases are kept as 64-bit hashes of their words, not as strings: a text of n words has
/// 8n phrases, and building that many strings made the index the guard's largest cost.
struct PhraseIndex {
    private let phrases: Set<UInt64>
    private let joined: String

    init(_ words: [FactWord]) {
        let lower = words.map { $0.lower.hasSuffix("'s") && !$0.isAddress ? String($0.lower.dropLast(2)) : $0.lower }
        let hashes = lower.map { Self.hash($0[...]) }
        var phrases = Set<UInt64>(minimumCapacity: hashes.count * 8)
        for start in hashes.indices {
            var phrase = Self.empty
            for length in 0..<min(8, hashes.count - start) {
                phrase = Self.extend(phrase, with: hashes[start + length])
                phrases.insert(phrase)
            }
        }
        self.phrases = phrases
        joined = " " + words.map(\.lower).joined(separator: " ") + " "
    }

    func contains(_ phrase: String) -> Bool {
        let parts = phrase.split(separator: " ", omittingEmptySubsequences: false)
        if parts.count <= 8 {
            return phrases.contains(parts.reduce(Self.empty) { Self.extend($0, with: Self.hash($1)) })
        }
        return joined.contains(" " + phrase + " ")
    }

    /// The hash of no words.
    private static let empty: UInt64 = 0xcbf2_9ce4_8422_2325

    /// FNV-1a over the word's UTF-8 bytes: deterministic, unlike Hasher, so that two indexes
    /// agree.
    private static func hash(_ word: Substring) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in word.utf8 { h = (h ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return h
    }

    /// A phrase's hash with one more word (order matters: "new york" is not "york new").
    private static func extend(_ phrase: UInt64, with word: UInt64) -> UInt64 {
        var h = (phrase ^ word) &* 0x9E37_79B9_7F4A_7C15
        h ^= h >> 29
        return h &* 0xBF58_476D_1CE4_E5B9
    }
}
