import Glibc

/// Where the runtime's log lines go: standard error, when EMEND_LOG is set in the environment.
enum LogSink {
    static let standardError: @Sendable (String) -> Void = { message in
        guard getenv("EMEND_LOG") != nil else { return }
        let line = "emend: \(message)\n"
        _ = line.withCString { write(2, $0, strlen($0)) }
    }
}
