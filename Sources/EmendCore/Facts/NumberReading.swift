/// Reading numbers, quantities and times as values, so that "5", "five" and "5.0" are one
/// fact and "$5" / "5 dollars" another writing of the same price.
enum NumberReading {
    struct Number {
        let value: String
        let unit: String
        let shown: String
        /// Words it took (a number word pair, a unit after it).
        let length: Int
    }

    struct Time {
        let key: String
        let consumesNext: Bool

        func shown(_ word: String, next: String?) -> String { consumesNext ? "\(word) \(next ?? "")" : word }
    }

    private static let smallNumbers: [String: Int] = [
        "zero": 0, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
        "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
        "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50,
        "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100, "thousand": 1000,
        "million": 1_000_000, "billion": 1_000_000_000, "dozen": 12,
    ]
    private static let currencySymbols: [Character: String] = ["$": "$", "€": "€", "£": "£", "¥": "¥"]
    private static let currencyWords: [String: String] = [
        "dollar": "$", "dollars": "$", "usd": "$", "euro": "€", "euros": "€", "eur": "€", "pound": "£", "pounds": "£",
        "gbp": "£", "yen": "¥", "cents": "¢", "cent": "¢",
    ]
    private static let unitWords: [String: String] = [
        "%": "%", "percent": "%", "per-cent": "%", "km": "km", "kilometers": "km", "kilometres": "km", "miles": "mi",
        "mi": "mi", "kg": "kg", "kilograms": "kg", "g": "g", "grams": "g", "lb": "lb", "lbs": "lb", "pounds-weight": "lb",
        "m": "m", "meters": "m", "metres": "m", "cm": "cm", "mm": "mm", "gb": "gb", "mb": "mb", "kb": "kb", "tb": "tb",
        "ms": "ms", "s": "s", "sec": "s", "secs": "s", "seconds": "s", "second": "s", "min": "min", "mins": "min",
        "minutes": "min", "minute": "min", "h": "h", "hr": "h", "hrs": "h", "hours": "h", "hour": "h", "days": "day",
        "day": "day", "weeks": "week", "week": "week", "months": "month", "month": "month", "years": "year", "year": "year",
        "people": "people", "users": "users", "items": "items", "pages": "pages", "times": "times", "x": "times",
    ]

    /// The number at `index` (digits, or one or two number words) with the unit or currency
    /// around it; nil when the word is not a number.
    static func number(_ words: [FactWord], at index: Int) -> Number? {
        let word = words[index]
        var text = Substring(word.lower)
        var unit = ""
        if let first = text.first, let symbol = currencySymbols[first] {
            unit = symbol
            text = text.dropFirst()
        }
        var length = 1
        var value: String
        if isVersion(String(text)) {
            // "v2" / "v2.1": the number of a version ("version 2" states it too).
            text = text.dropFirst()
            return Number(value: String(text), unit: "", shown: word.text, length: 1)
        }
        if let digits = digitValue(&text, unit: &unit) {
            value = digits
        } else if let spelled = smallNumbers[String(text)] {
            var total = spelled
            // "twenty five", "twenty-five", "two hundred".
            if let next = words[safe: index + 1], let second = smallNumbers[next.lower], !word.endsClause {
                if second >= 100 { total *= second; length = 2 } else if spelled >= 20 && spelled < 100 && second < 10 { total += second; length = 2 }
            }
            value = String(total)
        } else if let dash = text.firstIndex(of: "-"), let tens = smallNumbers[String(text[..<dash])],
                  let ones = smallNumbers[String(text[text.index(after: dash)...])], tens >= 20, tens < 100, ones < 10 {
            value = String(tens + ones)
        } else {
            return nil
        }
        if unit.isEmpty || unit == "$" || unit == "€" || unit == "£" || unit == "¥" {
            if let next = words[safe: index + length - 1 + 1], !words[index + length - 1].endsClause {
                let name = next.lower.trimmingCharacters(".")
                if let currency = currencyWords[name], unit.isEmpty {
                    unit = currency
                    length += 1
                } else if let named = unitWords[name], unit.isEmpty {
                    unit = named
                    length += 1
                }
            }
        }
        let shown = words[index..<min(words.count, index + length)].map(\.text).joined(separator: " ")
        return Number(value: value, unit: unit, shown: shown, length: length)
    }

    /// Digits with thousands separators, a decimal part, an ordinal or unit suffix ("1,200",
    /// "4.5", "3rd", "20%", "5km"); consumes the suffix into `unit`.
    private static func digitValue(_ text: inout Substring, unit: inout String) -> String? {
        guard let first = text.first, first.isNumber else { return nil }
        var digits = ""
        var rest = text[...]
        while let character = rest.first, character.isNumber || character == "," || character == "." {
            if character == "," || character == "." {
                // A separator counts only with a digit after it.
                let after = rest.dropFirst()
                guard let next = after.first, next.isNumber else { break }
                if character == "." { digits.append(".") }
            } else {
                digits.append(character)
            }
            rest = rest.dropFirst()
        }
        let suffix = String(rest)
        if ["st", "nd", "rd", "th"].contains(suffix) {
            // an ordinal: its number
        } else if suffix == "k" {
            digits = String((Double(digits) ?? 0) * 1000).replacingOccurrencesOfTrailingZero
        } else if let named = unitWords[suffix] {
            unit = named
        } else if !suffix.isEmpty {
            return nil   // a code, a version ("v2", "x86"): not a quantity
        }
        while digits.contains("."), digits.hasSuffix("0") { digits.removeLast() }
        if digits.hasSuffix(".") { digits.removeLast() }
        return digits.isEmpty ? nil : digits
    }

    /// "10:30", "10:30am", "3pm", "3 pm", "3 p.m.", "noon", "midnight" as a 24-hour key.
    static func time(_ word: String, next: String) -> Time? {
        if word == "noon" || word == "midday" { return Time(key: "12:00", consumesNext: false) }
        if word == "midnight" { return Time(key: "00:00", consumesNext: false) }
        // Every other time has an hour in digits; most words have none.
        guard word.utf8.contains(where: { $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        var text = Substring(word)
        var meridiem: String?
        for suffix in ["am", "pm", "a.m.", "p.m.", "a.m", "p.m"] where text.hasSuffix(suffix) {
            meridiem = suffix.hasPrefix("a") ? "am" : "pm"
            text = text.dropLast(suffix.count)
            break
        }
        var consumesNext = false
        if meridiem == nil, ["am", "pm", "a.m.", "p.m."].contains(next) {
            meridiem = next.hasPrefix("a") ? "am" : "pm"
            consumesNext = true
        }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 2, let hourText = parts.first, !hourText.isEmpty, hourText.count <= 2, hourText.allSatisfy(\.isNumber),
              var hour = Int(hourText) else { return nil }
        var minute = 0
        if parts.count == 2 {
            guard parts[1].count == 2, let m = Int(parts[1]), m < 60 else { return nil }
            minute = m
        } else if meridiem == nil {
            return nil   // a bare number is not a time
        }
        if let meridiem {
            guard (1...12).contains(hour) else { return nil }
            if meridiem == "pm" && hour != 12 { hour += 12 }
            if meridiem == "am" && hour == 12 { hour = 0 }
        }
        guard hour < 24 else { return nil }
        let key = (hour < 10 ? "0" : "") + "\(hour):" + (minute < 10 ? "0" : "") + "\(minute)"
        return Time(key: key, consumesNext: consumesNext)
    }

    /// "v2", "v10.4".
    static func isVersion(_ word: String) -> Bool {
        guard word.first == "v", word.count >= 2 else { return false }
        let rest = word.dropFirst()
        return rest.first?.isNumber == true && rest.allSatisfy { $0.isNumber || $0 == "." } && rest.last != "."
    }

    /// A day of the month next to a month name ("3", "3rd", "23,").
    static func dayOfMonth(_ word: String) -> Int? {
        var text = Substring(word.trimmingCharacters(","))
        for suffix in ["st", "nd", "rd", "th"] where text.hasSuffix(suffix) { text = text.dropLast(2); break }
        guard !text.isEmpty, text.count <= 2, text.allSatisfy(\.isNumber), let day = Int(text), (1...31).contains(day) else { return nil }
        return day
    }

    /// "2026-11-23", "23/11/2026", "11/23".
    static func isDateLiteral(_ word: String) -> Bool {
        for separator: Character in ["-", "/"] {
            let parts = word.split(separator: separator, omittingEmptySubsequences: false)
            if (parts.count == 3 || (parts.count == 2 && separator == "/")),
               parts.allSatisfy({ !$0.isEmpty && $0.count <= 4 && $0.allSatisfy(\.isNumber) }) { return true }
        }
        return false
    }
}

private extension String {
    /// "5000.0" -> "5000".
    var replacingOccurrencesOfTrailingZero: String { hasSuffix(".0") ? String(dropLast(2)) : self }
}
