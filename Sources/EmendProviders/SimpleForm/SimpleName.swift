/// The spelling rules for names in a manifest.
enum SimpleName {
    /// A C identifier: a letter or _, then letters, digits or _ (ASCII).
    static func isCIdentifier(_ name: String) -> Bool {
        guard let first = name.utf8.first, isLetter(first) || first == UInt8(ascii: "_") else { return false }
        return name.utf8.allSatisfy { isLetter($0) || isDigit($0) || $0 == UInt8(ascii: "_") }
    }

    /// A setting name: ASCII letters, digits, _ and -, as a bare TOML key.
    static func isSettingName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { isLetter($0) || isDigit($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }
    }

    /// A provider id: ASCII letters, digits, ".", _ and -, not empty.
    static func isProviderID(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.allSatisfy {
            isLetter($0) || isDigit($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
        }
    }

    private static func isLetter(_ b: UInt8) -> Bool { (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) }
    private static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
}
