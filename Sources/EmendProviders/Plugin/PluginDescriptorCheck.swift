import CEmend
import EmendCore

/// Checks a plugin's descriptor against this host's contract and describes it as a
/// ProviderRecord. Errors carry only the reason; the caller adds the path.
enum PluginDescriptorCheck {
    /// sizeof(emend_provider_descriptor) of this host: EMEND_PROVIDER_DESCRIPTOR_MIN_SIZE.
    static let minimumSize = MemoryLayout<emend_provider_descriptor>.size

    /// Copies the descriptor at `pointer` (min(its struct_size, ours) bytes, the rest zero).
    static func copy(_ pointer: UnsafePointer<emend_provider_descriptor>) throws(EmendError) -> emend_provider_descriptor {
        let raw = UnsafeRawPointer(pointer)
        let size = raw.load(as: Int.self)
        let versionEnd = MemoryLayout<emend_provider_descriptor>.offset(of: \.abi_version)! + MemoryLayout<UInt32>.size
        guard size >= versionEnd else {
            throw EmendError(.structSize, "descriptor struct_size \(size) is smaller than the first version (\(minimumSize))")
        }
        let version = raw.load(fromByteOffset: versionEnd - MemoryLayout<UInt32>.size, as: UInt32.self)
        guard version == UInt32(EMEND_PROVIDER_ABI_VERSION) else {
            throw EmendError(.provider, "ABI version \(version), this host speaks \(EMEND_PROVIDER_ABI_VERSION)")
        }
        guard size >= minimumSize else {
            throw EmendError(.structSize, "descriptor struct_size \(size) is smaller than the first version (\(minimumSize))")
        }
        var copy = emend_provider_descriptor()
        withUnsafeMutableBytes(of: &copy) { target in
            target.copyMemory(from: UnsafeRawBufferPointer(start: raw, count: min(size, target.count)))
        }
        return copy
    }

    /// The record of a copied descriptor, or why it is unusable.
    static func record(of descriptor: emend_provider_descriptor, path: String) throws(EmendError) -> ProviderRecord {
        let id = try string(descriptor.id, "id")
        guard !id.isEmpty, !id.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F }) else {
            throw EmendError(.invalidArgument, "id \"\(id)\" is not a reverse-DNS name (empty or has spaces)")
        }
        let name = try string(descriptor.name, "name")
        let version = try string(descriptor.version, "version")
        let languages = try descriptor.languages.map { pointer throws(EmendError) in try string(pointer, "languages") } ?? "*"
        guard descriptor.tools != 0 else { throw EmendError(.invalidArgument, "descriptor serves no tools") }
        let unknown = descriptor.tools & ~PluginToolBits.known
        guard unknown == 0 else {
            throw EmendError(.invalidArgument, "descriptor names unknown tool bits 0x\(String(unknown, radix: 16))")
        }
        guard descriptor.create != nil else { throw EmendError(.invalidArgument, "descriptor has no create function") }
        guard descriptor.run != nil else { throw EmendError(.invalidArgument, "descriptor has no run function") }
        guard descriptor.destroy != nil else { throw EmendError(.invalidArgument, "descriptor has no destroy function") }
        let tags = languages.split(separator: ",").map { String($0.filter { $0 != " " }) }.filter { !$0.isEmpty }
        return ProviderRecord(path: path, kind: .plugin, id: id, name: name, version: version,
                              tools: PluginToolBits.tools(descriptor.tools), languages: tags.isEmpty ? ["*"] : tags,
                              outputs: descriptor.outputs,
                              streams: descriptor.flags & UInt32(EMEND_PROVIDER_STREAMS) != 0,
                              usesNetwork: descriptor.flags & UInt32(EMEND_PROVIDER_USES_NETWORK) != 0,
                              priority: Int(descriptor.priority))
    }

    private static func string(_ pointer: UnsafePointer<CChar>?, _ field: String) throws(EmendError) -> String {
        guard let pointer else { throw EmendError(.invalidArgument, "descriptor has no \(field)") }
        guard let value = PluginCString.decode(pointer) else {
            throw EmendError(.invalidArgument, "descriptor \(field) is not valid UTF-8")
        }
        return value
    }
}
