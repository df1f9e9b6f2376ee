import CEmend
import Glibc
import EmendCore
import EmendText

/// Turns an engine's emend_context_desc into a validated ContextDescription (UTF-8 ranges).
enum ContextConversion {
    static func description(_ desc: emend_context_desc, encoding: PositionEncoding, index: Int) throws(EmendError) -> ContextDescription {
        let name = "contexts[\(index)]"
        let text = try CText.string(desc.text, desc.text_length, name: "\(name).text", lengthName: "\(name).text_length")
        let selection = try CText.byteRange(desc.selection, in: text, encoding: encoding, name: "\(name).selection")
        var protected: [Range<Int>] = []
        for (i, range) in try buffer(desc.protected_ranges, desc.protected_range_count, "\(name).protected_ranges", "\(name).protected_range_count").enumerated() {
            protected.append(try CText.byteRange(range, in: text, encoding: encoding, name: "\(name).protected_ranges[\(i)]"))
        }
        var runs: [AttributeRun] = []
        for (i, run) in try buffer(desc.attribute_runs, desc.attribute_run_count, "\(name).attribute_runs", "\(name).attribute_run_count").enumerated() {
            let runName = "\(name).attribute_runs[\(i)]"
            let range = try CText.byteRange(run.range, in: text, encoding: encoding, name: runName)
            guard let key = try CText.optionalCString(run.key, name: "\(runName).key") else {
                throw EmendError(.invalidArgument, "\(runName).key is NULL")
            }
            let value = try CText.optionalCString(run.value, name: "\(runName).value") ?? ""
            runs.append(AttributeRun(range: range, key: key, value: value))
        }
        var intents: [BlockIntent] = []
        for (i, intent) in try buffer(desc.block_intents, desc.block_intent_count, "\(name).block_intents", "\(name).block_intent_count").enumerated() {
            let intentName = "\(name).block_intents[\(i)]"
            let range = try CText.byteRange(intent.range, in: text, encoding: encoding, name: intentName)
            guard let kind = BlockKind(rawValue: Int(intent.kind.rawValue)) else {
                throw EmendError(.invalidArgument, "\(intentName).kind \(intent.kind.rawValue) is unknown")
            }
            intents.append(BlockIntent(range: range, kind: kind, level: Int(intent.level), ordinal: Int(intent.ordinal),
                                       row: Int(intent.row), column: Int(intent.column)))
        }
        let attributed = AttributedText(text, attributeRuns: runs, blockIntents: intents, protectedRanges: protected)
        return ContextDescription(text: attributed, selection: selection, engineContext: UInt(bitPattern: desc.engine_context))
    }

    private static func buffer<T>(_ pointer: UnsafePointer<T>?, _ count: Int, _ name: String, _ countName: String) throws(EmendError) -> UnsafeBufferPointer<T> {
        try CLength.checked(count, elementSize: MemoryLayout<T>.stride, name: countName)
        guard count > 0 else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(start: try required(pointer, name), count: count)
    }
}
