import EmendCore
import EmendText

extension EmendError {
    /// The same error with the offsets and ranges of its message counted in `encoding`, as
    /// the engine counts them. Why: the core counts UTF-8 bytes; an engine with a UTF-16 or
    /// code-point coordinator passed offset 2 and must not read "offset 4" back.
    func speaking(_ encoding: PositionEncoding) -> EmendError {
        guard located != nil, encoding != .utf8 else { return self }
        return EmendError(status, message(in: encoding))
    }
}
