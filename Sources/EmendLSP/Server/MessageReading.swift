import EmendText

/// The reader thread: frames → messages → events, until the input ends.
enum MessageReading {
    static func run(fd: Int32, into events: EventQueue) {
        let reader = FrameReader(fd: fd)
        while true {
            switch reader.next() {
            case .end:
                events.post(.inputEnded)
                return
            case .broken(let reason):
                events.post(.invalid(nil, .parseError("bad frame: \(reason)")))
            case .body(let bytes):
                events.post(parse(bytes))
            }
        }
    }

    static func parse(_ bytes: [UInt8]) -> ServerEvent {
        if let offset = UTF8Validation.firstInvalidOffset(in: bytes) {
            return .invalid(nil, .parseError("the message is not valid UTF-8 (byte offset \(offset) of its body)"))
        }
        let json: JSON
        do {
            json = try JSONParser.parse(bytes)
        } catch {
            return .invalid(nil, .parseError("the message is not JSON: \(error.reason) at byte \(error.offset)"))
        }
        switch RPCMessage.from(json) {
        case .success(let message): return .message(message)
        case .failure(let invalid): return .invalid(invalid.id, invalid.error)
        }
    }
}
