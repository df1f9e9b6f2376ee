/// How many bytes two texts share at their start or at their end, eight at a time.
///
/// Why: a result that streamed into the text is compared with the text whole (1.5 MB for a
/// model's endless sentence), on the engine's thread; a byte loop over arrays copied for it
/// cost milliseconds before any real work began.
enum CommonBytes {
    /// The length of the longest common prefix of `a` and `b`.
    static func prefix(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        let limit = min(a.count, b.count)
        guard limit > 0, let pa = a.baseAddress, let pb = b.baseAddress else { return 0 }
        let rawA = UnsafeRawPointer(pa), rawB = UnsafeRawPointer(pb)
        var i = 0
        while i + 8 <= limit, rawA.loadUnaligned(fromByteOffset: i, as: UInt64.self) == rawB.loadUnaligned(fromByteOffset: i, as: UInt64.self) {
            i += 8
        }
        while i < limit, pa[i] == pb[i] { i += 1 }
        return i
    }

    /// The length of the longest common suffix of `a` and `b`, at most `limit` bytes.
    static func suffix(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>, limit: Int) -> Int {
        let limit = min(limit, a.count, b.count)
        guard limit > 0, let pa = a.baseAddress, let pb = b.baseAddress else { return 0 }
        let rawA = UnsafeRawPointer(pa), rawB = UnsafeRawPointer(pb)
        var n = 0
        while n + 8 <= limit,
              rawA.loadUnaligned(fromByteOffset: a.count - n - 8, as: UInt64.self) == rawB.loadUnaligned(fromByteOffset: b.count - n - 8, as: UInt64.self) {
            n += 8
        }
        while n < limit, pa[a.count - 1 - n] == pb[b.count - 1 - n] { n += 1 }
        return n
    }
}
