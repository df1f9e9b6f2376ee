import EmendCore

/// A ProviderRequest on the channel: every field, in declaration order.
enum HostRequestCoding {
    static func encode(_ request: ProviderRequest, into encoder: inout FrameEncoder) {
        encoder.u8(UInt8(request.tool.rawValue))
        encoder.string(request.text)
        encoder.int(request.selection.lowerBound)
        encoder.int(request.selection.upperBound)
        encoder.u32(UInt32(request.protectedRanges.count))
        for range in request.protectedRanges {
            encoder.int(range.lowerBound)
            encoder.int(range.upperBound)
        }
        encoder.u32(request.resultOptions.rawValue)
        encoder.optionalString(request.prompt)
        encoder.optionalString(request.previousResult)
        encoder.string(request.language)
        encoder.optionalString(request.markdown)
        encoder.optionalString(request.guidance)
    }

    static func decode(_ decoder: inout FrameDecoder) throws(ProtocolViolation) -> ProviderRequest {
        let rawTool = try decoder.u8()
        guard let tool = WritingTool(rawValue: Int(rawTool)) else { throw ProtocolViolation("tool \(rawTool)") }
        let text = try decoder.string()
        let selection = try range(&decoder)
        let count = Int(try decoder.u32())
        var protected: [Range<Int>] = []
        for _ in 0..<count { protected.append(try range(&decoder)) }
        let options = ResultOptions(rawValue: try decoder.u32())
        var request = ProviderRequest(tool: tool, text: text, selection: selection, protectedRanges: protected,
                                      resultOptions: options, prompt: try decoder.optionalString(),
                                      previousResult: try decoder.optionalString(), language: try decoder.string(),
                                      markdown: try decoder.optionalString())
        request.guidance = try decoder.optionalString()
        return request
    }

    private static func range(_ decoder: inout FrameDecoder) throws(ProtocolViolation) -> Range<Int> {
        let start = try decoder.count(), end = try decoder.count()
        guard start <= end else { throw ProtocolViolation("a range \(start)..<\(end)") }
        return start..<end
    }
}
