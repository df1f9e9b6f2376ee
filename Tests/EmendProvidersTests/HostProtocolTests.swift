import XCTest
import EmendCore
@testable import EmendProviders

/// The provider host channel's frames (Sources/EmendProviderHost/PROTOCOL.md): every message
/// survives a round trip, the host's outbox merges a burst of one run's edits into one frame,
/// and bytes that are not a valid frame are a ProtocolViolation, never a crash.
final class HostProtocolTests: XCTestCase {
    private func frames(_ bytes: [UInt8]) -> [(type: UInt8, payload: [UInt8])] {
        var out: [(UInt8, [UInt8])] = []
        var offset = 0
        while offset + 4 <= bytes.count {
            let length = (0..<4).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) }
            out.append((bytes[offset + 4], Array(bytes[(offset + 5)..<(offset + 4 + length)])))
            offset += 4 + length
        }
        XCTAssertEqual(offset, bytes.count)
        return out
    }

    private func decodeEvents(_ bytes: [UInt8]) throws -> [HostEvent] {
        try frames(bytes).map { frame in
            try frame.payload.withUnsafeBytes { raw in
                var decoder = FrameDecoder(raw)
                return try HostEvent.decode(type: frame.type, &decoder)
            }
        }
    }

    func testRequestsRoundTrip() throws {
        var settings = TOMLTable()
        settings["model"] = .string("/m/ß.gguf")
        settings["threads"] = .integer(-2)
        settings["ratio"] = .float(0.25)
        settings["on"] = .boolean(true)
        settings["list"] = .array([.integer(1), .string("x")])
        var limits = ProviderLimits()
        limits.editBytes = 7
        var request = ProviderRequest(tool: .rewriteDescribed, text: "Héllo ⟦1⟧ world", selection: 1..<9,
                                      protectedRanges: [2..<3, 4..<5], resultOptions: [.plainText, .list],
                                      prompt: "warmer", previousResult: nil, language: "fr-CA", markdown: "**x**")
        request.guidance = "keep ‘world’"
        var encoder = FrameEncoder()
        HostRequest.create(HostCreate(kind: .simple, path: "/p/x.toml", id: "org.x", settings: settings, limits: limits))
            .encode(into: &encoder)
        HostRequest.run(id: 42, request: request).encode(into: &encoder)
        HostRequest.cancel(id: 42).encode(into: &encoder)
        let decoded = try frames(encoder.bytes).map { frame in
            try frame.payload.withUnsafeBytes { raw in
                var decoder = FrameDecoder(raw)
                return try HostRequest.decode(type: frame.type, &decoder)
            }
        }
        XCTAssertEqual(decoded.count, 3)
        guard case .create(let create) = decoded[0], case .run(let id, let back) = decoded[1], case .cancel(42) = decoded[2] else {
            return XCTFail("\(decoded)")
        }
        XCTAssertEqual(create.kind, .simple)
        XCTAssertEqual(create.settings, settings)
        XCTAssertEqual(create.limits, limits)
        XCTAssertEqual(id, 42)
        XCTAssertEqual(back.tool, request.tool)
        XCTAssertEqual(back.text, request.text)
        XCTAssertEqual(back.selection, request.selection)
        XCTAssertEqual(back.protectedRanges, request.protectedRanges)
        XCTAssertEqual(back.resultOptions, request.resultOptions)
        XCTAssertEqual(back.prompt, "warmer")
        XCTAssertNil(back.previousResult)
        XCTAssertEqual(back.language, "fr-CA")
        XCTAssertEqual(back.markdown, "**x**")
        XCTAssertEqual(back.guidance, "keep ‘world’")
    }

    func testABurstOfEditsOfOneRunIsOneFrame() throws {
        let edits = (0..<1000).map { ProviderEdit(range: $0 * 2..<$0 * 2 + 1, replacement: "x", explanation: "e", category: "spelling") }
        var events: [HostEvent] = [.text(run: 1, "a"), .text(run: 1, "b")]
        events += edits.map { HostEvent.edits(run: 2, [$0]) }
        events += [.log(run: 2, "line"), .edits(run: 2, [edits[0]]), .finished(run: 2, .failed("why"))]
        var encoder = FrameEncoder()
        for event in HostOutbox.merged(events) { event.encode(into: &encoder) }
        let decoded = try decodeEvents(encoder.bytes)
        XCTAssertEqual(decoded.count, 5, "text, 1,000 edits, log, edit, finished")
        guard case .text(1, "ab") = decoded[0], case .edits(2, let burst) = decoded[1], case .log(2, "line") = decoded[2],
              case .edits(2, let single) = decoded[3], case .finished(2, .failed("why")) = decoded[4] else {
            return XCTFail("\(decoded)")
        }
        XCTAssertEqual(burst, edits)
        XCTAssertEqual(single, [edits[0]])
    }

    func testGarbageIsAViolationNeverACrash() {
        var generator = SystemRandomNumberGenerator()
        var violations = 0
        for round in 0..<2000 {
            let count = Int.random(in: 0..<64, using: &generator)
            var bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if round % 2 == 0, !bytes.isEmpty { bytes[0] = FrameType.edits.rawValue }   // a known type, bad payload
            let type = bytes.first ?? 0
            let payload = Array(bytes.dropFirst())
            let outcome: Result<HostEvent, ProtocolViolation> = payload.withUnsafeBytes { raw in
                var decoder = FrameDecoder(raw)
                return Result { () throws(ProtocolViolation) in try HostEvent.decode(type: type, &decoder) }
            }
            if case .failure = outcome { violations += 1 }
        }
        XCTAssertGreaterThan(violations, 1900, "random bytes are almost never a valid event")
        // Invalid UTF-8 in a string field is refused.
        var encoder = FrameEncoder()
        encoder.u64(1)
        encoder.u32(2)
        let bad: [UInt8] = encoder.bytes + [0xff, 0xfe]
        let result: Result<HostEvent, ProtocolViolation> = bad.withUnsafeBytes { raw in
            var decoder = FrameDecoder(raw)
            return Result { () throws(ProtocolViolation) in try HostEvent.decode(type: FrameType.log.rawValue, &decoder) }
        }
        guard case .failure(let violation) = result else { return XCTFail("invalid UTF-8 accepted") }
        XCTAssertTrue(violation.reason.contains("not valid UTF-8"), violation.reason)
    }
}
