import Dispatch
import Foundation
import XCTest
import CEmend
import EmendCABI

/// emend_markdown_protected_ranges: the one Markdown rule set for C engines, in each position
/// encoding, and bad input refused with a status and a message, never a crash.
final class ABIMarkdownTests: XCTestCase {
    /// The ranges for `bytes` as (location, length) pairs, or the failing status.
    private static func protectedRanges(_ bytes: [UInt8], _ encoding: emend_position_encoding) -> Result<[[UInt64]], Failure> {
        var ranges: UnsafeMutablePointer<emend_range>?
        var count = 0
        let status = bytes.withUnsafeBufferPointer { buffer in
            emend_markdown_protected_ranges(UnsafeRawPointer(buffer.baseAddress)?.assumingMemoryBound(to: CChar.self),
                                            buffer.count, encoding, &ranges, &count)
        }
        defer { emend_markdown_protected_ranges_free(ranges) }
        guard status == EMEND_OK else { return .failure(Failure(status: status)) }
        return .success((0..<count).map { [ranges![$0].location, ranges![$0].length] })
    }

    private func protectedRanges(_ bytes: [UInt8], _ encoding: emend_position_encoding) -> Result<[[UInt64]], Failure> {
        Self.protectedRanges(bytes, encoding)
    }

    struct Failure: Error, Equatable { let status: emend_status }

    /// é (2 bytes, 1 unit), 中 (3 bytes, 1 unit) and 😀 / 👋 (4 bytes, 2 UTF-16 units, 1 code
    /// point) before each protected part; the prose between is not protected.
    func testRangesInEachEncoding() throws {
        let text = Array("é 中 😀 `code` [t](u)\n\n> 👋 q\n".utf8)
        // `code`, u, the quote.
        XCTAssertEqual(try protectedRanges(text, EMEND_ENCODING_UTF8).get(), [[12, 6], [23, 1], [27, 8]])
        XCTAssertEqual(try protectedRanges(text, EMEND_ENCODING_UTF16).get(), [[7, 6], [18, 1], [22, 6]])
        XCTAssertEqual(try protectedRanges(text, EMEND_ENCODING_CODEPOINT).get(), [[6, 6], [17, 1], [21, 5]])
    }

    /// Any thread, several at once: each call parses on its own.
    func testCallsFromManyThreadsAtOnceAgree() throws {
        let text = Array("Run `a` and [b](c) <!-- d -->\n\n> e\n\n```\nf\n```\n".utf8)
        let expected = try protectedRanges(text, EMEND_ENCODING_UTF16).get()
        XCTAssertEqual(expected.count, 5)
        let agreed = Tally()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            var same = true
            for _ in 0..<50 { same = same && (try? Self.protectedRanges(text, EMEND_ENCODING_UTF16).get()) == expected }
            if same { agreed.add() }
        }
        XCTAssertEqual(agreed.count, 8)
    }

    func testProseGivesNoRangesAndNoArray() {
        var ranges = UnsafeMutablePointer<emend_range>(bitPattern: 0x1)
        var count = 99
        let text = "Just prose, with tomorow in it.\n"
        XCTAssertEqual(emend_markdown_protected_ranges(text, text.utf8.count, EMEND_ENCODING_UTF8, &ranges, &count), EMEND_OK, lastError)
        XCTAssertNil(ranges)
        XCTAssertEqual(count, 0)
        XCTAssertEqual(emend_markdown_protected_ranges(nil, 0, EMEND_ENCODING_UTF16, &ranges, &count), EMEND_OK, lastError)
        XCTAssertNil(ranges)
        emend_markdown_protected_ranges_free(nil)
    }

    func testBadInputIsAStatusWithAMessageAndEmptyOutputs() {
        let text = "A `x`."
        var ranges = UnsafeMutablePointer<emend_range>(bitPattern: 0x1)
        var count = 99
        XCTAssertStatus(emend_markdown_protected_ranges(text, 6, EMEND_ENCODING_UTF8, nil, &count), EMEND_E_INVALID_ARGUMENT, mentions: ["ranges"])
        XCTAssertStatus(emend_markdown_protected_ranges(text, 6, EMEND_ENCODING_UTF8, &ranges, nil), EMEND_E_INVALID_ARGUMENT, mentions: ["count"])
        XCTAssertStatus(emend_markdown_protected_ranges(nil, 6, EMEND_ENCODING_UTF8, &ranges, &count), EMEND_E_INVALID_ARGUMENT, mentions: ["text", "NULL"])
        XCTAssertNil(ranges)
        XCTAssertEqual(count, 0)
        XCTAssertStatus(emend_markdown_protected_ranges(text, 6, emend_position_encoding(rawValue: 7), &ranges, &count),
                        EMEND_E_INVALID_ARGUMENT, mentions: ["encoding", "7"])
        // Lengths no engine holds, with and without a pointer: never read as empty.
        for length in [Int(bitPattern: UInt.max), -5, (1 << 30) + 1] {
            ranges = UnsafeMutablePointer<emend_range>(bitPattern: 0x1)
            count = 99
            XCTAssertStatus(emend_markdown_protected_ranges(nil, length, EMEND_ENCODING_UTF8, &ranges, &count),
                            EMEND_E_INVALID_ARGUMENT, mentions: ["text_length"])
            XCTAssertStatus(emend_markdown_protected_ranges(text, length, EMEND_ENCODING_UTF8, &ranges, &count),
                            EMEND_E_INVALID_ARGUMENT, mentions: ["text_length"])
            XCTAssertNil(ranges)
            XCTAssertEqual(count, 0)
        }
        let invalid: [([UInt8], Int)] = [
            (Array("a `b` ".utf8) + [0xC0, 0xAF], 6),
            (Array("日本".utf8) + [0xED, 0xA0, 0x80], 6),
            (Array("ok `".utf8) + [0xF0, 0x9F, 0x98], 4),
            ([0x80] + Array("x".utf8), 0),
        ]
        for (bytes, offset) in invalid {
            XCTAssertEqual(protectedRanges(bytes, EMEND_ENCODING_UTF8), .failure(Failure(status: EMEND_E_INVALID_UTF8)))
            XCTAssertTrue(lastError.contains("byte \(offset)"), lastError)
        }
    }

    /// Random bytes (mostly Markdown marks, some invalid UTF-8): OK or INVALID_UTF8, and OK
    /// ranges ascending, disjoint and inside the text in every encoding.
    func testRandomInputNeverCrashes() {
        let alphabet: [[UInt8]] = ["`", "[", "]", "(", ")", "<", ">", "\n", "> ", "    ", "é", "😀", "x", " ", "*", "|", "---", "<!--", "-->",
                                   "http://a.b", "\r"].map { Array($0.utf8) } + [[0xFF], [0xC3], [0x00]]
        var seed: UInt64 = 25
        func next(_ bound: Int) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int((seed >> 33) % UInt64(bound))
        }
        for _ in 0..<500 {
            var bytes: [UInt8] = []
            for _ in 0..<(1 + next(30)) { bytes += alphabet[next(alphabet.count)] }
            let length = String(validating: bytes, as: UTF8.self).map { UInt64($0.utf16.count) }
            for encoding in [EMEND_ENCODING_UTF8, EMEND_ENCODING_UTF16, EMEND_ENCODING_CODEPOINT] {
                switch protectedRanges(bytes, encoding) {
                case .failure(let failure):
                    XCTAssertEqual(failure.status, EMEND_E_INVALID_UTF8)
                    XCTAssertNil(length)
                case .success(let ranges):
                    var end: UInt64 = 0
                    for range in ranges {
                        XCTAssertTrue(range[0] >= end && range[1] > 0, "\(ranges)")
                        end = range[0] + range[1] + 1
                    }
                    XCTAssertLessThanOrEqual(end, UInt64(bytes.count) + 1)
                    if encoding == EMEND_ENCODING_UTF16, let length { XCTAssertLessThanOrEqual(end, length + 1) }
                }
            }
        }
    }
}

/// A count threads add to.
private final class Tally: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func add() { lock.lock(); value += 1; lock.unlock() }
    var count: Int { lock.lock(); defer { lock.unlock() }; return value }
}
