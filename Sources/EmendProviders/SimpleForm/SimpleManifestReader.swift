import EmendCore

/// Typed access to the tables of one manifest; every error names the manifest's path, the
/// table and the key.
struct SimpleManifestReader {
    let path: String

    func fail(_ table: String, _ key: String, _ reason: String) -> EmendError {
        EmendError(.invalidArgument, "\(path): [\(table)] \(key): \(reason)")
    }

    /// Refuses keys of `table` that are not in `allowed` (a misspelt key would otherwise be
    /// ignored silently).
    func onlyKeys(_ values: TOMLTable, of table: String, _ allowed: [String]) throws(EmendError) {
        for key in values.keys where !allowed.contains(key) {
            throw fail(table, key, "unknown key (known: \(allowed.joined(separator: ", ")))")
        }
    }

    /// The value at `key`, nil when absent; `describe` says what the key is for.
    func value(_ values: TOMLTable, _ table: String, _ key: String, required: Bool, _ describe: String) throws(EmendError) -> TOMLValue? {
        guard let value = values[key] else {
            if required { throw fail(table, key, "missing (\(describe))") }
            return nil
        }
        return value
    }

    func string(_ values: TOMLTable, _ table: String, _ key: String, required: Bool = true, _ describe: String) throws(EmendError) -> String? {
        guard let value = try value(values, table, key, required: required, describe) else { return nil }
        guard let string = value.string else { throw fail(table, key, "must be a string, not \(value.typeName)") }
        guard !string.isEmpty else { throw fail(table, key, "must not be empty (\(describe))") }
        return string
    }

    func strings(_ values: TOMLTable, _ table: String, _ key: String, required: Bool = true, _ describe: String) throws(EmendError) -> [String]? {
        guard let value = try value(values, table, key, required: required, describe) else { return nil }
        guard let array = value.array else { throw fail(table, key, "must be an array of strings, not \(value.typeName)") }
        var out: [String] = []
        for (index, item) in array.enumerated() {
            guard let string = item.string, !string.isEmpty else {
                throw fail(table, "\(key)[\(index)]", "must be a non-empty string, not \(item.typeName) \(item.plainText)")
            }
            out.append(string)
        }
        return out
    }

    func integer(_ values: TOMLTable, _ table: String, _ key: String, _ describe: String) throws(EmendError) -> Int64? {
        guard let value = try value(values, table, key, required: false, describe) else { return nil }
        guard let integer = value.integer else { throw fail(table, key, "must be an integer, not \(value.typeName)") }
        return integer
    }

    func boolean(_ values: TOMLTable, _ table: String, _ key: String, _ describe: String) throws(EmendError) -> Bool? {
        guard let value = try value(values, table, key, required: false, describe) else { return nil }
        guard let boolean = value.boolean else { throw fail(table, key, "must be true or false, not \(value.typeName)") }
        return boolean
    }
}
