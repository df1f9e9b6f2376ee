import Glibc

/// Reading the one-key answers of an interactive review (proofread and rewrite).
enum ReviewKeys {
    /// One key from the terminal, lowercased; a signal stops the session through `driver`
    /// (or exits when there is none); end of input and ^D mean quit.
    static func read(driver: SessionDriver?) -> Character {
        var fds = [pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: Signals.descriptor, events: Int16(POLLIN), revents: 0)]
        while true {
            _ = poll(&fds, 2, -1)
            if let signo = Signals.take() {
                guard let driver else { exit(Signals.exitStatus(signo)) }
                driver.interrupted(signo)
            }
            guard fds[0].revents != 0 else { continue }
            var byte: UInt8 = 0
            let n = Glibc.read(STDIN_FILENO, &byte, 1)
            if n == 0 { return "q" }
            if n < 0 { if errno == EINTR || errno == EAGAIN { continue }; return "q" }
            if byte == 0x04 { return "q" }   // ^D
            let c = Character(Unicode.Scalar(byte))
            return Character(String(c).lowercased())
        }
    }
}
