import Glibc

/// Where the user's checker service listens: `$XDG_RUNTIME_DIR/emend/service.sock`, else
/// (no XDG_RUNTIME_DIR, as under cron or su) `/tmp/emend-UID/service.sock`. The directory is
/// made with mode 0700 and used only when it is the user's own and closed to others, so
/// that no other user can put a socket of theirs in its place; the service also checks
/// every peer's uid (SO_PEERCRED).
public struct ServiceEndpoint: Sendable, Equatable {
    public let directory: String
    /// How long the service stays up with no front end connected (`[service] idle_timeout_ms`).
    public let idleTimeoutMilliseconds: Int

    public var socketPath: String { directory + "/service.sock" }
    /// Held (flock) by the running service: one service per directory, even when two front
    /// ends start one at the same moment.
    public var lockPath: String { directory + "/service.lock" }

    public init(directory: String, idleTimeoutMilliseconds: Int) {
        self.directory = directory
        self.idleTimeoutMilliseconds = idleTimeoutMilliseconds
    }

    public struct Problem: Error {
        public let reason: String
    }

    /// The user's endpoint, its directory made (0700) and checked.
    public static func standard(environment: [String: String], idleTimeoutMilliseconds: Int) -> Result<ServiceEndpoint, Problem> {
        let base: String
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            base = runtime + "/emend"
        } else {
            base = "/tmp/emend-\(getuid())"
        }
        return prepare(directory: base).map { ServiceEndpoint(directory: $0, idleTimeoutMilliseconds: idleTimeoutMilliseconds) }
    }

    /// Makes `directory` (and its parent, for a private runtime directory of a test) with
    /// mode 0700 and checks that it is a directory of this user that no one else may enter.
    static func prepare(directory: String) -> Result<String, Problem> {
        let parent = String(directory[..<(directory.lastIndex(of: "/") ?? directory.startIndex)])
        if !parent.isEmpty { _ = mkdir(parent, 0o700) }
        if mkdir(directory, 0o700) != 0 && errno != EEXIST {
            return .failure(Problem(reason: "cannot make \(directory): \(String(cString: strerror(errno)))"))
        }
        var info = stat()
        guard lstat(directory, &info) == 0 else {
            return .failure(Problem(reason: "cannot read \(directory): \(String(cString: strerror(errno)))"))
        }
        guard info.st_mode & S_IFMT == S_IFDIR else { return .failure(Problem(reason: "\(directory) is not a directory")) }
        guard info.st_uid == getuid() else { return .failure(Problem(reason: "\(directory) belongs to uid \(info.st_uid), not to you")) }
        if info.st_mode & 0o077 != 0 {
            guard chmod(directory, 0o700) == 0 else {
                return .failure(Problem(reason: "\(directory) is open to other users and cannot be closed"))
            }
        }
        return .success(directory)
    }
}
