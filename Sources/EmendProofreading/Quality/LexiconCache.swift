import EmendCore
import Glibc

/// The installed English dictionaries' stems (`Lexicon.installed`) kept in one file per user
/// as hash tables (`WordTable`), mapped read-only by every front end. Why: read into each
/// process's heap, they cost every `emend lsp` and every `emend proofread` some 8 MB (the
/// issue's goal: two language servers and the CLI in at most 1.1 times the memory of one);
/// mapped, their pages are the page cache's, held once for all, and a process starts without
/// parsing 2 MB of dictionaries. Valid while none of the dictionaries or the directories they
/// were found in has changed (sizes and modification times); otherwise the process that finds
/// it stale reads the dictionaries (holding them itself, as before) and writes the file anew.
///
/// The file: a text header — `emend-lexicon 1`, one `TAB`-separated line per directory (its
/// path and time, or `-`), one per dictionary (its name, path, size and time), `--` — padded
/// with zero bytes to a multiple of 4, then one `WordTable` per dictionary in the header's order.
struct LexiconCache {
    let file: String?

    /// `$XDG_CACHE_HOME/emend/lexicon` (default `~/.cache/emend/lexicon`), or nil.
    static func standardFile(environment: (String) -> String? = { getenv($0).map { String(cString: $0) } }) -> String? {
        SystemNamesCache.standardFile(environment: environment).map { String($0.dropLast("system-names".count)) + "lexicon" }
    }

    /// The stems of every `PREFIX*.dic` in `directories` (as `Lexicon.read` finds them), by
    /// dictionary name: mapped from the file when it is valid for these dictionaries, else read
    /// into the heap now and the file written in the background for the next processes.
    func stems(directories: [String], prefix: String) -> [String: Lexicon.Stems] {
        let dictionaries = Self.dictionaries(in: directories, prefix: prefix)
        var header = "emend-lexicon 1\n"
        for directory in directories { header += "\(directory)\t\(SystemNamesCache.stamp(of: directory))\n" }
        for (name, path) in dictionaries { header += "\(name)\t\(path)\t\(Self.stamp(of: path))\n" }
        header += "--\n"
        var padded = Array(header.utf8)
        while padded.count % 4 != 0 { padded.append(0) }
        let headerBytes = padded
        guard let file else { return Lexicon.readStems(directories: directories, prefix: prefix).mapValues { .set($0) } }
        if let mapped = Self.map(file, header: headerBytes, names: dictionaries.map(\.name)) { return mapped }
        let read = Lexicon.readStems(directories: directories, prefix: prefix)
        // This process keeps what it read; the file is written meanwhile for the processes
        // that come after it. Why not wait for it: writing the tables takes longer than
        // reading the dictionaries (seconds in a debug build), and a check must not wait.
        let names = dictionaries.map(\.name)
        if !Self.changedRecently(directories + dictionaries.map(\.path)) {
            try? RuntimeThread.start { Self.write(read, names: names, header: headerBytes, to: file) }
        }
        return read.mapValues { .set($0) }
    }

    /// Whether one of `paths` changed within the last second: it may change again unseen within
    /// the same tick of the file system's clock, so what was read from it is not kept.
    static func changedRecently(_ paths: [String]) -> Bool {
        paths.contains { path in
            var info = stat()
            guard stat(path, &info) == 0 else { return false }
            return Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec) > SystemNamesCache.now() - 1_000_000_000
        }
    }

    /// Writes the tables of `stems` (in the order of `names`) after `header` to `file`, through
    /// a temporary file renamed over it; first removes the temporary files of writers that
    /// ended before they were done (a CLI run that exited meanwhile).
    static func write(_ stems: [String: Set<String>], names: [String], header: [UInt8], to file: String) {
        if let slash = file.lastIndex(of: "/") {
            let directory = String(file[..<slash]), base = String(file[file.index(after: slash)...]) + "."
            for name in SystemFiles.names(in: directory) where name.hasPrefix(base) && name.hasSuffix(".tmp") {
                guard let pid = Int32(name.dropFirst(base.count).dropLast(4)), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
                unlink(directory + "/" + name)
            }
        }
        var bytes = header
        for name in names { WordTable.write(stems[name] ?? [], to: &bytes) }
        SystemNamesCache.write(bytes: bytes, to: file)
    }

    /// The dictionaries `Lexicon.readStems` reads: each `PREFIX*` name with its `.dic` and
    /// `.aff`, from the first directory that has it.
    static func dictionaries(in directories: [String], prefix: String) -> [(name: String, path: String)] {
        var found: [(name: String, path: String)] = []
        for directory in directories {
            for name in Lexicon.dictionaryNames(in: directory) where name.hasPrefix(prefix) && !found.contains(where: { $0.name == name }) {
                found.append((name, "\(directory)/\(name).dic"))
            }
        }
        return found
    }

    /// A file's size and modification time in nanoseconds (through symbolic links), or `-`.
    static func stamp(of path: String) -> String {
        var info = stat()
        guard stat(path, &info) == 0 else { return "-" }
        return "\(info.st_size)\t\(Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec))"
    }

    /// The tables of `file` when it starts with `header` and holds one whole table per name,
    /// else nil (the mapping undone). The mapping of a valid file stays for the process's life.
    static func map(_ file: String, header: [UInt8], names: [String]) -> [String: Lexicon.Stems]? {
        let fd = open(file, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_size >= header.count, info.st_size > 0 else { return nil }
        let size = Int(info.st_size)
        guard let address = mmap(nil, size, PROT_READ, MAP_SHARED, fd, 0), address != MAP_FAILED else { return nil }
        let bytes = UnsafeRawBufferPointer(start: address, count: size)
        var stems: [String: Lexicon.Stems] = [:]
        var offset = header.count
        var valid = bytes.prefix(header.count).elementsEqual(header)
        for name in names where valid {
            guard let (table, length) = WordTable.read(UnsafeRawBufferPointer(rebasing: bytes[offset...])) else {
                valid = false
                break
            }
            stems[name] = .table(table)
            offset += length
        }
        guard valid, offset == size else {
            munmap(address, size)
            return nil
        }
        return stems
    }
}
