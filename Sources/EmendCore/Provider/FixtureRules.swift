import EmendText
import EmendMarkdown

/// The fixture's rules for rewrite, summary, key points, list, table and compose.
enum FixtureRules {
    static let contractions: [(String, String)] = [
        ("do not", "don't"), ("does not", "doesn't"), ("cannot", "can't"), ("it is", "it's"),
        ("I am", "I'm"), ("we are", "we're"), ("you are", "you're"), ("will not", "won't"), ("is not", "isn't"),
    ]
    static let fillers = ["really ", "very ", "just ", "actually ", "basically ", "quite "]

    static func transform(_ request: ProviderRequest) -> Result<String, EmendError> {
        let selected = request.selectedText
        switch request.tool {
        case .proofread: return .success(selected)
        case .rewriteFriendly: return .success(mapUnprotected(request, friendly))
        case .rewriteProfessional: return .success(mapUnprotected(request, professional))
        case .rewriteConcise: return .success(mapUnprotected(request, concise))
        case .rewriteDescribed, .followUp:
            guard let rule = describedRule(request.prompt ?? "") else {
                return .failure(EmendError(.provider, "fixture: no rule for the change “\(request.prompt ?? "")”"))
            }
            return .success(mapUnprotected(request, rule))
        case .summary: return .success(markdownSentences(request).first ?? "")
        case .keyPoints, .list: return .success(markdownSentences(request).map { "- " + $0 }.joined(separator: "\n"))
        case .table:
            let rows = markdownSentences(request).enumerated().map { "| \($0.offset + 1) | \($0.element.replacingPipes) |" }
            return .success((["| # | Sentence |", "|---|---|"] + rows).joined(separator: "\n"))
        case .compose:
            let prompt = (request.prompt ?? "").trimmingSpaces
            guard let first = prompt.first else { return .failure(EmendError(.provider, "fixture: empty prompt")) }
            let body = first.uppercased() + prompt.dropFirst()
            return .success(body.hasSuffix(".") ? body : body + ".")
        }
    }

    static func describedRule(_ prompt: String) -> ((String) -> String)? {
        let p = prompt.lowercased()
        if p.contains("upper") { return { $0.uppercased() } }
        if p.contains("lower") { return { $0.lowercased() } }
        if p.contains("warm") || p.contains("friendl") { return friendly }
        if p.contains("formal") || p.contains("professional") { return professional }
        if p.contains("short") || p.contains("concise") { return concise }
        return nil
    }

    static func friendly(_ text: String) -> String {
        var out = replacingPhrases(text, contractions)
        if out.hasSuffix(".") { out = String(out.dropLast()) + "!" }
        return out
    }

    static func professional(_ text: String) -> String {
        replacingPhrases(text, contractions.map { ($0.1, $0.0) } + [("gonna", "going to"), ("thanks", "thank you")])
    }

    static func concise(_ text: String) -> String {
        replacingPhrases(text, fillers.map { ($0, "") } + [("in order to", "to")])
    }

    /// Plain text as Markdown that reads back as the same text.
    static func escaped(_ text: String) -> String {
        MarkdownWriter.markdown(of: AttributedText(text), range: 0..<text.utf8.count, paragraphSeparator: "\n\n").markdown
    }

    /// Applies `rule` to the selection's Markdown (placeholders stand for protected text and
    /// carry no letters), or to the plain selection keeping protected ranges verbatim.
    static func mapUnprotected(_ request: ProviderRequest, _ rule: (String) -> String) -> String {
        if let markdown = request.markdown { return rule(markdown) }
        let text = AttributedText(request.text, protectedRanges: request.protectedRanges)
        var out = ""
        var cursor = request.selection.lowerBound
        let protected = text.allProtectedRanges.filter { $0.overlaps(request.selection) }
        for range in protected {
            let start = max(range.lowerBound, request.selection.lowerBound)
            if start > cursor { out += rule(text.substring(cursor..<start)) }
            let end = min(range.upperBound, request.selection.upperBound)
            out += text.substring(max(start, cursor)..<end)
            cursor = max(cursor, end)
        }
        if cursor < request.selection.upperBound { out += rule(text.substring(cursor..<request.selection.upperBound)) }
        return out
    }

    /// Case-aware whole-word replacement of phrases (first letter's case kept).
    static func replacingPhrases(_ text: String, _ pairs: [(String, String)]) -> String {
        var out = text
        for (from, to) in pairs {
            for variant in [(from, to), (capitalized(from), capitalized(to))] {
                out = replacingWholeWords(out, variant.0, variant.1)
            }
        }
        return out
    }

    static func capitalized(_ s: String) -> String {
        guard let first = s.first else { return s }
        return first.uppercased() + s.dropFirst()
    }

    static func replacingWholeWords(_ text: String, _ from: String, _ to: String) -> String {
        guard !from.isEmpty else { return text }
        let chars = Array(text)
        let pattern = Array(from)
        var out = ""
        var i = 0
        while i < chars.count {
            let fits = i + pattern.count <= chars.count && Array(chars[i..<i + pattern.count]) == pattern
            let startOK = i == 0 || !(chars[i - 1].isLetter)
            let endOK = i + pattern.count >= chars.count || !chars[i + pattern.count].isLetter || pattern.last == " "
            if fits && startOK && endOK {
                out += to
                i += pattern.count
            } else {
                out.append(chars[i])
                i += 1
            }
        }
        return out
    }

    /// The sentences summary, key points, list and table are made of, as Markdown. With
    /// protected text or attachments in the selection, the request's Markdown holds them as
    /// placeholder tokens, which the runtime puts back once each: its sentences are taken as
    /// they are. (Writing the plain text out instead wrote the protected text itself, and
    /// numbered the attachments with tokens of its own that named other protected text: it
    /// came back twice, "- C ￼`x` d.".) Without, the plain selection, escaped.
    static func markdownSentences(_ request: ProviderRequest) -> [String] {
        if let markdown = request.markdown, !PlaceholderToken.find(in: markdown).isEmpty { return sentences(of: markdown) }
        return sentences(of: request.selectedText).map(escaped)
    }

    /// Sentences of `text`, trimmed.
    static func sentences(of text: String) -> [String] {
        SentenceSegmenter.sentences(in: text).map { AttributedText(text).substring($0).trimmingSpaces }.filter { !$0.isEmpty }
    }
}

extension String {
    /// With "|" escaped for a Markdown table cell.
    var replacingPipes: String {
        var out = ""
        for character in self { out += character == "|" ? "\\|" : String(character) }
        return out
    }

    /// Without leading and trailing spaces and newlines.
    var trimmingSpaces: String {
        var s = Substring(self)
        while let c = s.first, c.isWhitespace { s = s.dropFirst() }
        while let c = s.last, c.isWhitespace { s = s.dropLast() }
        return String(s)
    }
}
