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

    /// The record of a copied descriptor, or why it is unusable. The rules, their order and
    /// their reasons are those of the scanner (scanner/descriptor_verdict.h, which explains
    /// them); Tests/Fixtures/descriptors runs every rule through both.
    static func record(of descriptor: emend_provider_descriptor, path: String) throws(EmendError) -> ProviderRecord {
        let id = try string(descriptor.id, "id", max: 128, mayBeEmpty: true)
        guard SimpleName.isProviderID(id) else {
            throw EmendError(.invalidArgument, "id \"\(id)\" is not a reverse-DNS name (letters, digits, '.', '-', '_')")
        }
        let name = try string(descriptor.name, "name", max: 256)
        let version = try string(descriptor.version, "version", max: 64)
        let languages = try descriptor.languages.map { pointer throws(EmendError) in
            try string(pointer, "languages", max: 1024, mayBeEmpty: true)
        } ?? "*"
        // Split and trimmed as bytes, as the scanner does (Characters would join a comma
        // with a combining mark after it).
        let tags = Array(languages.utf8).split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
            .map { item in String(decoding: item.drop { $0 == 0x20 }.reversed().drop { $0 == 0x20 }.reversed(), as: UTF8.self) }
            .filter { !$0.isEmpty }
        for tag in tags {
            guard tag.utf8.count <= 64 else { throw EmendError(.invalidArgument, "descriptor languages has a tag longer than 64 bytes") }
            guard tag == "*" || isLanguageTag(tag) else {
                throw EmendError(.invalidArgument, "descriptor languages has a tag \"\(tag)\" that is not \"*\" or BCP 47 (letters, digits, '-')")
            }
        }
        guard descriptor.tools != 0 else { throw EmendError(.invalidArgument, "descriptor serves no tools") }
        guard descriptor.tools & ~PluginToolBits.known == 0 else {
            throw EmendError(.invalidArgument, "descriptor tools 0x\(String(descriptor.tools, radix: 16)) has bits for unknown tools")
        }
        guard descriptor.create != nil else { throw EmendError(.invalidArgument, "descriptor has no create function") }
        guard descriptor.run != nil else { throw EmendError(.invalidArgument, "descriptor has no run function") }
        guard descriptor.destroy != nil else { throw EmendError(.invalidArgument, "descriptor has no destroy function") }
        return ProviderRecord(path: path, kind: .plugin, id: id, name: name, version: version,
                              tools: PluginToolBits.tools(descriptor.tools), languages: tags.isEmpty ? ["*"] : tags,
                              outputs: descriptor.outputs,
                              streams: descriptor.flags & UInt32(EMEND_PROVIDER_STREAMS) != 0,
                              usesNetwork: descriptor.flags & UInt32(EMEND_PROVIDER_USES_NETWORK) != 0,
                              priority: Int(descriptor.priority))
    }

    /// "*" aside, a language tag in BCP 47's alphabet: an ASCII letter, then letters, digits and '-'.
    private static func isLanguageTag(_ tag: String) -> Bool {
        let bytes = Array(tag.utf8)
        func letter(_ b: UInt8) -> Bool { (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) }
        guard let first = bytes.first, letter(first) else { return false }
        return bytes.allSatisfy { letter($0) || ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: "-") }
    }

    /// A required string: present, not empty (unless `mayBeEmpty`: the id's own rule says
    /// why), UTF-8, at most `max` bytes.
    private static func string(_ pointer: UnsafePointer<CChar>?, _ field: String, max: Int,
                               mayBeEmpty: Bool = false) throws(EmendError) -> String {
        guard let pointer, mayBeEmpty || pointer.pointee != 0 else {
            throw EmendError(.invalidArgument, "descriptor has no \(field)")
        }
        guard let value = PluginCString.decode(pointer) else {
            throw EmendError(.invalidArgument, "descriptor \(field) is not valid UTF-8")
        }
        guard value.utf8.count <= max else {
            throw EmendError(.invalidArgument, "descriptor \(field) is longer than \(max) bytes")
        }
        return value
    }
}
