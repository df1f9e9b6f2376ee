import EmendCore
import Glibc

/// The installed English dictionaries' stems (`Lexicon.installed`) kept in one file per user
/// as hash tables (`WordTable`), mapped read-only by every front end. Why: read into each
/// process's heap, they cost every `emend lsp` and every `emend proofread` some 8 MB (the
/// issue's goal: two language servers and the CLI in at most 1.1 times the memory of one);
/// mapped, their pages are the page cache's, held once for all, and a process starts without
/// parsing 2 MB of dictionaries. Valid while none of the dictionaries or the directories they
/// were found in has changed (sizes and modification times); otherwise the process that finds
/// it stale reads the dictionaries, writes the file anew and maps it.
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
    /// now, written to the file and mapped from it; read into the heap when the file cannot
    /// be written or mapped.
    func stems(directories: [String], prefix: String) -> [String: Lexicon.Stems] {
        let dictionaries = Self.dictionaries(in: directories, prefix: prefix)
        var header = "emend-lexicon 1\n"
        for directory in directories { header += "\(directory)\t\(SystemNamesCache.stamp(of: directory))\n" }
        for (name, path) in dictionaries { header += "\(name)\t\(path)\t\(Self.stamp(of: path))\n" }
        header += "--\n"
        var headerBytes = Array(header.utf8)
        while headerBytes.count % 4 != 0 { headerBytes.append(0) }
        guard let file else { return Lexicon.readStems(directories: directories, prefix: prefix).mapValues { .set($0) } }
        if let mapped = Self.map(file, header: headerBytes, names: dictionaries.map(\.name)) { return mapped }
        if let mapped = Self.build(file, header: headerBytes, dictionaries: dictionaries, directories: directories, prefix: prefix) {
            // The stems read to write the file are freed: their pages go back to the kernel.
            FreeHeap.release()
            return mapped
        }
        return Lexicon.readStems(directories: directories, prefix: prefix).mapValues { .set($0) }
    }

    /// Reads the dictionaries, writes the file and maps it; nil when a dictionary or directory
    /// changed within the last second (it may change again unseen within the same tick of the
    /// file system's clock) or the file cannot be written or mapped.
    static func build(_ file: String, header: [UInt8], dictionaries: [(name: String, path: String)], directories: [String],
                      prefix: String) -> [String: Lexicon.Stems]? {
        let recent = (directories + dictionaries.map(\.path)).contains { path in
            var info = stat()
            guard stat(path, &info) == 0 else { return false }
            return Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec) > SystemNamesCache.now() - 1_000_000_000
        }
        guard !recent else { return nil }
        let read = Lexicon.readStems(directories: directories, prefix: prefix)
        var bytes = header
        for (name, _) in dictionaries { WordTable.write(read[name] ?? [], to: &bytes) }
        SystemNamesCache.write(bytes: bytes, to: file)
        return map(file, header: header, names: dictionaries.map(\.name))
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
