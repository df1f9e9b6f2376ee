/// The content of the HTML elements that hold code, keys or program output (`<code>`,
/// `<kbd>`, `<samp>`, `<tt>`, `<var>`, `<pre>`). Why: the markup says the text is not prose,
/// in any file, as plainly as a URL's shape does, and every suggestion inside it
/// (`<kbd>Esc</kbd>` → "Es", `<code>gdk_init</code>`) is a false alarm. (Markdown code spans
/// are another matter: the engine protects them where the file is Markdown, and a backtick
/// elsewhere is just a character, so the filter leaves them alone.)
extension ShieldedText {
    /// HTML elements whose content is code, keys or program output, not prose.
    static let codeElementNames: [String] = ["code", "kbd", "samp", "tt", "var", "pre"]

    /// The content of each code element (`<kbd>Esc</kbd>`: the bytes of "Esc"), up to its
    /// closing tag on the same line or, for `<pre>`, anywhere after.
    static func codeElements(_ b: [UInt8]) -> [Range<Int>] {
        var result: [Range<Int>] = []
        var i = 0
        while i < b.count {
            guard b[i] == UInt8(ascii: "<"), let name = elementName(b, at: i),
                  let openEnd = firstIndex(of: UInt8(ascii: ">"), in: b, from: i) else { i += 1; continue }
            let closing = Array("</\(name)".utf8)
            var j = openEnd + 1, found: Int?
            while j + closing.count <= b.count {
                if name != "pre", b[j] == 0x0A { break }
                if b[j] == UInt8(ascii: "<"), zip(b[j..<(j + closing.count)], closing).allSatisfy({ ($0 | 0x20) == ($1 | 0x20) }) {
                    found = j
                    break
                }
                j += 1
            }
            if let found {
                if found > openEnd + 1 { result.append((openEnd + 1)..<found) }
                i = found
            } else {
                i = openEnd + 1
            }
        }
        return result
    }

    /// The code element's name when an opening tag of one starts at `i` (`<kbd>`, `<code class="x">`).
    private static func elementName(_ b: [UInt8], at i: Int) -> String? {
        for name in codeElementNames {
            let end = i + 1 + name.utf8.count
            guard end < b.count, zip(b[(i + 1)..<end], name.utf8).allSatisfy({ ($0 | 0x20) == $1 }) else { continue }
            if b[end] == UInt8(ascii: ">") || isSpace(b[end]) { return name }
        }
        return nil
    }

    private static func firstIndex(of needle: UInt8, in b: [UInt8], from: Int) -> Int? {
        var i = from
        while i < b.count, b[i] != 0x0A {
            if b[i] == needle { return i }
            i += 1
        }
        return nil
    }
}
