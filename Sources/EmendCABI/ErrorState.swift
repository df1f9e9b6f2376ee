import CEmend
import Glibc
import EmendCore

/// The thread-local message behind emend_last_error_message(): the only global state of the ABI.
enum ErrorState {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { free($0) }
        return key
    }()

    static func set(_ message: String) {
        free(pthread_getspecific(key))
        pthread_setspecific(key, strdup(message))
    }

    static var message: UnsafePointer<CChar> {
        if let raw = pthread_getspecific(key) { return UnsafePointer(raw.assumingMemoryBound(to: CChar.self)) }
        return UnsafeRawPointer(StaticString("").utf8Start).assumingMemoryBound(to: CChar.self)
    }
}

/// Runs an export's body: OK, or the error's status with its message recorded.
@inline(__always)
func exporting(_ body: () throws(EmendError) -> Void) -> emend_status {
    do {
        try body()
        return EMEND_OK
    } catch {
        ErrorState.set(error.message)
        return emend_status(rawValue: numericCast(error.status.rawValue))
    }
}

/// Fails with `.invalidArgument` when a required pointer is NULL.
func required<T>(_ pointer: T?, _ name: String) throws(EmendError) -> T {
    guard let pointer else { throw EmendError(.invalidArgument, "\(name) is NULL") }
    return pointer
}
