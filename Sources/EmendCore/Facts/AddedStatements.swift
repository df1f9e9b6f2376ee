/// Statements a result makes that its source does not: an event or a state made of ordinary
/// words ("and a raffle will be held", "the meeting was cancelled"), which no name, number or
/// date gives away. Conservative by design — a false refusal costs the writer a good result —
/// so a clause counts only when nothing in it comes from the text:
///
/// - it has at least two content words (not function words, not the words a tone or a summary
///   adds of its own: greetings, thanks, hopes, "key points"), none of which the source or the
///   prompt holds in any form ("cancelled" / "cancellation" / "cancel" are one word, as are
///   "held" / "hold"), and
/// - not a single word of it (content word, name or number) is the source's: a clause that
///   says something of the text's own meeting, party or Priya is a paraphrase to judge by the
///   other rules, not an invention.
///
/// A summary, key points, a list or a table only condenses the text, so any such clause of
/// theirs (a line, an item, a cell) is invented. A rewrite may add the writer's own words ("I
/// can't wait to celebrate!", "Hope to see you there"), so of a rewrite only a clause that
/// reports on the world counts: its subject a new thing ("a raffle", "the meeting", "prizes")
/// followed by its verb, and no I, we or you in it.
enum AddedStatements {
    /// The clauses of `result` (already without a list's or a table's scaffolding) that state
    /// something neither `source` nor `prompt` has, as the result writes them.
    static func find(tool: WritingTool, sourceWords: [FactWord], promptWords: [FactWord], resultWords: [FactWord]) -> [String] {
        let known = Vocabulary(sourceWords + promptWords)
        var found: [String] = []
        for clause in clauses(of: resultWords) {
            var words = clause[...]
            while let first = words.first, leadWords.contains(first.lower) { words = words.dropFirst() }
            guard !words.isEmpty else { continue }
            var unsourced = 0
            var anchored = false
            for word in words {
                let lower = word.lower
                if functionWords.contains(lower) || ownWords.contains(lower) || ownWords.contains(lemma(lower)) { continue }
                if known.holds(lower) { anchored = true; break }
                if isContentWord(word) { unsourced += 1 }
            }
            guard !anchored, unsourced >= 2 else { continue }
            if tool.isRewrite && !reportsOnTheWorld(words, known: known) { continue }
            found.append(words.map(\.text).joined(separator: " "))
        }
        return found
    }

    /// The words of a text in every form the check compares: as written, as a lemma, and the
    /// lemma's first five letters ("cancel" for "cancellation").
    struct Vocabulary {
        private var forms: Set<String> = []

        init(_ words: [FactWord]) {
            for word in words {
                forms.insert(word.lower)
                let base = AddedStatements.lemma(word.lower)
                forms.insert(base)
                if base.count >= 5 { forms.insert("~" + base.prefix(5)) }
            }
        }

        func holds(_ lower: String) -> Bool {
            if forms.contains(lower) { return true }
            let base = AddedStatements.lemma(lower)
            return forms.contains(base) || (base.count >= 5 && forms.contains("~" + base.prefix(5)))
        }
    }

    /// The clauses of `words`: cut where a sentence or a clause ends (a line, an item and a
    /// cell each start a sentence) and before a conjunction that starts a new clause.
    private static func clauses(of words: [FactWord]) -> [[FactWord]] {
        var clauses: [[FactWord]] = []
        var current: [FactWord] = []
        for word in words {
            if word.startsSentence || clauseStarters.contains(word.lower), !current.isEmpty {
                clauses.append(current)
                current = []
            }
            current.append(word)
            if word.endsClause {
                clauses.append(current)
                current = []
            }
        }
        if !current.isEmpty { clauses.append(current) }
        return clauses
    }

    /// Whether a rewrite's clause reports on the world: a new thing as its subject ("a
    /// raffle", "the meeting", "prizes") with its verb right after it, and nobody of the
    /// conversation (I, we, you) in it.
    private static func reportsOnTheWorld(_ words: ArraySlice<FactWord>, known: Vocabulary) -> Bool {
        if words.contains(where: { personal.contains($0.lower) }) { return false }
        var index = words.startIndex
        if determiners.contains(words[index].lower) { index += 1 }
        // Adjectives before the noun ("the big meeting").
        var nouns = 0
        while index < words.endIndex, !auxiliaries.contains(words[index].lower), isContentWord(words[index]),
              !functionWords.contains(words[index].lower), nouns < 3 {
            if known.holds(words[index].lower) { return false }
            nouns += 1
            index += 1
        }
        return nouns > 0 && index < words.endIndex && auxiliaries.contains(words[index].lower)
    }

    private static func isContentWord(_ word: FactWord) -> Bool {
        let lower = word.lower
        guard !word.isAddress, lower.count >= 3, !functionWords.contains(lower), !ownWords.contains(lower) else { return false }
        return lower.allSatisfy { $0.isLetter || $0 == "'" || $0 == "-" }
    }

    /// A word's dictionary form, roughly: "cancelled" → "cancel", "meetings" → "meeting",
    /// "held" → "hold", "parties" → "party".
    static func lemma(_ word: String) -> String {
        var w = word
        if w.hasSuffix("'s") { w.removeLast(2) }
        if let irregular = irregulars[w] { return irregular }
        if w.count > 4 && (w.hasSuffix("ies") || w.hasSuffix("ied")) { return String(w.dropLast(3)) + "y" }
        for suffix in ["ing", "ed", "es", "s", "ly"] where w.count > suffix.count + 2 && w.hasSuffix(suffix) {
            if suffix == "s" && w.hasSuffix("ss") { break }
            w.removeLast(suffix.count)
            // "planned" → "plan", "shipping" → "ship" ("cancelled" meets "cancel" by its first
            // five letters; "falling" stays "fall").
            if suffix == "ing" || suffix == "ed", let last = w.last, w.count >= 4, w.dropLast().last == last, !"aeioulsfz".contains(last) {
                w.removeLast()
            }
            break
        }
        // "move" / "moved" / "moving" → "mov".
        if w.count > 3 && w.hasSuffix("e") { w.removeLast() }
        return w
    }

    private static let irregulars: [String: String] = [
        "held": "hold", "took": "take", "taken": "take", "went": "go", "gone": "go", "came": "come", "brought": "bring",
        "bought": "buy", "sold": "sell", "won": "win", "lost": "lose", "told": "tell", "said": "say", "made": "make",
        "gave": "give", "given": "give", "met": "meet", "left": "leave", "sent": "send", "paid": "pay", "ran": "run",
        "began": "begin", "begun": "begin", "wrote": "write", "written": "write", "chose": "choose", "chosen": "choose",
        "found": "find", "kept": "keep", "felt": "feel", "broke": "break", "broken": "break", "spoke": "speak",
        "spoken": "speak", "fell": "fall", "fallen": "fall", "rose": "rise", "risen": "rise", "shut": "shut",
        "children": "child", "people": "person", "men": "man", "women": "woman",
    ]

    /// Words before a clause's subject that say nothing ("and", "also", "plus").
    private static let leadWords: Set<String> = [
        "and", "but", "so", "also", "plus", "then", "however", "meanwhile", "oh", "and,", "or", "too", "additionally",
        "furthermore", "moreover", "besides", "still", "yet", "now", "finally", "lastly", "first", "second",
    ]

    /// Conjunctions that start a clause of their own.
    private static let clauseStarters: Set<String> = ["and", "but", "while", "whereas", "although", "though", "because", "since", "so"]

    private static let determiners: Set<String> = [
        "a", "an", "the", "this", "that", "these", "those", "some", "all", "every", "each", "another", "their", "its", "his",
        "her", "no", "any", "several", "many", "both",
    ]

    private static let auxiliaries: Set<String> = [
        "is", "are", "was", "were", "will", "would", "has", "have", "had", "can", "could", "should", "shall", "may",
        "might", "must", "got", "gets", "isn't", "aren't", "wasn't", "weren't", "won't", "hasn't", "haven't", "can't",
        "couldn't", "shouldn't", "wouldn't", "did", "does", "didn't", "doesn't", "'ll", "being", "been",
    ]

    /// I, we and you: the people of the conversation, whose wishes and feelings a tone adds.
    private static let personal: Set<String> = [
        "i", "i'm", "i'll", "i've", "i'd", "me", "my", "mine", "we", "we're", "we'll", "we've", "we'd", "us", "our", "ours",
        "you", "you're", "you'll", "you've", "you'd", "your", "yours", "let's", "let",
    ]

    /// Words that carry no statement of their own: articles, pronouns, prepositions,
    /// auxiliaries, light verbs, common adverbs and quantifiers (and no misspelling of
    /// another word: SpellingCorrection).
    static let functionWords: Set<String> = [
        "a", "an", "the", "this", "that", "these", "those", "it", "it's", "its", "they", "them", "their", "they're",
        "he", "him", "his", "she", "her", "hers", "there", "there's", "here", "who", "whom", "whose", "which", "what",
        "when", "where", "why", "how", "whatever", "whoever", "i", "me", "my", "we", "us", "our", "you", "your",
        "of", "in", "on", "at", "to", "for", "with", "by", "from", "into", "onto", "about", "over", "under", "after",
        "before", "during", "until", "till", "through", "across", "around", "between", "among", "against", "without",
        "within", "up", "down", "out", "off", "as", "than", "like", "per", "via", "be", "been", "being", "am", "is",
        "are", "was", "were", "do", "does", "did", "done", "doing", "have", "has", "had", "having", "will", "would",
        "shall", "should", "can", "could", "may", "might", "must", "get", "gets", "got", "getting", "go", "goes",
        "going", "make", "makes", "made", "take", "takes", "taking", "give", "gives", "put", "come", "comes", "coming",
        "see", "seeing", "say", "says", "and", "or", "but", "nor", "so", "if", "then", "because", "since", "while",
        "though", "although", "whether", "not", "no", "never", "also", "just", "only", "even", "still", "already",
        "yet", "very", "really", "quite", "too", "much", "more", "most", "less", "least", "some", "any", "all", "each",
        "every", "both", "either", "neither", "other", "another", "such", "same", "own", "now", "soon", "then", "again",
        "ever", "always", "often", "sometimes", "once", "twice", "well", "way", "thing", "things", "something",
        "anything", "everything", "nothing", "someone", "anyone", "everyone", "nobody", "one", "ones", "lot", "lots",
        "bit", "new", "old", "able", "sure", "yes", "okay", "ok", "etc", "via", "let", "lets", "let's", "s", "don't",
        "doesn't", "didn't", "won't", "can't", "isn't", "aren't", "wasn't", "weren't", "couldn't", "shouldn't",
        "wouldn't", "haven't", "hasn't", "hadn't", "i'm", "i'll", "we're", "we'll", "you're", "you'll", "that's",
        "what's", "here's", "being", "many", "few", "several", "next", "last", "first", "time", "times", "day", "days",
    ]

    /// Words a tone or a summary adds of its own, stating nothing about the text's world:
    /// greetings, thanks, wishes, feelings, invitations to ask, and a summary's own labels.
    private static let ownWords: Set<String> = [
        "hi", "hello", "hey", "dear", "team", "everyone", "folks", "guys", "all", "thanks", "thank", "please", "kindly",
        "regards", "best", "cheers", "sincerely", "warmly", "appreciate", "appreciated", "grateful", "sorry", "apology",
        "apologies", "apologize", "apologise", "hope", "hoping", "wish", "wishes", "glad", "happy", "pleased",
        "delighted", "excited", "exciting", "thrilled", "eager", "love", "lovely", "great", "wonderful", "amazing",
        "awesome", "fantastic", "fun", "nice", "good", "perfect", "welcome", "forward", "look", "looking", "wait",
        "reach", "touch", "question", "questions", "feel", "free", "know", "certainly", "absolutely", "definitely",
        "quick", "quickly", "friendly", "reminder", "remind", "note", "heads", "heads-up", "update", "updates", "fyi",
        "info", "information", "detail", "details", "summary", "overview", "main", "key", "point", "points",
        "takeaway", "takeaways", "action", "item", "items", "important", "kind", "chance", "opportunity", "help",
        "helpful", "assist", "assistance", "concern", "concerns", "matter", "regarding", "attention", "kindly",
        "appreciation", "gladly", "enjoy", "join", "blast", "celebrate", "celebration", "attached", "find", "below",
        "above", "following", "mentioned", "aforementioned", "accordingly", "note", "noted", "aware", "inform",
        "informed", "advise", "advised", "ensure", "hesitate", "contact", "message", "email", "mail", "reply",
        "response", "respond", "soon", "possible", "convenience", "earliest",
    ]
}
