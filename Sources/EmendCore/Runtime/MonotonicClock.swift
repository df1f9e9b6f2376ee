import Glibc

/// Milliseconds on the monotonic clock.
public enum MonotonicClock {
    public static func nowMilliseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
    }
}
