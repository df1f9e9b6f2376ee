import EmendCore

/// What a provider host sends back, one frame each (several edits of one run share a frame).
enum HostEvent {
    /// The instance is made; whether asking again can give another answer.
    case ready(canRetry: Bool)
    /// Loading or create failed, with the reason; the host exits.
    case createFailed(String)
    case text(run: UInt64, String)
    case edits(run: UInt64, [ProviderEdit])
    /// A log line of run `run` (0: of no run).
    case log(run: UInt64, String)
    /// Run `run` is over: finished, or failed with a reason.
    case finished(run: UInt64, ProviderOutcome)
    /// From the checker service only: the shared host ended, and how.
    case hostEnded(HostEnd)

    func encode(into encoder: inout FrameEncoder) {
        switch self {
        case .ready(let canRetry):
            encoder.begin(.ready)
            encoder.bool(canRetry)
        case .createFailed(let message):
            encoder.begin(.createFailed)
            encoder.string(message)
        case .text(let run, let text):
            encoder.begin(.text)
            encoder.u64(run)
            encoder.rest(text)
        case .edits(let run, let edits):
            encoder.begin(.edits)
            encoder.u64(run)
            encoder.u32(UInt32(edits.count))
            for edit in edits {
                encoder.int(edit.range.lowerBound)
                encoder.int(edit.range.upperBound)
                encoder.string(edit.replacement)
                encoder.string(edit.explanation)
                encoder.string(edit.category)
                encoder.string(edit.ruleID)
            }
        case .log(let run, let line):
            encoder.begin(.log)
            encoder.u64(run)
            encoder.string(line)
        case .finished(let run, let outcome):
            encoder.begin(.finished)
            encoder.u64(run)
            switch outcome {
            case .finished: encoder.u8(1); encoder.string("")
            case .failed(let reason): encoder.u8(0); encoder.string(reason)
            case .declined(let reason): encoder.u8(2); encoder.string(reason)
            }
        case .hostEnded(let end):
            end.encodeFrame(into: &encoder)
            return
        }
        encoder.end()
    }

    static func decode(type: UInt8, _ decoder: inout FrameDecoder) throws(ProtocolViolation) -> HostEvent {
        let event: HostEvent
        switch FrameType(rawValue: type) {
        case .ready?: event = .ready(canRetry: try decoder.bool())
        case .createFailed?: event = .createFailed(try decoder.string())
        case .text?: event = .text(run: try decoder.u64(), try decoder.rest())
        case .edits?:
            let run = try decoder.u64()
            let count = try decoder.u32()
            var edits: [ProviderEdit] = []
            for _ in 0..<count {
                let start = try decoder.count(), end = try decoder.count()
                guard start <= end else { throw ProtocolViolation("an edit at \(start)..<\(end)") }
                edits.append(ProviderEdit(range: start..<end, replacement: try decoder.string(),
                                          explanation: try decoder.string(), category: try decoder.string(),
                                          ruleID: try decoder.string()))
            }
            event = .edits(run: run, edits)
        case .log?: event = .log(run: try decoder.u64(), try decoder.string())
        case .finished?:
            let run = try decoder.u64()
            let ok = try decoder.u8()
            let message = try decoder.string()
            switch ok {
            case 0: event = .finished(run: run, .failed(message))
            case 1: event = .finished(run: run, .finished)
            case 2: event = .finished(run: run, .declined(message))
            default: throw ProtocolViolation("a run's end of \(ok)")
            }
        case .hostEnded?: return .hostEnded(try HostEnd.decodeFrame(&decoder))
        default: throw ProtocolViolation("frame type \(type) is not an event")
        }
        try decoder.finish()
        return event
    }
}
