import Glibc

/// What a front end and the service compare before a run crosses: the service protocol and
/// the provider host executable the service runs as (its path, size and modification time).
/// An upgrade (or a rebuild) changes the file, so the front end finds a service of another
/// identity, asks it to exit and starts its own: an old service never serves a new front
/// end. A service whose file was replaced under it reads its own identity from the path it
/// was started with, so it no longer matches either.
public enum ServiceIdentity {
    /// The version of the front end ↔ service handshake (Sources/EmendProviderHost/PROTOCOL.md).
    public static let protocolVersion: UInt32 = 1

    /// The identity of a service running `executable` ("?" parts when it cannot be read).
    public static func of(executable: String) -> String {
        var info = stat()
        guard stat(executable, &info) == 0 else { return "service \(protocolVersion) \(executable) ?" }
        return "service \(protocolVersion) \(executable) \(info.st_size) \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
    }
}
