import EmendCore

/// One lock per loaded library (keyed by its dlopen handle, which is the same for every
/// path to the same file): plain C libraries often keep global state, so calls into one
/// library never overlap, even from different manifests.
final class SimpleLibraryLocks: @unchecked Sendable {
    static let shared = SimpleLibraryLocks()

    private let lock = Lock()
    private var locks: [UInt: Lock] = [:]

    /// The lock of the library opened as `handle`.
    func lock(for handle: UnsafeMutableRawPointer) -> Lock {
        lock.withLock {
            let key = UInt(bitPattern: handle)
            if let existing = locks[key] { return existing }
            let made = Lock()
            locks[key] = made
            return made
        }
    }
}
