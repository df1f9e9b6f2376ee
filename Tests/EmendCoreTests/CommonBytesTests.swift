import XCTest
@testable import EmendCore

/// The shared start and end of two byte strings, eight bytes at a time, against a byte loop.
final class CommonBytesTests: XCTestCase {
    func testPrefixAndSuffixAgreeWithAByteLoop() {
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<5_000 {
            // Few distinct bytes, so long shared runs are common; lengths around the word size.
            let shared = (0..<Int.random(in: 0...40, using: &rng)).map { _ in UInt8.random(in: 97...99, using: &rng) }
            let a = shared + (0..<Int.random(in: 0...20, using: &rng)).map { _ in UInt8.random(in: 97...99, using: &rng) }
            let b = (Bool.random(using: &rng) ? shared : []) + (0..<Int.random(in: 0...20, using: &rng)).map { _ in UInt8.random(in: 97...99, using: &rng) }
            var prefix = 0
            while prefix < min(a.count, b.count), a[prefix] == b[prefix] { prefix += 1 }
            let limit = Int.random(in: 0...min(a.count, b.count), using: &rng)
            var suffix = 0
            while suffix < limit, a[a.count - 1 - suffix] == b[b.count - 1 - suffix] { suffix += 1 }
            a.withUnsafeBufferPointer { pa in
                b.withUnsafeBufferPointer { pb in
                    XCTAssertEqual(CommonBytes.prefix(pa, pb), prefix, "\(a) \(b)")
                    XCTAssertEqual(CommonBytes.suffix(pa, pb, limit: limit), suffix, "\(a) \(b) limit \(limit)")
                }
            }
        }
    }
}
