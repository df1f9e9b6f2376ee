import Glibc
import EmendCore

/// A provider that writes fixed chunks (Markdown or plain text), pausing between them so
/// that a coordinator streams them as they arrive; it records what it read.
final class ScriptedProvider: WritingProvider, @unchecked Sendable {
    let id = "org.emend.tests.scripted"
    let tools: Set<WritingTool> = Set(WritingTool.allCases)
    let writesMarkdown: Bool
    let chunks: (ProviderRequest) -> [String]
    let pauseMicroseconds: UInt32
    private(set) var requests: [ProviderRequest] = []

    init(markdown: Bool, pauseMicroseconds: UInt32 = 0, _ chunks: @escaping (ProviderRequest) -> [String]) {
        self.writesMarkdown = markdown
        self.pauseMicroseconds = pauseMicroseconds
        self.chunks = chunks
    }

    convenience init(markdown: Bool, pauseMicroseconds: UInt32 = 0, _ chunks: [String]) {
        self.init(markdown: markdown, pauseMicroseconds: pauseMicroseconds) { _ in chunks }
    }

    func run(_ request: ProviderRequest, sink: ProviderSink) -> ProviderOutcome {
        requests.append(request)
        for chunk in chunks(request) {
            sink.emitText(chunk)
            if pauseMicroseconds > 0 { usleep(pauseMicroseconds) }
        }
        return .finished
    }
}
