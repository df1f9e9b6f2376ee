import Glibc

/// The provider host's environment: libemend's own (plugins read their variables, e.g. an
/// API key), with the Swift runtime's backtracer off, so that a plugin that crashes ends its
/// host at once instead of a backtrace being written to /dev/null first.
enum HostEnvironment {
    /// NUL-terminated entries for posix_spawn (free each; the array ends with nil).
    static func make() -> [UnsafeMutablePointer<CChar>?] {
        var entries: [UnsafeMutablePointer<CChar>?] = []
        var index = 0
        while let entry = environ[index] {
            index += 1
            if strncmp(entry, "SWIFT_BACKTRACE=", 16) == 0 { continue }
            entries.append(strdup(entry))
        }
        entries.append(strdup("SWIFT_BACKTRACE=enable=no"))
        entries.append(nil)
        return entries
    }
}
