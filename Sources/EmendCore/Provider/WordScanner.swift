/// Finds words (letters, digits and inner apostrophes) and their UTF-8 byte ranges.
///
/// Why bytes: the fixture proofreads whole documents in benchmarks (10 MB and more), and
/// walking Characters costs a grapheme break and a property lookup per letter. ASCII is
/// classified by its byte; anything else by its scalar's properties, where a combining mark
/// continues the word it follows (a decomposed "é" stays one word, as a Character would).
enum WordScanner {
    struct Word {
        let text: String
        let range: Range<Int>
    }

    static func words(in text: String) -> [Word] {
        var text = text
        return text.withUTF8 { words(in: $0) }
    }

    static func words(in bytes: UnsafeBufferPointer<UInt8>) -> [Word] {
        var words: [Word] = []
        words.reserveCapacity(bytes.count / 6 + 1)   // English averages a word per ~6 bytes
        var start: Int?
        var i = 0
        func close(at end: Int) {
            guard let begin = start else { return }
            // A trailing apostrophe is quotation, not part of the word ("the dogs' ").
            let last = bytes[end - 1] == UInt8(ascii: "'") ? end - 1 : end
            words.append(Word(text: String(decoding: UnsafeBufferPointer(rebasing: bytes[begin..<last]), as: UTF8.self),
                              range: begin..<last))
            start = nil
        }
        while i < bytes.count {
            let byte = bytes[i]
            let width: Int
            let isWordPart: Bool
            if byte < 0x80 {
                width = 1
                isWordPart = isASCIIAlphanumeric(byte) || (byte == UInt8(ascii: "'") && start != nil)
            } else {
                let (scalar, length) = decodeScalar(bytes, at: i)
                width = length
                if let scalar {
                    let properties = scalar.properties
                    isWordPart = properties.isAlphabetic || properties.numericType != nil
                        || (start != nil && isMark(properties.generalCategory))
                } else {
                    isWordPart = false
                }
            }
            if isWordPart {
                if start == nil { start = i }
            } else {
                close(at: i)
            }
            i += width
        }
        close(at: bytes.count)
        return words
    }

    private static func isASCIIAlphanumeric(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
            || byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private static func isMark(_ category: Unicode.GeneralCategory) -> Bool {
        category == .nonspacingMark || category == .spacingMark || category == .enclosingMark
    }

    /// The scalar whose encoding starts at `i` and its length in bytes; nil (length 1) for a
    /// byte that starts no valid sequence.
    private static func decodeScalar(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> (Unicode.Scalar?, Int) {
        var iterator = bytes[i...].makeIterator()
        var decoder = UTF8()
        switch decoder.decode(&iterator) {
        case .scalarValue(let scalar): return (scalar, UTF8.width(scalar))
        default: return (nil, 1)
        }
    }
}
