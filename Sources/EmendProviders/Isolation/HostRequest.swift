import EmendCore

/// What libemend asks of a provider host, one frame each.
enum HostRequest {
    /// Load the provider and make its instance (once, first).
    case create(HostCreate)
    /// Run `request` as run `id` (ids are chosen by libemend and never reused).
    case run(id: UInt64, request: ProviderRequest)
    /// The session of run `id` was stopped: is_cancelled says 1 from now on and the plugin's
    /// cancel is called.
    case cancel(id: UInt64)

    func encode(into encoder: inout FrameEncoder) {
        switch self {
        case .create(let create):
            encoder.begin(.create)
            create.encode(into: &encoder)
        case .run(let id, let request):
            encoder.begin(.run)
            encoder.u64(id)
            HostRequestCoding.encode(request, into: &encoder)
        case .cancel(let id):
            encoder.begin(.cancel)
            encoder.u64(id)
        }
        encoder.end()
    }

    static func decode(type: UInt8, _ decoder: inout FrameDecoder) throws(ProtocolViolation) -> HostRequest {
        let request: HostRequest
        switch FrameType(rawValue: type) {
        case .create?: request = .create(try HostCreate.decode(&decoder))
        case .run?: request = .run(id: try decoder.u64(), request: try HostRequestCoding.decode(&decoder))
        case .cancel?: request = .cancel(id: try decoder.u64())
        default: throw ProtocolViolation("frame type \(type) is not a request")
        }
        try decoder.finish()
        return request
    }
}
