import Foundation
import XCTest
import EmendCore
@testable import EmendProviders

/// Many runs through one provider: the binding is reused and every result freed once. With
/// EMEND_SIMPLE_BENCH_CALLS set (benchmarks/ffi/run.sh --swift, in release), it also prints
/// ns per run beside a direct call of the same C function from Swift.
final class SimpleFormOverheadTests: XCTestCase {
    private typealias Support = SimpleFormTestSupport

    /// Counts chunks and keeps the last one; used from one thread.
    private final class CountingSink: ProviderSink, @unchecked Sendable {
        var count = 0
        var last = ""
        var isCancelled: Bool { false }
        func emitText(_ chunk: String) { count += 1; last = chunk }
        func emitEdit(_ edit: ProviderEdit) {}
        func log(_ message: String) {}
    }

    private var calls: Int { Int(ProcessInfo.processInfo.environment["EMEND_SIMPLE_BENCH_CALLS"] ?? "") ?? 2_000 }
    private var printsFigures: Bool { ProcessInfo.processInfo.environment["EMEND_SIMPLE_BENCH_CALLS"] != nil }

    private static func nanoseconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) * 1e9 + Double(ts.tv_nsec)
    }

    /// The best ns per iteration of `runs` batches of `calls` iterations.
    private func best(_ runs: Int = 5, _ body: () -> Void) -> Double {
        var best = Double.infinity
        for _ in 0..<runs {
            let start = Self.nanoseconds()
            for _ in 0..<calls { body() }
            best = min(best, (Self.nanoseconds() - start) / Double(calls))
        }
        return best
    }

    func testManyRunsOfTheStringForm() throws {
        let provider = try SimpleFormProvider(manifestPath: try Support.fixtureManifest(symbol: "fx_copy", arguments: ["text"]),
                                              settings: TOMLTable())
        let request = Support.request("a short selection")
        let sink = CountingSink()
        let freesBefore = try Support.fixtureFreeCount()
        var failures = 0
        let perRun = best { if provider.run(request, sink: sink) != .finished { failures += 1 } }
        XCTAssertEqual(failures, 0)
        XCTAssertEqual(sink.count, 5 * calls)
        XCTAssertEqual(sink.last, "a short selection")
        XCTAssertEqual(try Support.fixtureFreeCount() - freesBefore, Int32(truncatingIfNeeded: 5 * calls))

        // The same work written by hand: call, copy into a String, free.
        let handle = try XCTUnwrap(dlopen(try Support.fixtureLibrary.get(), RTLD_NOW))
        let copy = unsafeBitCast(try XCTUnwrap(dlsym(handle, "fx_copy")), to: (@convention(c) (UnsafePointer<CChar>) -> UnsafeMutablePointer<CChar>?).self)
        let free = unsafeBitCast(try XCTUnwrap(dlsym(handle, "fx_free")), to: (@convention(c) (UnsafeMutablePointer<CChar>?) -> Void).self)
        var direct = ""
        let perDirect = best {
            request.selectedText.withCString { text in
                let result = copy(text)!
                direct = String(cString: result)
                free(result)
            }
        }
        XCTAssertEqual(direct, "a short selection")
        if printsFigures {
            print(String(format: "simple form, string: SimpleFormProvider.run %.0f ns/run; the same call from Swift by hand %.0f ns (+%.0f ns)",
                         perRun, perDirect, perRun - perDirect))
        }
    }

    func testManyRunsOfTheStreamingForm() throws {
        let provider = try SimpleFormProvider(
            manifestPath: try Support.fixtureManifest(symbol: "fx_echo", returns: "void", free: nil, arguments: ["text", "emit"]),
            settings: TOMLTable())
        let request = Support.request("a short selection")
        let sink = CountingSink()
        var failures = 0
        let perRun = best { if provider.run(request, sink: sink) != .finished { failures += 1 } }
        XCTAssertEqual(failures, 0)
        XCTAssertEqual(sink.count, 5 * calls)
        XCTAssertEqual(sink.last, "a short selection")
        if printsFigures {
            print(String(format: "simple form, streaming (one chunk, a closure per run): SimpleFormProvider.run %.0f ns/run", perRun))
        }
    }
}
