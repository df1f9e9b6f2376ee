import EmendText

/// Proofreading findings for a person: `file:line:column: category: message`, the line with
/// the problem marked, and the suggestion.
struct HumanReport {
    let fileName: String
    let bytes: [UInt8]
    let encoding: PositionEncoding
    let palette: Palette
    /// Columns available for the quoted line.
    let width: Int

    func render(_ findings: [Finding]) -> String {
        var positions = TextPositions(bytes, encoding: encoding)
        var out = ""
        for finding in findings {
            let position = positions.position(of: finding.range.lowerBound)
            out += entry(finding, at: position, lineEnd: positions.lineEnd(from: position.lineStart))
        }
        return out
    }

    /// One finding: the location line, the quoted source line with marks, the suggestion.
    func entry(_ finding: Finding, at position: TextPosition, lineEnd: Int) -> String {
        let location = palette.bold("\(fileName):\(position.line):\(position.column):")
        let category = finding.category.isEmpty ? "suggestion" : finding.category
        let tag = finding.category == "spelling" ? palette.boldRed(category + ":") : palette.yellow(category + ":")
        var out = "\(location) \(tag) \(finding.message)"
        if !finding.ruleID.isEmpty { out += " " + palette.dim("[\(finding.ruleID)]") }
        out += "\n"
        out += quote(finding, lineStart: position.lineStart, lineEnd: lineEnd, lineNumber: position.line)
        return out
    }

    /// The source line (a window of it when long) with the problem underlined and the
    /// suggestion after the marks.
    func quote(_ finding: Finding, lineStart: Int, lineEnd: Int, lineNumber: Int) -> String {
        let start = finding.range.lowerBound
        let end = min(max(finding.range.upperBound, start), max(lineEnd, start))
        let before = DisplayText(bytes[lineStart..<start])
        let marked = DisplayText(bytes[start..<end])
        let after = DisplayText(bytes[end..<max(lineEnd, end)])
        let gutter = String(lineNumber)
        let room = max(20, width - gutter.count - 4)
        // Keep the marked text in view: cut the start of long lines, then their end.
        var shownBefore = before
        var cutLeft = false
        if before.width + marked.width + after.width > room && before.width + marked.width > room * 2 / 3 {
            shownBefore = before.suffix(width: max(10, room / 3))
            cutLeft = true
        }
        let leftMark = cutLeft ? "…" : ""
        let used = leftMark.count + shownBefore.width + marked.width
        var shownAfter = after
        var cutRight = false
        if used + after.width > room {
            shownAfter = after.prefix(width: max(0, room - used - 1))
            cutRight = true
        }
        let line = leftMark + shownBefore.text + palette.red(marked.text) + shownAfter.text + (cutRight ? "…" : "")
        let pad = String(repeating: " ", count: gutter.count)
        let indent = String(repeating: " ", count: leftMark.count + shownBefore.width)
        let marks: String
        let suggestion: String
        if finding.original.isEmpty {
            marks = "^"
            suggestion = "insert “\(finding.replacement)”"
        } else if finding.replacement.isEmpty {
            marks = String(repeating: "^", count: max(1, marked.width))
            suggestion = "delete"
        } else {
            marks = String(repeating: "^", count: max(1, marked.width))
            suggestion = finding.replacement.contains("\n") ? "“\(finding.replacement.replacingNewlines)”" : finding.replacement
        }
        return " \(palette.dim(gutter + " |")) \(line)\n \(pad) \(palette.dim("|")) \(indent)\(palette.red(marks)) \(palette.boldGreen(suggestion))\n"
    }
}

/// Text as a terminal shows it: tabs as four spaces, control characters as spaces, and the
/// width in columns (wide characters take two).
struct DisplayText {
    let text: String
    let width: Int
    private let shown: Shown

    /// What is shown, one column per byte when it is ASCII. Why two forms: a report quotes a
    /// line for each of thousands of suggestions, and walking each line's Characters (their
    /// Unicode properties) cost a tenth of a second of CPU on 1 MB of English.
    private enum Shown {
        /// ASCII bytes, each one column (tabs expanded, controls as spaces, newlines gone).
        case ascii([UInt8])
        case characters([(Character, Int)])
    }

    init<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        if bytes.allSatisfy({ $0 < 0x80 }) {
            var shown: [UInt8] = []
            shown.reserveCapacity(bytes.count)
            for byte in bytes {
                switch byte {
                case 0x09: shown.append(contentsOf: [0x20, 0x20, 0x20, 0x20])
                case 0x0A, 0x0D: continue
                case ..<0x20, 0x7F: shown.append(0x20)
                default: shown.append(byte)
                }
            }
            self.init(ascii: shown)
            return
        }
        self.init(characters: String(decoding: bytes, as: UTF8.self).map { character -> [(Character, Int)] in
            if character == "\t" { return Array(repeating: (" ", 1), count: 4) }
            if character == "\r\n" || character == "\n" || character == "\r" { return [] }
            if let scalar = character.unicodeScalars.first, scalar.value < 0x20 || scalar.value == 0x7F { return [(" ", 1)] }
            return [(character, DisplayText.columns(of: character))]
        }.flatMap { $0 })
    }

    private init(ascii: [UInt8]) {
        self.shown = .ascii(ascii)
        self.text = String(decoding: ascii, as: UTF8.self)
        self.width = ascii.count
    }

    private init(characters: [(Character, Int)]) {
        self.shown = .characters(characters)
        self.text = String(characters.map(\.0))
        self.width = characters.reduce(0) { $0 + $1.1 }
    }

    func suffix(width limit: Int) -> DisplayText {
        let characters: [(Character, Int)]
        switch shown {
        case .ascii(let bytes): return DisplayText(ascii: Array(bytes.suffix(max(0, limit))))
        case .characters(let all): characters = all
        }
        var used = 0
        var kept: [(Character, Int)] = []
        for item in characters.reversed() {
            if used + item.1 > limit { break }
            used += item.1
            kept.append(item)
        }
        return DisplayText(characters: kept.reversed())
    }

    func prefix(width limit: Int) -> DisplayText {
        let characters: [(Character, Int)]
        switch shown {
        case .ascii(let bytes): return DisplayText(ascii: Array(bytes.prefix(max(0, limit))))
        case .characters(let all): characters = all
        }
        var used = 0
        var kept: [(Character, Int)] = []
        for item in characters {
            if used + item.1 > limit { break }
            used += item.1
            kept.append(item)
        }
        return DisplayText(characters: kept)
    }

    /// Columns a character takes: two for East Asian wide characters and emoji, zero for
    /// combining marks alone, else one.
    static func columns(of character: Character) -> Int {
        guard let scalar = character.unicodeScalars.first else { return 0 }
        let v = scalar.value
        if scalar.properties.isEmojiPresentation { return 2 }
        if (0x1100...0x115F).contains(v) || (0x2E80...0xA4CF).contains(v) || (0xAC00...0xD7A3).contains(v)
            || (0xF900...0xFAFF).contains(v) || (0xFE30...0xFE4F).contains(v) || (0xFF00...0xFF60).contains(v)
            || (0xFFE0...0xFFE6).contains(v) || (0x20000...0x3FFFD).contains(v) {
            return 2
        }
        if scalar.properties.generalCategory == .nonspacingMark { return 0 }
        return 1
    }
}

extension String {
    /// Newlines shown as ⏎ (for one-line messages).
    var replacingNewlines: String {
        String(self.map { $0 == "\n" || $0 == "\r\n" ? "⏎" : $0 })
    }
}
