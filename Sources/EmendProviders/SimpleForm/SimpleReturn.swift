/// What the bound C function returns (`returns` in a manifest).
public enum SimpleReturn: String, Sendable, CaseIterable {
    /// `char *`: the whole result as NUL-terminated UTF-8, handed to the `free` function afterwards.
    case string
    /// `void`: the function streams its result through an `emit` argument.
    case void
}
