import EmendCore

/// A value of the TOML subset Emend reads (config.toml, simple-form manifests).
public indirect enum TOMLValue: Equatable, Sendable {
    case string(String)
    case integer(Int64)
    case float(Double)
    case boolean(Bool)
    case array([TOMLValue])
    case table(TOMLTable)

    public var string: String? { if case .string(let s) = self { return s } else { return nil } }
    public var integer: Int64? { if case .integer(let i) = self { return i } else { return nil } }
    public var float: Double? {
        switch self {
        case .float(let d): return d
        case .integer(let i): return Double(i)
        default: return nil
        }
    }
    public var boolean: Bool? { if case .boolean(let b) = self { return b } else { return nil } }
    public var array: [TOMLValue]? { if case .array(let a) = self { return a } else { return nil } }
    public var table: TOMLTable? { if case .table(let t) = self { return t } else { return nil } }

    /// The value as TOML spells it (strings without quotes), for settings handed to plugins.
    public var plainText: String {
        switch self {
        case .string(let s): return s
        case .integer(let i): return String(i)
        case .float(let d): return String(d)
        case .boolean(let b): return b ? "true" : "false"
        case .array(let a): return "[" + a.map(\.plainText).joined(separator: ", ") + "]"
        case .table: return "{...}"
        }
    }

    /// A name for error messages: "string", "integer", ...
    public var typeName: String {
        switch self {
        case .string: return "string"
        case .integer: return "integer"
        case .float: return "float"
        case .boolean: return "boolean"
        case .array: return "array"
        case .table: return "table"
        }
    }
}

/// A TOML table: keys in the order they were written.
public struct TOMLTable: Equatable, Sendable {
    public private(set) var keys: [String] = []
    private var values: [String: TOMLValue] = [:]

    public init() {}

    public subscript(key: String) -> TOMLValue? {
        get { values[key] }
        set {
            if values[key] == nil, newValue != nil { keys.append(key) }
            if newValue == nil { keys.removeAll { $0 == key } }
            values[key] = newValue
        }
    }

    /// Runs `body` on the table at `key`, made when missing, in place: the child is taken
    /// out while `body` changes it, so it is never copied (a file of 20,000 tables parses in
    /// linear time). Nil, and `body` not run, when `key` holds another kind of value.
    mutating func updateTable<R>(_ key: String, _ body: (inout TOMLTable) throws(EmendError) -> R) throws(EmendError) -> R? {
        var child: TOMLTable
        switch values[key] {
        case nil:
            child = TOMLTable()
            keys.append(key)
        case .table(let existing)?:
            child = existing
        default:
            return nil
        }
        values[key] = .boolean(false) // drops the table's second reference
        defer { values[key] = .table(child) }
        return try body(&child)
    }

    /// The table at a dotted path of keys, if every step is a table.
    public func table(at path: [String]) -> TOMLTable? {
        var current = self
        for key in path {
            guard let next = current[key]?.table else { return nil }
            current = next
        }
        return current
    }
}
