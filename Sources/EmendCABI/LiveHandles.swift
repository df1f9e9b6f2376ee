import EmendCore

/// The coordinators not destroyed yet, so that an answer (any thread) for a coordinator that
/// is being or was destroyed is EMEND_E_STALE instead of a use after free.
///
/// An answer takes a reference to the handle under the lock, so destroy on the engine's
/// thread cannot free it while the answer runs; destroy removes the handle first, so no
/// answer starts after it. Request ids are unique in the process (RequestNumbering), so an
/// answer meant for a destroyed coordinator never matches one of a new coordinator at the
/// same address.
enum LiveHandles {
    private static let lock = Lock()
    nonisolated(unsafe) private static var live: Set<UInt> = []

    static func insert(_ pointer: OpaquePointer) {
        lock.withLock { _ = live.insert(UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(pointer)))) }
    }

    /// Whether `pointer` was live (it is not from now on).
    static func remove(_ pointer: OpaquePointer) -> Bool {
        lock.withLock { live.remove(UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(pointer)))) != nil }
    }

    /// The live handle behind `pointer`, retained for the caller, or nil.
    static func retained(_ pointer: OpaquePointer) -> Unmanaged<CoordinatorHandle>? {
        lock.withLock {
            guard live.contains(UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(pointer)))) else { return nil }
            return Unmanaged<CoordinatorHandle>.fromOpaque(UnsafeRawPointer(pointer)).retain()
        }
    }
}
