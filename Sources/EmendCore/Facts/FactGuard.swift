/// Checks a model's result against its source so that a changed fact is never applied
/// silently. A rewrite (tone, described change, follow-up) must keep every fact of the
/// source and add none that the source or the prompt does not hold; a summary, key points, a
/// list or a table may leave facts out but must not add or change any; no result may flip a
/// negation or state an event the text does not (AddedStatements). Formatting is free: "5" /
/// "five", "Friday" / "friday".
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
        let shaped = tool == .table || tool == .list || tool == .keyPoints ? withoutScaffolding(result) : Scaffolded(body: result)
        let sourceWords = FactWords.words(in: source), resultWords = FactWords.words(in: shaped.body)
        let promptWords = FactWords.words(in: prompt ?? "")
        let sourceFacts = FactExtractor.facts(in: source, words: sourceWords)
        // A header's column names are no facts; a number, date or link in it is.
        let headerFacts = shaped.header.isEmpty ? [] : FactExtractor.facts(in: shaped.header).filter { $0.kind != .name && $0.kind != .negation }
        let resultFacts = FactExtractor.facts(in: shaped.body, words: resultWords) + headerFacts
        let promptFacts = prompt.map { FactExtractor.facts(in: $0, words: promptWords) } ?? []
        let sourceIndex = FactIndex(sourceFacts), resultIndex = FactIndex(resultFacts), promptIndex = FactIndex(promptFacts)
        let resultText = PhraseIndex(resultWords), sourceText = PhraseIndex(sourceWords)
        let promptText = PhraseIndex(promptWords)

        let spelling = Spellings(sourceWords: sourceWords, sourceFacts: sourceFacts, resultWords: resultWords, resultFacts: resultFacts)

        var dropped: [Fact] = []
        var droppedIndex = FactIndex()
        if tool.isRewrite {
            // A described change may replace a fact with one its prompt names ("move it to Tuesday").
            let promptKinds = Set(promptFacts.map(\.kind))
            for fact in sourceFacts where fact.kind != .negation && !isStated(fact, facts: resultIndex, text: resultText)
                && !promptKinds.contains(fact.kind) && !spelling.resultCorrects(fact) {
                if droppedIndex.insert(fact) { dropped.append(fact) }
            }
        }
        var added: [Fact] = []
        var addedIndex = FactIndex()
        for fact in resultFacts where fact.kind != .negation
            && !isStated(fact, facts: sourceIndex, text: sourceText) && !isStated(fact, facts: promptIndex, text: promptText)
            && !spelling.correctsSource(fact) {
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
        // Events and states of ordinary words that nothing in the text or the prompt states.
        changes += AddedStatements.find(tool: tool, sourceWords: sourceWords, promptWords: promptWords, resultWords: resultWords)
            .map { "adds ‘\($0)’" }
        guard !changes.isEmpty else { return nil }
        let lostNegations = Set(negations.compactMap(\.lost))
        let keep = sourceFacts.filter { fact in
            fact.kind == .negation ? lostNegations.contains(fact.shown) : droppedIndex.containsMatch(for: fact)
        }.map { $0.kind == .negation ? "not \($0.shown)" : $0.shown }
        return Report(changes: changes, factsToKeep: keep)
    }

    /// A result without a list's or a table's own scaffolding, which is no fact of the text:
    /// separator rows and a row-number column ("#", or 1, 2, 3 … down the rows). Each cell is
    /// a line of its own (a cell starts afresh, as a sentence does); the header row, which
    /// names the columns in the table's own words, is apart: its names are no facts, but a
    /// number, a date or a link in it is one.
    struct Scaffolded {
        var body: String
        var header: String = ""
    }

    static func withoutScaffolding(_ text: String) -> Scaffolded {
        var lines: [String] = []
        var header: [String] = []
        var table: [[String]] = []
        func flushTable() {
            guard !table.isEmpty else { return }
            header += table[0]
            var rows = Array(table.dropFirst())
            if isRowNumbering(header: table[0].first, rows: rows) { rows = rows.map { Array($0.dropFirst()) } }
            for row in rows { lines += row }
            table = []
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let separator: Character? = line.contains("|") ? "|" : line.contains("\t") ? "\t" : nil
            guard let separator else {
                flushTable()
                lines.append(String(line))
                continue
            }
            let cells = line.split(separator: separator, omittingEmptySubsequences: false).map { String($0).trimmingSpaces }
            // A separator row (|---|:-:|) is markup; outer pipes leave empty cells at the ends.
            let filled = cells.filter { !$0.isEmpty }
            if !filled.isEmpty && filled.allSatisfy({ $0.allSatisfy { "-:".contains($0) } }) { continue }
            var row = cells
            if separator == "|" {
                if row.first?.isEmpty == true { row.removeFirst() }
                if row.last?.isEmpty == true { row.removeLast() }
            }
            table.append(row)
        }
        flushTable()
        return Scaffolded(body: lines.filter { !$0.isEmpty }.joined(separator: "\n"),
                          header: header.filter { !$0.isEmpty }.joined(separator: "\n"))
    }

    /// Whether a table's first column only numbers its rows: headed "#" / "No." / nothing, or
    /// 1, 2, 3 … in order. Any other numbers in it ("5", "10", "20" as times or amounts) are
    /// the table's content, to be checked like every other cell.
    private static func isRowNumbering(header: String?, rows: [[String]]) -> Bool {
        let firsts = rows.compactMap(\.first)
        guard !firsts.isEmpty, firsts.count == rows.count else { return false }
        let heading = (header ?? "").lowercased().trimmingCharacters(".")
        let allDigits = firsts.allSatisfy { !$0.isEmpty && $0.trimmingCharacters(".").allSatisfy(\.isNumber) }
        if allDigits && ["#", "no", "nr", "n°", "number", "item", ""].contains(heading) { return true }
        return firsts.enumerated().allSatisfy { index, cell in cell.trimmingCharacters(".") == String(index + 1) }
    }

    /// A fact the result states because it corrects a misspelling of the source's
    /// (SpellingCorrection): "tomorow" → "tomorrow" adds no date, "Micheal" → "Michael"
    /// drops no name. Asked only of facts the plain comparison found added or dropped.
    private struct Spellings {
        let source: SpellingNeighbours
        let result: SpellingNeighbours
        /// The result's words that are dates or weekdays: a name of the source ("Wensday",
        /// capitalised) may be a misspelling of one.
        let resultDates: SpellingNeighbours

        init(sourceWords: [FactWord], sourceFacts: [Fact], resultWords: [FactWord], resultFacts: [Fact]) {
            // The words of the source's facts other than names are spelled as facts: no misspellings.
            source = SpellingNeighbours(sourceWords, excluding: Set(sourceFacts.filter { $0.kind != .name }.flatMap { Self.words(of: $0) }))
            result = SpellingNeighbours(resultWords)
            let dateWords = Set(resultFacts.filter { $0.kind == .date || $0.kind == .weekday }.flatMap { Self.words(of: $0) })
            resultDates = SpellingNeighbours(resultWords.filter { dateWords.contains($0.lower) })
        }

        /// Whether the result's `fact` is the source's words, at least one of them spelled right.
        func correctsSource(_ fact: Fact) -> Bool {
            guard Self.spelledKinds.contains(fact.kind) else { return false }
            var corrected = false
            for word in Self.words(of: fact) where !source.has(word) {
                guard source.hasSpelling(of: word, wordIsCorrection: true, kind: fact.kind) else { return false }
                corrected = true
            }
            return corrected
        }

        /// Whether the source's name `fact` is in the result, at least one of its words spelled right.
        func resultCorrects(_ fact: Fact) -> Bool {
            guard fact.kind == .name else { return false }
            var corrected = false
            for word in Self.words(of: fact) where !result.has(word) {
                guard result.hasSpelling(of: word, wordIsCorrection: false, kind: .name)
                    || resultDates.hasSpelling(of: word, wordIsCorrection: false, kind: .date) else { return false }
                corrected = true
            }
            return corrected
        }

        /// Kinds written in words a writer may misspell (a number as "fourty").
        private static let spelledKinds: Set<Fact.Kind> = [.name, .date, .weekday, .number]

        /// A fact's words as FactWords writes them (lower case, without punctuation).
        static func words(of fact: Fact) -> [String] {
            fact.shown.split(whereSeparator: \.isWhitespace).map { FactWords.normalized(FactWords.trimmed(String($0))) }.filter { !$0.isEmpty }
        }
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
    /// and the clause gone), negations tied to something else (moved to another clause or
    /// subject: "Sarah will not attend the meetings" → "the meetings will not take place")
    /// and negations added to a clause the source says plainly. `lost` is the source clause
    /// whose negation was lost or moved (to name when asking again).
    private static func negationChanges(tool: WritingTool, source: [Fact], result: [Fact],
                                        sourceWords: [FactWord], resultWords: [FactWord]) -> [(change: String, lost: String?)] {
        let sourceNegations = source.filter { $0.kind == .negation }
        let resultNegations = result.filter { $0.kind == .negation }
        let sourceKeys = Set(sourceNegations.map(\.key))
        let resultPlain = NegationFinder.plainStems(resultWords)
        let resultAll = Set(resultWords.map { NegationFinder.stem($0.lower) })
        let sourcePlain = NegationFinder.plainStems(sourceWords)
        let sourceAll = Set(sourceWords.map { NegationFinder.stem($0.lower) })
        let sourceTies = NegationFinder.ties(in: sourceWords), resultTies = NegationFinder.ties(in: resultWords)
        // By key: a long text has thousands of negations, and each is looked up.
        let resultTiesByKey = Dictionary(grouping: resultTies, by: \.fact.key)
        let newlyNegated = resultTies.filter { !sourceKeys.contains($0.fact.key) }
        var changes: [(change: String, lost: String?)] = []
        var reported: Set<String> = []
        for tie in sourceTies where !reported.contains(tie.fact.shown) {
            let negation = tie.fact
            let sameKey = resultTiesByKey[negation.key] ?? []
            if !sameKey.isEmpty {
                // The same words negated, but said of another thing the text names.
                if let other = sameKey.first, sameKey.allSatisfy({ saidOfSomethingElse(tie, $0, sourceStems: sourceAll) }) {
                    changes.append(("negation of ‘\(negation.shown)’ moved to ‘\(subjectWords(of: other, in: resultWords))’", negation.shown))
                    reported.insert(negation.shown)
                }
                continue
            }
            let keptPlainly = resultPlain.contains(negation.key)
            let gone = !resultAll.contains(negation.key)
            if keptPlainly || (tool.isRewrite && gone && resultNegations.count < sourceNegations.count) {
                changes.append(("negation of ‘\(negation.shown)’ lost", negation.shown))
                reported.insert(negation.shown)
            } else if let moved = newlyNegated.first(where: { isMoved(tie, to: $0) }) {
                changes.append(("negation of ‘\(negation.shown)’ moved to ‘\(moved.fact.shown)’", negation.shown))
                reported.insert(negation.shown)
            }
        }
        for negation in resultNegations where !sourceKeys.contains(negation.key) && sourcePlain.contains(negation.key) {
            changes.append(("adds a negation to ‘\(negation.shown)’", nil))
        }
        return changes
    }

    /// Whether the result's negation `moved` says the source's negation `tie` of another
    /// thing: not of the same subject, and what the source's negation acted on became what
    /// the result's is said of ("Sarah will not attend the meetings" → "the meetings will not
    /// take place"), or the other way round. Both at once is the same fact in the other voice
    /// ("the report was not finished by Ana" → "Ana did not complete the report").
    private static func isMoved(_ tie: NegationFinder.Tie, to moved: NegationFinder.Tie) -> Bool {
        guard tie.subject.isDisjoint(with: moved.subject) else { return false }
        let objectBecameSubject = !moved.subject.isDisjoint(with: tie.scope)
        let subjectBecameObject = !tie.subject.isDisjoint(with: moved.scope)
        return objectBecameSubject != subjectBecameObject
    }

    /// Whether the result's negation `other` (the same words negated as `tie`) is said of
    /// something else the text names, outside the source's negated clause: "Sarah will not
    /// attend; Tom will" → "Tom will not attend". A subject in other words ("the team" →
    /// "our staff"), a pronoun, or the same subject after the verb (the passive voice) is no
    /// such thing.
    private static func saidOfSomethingElse(_ tie: NegationFinder.Tie, _ other: NegationFinder.Tie, sourceStems: Set<String>) -> Bool {
        guard !tie.subject.isEmpty, tie.subject.isDisjoint(with: other.subject) else { return false }
        // The subject after the negation is the other voice ("will not be renewed by our
        // landlord"), not another subject.
        guard tie.subject.isDisjoint(with: other.scope) else { return false }
        return !other.subject.subtracting(tie.scope).isDisjoint(with: sourceStems)
    }

    /// The words a negation of `words` is said of, as written ("the two meetings").
    private static func subjectWords(of tie: NegationFinder.Tie, in words: [FactWord]) -> String {
        let shown = words.filter { tie.subject.contains(NegationFinder.stem($0.lower)) }.map(\.text)
        var seen: Set<String> = []
        return shown.filter { seen.insert($0.lowercased()).inserted }.joined(separator: " ")
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
