import Glibc

/// Why no provider's text may hold a NUL byte (U+0000): it is valid UTF-8, but an engine in
/// C that keeps its buffer NUL-terminated (strlen) would lose everything after it — the rest
/// of its document, as far as it can tell. So a result text or an edit's replacement that
/// holds one refuses the whole result (include/emend.h, include/emend_provider.h) instead of
/// every engine having to count lengths; a result cut at the NUL would look complete.
public enum NULByte {
    /// Whether `text` holds a NUL byte (memchr over its UTF-8: no per-character walk).
    public static func isIn(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in bytes.count > 0 && memchr(bytes.baseAddress!, 0, bytes.count) != nil }
    }

    /// The refusal a run ends with, naming what held the byte.
    public static func refusal(_ what: String) -> String {
        "\(what) holds a NUL byte (U+0000), which emend never passes to an engine; the result was refused"
    }
}
