import Glibc
import EmendText

/// The text a command works on: a file's bytes (checked to be UTF-8) or standard input's.
struct InputDocument {
    /// The name used in messages and in file:line:column ("<stdin>" for standard input).
    let displayName: String
    /// The file's path as given; nil for standard input.
    let path: String?
    let bytes: [UInt8]
    /// The file's status when it was read (mode for the rewritten file, and to notice that
    /// someone else changed it meanwhile).
    let status: stat?

    var isStandardInput: Bool { path == nil }
    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Whether the file is Markdown by its name.
    var looksLikeMarkdown: Bool {
        guard let path, let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return false }
        let ext = path[path.index(after: dot)...].lowercased()
        return ["md", "markdown", "mdown", "mkd", "mkdn", "mdwn", "mdx", "rmd", "qmd"].contains(ext)
    }

    /// Reads `argument` (a path, "-" or nil for standard input) and checks it is UTF-8.
    static func read(_ argument: String?, allowEmptyStandardInput: Bool = false) throws(CLIFailure) -> InputDocument {
        let document = try readUnchecked(argument, allowEmptyStandardInput: allowEmptyStandardInput)
        try document.checkUTF8()
        return document
    }

    /// Reads `argument` as `read` does, without checking that it is UTF-8 (a many-file run
    /// first looks whether it is a binary file to skip).
    static func readUnchecked(_ argument: String?, allowEmptyStandardInput: Bool = false) throws(CLIFailure) -> InputDocument {
        let document: InputDocument
        if argument == nil || argument == "-" {
            if argument == nil && Terminal.stdinIsTerminal && !allowEmptyStandardInput {
                throw .usage("no input: give a FILE, or pipe text in (e.g. `emend proofread notes.md`, `cat notes.md | emend proofread -`)")
            }
            let bytes = try readAll(STDIN_FILENO, name: "<stdin>")
            document = InputDocument(displayName: "<stdin>", path: nil, bytes: bytes, status: nil)
        } else {
            let path = argument!
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else {
                let why = errno
                switch why {
                case ENOENT: throw .usage("\(path): no such file (check the path; use - to read standard input)")
                case EACCES: throw .usage("\(path): permission denied (check the file's permissions)")
                default: throw .usage("\(path): cannot open: \(String(cString: strerror(why)))")
                }
            }
            defer { close(fd) }
            var info = stat()
            guard fstat(fd, &info) == 0 else { throw .usage("\(path): cannot read: \(String(cString: strerror(errno)))") }
            if (info.st_mode & S_IFMT) == S_IFDIR {
                throw .usage("\(path): is a directory; give a text file")
            }
            let bytes = try readAll(fd, name: path)
            document = InputDocument(displayName: path, path: path, bytes: bytes,
                                     status: (info.st_mode & S_IFMT) == S_IFREG ? info : nil)
        }
        return document
    }

    /// Throws, saying where and how to convert, unless the bytes are UTF-8. A binary file
    /// (a NUL byte early on, as `InputFiles.looksBinary` decides) is named as such: advice to
    /// convert it from Latin-1 would only mislead.
    func checkUTF8() throws(CLIFailure) {
        if let offset = UTF8Validation.firstInvalidOffset(in: bytes) {
            if InputFiles.looksBinary(bytes), let nul = bytes.prefix(8192).firstIndex(of: 0) {
                throw .usage("\(displayName): a binary file (a NUL byte at byte offset \(nul)), not text; "
                             + "emend reads UTF-8 text files")
            }
            let line = bytes[..<offset].reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
            let byte = String(bytes[offset], radix: 16, uppercase: true)
            let source = path ?? "FILE"
            throw .usage("\(displayName): not valid UTF-8 at byte offset \(offset) (line \(line), byte 0x\(byte)); "
                         + "emend reads UTF-8 text: convert it first, e.g. `iconv -f latin1 -t utf-8 \(source)`")
        }
    }

    private static func readAll(_ fd: Int32, name: String) throws(CLIFailure) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .usage("\(name): cannot read: \(String(cString: strerror(errno)))")
            }
            if n == 0 { break }
            bytes.append(contentsOf: chunk[..<n])
        }
        return bytes
    }
}

/// `--selection START:END`, counted in the chosen `--encoding`.
struct SelectionArgument {
    let start: Int?
    let end: Int?

    /// Parses "START:END", "START:" (to the end) or ":END"; "N" alone is a caret at N.
    static func parse(_ text: String) -> SelectionArgument? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        func number(_ s: Substring) -> Int?? {
            if s.isEmpty { return .some(nil) }
            guard let value = Int(s), value >= 0 else { return nil }
            return .some(value)
        }
        switch parts.count {
        case 1:
            guard let value = Int(parts[0]), value >= 0 else { return nil }
            return SelectionArgument(start: value, end: value)
        case 2:
            guard let start = number(parts[0]), let end = number(parts[1]) else { return nil }
            return SelectionArgument(start: start, end: end)
        default:
            return nil
        }
    }

    /// The UTF-8 byte range in `text`, or an error that says what is wrong.
    func utf8Range(in text: String, encoding: PositionEncoding, spelled: String, file: String) throws(CLIFailure) -> Range<Int> {
        let converter = PositionConverter(text)
        let length = converter.length(in: encoding)
        let lower = start ?? 0
        let upper = end ?? length
        let unit = EncodingArgument.unitName(encoding)
        guard lower <= upper else {
            throw .usage("--selection \(spelled): START (\(lower)) is after END (\(upper)); write START:END")
        }
        do {
            return try converter.utf8Range(location: lower, length: upper - lower, from: encoding)
        } catch {
            switch error {
            case .outOfBounds(let offset, let length):
                throw .usage("--selection \(spelled): \(offset) is past the end of \(file), which has \(length) \(unit)")
            case .splitsCharacter(let offset):
                throw .usage("--selection \(spelled): offset \(offset) falls inside a character (counting \(unit)); pick a character boundary")
            }
        }
    }
}

/// `--encoding utf8|utf16|codepoint`.
enum EncodingArgument: String, CaseIterable {
    case utf8, utf16, codepoint

    var encoding: PositionEncoding {
        switch self {
        case .utf8: return .utf8
        case .utf16: return .utf16
        case .codepoint: return .codePoint
        }
    }

    static func unitName(_ encoding: PositionEncoding) -> String {
        switch encoding {
        case .utf8: return "UTF-8 bytes"
        case .utf16: return "UTF-16 units"
        case .codePoint: return "code points"
        }
    }
}
