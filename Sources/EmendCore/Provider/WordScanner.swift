/// Finds words (letters, digits and inner apostrophes) and their UTF-8 byte ranges.
enum WordScanner {
    struct Word {
        let text: String
        let range: Range<Int>
    }

    static func words(in text: String) -> [Word] {
        var words: [Word] = []
        var offset = 0
        var start: Int?
        var current = ""
        for character in text {
            let width = character.utf8.count
            let isWordCharacter = character.isLetter || character.isNumber
                || (character == "'" && start != nil)
            if isWordCharacter {
                if start == nil { start = offset }
                current.append(character)
            } else if let begin = start {
                words.append(Word(text: current, range: begin..<offset))
                start = nil
                current = ""
            }
            offset += width
        }
        if let begin = start { words.append(Word(text: current, range: begin..<offset)) }
        return words.map { word in
            guard word.text.hasSuffix("'") else { return word }
            return Word(text: String(word.text.dropLast()), range: word.range.lowerBound..<word.range.upperBound - 1)
        }
    }
}
