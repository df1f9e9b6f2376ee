import Glibc
import CEmend
import EmendCore

/// A plugin shared object loaded into this process, with its checked descriptor.
///
/// Loaded with dlopen(RTLD_NOW | RTLD_LOCAL) and never closed: a plugin may leave threads or
/// atexit handlers behind. A path is loaded (and its entry called) once per process; later
/// loads of the same path return the same library.
public final class PluginLibrary: @unchecked Sendable {
    /// What the descriptor says, as discovery records it.
    public let record: ProviderRecord
    /// The descriptor, copied and checked.
    let descriptor: emend_provider_descriptor

    /// Whether run may be called again before an earlier run finished.
    public var isConcurrent: Bool { descriptor.flags & UInt32(EMEND_PROVIDER_CONCURRENT) != 0 }
    /// EMEND_PROVIDER_NO_RETRY: asking again with guidance would give the same answer.
    public var refusesRetry: Bool { descriptor.flags & UInt32(EMEND_PROVIDER_NO_RETRY) != 0 }

    private init(record: ProviderRecord, descriptor: emend_provider_descriptor) {
        self.record = record
        self.descriptor = descriptor
    }

    private static let monitor = Monitor()
    nonisolated(unsafe) private static var loaded: [String: PluginLibrary] = [:]

    /// Loads the plugin at `path` and checks its descriptor. Errors name the path and the
    /// reason (the loader's message, a missing symbol, a version this host does not speak, ...).
    public static func load(path: String) throws(EmendError) -> PluginLibrary {
        monitor.lock()
        defer { monitor.unlock() }
        if let library = loaded[path] { return library }
        let library = try open(path)
        loaded[path] = library
        return library
    }

    private static func open(_ path: String) throws(EmendError) -> PluginLibrary {
        // Without a slash dlopen would search the library path instead of opening the file.
        let file = path.contains("/") ? path : "./" + path
        guard let handle = dlopen(file, RTLD_NOW | RTLD_LOCAL) else {
            throw EmendError(.provider, "\(path): \(loaderMessage(path: file))")
        }
        guard let symbol = dlsym(handle, EMEND_PROVIDER_ENTRY_SYMBOL) else {
            throw EmendError(.provider, "\(path): no \(EMEND_PROVIDER_ENTRY_SYMBOL) symbol")
        }
        let entry = unsafeBitCast(symbol, to: emend_provider_entry_fn.self)
        guard let pointer = PluginLogContext.with(PluginLogContext(prefix: path, logger: { _ in }), entry) else {
            throw EmendError(.provider, "\(path): \(EMEND_PROVIDER_ENTRY_SYMBOL) returned NULL")
        }
        do {
            let descriptor = try PluginDescriptorCheck.copy(pointer)
            var record = try PluginDescriptorCheck.record(of: descriptor, path: path)
            if let paths = dlsym(handle, EMEND_PROVIDER_READ_PATHS_SYMBOL) {
                let text = paths.assumingMemoryBound(to: CChar.self)
                if memchr(text, 0, 65536) != nil { record.declaredPaths = ScanReport.paths(String(cString: text)) }
            }
            return PluginLibrary(record: record, descriptor: descriptor)
        } catch {
            throw EmendError(error.status, "\(path): \(error.message)")
        }
    }

    /// dlerror's text without the path it usually starts with.
    private static func loaderMessage(path: String) -> String {
        guard let raw = dlerror() else { return "dlopen failed" }
        let message = String(cString: raw)
        let prefix = path + ": "
        return message.hasPrefix(prefix) ? String(message.dropFirst(prefix.count)) : message
    }
}
