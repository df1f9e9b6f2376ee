/// What a model writes around its answer that is no part of it: an introduction ("Here's a
/// revised version:", "Sure! Here is the text:"), a commentary after it ("This rephrased
/// sentence aims to…", "I made the following changes:", "Let me know if…") and quotation
/// marks around the whole answer. Small models add them most to follow-ups and described
/// rewrites, whose prompts carry no worked example of a bare answer; a writer gets them in
/// the text unless they go here. Rules, not a model; never removes words the source has (a
/// letter that itself ends "Let me know if…" keeps its line), never the whole answer.
enum ModelChatter {
    /// `answer` without the chatter around it; `source` is the text the model read.
    static func stripped(_ answer: String, source: String) -> String {
        let sourceWords = " " + ResultQuality.normalizedWords(source).joined(separator: " ") + " "
        var lines = answer.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var changed = false
        // The introduction: the first line, when it introduces ("…:") or only agrees ("Sure!").
        if let first = lines.firstIndex(where: { !$0.trimmingSpaces.isEmpty }) {
            let line = lines[first].trimmingSpaces
            let rest = lines[(first + 1)...].contains { !$0.trimmingSpaces.isEmpty }
            if rest && (isIntroduction(line) || isAgreement(line)) && !isInSource(line, sourceWords) {
                lines.removeSubrange(...first)
                changed = true
            } else if let colon = inlineIntroductionEnd(line), !isInSource(String(line[..<colon]), sourceWords) {
                // "Here's a revised version: The meeting moved to Friday."
                lines[first] = String(line[line.index(after: colon)...]).trimmingSpaces
                changed = true
            }
        }
        // The commentary: from the first line after the answer that starts one, to the end.
        let content = lines.indices.filter { !lines[$0].trimmingSpaces.isEmpty }
        if let start = content.dropFirst().first(where: { isCommentary(lines[$0]) && !isInSource(lines[$0], sourceWords) }) {
            lines.removeSubrange(start...)
            changed = true
        }
        let joined = lines.joined(separator: "\n")
        let unquoted = withoutEnclosingQuotes(joined.trimmingSpaces, source: source)
        if unquoted != joined.trimmingSpaces { changed = true }
        // An answer without chatter stays byte for byte (its final line break included); one
        // that is all chatter too: the quality check says what is wrong with it.
        guard changed, !ResultQuality.normalizedWords(unquoted).isEmpty else { return answer }
        // The text's line break at its end stays (a region that ends in one): what followed
        // the answer was the chatter's.
        let trailing = String(source.reversed().prefix { $0 == "\n" || $0 == "\r" }.reversed())
        return unquoted + trailing
    }

    private static let introductionOpeners = [
        "here's", "here is", "here are", "heres", "below is", "below are", "the following is", "this is the", "this is a",
        "i've rewritten", "i have rewritten", "i've revised", "i have revised", "i rewrote", "i revised",
    ]
    private static let introductionWords = ["version", "revised", "rewrite", "rewritten", "rephrased", "text", "summary",
                                            "draft", "edited", "updated", "result", "email", "message", "paragraph", "sentence"]

    /// "Here's a revised version:", "Revised text:", "Sure, here is the rewritten paragraph:".
    private static func isIntroduction(_ line: String) -> Bool {
        guard line.hasSuffix(":"), line.count <= 120 else { return false }
        let lower = withoutAgreement(line.lowercased())
        if introductionOpeners.contains(where: { lower.hasPrefix($0) }) { return true }
        // "Revised version:", "Friendlier rewrite:" — a short label naming the answer.
        let words = ResultQuality.normalizedWords(lower)
        return words.count <= 4 && words.contains { introductionWords.contains($0) }
    }

    /// Where an introduction on the answer's first line ends ("Here's a revised version:
    /// The meeting…"): its colon; nil when the line does not open with one.
    private static func inlineIntroductionEnd(_ line: String) -> String.Index? {
        let lower = withoutAgreement(line.lowercased())
        guard introductionOpeners.contains(where: { lower.hasPrefix($0) }), let colon = line.firstIndex(of: ":") else { return nil }
        let head = line[..<colon]
        guard head.count <= 100, ResultQuality.normalizedWords(String(head)).contains(where: { introductionWords.contains($0) }),
              !String(line[line.index(after: colon)...]).trimmingSpaces.isEmpty else { return nil }
        return colon
    }

    private static let agreements = ["sure", "certainly", "of course", "okay", "ok", "absolutely", "great", "no problem"]

    /// "Sure!", "Certainly.", "Of course!" alone on a line.
    private static func isAgreement(_ line: String) -> Bool {
        let words = ResultQuality.normalizedWords(line).joined(separator: " ")
        return agreements.contains(words)
    }

    /// The line without an agreement before it ("Sure! Here's…" → "here's…").
    private static func withoutAgreement(_ lower: String) -> String {
        var text = Substring(lower)
        for agreement in agreements where text.hasPrefix(agreement) {
            let after = text.dropFirst(agreement.count)
            if let next = after.first, "!,.".contains(next) {
                text = after.dropFirst().drop { $0 == " " }
                break
            }
        }
        return String(text)
    }

    /// Openers only a comment on the answer uses.
    private static let commentaryOpeners = [
        "this rephrased", "this revised", "this rewritten", "this rewrite", "this new version", "this edited", "the revised",
        "the rewritten", "the rephrased", "the new version", "changes made", "note:", "(note:", "explanation:", "in this version",
        "in the revised", "by rephrasing", "by rewording",
    ]
    /// Openers a comment uses, but a letter too ("Let me know if you need anything"): a
    /// comment only when the line also speaks of the text or the changes.
    private static let weakCommentaryOpeners = [
        "this version", "the changes", "these changes", "i've made", "i have made", "i made", "i've changed", "i have changed",
        "i changed", "i've kept", "i have kept", "i kept", "i've also", "i also", "i hope", "let me know", "feel free",
        "this maintains", "this keeps", "this makes", "this sentence", "this text", "the tone", "overall, the",
    ]

    /// Verbs a model reports its own edits with ("I removed…", "I've shortened…") besides
    /// the regular ones in "-ed".
    private static let editVerbs: Set<String> = ["made", "kept", "rewrote", "cut", "put", "left", "took", "split", "gave", "chose"]

    /// A line that talks about the answer rather than being part of it.
    private static func isCommentary(_ line: String) -> Bool {
        var lower = Substring(line.trimmingSpaces.lowercased())
        while let first = lower.first, "*_".contains(first) { lower = lower.dropFirst() }
        if commentaryOpeners.contains(where: { lower.hasPrefix($0) }) { return true }
        if weakCommentaryOpeners.contains(where: { lower.hasPrefix($0) }) {
            return ResultQuality.normalizedWords(String(lower)).contains { textWords.contains($0) || changeWords.contains($0) }
        }
        // "I removed unnecessary commas to…", "I've also shortened…": the model on its edits.
        let words = ResultQuality.normalizedWords(String(lower.prefix(60)))
        guard let first = words.first, first == "i" || first == "ive" else { return false }
        let verbs = words.dropFirst().drop { ["have", "also", "then", "just", "simply", "ve"].contains($0) }
        guard let verb = verbs.first, (verb.hasSuffix("ed") && verb.count > 4) || editVerbs.contains(verb) else { return false }
        // …and says so about the text ("I wanted to thank you" is a letter's own line).
        let all = ResultQuality.normalizedWords(String(lower))
        return all.contains { textWords.contains($0) }
    }

    /// Words a comment on the answer uses for what it did.
    private static let changeWords: Set<String> = ["changes", "change", "adjustments", "revisions", "edits", "further", "helps",
                                                   "rephrased", "revised", "rewritten", "modifications"]

    /// Words a comment on the answer uses for the answer.
    private static let textWords: Set<String> = ["sentence", "sentences", "text", "tone", "version", "meaning", "wording", "phrasing",
                                                 "phrase", "phrases", "concise", "rewrite", "original", "paragraph", "message", "clarity",
                                                 "readability", "grammar", "punctuation", "commas", "words"]

    /// Whether the source says `line`'s first words too (then they are the writer's).
    private static func isInSource(_ line: String, _ sourceWords: String) -> Bool {
        let words = ResultQuality.normalizedWords(line).prefix(5)
        guard !words.isEmpty else { return false }
        return sourceWords.contains(" " + words.joined(separator: " ") + " ")
    }

    /// The answer without quotation marks around all of it, when the source has none there
    /// and the answer none inside.
    private static func withoutEnclosingQuotes(_ text: String, source: String) -> String {
        let pairs: [(Character, Character)] = [("\"", "\""), ("“", "”")]
        let trimmedSource = source.trimmingSpaces
        for (open, close) in pairs {
            guard text.count >= 2, text.first == open, text.last == close, trimmedSource.first != open else { continue }
            let inner = text.dropFirst().dropLast()
            guard !inner.contains(open), !inner.contains(close) else { continue }
            return String(inner).trimmingSpaces
        }
        return text
    }
}
