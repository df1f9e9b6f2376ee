import Glibc
import CEmend
import EmendCore

/// A request in its C form, in memory the host owns until the run is over (finished and
/// returned from `run`). A run that is never finished keeps it for the process.
final class PluginRequestBuffer {
    let pointer: UnsafeMutablePointer<emend_provider_request>
    /// The request's text bytes (NUL-terminated for convenience; the length excludes it).
    let text: UnsafeBufferPointer<UInt8>
    private let ranges: UnsafeMutablePointer<emend_byte_range>
    private var strings: [UnsafeMutablePointer<CChar>] = []
    private var released = false

    init(_ request: ProviderRequest) {
        let bytes = Array(request.text.utf8)
        let textMemory = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count + 1)
        textMemory.initialize(from: bytes, count: bytes.count)
        textMemory[bytes.count] = 0
        text = UnsafeBufferPointer(start: textMemory, count: bytes.count)

        ranges = .allocate(capacity: max(request.protectedRanges.count, 1))
        for (index, range) in request.protectedRanges.enumerated() {
            (ranges + index).initialize(to: emend_byte_range(start: range.lowerBound, end: range.upperBound))
        }

        pointer = .allocate(capacity: 1)
        pointer.initialize(to: emend_provider_request())
        pointer.pointee.struct_size = MemoryLayout<emend_provider_request>.size
        pointer.pointee.tool = emend_tool(rawValue: UInt32(request.tool.rawValue))
        pointer.pointee.text = UnsafeRawPointer(textMemory).assumingMemoryBound(to: CChar.self)
        pointer.pointee.text_length = bytes.count
        pointer.pointee.selection = emend_byte_range(start: request.selection.lowerBound, end: request.selection.upperBound)
        pointer.pointee.protected_ranges = request.protectedRanges.isEmpty ? nil : UnsafePointer(self.ranges)
        pointer.pointee.protected_range_count = request.protectedRanges.count
        pointer.pointee.result_options = request.resultOptions.rawValue
        pointer.pointee.prompt = duplicate(request.prompt)
        pointer.pointee.previous_result = duplicate(request.previousResult)
        pointer.pointee.language = duplicate(request.language)
        let markdown = request.selectedMarkdown
        pointer.pointee.markdown = duplicate(markdown)
        pointer.pointee.markdown_length = markdown.utf8.count
        pointer.pointee.guidance = duplicate(request.guidance)
    }

    private func duplicate(_ string: String?) -> UnsafePointer<CChar>? {
        guard let string, let copy = strdup(string) else { return nil }
        strings.append(copy)
        return UnsafePointer(copy)
    }

    /// Frees the memory; the plugin must not read the request any more.
    func release() {
        guard !released else { return }
        released = true
        for string in strings { free(string) }
        strings = []
        UnsafeMutablePointer(mutating: text.baseAddress!).deallocate()
        ranges.deallocate()
        pointer.deinitialize(count: 1)
        pointer.deallocate()
    }

    deinit { release() }
}
