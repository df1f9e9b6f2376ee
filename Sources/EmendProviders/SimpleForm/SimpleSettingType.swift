import EmendCore

/// The C type of a `setting:NAME:TYPE` argument.
public enum SimpleSettingType: String, Sendable, CaseIterable {
    /// `const char *`: NUL-terminated UTF-8, owned by the runtime, valid during the call.
    case string
    /// C `long` (64 bits on Linux x86-64 and arm64).
    case int
    /// C `double`.
    case double
    /// C `int`, 0 or 1.
    case bool

    /// How the type is spelled in C, for messages and documentation.
    public var cSpelling: String {
        switch self {
        case .string: return "const char *"
        case .int: return "long"
        case .double: return "double"
        case .bool: return "int"
        }
    }

    /// `value` as a setting of this type, or the reason it cannot be one.
    func convert(_ value: TOMLValue) -> Result<SimpleSettingValue, SimpleProblem> {
        switch (self, value) {
        case (.string, .string(let s)):
            guard !s.utf8.contains(0) else { return .failure(SimpleProblem("contains a NUL byte, which a C string cannot carry")) }
            return .success(.string(s))
        case (.int, .integer(let i)):
            guard CLong(exactly: i) != nil else { return .failure(SimpleProblem("\(i) does not fit a C long")) }
            return .success(.int(i))
        case (.double, .float(let d)): return .success(.double(d))
        case (.double, .integer(let i)): return .success(.double(Double(i)))
        case (.bool, .boolean(let b)): return .success(.bool(b))
        default:
            return .failure(SimpleProblem("is \(value.typeName) \(value.plainText), but the argument is declared \(rawValue) (C \(cSpelling))"))
        }
    }
}
