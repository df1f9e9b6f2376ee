import Glibc

/// Standard streams, terminal detection and colours.
enum Terminal {
    static let stdinIsTerminal = isatty(STDIN_FILENO) == 1
    static let stdoutIsTerminal = isatty(STDOUT_FILENO) == 1
    static let stderrIsTerminal = isatty(STDERR_FILENO) == 1

    /// Writes all of `text` to `fd` (retrying short writes and EINTR).
    static func write(_ text: String, to fd: Int32) {
        var text = text
        text.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += n
            }
        }
    }

    static func out(_ text: String) { write(text, to: STDOUT_FILENO) }
    static func err(_ text: String) { write(text, to: STDERR_FILENO) }

    /// Columns of the terminal on `fd`, or nil.
    static func columns(_ fd: Int32 = STDOUT_FILENO) -> Int? {
        var size = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }
}

/// ANSI styles, or nothing when colour is off (not a terminal, or NO_COLOR is set).
struct Palette: Sendable {
    let enabled: Bool

    /// Colour for output on `fd`: only a terminal, and never when NO_COLOR is set (no-color.org).
    static func forStream(_ fd: Int32, environment: [String: String]) -> Palette {
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return Palette(enabled: false) }
        if environment["TERM"] == "dumb" { return Palette(enabled: false) }
        return Palette(enabled: isatty(fd) == 1)
    }

    private func wrap(_ text: String, _ code: String) -> String {
        enabled && !text.isEmpty ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    func bold(_ text: String) -> String { wrap(text, "1") }
    func dim(_ text: String) -> String { wrap(text, "2") }
    func red(_ text: String) -> String { wrap(text, "31") }
    func green(_ text: String) -> String { wrap(text, "32") }
    func yellow(_ text: String) -> String { wrap(text, "33") }
    func cyan(_ text: String) -> String { wrap(text, "36") }
    func boldRed(_ text: String) -> String { wrap(text, "1;31") }
    func boldGreen(_ text: String) -> String { wrap(text, "1;32") }
}
