import Glibc

/// The files a many-file command works on: the FILE and DIR arguments expanded, in the order
/// given, directories walked in byte order of names. Each file comes once, however it is
/// reached (named twice, named and inside a named directory, through a symbolic link).
struct InputFiles {
    /// A file to check, and whether the user named it (an error in a named file is the
    /// user's to see; a file found in a directory that is not text is skipped with a note).
    struct Entry: Equatable {
        let path: String
        let named: Bool
    }

    private(set) var entries: [Entry] = []
    /// Notes for standard error: what was skipped and why.
    private(set) var notes: [String] = []
    /// Arguments that are neither a readable file nor a directory: reported as errors, each
    /// with the path it is about (the key of its entry in a many-file JSON report).
    private(set) var failures: [(path: String, failure: CLIFailure)] = []
    private var seen: Set<FileIdentity> = []

    /// Names a directory walk takes as text, by extension (case ignored): prose formats
    /// whose text emend reads (Markdown, LaTeX, plain text and the lightweight markups that
    /// read well as plain text). Other files in a directory are left alone silently.
    static let textExtensions: Set<String> = [
        "txt", "text",
        "md", "markdown", "mdown", "mkd", "mkdn", "mdwn", "mdx", "rmd", "qmd",
        "tex", "ltx", "latex",
        "rst", "adoc", "asciidoc", "org", "textile", "wiki", "mediawiki", "pod", "rdoc",
    ]

    static func isTextLike(_ name: String) -> Bool {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return false }
        return textExtensions.contains(name[name.index(after: dot)...].lowercased())
    }

    /// Expands `arguments` (files and directories; not "-").
    init(_ arguments: [String]) {
        for argument in arguments {
            var info = stat()
            guard stat(argument, &info) == 0 else {
                let why = errno
                switch why {
                case ENOENT: failures.append((argument, .usage("\(argument): no such file or directory")))
                case EACCES: failures.append((argument, .usage("\(argument): permission denied (check its permissions)")))
                default: failures.append((argument, .usage("\(argument): cannot read: \(String(cString: strerror(why)))")))
                }
                continue
            }
            if (info.st_mode & S_IFMT) == S_IFDIR {
                walk(argument, depth: 0)
            } else {
                add(argument, info: info, named: true)
            }
        }
    }

    private mutating func add(_ path: String, info: stat, named: Bool) {
        guard seen.insert(FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))).inserted else { return }
        entries.append(Entry(path: path, named: named))
    }

    /// The text-like files under `directory`; hidden entries (.git, .cache, …) are skipped,
    /// and symbolic links to directories are not followed (no loops).
    private mutating func walk(_ directory: String, depth: Int) {
        guard depth < 64 else {
            notes.append("\(directory): skipped (directories nested too deep)")
            return
        }
        guard let dir = opendir(directory) else {
            failures.append((directory, .usage("\(directory): cannot read the directory: \(String(cString: strerror(errno)))")))
            return
        }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: &entry.pointee.d_name) { bytes in
                String(cString: bytes.baseAddress!.assumingMemoryBound(to: CChar.self))
            }
            if !name.hasPrefix(".") { names.append(name) }
        }
        closedir(dir)
        names.sort { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        for name in names {
            let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            var link = stat()
            guard lstat(path, &link) == 0 else { continue }
            if (link.st_mode & S_IFMT) == S_IFDIR {
                walk(path, depth: depth + 1)
                continue
            }
            guard InputFiles.isTextLike(name) else { continue }
            var info = stat()
            guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            add(path, info: info, named: false)
        }
    }

    /// Whether `bytes` look like a binary file rather than text: a NUL byte in the first 8 KB
    /// (as git and grep decide).
    static func looksBinary(_ bytes: [UInt8]) -> Bool {
        bytes.prefix(8192).contains(0)
    }
}

/// A file's identity on its file system.
private struct FileIdentity: Hashable {
    let device: UInt64
    let inode: UInt64
}
