/// The value of one setting, checked against its declared type.
public enum SimpleSettingValue: Sendable, Equatable {
    case string(String)
    case int(Int64)
    case double(Double)
    case bool(Bool)
}
