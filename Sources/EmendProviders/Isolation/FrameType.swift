/// The type byte of a frame on the provider host channel (`Sources/EmendProviderHost/PROTOCOL.md`).
/// Requests go from libemend to the host, events from the host back.
enum FrameType: UInt8 {
    // requests
    case create = 1
    case run = 2
    case cancel = 3
    // a front end to the checker service, first on each connection (Service/ServiceFrames.swift)
    case hello = 16
    // events
    case ready = 64
    case createFailed = 65
    case text = 66
    case edits = 67
    case log = 68
    case finished = 69
    // the checker service to a front end
    /// The shared host of this connection ended, and how (then the connection closes).
    case hostEnded = 70
    /// The answer to HELLO.
    case welcome = 80
}

/// The largest frame either side accepts (a frame's length beyond it is garbage): big enough
/// for the largest result cap, small enough that a bad length cannot make the reader
/// allocate the machine away.
let maximumFrameBytes = 1 << 30

/// The largest frame libemend reads from a host running under `limits`: one result (or one
/// edit) and its framing, or a merged frame (HostOutbox.mergeLimit). The length is checked
/// before the payload is read, so a host announcing 1 GiB costs libemend nothing: it is a
/// protocol violation, and the host is killed.
enum FrameLimit {
    static let framing = 64 << 10

    static func forHost(_ limits: ProviderLimits) -> Int {
        min(maximumFrameBytes, max(limits.resultBytes, limits.editBytes, HostOutbox.mergeLimit) + framing)
    }
}
