import Foundation
import Glibc

/// Environment variables a test sets for the code under test (discovery reads them from this
/// process), saved first and put back afterwards so the next test starts from the same place.
public final class SavedEnvironment {
    private let saved: [String: String?]

    /// Saves `names` as they are now.
    public init(_ names: [String]) {
        let environment = ProcessInfo.processInfo.environment
        saved = Dictionary(uniqueKeysWithValues: names.map { ($0, environment[$0]) })
    }

    /// Points XDG_DATA_HOME, XDG_CACHE_HOME and XDG_CONFIG_HOME at data, cache and config in `home`.
    public func setXDGDirectories(under home: String) {
        for (name, sub) in [("XDG_DATA_HOME", "data"), ("XDG_CACHE_HOME", "cache"), ("XDG_CONFIG_HOME", "config")] {
            setenv(name, home + "/" + sub, 1)
        }
    }

    /// Puts every saved variable back (unset where it was unset).
    public func restore() {
        for (name, value) in saved {
            if let value { setenv(name, value, 1) } else { unsetenv(name) }
        }
    }
}
