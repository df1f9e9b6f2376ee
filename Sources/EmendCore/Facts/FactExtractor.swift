/// Finds the facts of a text: numbers and quantities (with units and currency), dates, times
/// and weekdays, proper names and capitalised terms, links, e-mail addresses, quotations, code
/// spans, and negations attached to their clause. Rules, not a model: it must be fast, the
/// same every time, and explainable in the words it reports.
enum FactExtractor {
    static func facts(in text: String) -> [Fact] {
        facts(in: text, words: FactWords.words(in: text))
    }

    /// The facts of `text`, whose words (FactWords.words) the caller has already.
    static func facts(in text: String, words: [FactWord]) -> [Fact] {
        var facts: [Fact] = []
        facts += delimited(in: text)
        facts += addresses(words)
        facts += numbersAndTimes(words)
        facts += dates(words)
        facts += names(words, in: text)
        facts += NegationFinder.negations(in: words)
        return facts
    }

    // MARK: Quotations and code

    /// Text between “ ” or " " (a quotation) and between backticks (code). Linear: each pair
    /// is cut out of the text once it closes.
    private static func delimited(in text: String) -> [Fact] {
        var facts: [Fact] = []
        let pairs: [(Character, Character, Fact.Kind)] = [("“", "”", .quote), ("\"", "\"", .quote), ("`", "`", .code)]
        for (open, close, kind) in pairs {
            var start: String.Index?
            var index = text.startIndex
            while index < text.endIndex {
                let character = text[index]
                if let opened = start {
                    if character == close {
                        let body = String(text[text.index(after: opened)..<index]).trimmingSpaces
                        if body.count >= 2 {
                            let key = kind == .code ? body : normalizedQuote(body)
                            facts.append(Fact(kind: kind, shown: kind == .code ? "`\(body)`" : "“\(body)”", key: key))
                        }
                        start = nil
                    } else if character.isNewline {
                        start = nil
                    }
                } else if character == open {
                    start = index
                }
                index = text.index(after: index)
            }
        }
        return facts
    }

    /// A quotation's words, lower case, apostrophes straight, without its closing punctuation.
    private static func normalizedQuote(_ body: String) -> String {
        var key = body.lowercased().replacingCharacters("’", with: "'").split(whereSeparator: \.isWhitespace).joined(separator: " ")
        while let last = key.last, ".,;:!?".contains(last) { key.removeLast() }
        return key
    }

    private static func addresses(_ words: [FactWord]) -> [Fact] {
        words.filter(\.isAddress).map { word in
            var key = word.lower
            while key.hasSuffix("/") { key.removeLast() }
            return Fact(kind: key.contains("@") && !key.contains("://") ? .email : .url, shown: word.text, key: key)
        }
    }

    // MARK: Numbers and times

    private static func numbersAndTimes(_ words: [FactWord]) -> [Fact] {
        var facts: [Fact] = []
        var index = 0
        while index < words.count {
            let word = words[index]
            if word.isAddress { index += 1; continue }
            let next = index + 1 < words.count ? words[index + 1].lower : ""
            if let time = NumberReading.time(word.lower, next: next) {
                facts.append(Fact(kind: .time, shown: time.shown(word.text, next: words[safe: index + 1]?.text), key: time.key))
                index += time.consumesNext ? 2 : 1
                continue
            }
            if let number = NumberReading.number(words, at: index) {
                facts.append(Fact(kind: .number, shown: number.shown, key: number.value, unit: number.unit))
                index += number.length
                continue
            }
            index += 1
        }
        return facts
    }

    // MARK: Dates and weekdays

    static let weekdays: Set<String> = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
    static let months: Set<String> = ["january", "february", "march", "april", "may", "june", "july", "august",
                                      "september", "october", "november", "december"]
    private static let monthAbbreviations = ["jan": "january", "feb": "february", "mar": "march", "apr": "april",
                                             "jun": "june", "jul": "july", "aug": "august", "sep": "september",
                                             "sept": "september", "oct": "october", "nov": "november", "dec": "december"]
    private static let relativeDays: Set<String> = ["today", "tomorrow", "tonight", "yesterday"]
    private static let relativeUnits: Set<String> = ["week", "month", "year", "weekend", "quarter", "morning", "afternoon", "evening"]

    private static func dates(_ words: [FactWord]) -> [Fact] {
        var facts: [Fact] = []
        for (index, word) in words.enumerated() where !word.isAddress {
            let bare = word.lower.trimmingCharacters(".")
            let previous = index > 0 ? words[index - 1].lower : ""
            let next = index + 1 < words.count ? words[index + 1].lower : ""
            if weekdays.contains(bare) {
                facts.append(Fact(kind: .weekday, shown: word.text, key: bare))
                if ["next", "this", "last"].contains(previous) {
                    facts.append(Fact(kind: .date, shown: "\(words[index - 1].text) \(word.text)", key: "\(previous) \(bare)"))
                }
            } else if relativeDays.contains(bare) {
                facts.append(Fact(kind: .date, shown: word.text, key: bare))
            } else if ["next", "this", "last"].contains(bare), relativeUnits.contains(next.trimmingCharacters(".")) {
                facts.append(Fact(kind: .date, shown: "\(word.text) \(words[index + 1].text)", key: "\(bare) \(next.trimmingCharacters("."))"))
            } else if let month = monthName(word, next: next, previous: previous) {
                let day = [next, previous].compactMap(NumberReading.dayOfMonth).first
                facts.append(Fact(kind: .date, shown: word.text, key: day.map { "\(month) \($0)" } ?? month))
            } else if NumberReading.isDateLiteral(bare) {
                facts.append(Fact(kind: .date, shown: word.text, key: bare))
            }
        }
        return facts
    }

    /// A month, when the word is one: "May" and "March" only capitalised or beside a day
    /// number (they are also a verb).
    private static func monthName(_ word: FactWord, next: String, previous: String) -> String? {
        let bare = word.lower.trimmingCharacters(".")
        guard months.contains(bare) || monthAbbreviations[bare] != nil else { return nil }
        let capitalised = word.text.first?.isUppercase ?? false
        let besideDay = NumberReading.dayOfMonth(next) != nil || NumberReading.dayOfMonth(previous) != nil
        if months.contains(bare) {
            if (bare == "may" || bare == "march") && !(capitalised && (!word.startsSentence || besideDay)) { return nil }
            return bare
        }
        if let full = monthAbbreviations[bare], capitalised, besideDay { return full }
        return nil
    }

    // MARK: Names

    /// Capitalised words that are not there only because a sentence starts, joined when they
    /// follow each other ("Acme Corp"); acronyms, CamelCase and words with digits anywhere.
    private static func names(_ words: [FactWord], in text: String) -> [Fact] {
        // A text in capitals ("I AM HAPPY") shouts: its capitals say nothing about names.
        var letters = 0, capitals = 0
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if value < 0x80 {   // ASCII without a property lookup: most text is
                if value >= 0x41 && value <= 0x5A { letters += 1; capitals += 1 }
                else if value >= 0x61 && value <= 0x7A { letters += 1 }
            } else if scalar.properties.isAlphabetic {
                letters += 1
                if scalar.properties.isUppercase { capitals += 1 }
            }
        }
        if letters >= 8 && capitals * 10 >= letters * 8 { return [] }
        // Words written capitalised somewhere other than a sentence's start are names even
        // where a sentence starts with them.
        var capitalisedMidSentence: Set<String> = []
        for word in words where !word.startsSentence && isCapitalised(word.text) { capitalisedMidSentence.insert(word.lower) }
        var facts: [Fact] = []
        var run: [FactWord] = []
        func flush() {
            guard !run.isEmpty else { return }
            let shown = run.map(\.text).joined(separator: " ")
            // "Anna's" is Anna.
            let key = run.map { $0.lower.hasSuffix("'s") ? String($0.lower.dropLast(2)) : $0.lower }.joined(separator: " ")
            facts.append(Fact(kind: .name, shown: shown, key: key))
            run = []
        }
        for word in words {
            let isName = !word.isAddress && isNameWord(word, midSentence: capitalisedMidSentence)
            if isName {
                if let last = run.last, last.endsClause { flush() }
                run.append(word)
            } else {
                flush()
            }
        }
        flush()
        return facts
    }

    private static let notNames: Set<String> = [
        "i", "i'm", "i'll", "i've", "i'd", "the", "a", "an", "this", "that", "these", "those", "it", "it's", "we", "we're",
        "you", "he", "she", "they", "our", "my", "your", "his", "her", "their", "please", "thanks", "thank", "hi", "hello",
        "dear", "but", "and", "or", "so", "if", "when", "ok", "okay", "yes", "no", "also", "note", "p.s.", "ps",
    ]

    private static func isNameWord(_ word: FactWord, midSentence: Set<String>) -> Bool {
        let text = word.text
        // A plain lower-case word is no name: most words end here.
        if text.utf8.allSatisfy({ $0 >= 0x61 && $0 <= 0x7A }) { return false }
        guard let first = text.first, first.isLetter || first.isNumber else { return false }
        let bare = word.lower.trimmingCharacters(".")
        if notNames.contains(bare) || weekdays.contains(bare) || months.contains(bare) || relativeDays.contains(bare) { return false }
        if text.allSatisfy({ $0.isNumber || $0 == "." || $0 == "," || $0 == ":" }) { return false }
        // "3pm", "10:30am", "3rd", "5km" are numbers and times, not names ("3M" still is one).
        if first.isNumber && !text.contains(where: \.isUppercase) { return false }
        // "10AM" is a time, "v2" a version number.
        if NumberReading.time(word.lower, next: "") != nil || NumberReading.isVersion(word.lower) { return false }
        let letters = text.filter(\.isLetter)
        let acronym = letters.count >= 2 && letters.allSatisfy(\.isUppercase)
        let innerCapital = text.dropFirst().contains { $0.isUppercase } && text.contains { $0.isLowercase }
        let letterAndDigit = text.contains(where: \.isNumber) && text.contains(where: \.isLetter)
        if acronym || innerCapital || letterAndDigit { return true }
        guard isCapitalised(text) else { return false }
        return !word.startsSentence || midSentence.contains(word.lower)
    }

    private static func isCapitalised(_ text: String) -> Bool {
        guard let first = text.first else { return false }
        return first.isUppercase
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}

extension String {
    /// This string without `character` at either end.
    func trimmingCharacters(_ character: Character) -> String {
        var s = Substring(self)
        while s.first == character { s = s.dropFirst() }
        while s.last == character { s = s.dropLast() }
        return String(s)
    }
}
