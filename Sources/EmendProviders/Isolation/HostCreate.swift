/// The CREATE request: which provider file the host loads, with the user's settings for it
/// and the limits it enforces on the plugin's output.
struct HostCreate {
    /// The version of this file's protocol (PROTOCOL.md), the first field of CREATE: a host
    /// installed by another build refuses a CREATE of another version with a message that
    /// says so, rather than misreading it.
    static let protocolVersion: UInt32 = 3

    enum Kind: UInt8 {
        /// A shared object exporting emend_provider_entry.
        case plugin = 1
        /// A simple-form manifest (a C function called through libffi).
        case simple = 2
    }

    var kind: Kind
    var path: String
    /// The id discovery recorded; a plugin that now says otherwise is refused.
    var id: String
    /// The provider's table of config.toml (without the host's own keys).
    var settings: TOMLTable
    var limits: ProviderLimits
    /// The sandbox the host enters before it loads the plugin.
    var sandbox = HostSandbox(enabled: false, network: false, readPaths: [])

    func encode(into encoder: inout FrameEncoder, version: UInt32 = protocolVersion) {
        encoder.u32(version)
        encoder.u8(kind.rawValue)
        encoder.string(path)
        encoder.string(id)
        TOMLCoding.encode(.table(settings), into: &encoder)
        limits.encode(into: &encoder)
        sandbox.encode(into: &encoder)
    }

    static func decode(_ decoder: inout FrameDecoder) throws(ProtocolViolation) -> HostCreate {
        let version = try decoder.u32()
        guard version == protocolVersion else {
            throw ProtocolViolation("libemend speaks host protocol version \(version), this emend-provider-host version "
                                    + "\(protocolVersion): install both from one build")
        }
        let raw = try decoder.u8()
        guard let kind = Kind(rawValue: raw) else { throw ProtocolViolation("provider kind \(raw)") }
        let path = try decoder.string(), id = try decoder.string()
        guard case .table(let settings) = try TOMLCoding.decode(&decoder, depth: 0) else {
            throw ProtocolViolation("settings that are not a table")
        }
        let limits = try ProviderLimits.decode(&decoder)
        return HostCreate(kind: kind, path: path, id: id, settings: settings, limits: limits,
                          sandbox: try HostSandbox.decode(&decoder))
    }
}
