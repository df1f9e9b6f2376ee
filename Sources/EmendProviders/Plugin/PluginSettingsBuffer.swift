import Glibc
import CEmend

/// The user's settings for an instance as a C array of NUL-terminated key/value pairs,
/// kept as long as the instance (a plugin may hold on to them).
final class PluginSettingsBuffer {
    let pointer: UnsafeMutablePointer<emend_provider_setting>
    let count: Int
    private var strings: [UnsafeMutablePointer<CChar>] = []

    init(_ settings: [(key: String, value: String)]) {
        count = settings.count
        pointer = .allocate(capacity: max(settings.count, 1))
        for (index, setting) in settings.enumerated() {
            (pointer + index).initialize(to: emend_provider_setting(key: duplicate(setting.key), value: duplicate(setting.value)))
        }
    }

    private func duplicate(_ string: String) -> UnsafePointer<CChar>? {
        guard let copy = strdup(string) else { return nil }
        strings.append(copy)
        return UnsafePointer(copy)
    }

    deinit {
        for string in strings { free(string) }
        pointer.deallocate()
    }
}
