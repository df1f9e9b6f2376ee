import Glibc

/// The private cache directory of one provider, `$XDG_CACHE_HOME/emend-providers/<id>` (or
/// `~/.cache/emend-providers/<id>`): the one place besides its runtime directory that its
/// sandbox lets it write by default, so a checker's disk cache (Hunspell's suggestions,
/// Harper's lints) works without the user granting `sandbox_write_paths`. Each provider gets
/// its own and may neither write nor read another's: a hostile plugin must not be able to
/// poison another checker's cached suggestions, nor read what they hold (the user's
/// misspelled words, quoted lines of the documents checked). That is why it is not under
/// `$XDG_CACHE_HOME/emend`, which every plugin may read (its models and libraries), and
/// Landlock cannot take a directory back out of one it grants. libemend creates it (mode 0700) before the host starts and
/// names it to the plugin in `EMEND_PROVIDER_CACHE_DIR` (include/emend_provider.h).
enum ProviderCacheDirectory {
    /// The variable that names the directory to the plugin (and to the commands it starts).
    static let variable = "EMEND_PROVIDER_CACHE_DIR"

    /// `id` as one safe path component, or nil: only ASCII letters, digits, `.`, `-` and `_`,
    /// not starting with `.` (so never `.`, `..` or a hidden name), 1 to 200 bytes. An id
    /// with `/`, NUL, spaces or anything else gets no cache directory rather than a mangled
    /// name another id could share.
    static func component(for id: String) -> String? {
        let bytes = Array(id.utf8)
        guard (1...200).contains(bytes.count), bytes[0] != UInt8(ascii: ".") else { return nil }
        let safe = bytes.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }
        return safe ? id : nil
    }

    /// The directory of provider `id` (nil: an unsafe id, or neither an absolute
    /// XDG_CACHE_HOME nor an absolute HOME).
    static func path(for id: String, environment: [String: String]) -> String? {
        guard let component = component(for: id) else { return nil }
        let cache = environment["XDG_CACHE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? environment["HOME"].flatMap { $0.hasPrefix("/") && $0 != "/" ? $0 + "/.cache" : nil }
        return cache.map { $0 + "/emend-providers/" + component }
    }

    /// Creates `path` and the directories above it that are missing (mode 0700) and checks
    /// that it is a real directory of this user, not a symbolic link (made 0700 if it was
    /// more open). false: it cannot be used, and the plugin is told of none.
    static func prepare(_ path: String) -> Bool {
        var prefix = ""
        for part in path.split(separator: "/") {
            prefix += "/" + part
            if mkdir(prefix, 0o700) != 0 && errno != EEXIST { return false }
        }
        var status = stat()
        guard lstat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR, status.st_uid == getuid() else { return false }
        if status.st_mode & 0o077 != 0 && chmod(path, 0o700) != 0 { return false }
        return true
    }
}
