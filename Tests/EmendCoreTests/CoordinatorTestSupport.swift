import XCTest
import Glibc
import EmendCore
import EmendText

/// Milliseconds on the monotonic clock (for pump deadlines only, never to wait).
func nowMilliseconds() -> Int64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
}

/// A coordinator on the calling thread for `engine`, with the fixture provider.
func makeCoordinator(_ engine: TestEngine, options: CoordinatorOptions = CoordinatorOptions(),
                     provider: FixtureProvider = FixtureProvider()) throws -> Coordinator {
    try Coordinator(delegate: engine, options: options, providers: [provider])
}

/// A fresh engine holding `text` and a coordinator (fixture provider) that ran `tool` on it
/// until the result rests in the text: the opening of most session tests.
func runTool(_ tool: WritingTool, on text: String) throws -> (TestEngine, Coordinator) {
    let engine = TestEngine(text)
    let coordinator = try makeCoordinator(engine)
    try coordinator.start(tool)
    try engine.run(coordinator)
    return (engine, coordinator)
}

/// Options with timeouts short enough for a test that waits for one.
func options(completionTimeout: Int64 = 30_000, providerTimeout: Int64 = 60_000,
             behavior: Behavior = .default) -> CoordinatorOptions {
    var options = CoordinatorOptions()
    options.completionTimeoutMilliseconds = completionTimeout
    options.providerTimeoutMilliseconds = providerTimeout
    options.preferredBehavior = behavior
    return options
}

/// The UTF-8 byte range of the first occurrence of `needle` in `text`.
func byteRange(of needle: String, in text: String) -> Range<Int>? {
    let hay = Array(text.utf8), pin = Array(needle.utf8)
    guard !pin.isEmpty, pin.count <= hay.count else { return nil }
    for start in 0...(hay.count - pin.count) where Array(hay[start..<start + pin.count]) == pin {
        return start..<start + pin.count
    }
    return nil
}

/// The text of a UTF-8 byte range.
func substring(_ text: String, _ range: Range<Int>) -> String {
    AttributedText(text).substring(range)
}

/// Asserts that `body` throws an EmendError with `status`; returns it.
@discardableResult
func XCTAssertThrowsEmend(_ status: EmendStatus, file: StaticString = #filePath, line: UInt = #line,
                          _ body: () throws -> Void) -> EmendError? {
    do {
        try body()
        XCTFail("expected \(status), but the call succeeded", file: file, line: line)
        return nil
    } catch let error as EmendError {
        XCTAssertEqual(error.status, status, "message: \(error.message)", file: file, line: line)
        XCTAssertFalse(error.message.isEmpty, "an error must say why", file: file, line: line)
        return error
    } catch {
        XCTFail("expected an EmendError, got \(error)", file: file, line: line)
        return nil
    }
}
