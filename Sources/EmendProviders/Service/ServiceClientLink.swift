import Glibc
import EmendCore

/// The service's side of one front end's connection: whole frames written under a lock
/// (the host's reader and the service both write to it), never SIGPIPE.
final class ServiceClientLink: @unchecked Sendable {
    let channel: FrameChannel
    private let writeLock = Lock()

    init(fd: Int32) { channel = FrameChannel(fd: fd, frameLimit: maximumFrameBytes) }

    var fd: Int32 { channel.fd }

    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool { writeLock.withLock { channel.write(bytes) } }

    /// Ends the connection both ways: the front end reads its end, the link's reader stops.
    func hangUp() { _ = shutdown(channel.fd, Int32(SHUT_RDWR)) }
}

/// A frame of `type` whose payload is `payload` with its first u64 (a run id) replaced by `run`:
/// how the service renumbers runs between a front end and the shared host without
/// decoding them again.
func renumbered(type: UInt8, payload: UnsafeRawBufferPointer, run: UInt64) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(payload.count + 5)
    let length = UInt32(payload.count + 1)
    for shift in 0..<4 { bytes.append(UInt8(truncatingIfNeeded: length >> (8 * UInt32(shift)))) }
    bytes.append(type)
    for shift in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: run >> (8 * UInt64(shift)))) }
    bytes.append(contentsOf: payload[8...])
    return bytes
}

/// A whole frame of `type` around `payload` as it came.
func reframed(type: UInt8, payload: UnsafeRawBufferPointer) -> [UInt8] {
    var bytes: [UInt8] = []
    let length = UInt32(payload.count + 1)
    for shift in 0..<4 { bytes.append(UInt8(truncatingIfNeeded: length >> (8 * UInt32(shift)))) }
    bytes.append(type)
    bytes.append(contentsOf: payload)
    return bytes
}
