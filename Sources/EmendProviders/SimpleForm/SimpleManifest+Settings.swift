import EmendCore

extension SimpleManifest {
    /// The settings a provider calls with: the manifest's defaults, each overridden by the
    /// same key of `overrides` (the user's [providers."<id>"] table). Keys that name no
    /// setting, and values of the wrong type, are refused; `source` names the overrides.
    public func settings(overriddenBy overrides: TOMLTable, source: String = "config.toml") throws(EmendError) -> [String: SimpleSettingValue] {
        var values = defaults
        let types = Dictionary(settingTypes.map { ($0.name, $0.type) }, uniquingKeysWith: { first, _ in first })
        for key in overrides.keys {
            guard let type = types[key] else {
                let names = settingTypes.isEmpty ? "none" : settingTypes.map(\.name).joined(separator: ", ")
                throw EmendError(.invalidArgument, "\(source) [providers.\"\(id)\"] \(key): not a setting of \(path) (settings: \(names))")
            }
            switch type.convert(overrides[key]!) {
            case .success(let value): values[key] = value
            case .failure(let problem):
                throw EmendError(.invalidArgument, "\(source) [providers.\"\(id)\"] \(key): \(problem.reason) by \(path)")
            }
        }
        return values
    }
}
