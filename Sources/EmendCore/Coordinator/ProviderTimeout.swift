/// What a session that ran out of time says: that it timed out, after how long, and which
/// setting gives the provider more time. A timeout is not a poor result: the model may be
/// good and the machine busy, and the person should know which of the two to fix.
enum ProviderTimeout {
    static func message(milliseconds: Int64, setting: String) -> String {
        let duration = milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(milliseconds) ms"
        return "timed out: the provider did not finish within \(duration) (the time limit is \(setting); "
            + "raise it, or work on a shorter text)"
    }
}
