import CEmend
import Glibc
import EmendCore
import EmendText

/// Turns an engine's emend_context_desc into a validated ContextDescription (UTF-8 ranges).
enum ContextConversion {
    static func description(_ desc: emend_context_desc, encoding: PositionEncoding, index: Int) throws(EmendError) -> ContextDescription {
        let name = "contexts[\(index)]"
        let text = try CText.string(desc.text, desc.text_length, name: "\(name).text", lengthName: "\(name).text_length")
        // One converter for every range, and names (field paths for error messages) built only
        // when something is wrong: a styled context has a run per hundred bytes, and building a
        // name and a converter per run cost more than the runs themselves.
        // In UTF-16 or code points, counts of the text's chunks (one pass, eight bytes a step):
        // a `PositionConverter` read the text from its start for every range, so a styled
        // 10 MB context cost its runs times its length.
        let positions: any PositionMapping = encoding == .utf8 ? PositionConverter(text) : BuildingPositions(counting: text)
        let selection = try CText.byteRange(desc.selection, in: positions, encoding: encoding, name: "\(name).selection")
        var protected: [Range<Int>] = []
        for (i, range) in try buffer(desc.protected_ranges, desc.protected_range_count, "\(name).protected_ranges", "\(name).protected_range_count").enumerated() {
            protected.append(try CText.byteRange(range, in: positions, encoding: encoding, name: "\(name).protected_ranges[\(i)]"))
        }
        var runs: [AttributeRun] = []
        let runBuffer = try buffer(desc.attribute_runs, desc.attribute_run_count, "\(name).attribute_runs", "\(name).attribute_run_count")
        runs.reserveCapacity(runBuffer.count)
        // Engines pass the same key and value strings for many runs: each pointer is read once
        // (the bytes behind it cannot change during this call).
        var strings: [UnsafePointer<CChar>: String] = [:]
        func string(_ pointer: UnsafePointer<CChar>, _ field: @autoclosure () -> String) throws(EmendError) -> String {
            if let known = strings[pointer] { return known }
            let read = try CText.optionalCString(pointer, name: field()) ?? ""
            strings[pointer] = read
            return read
        }
        for (i, run) in runBuffer.enumerated() {
            let range = try CText.byteRange(run.range, in: positions, encoding: encoding, name: "\(name).attribute_runs[\(i)]")
            guard let keyPointer = run.key else {
                throw EmendError(.invalidArgument, "\(name).attribute_runs[\(i)].key is NULL")
            }
            let key = try string(keyPointer, "\(name).attribute_runs[\(i)].key")
            let value = try run.value.map { pointer throws(EmendError) in try string(pointer, "\(name).attribute_runs[\(i)].value") } ?? ""
            runs.append(AttributeRun(range: range, key: key, value: value))
        }
        var intents: [BlockIntent] = []
        for (i, intent) in try buffer(desc.block_intents, desc.block_intent_count, "\(name).block_intents", "\(name).block_intent_count").enumerated() {
            let range = try CText.byteRange(intent.range, in: positions, encoding: encoding, name: "\(name).block_intents[\(i)]")
            guard let kind = BlockKind(rawValue: Int(intent.kind.rawValue)) else {
                throw EmendError(.invalidArgument, "\(name).block_intents[\(i)].kind \(intent.kind.rawValue) is unknown")
            }
            intents.append(BlockIntent(range: range, kind: kind, level: Int(intent.level), ordinal: Int(intent.ordinal),
                                       row: Int(intent.row), column: Int(intent.column)))
        }
        let attributed = AttributedText(text, attributeRuns: runs, blockIntents: intents, protectedRanges: protected)
        return ContextDescription(text: attributed, selection: selection, engineContext: UInt(bitPattern: desc.engine_context))
    }

    private static func buffer<T>(_ pointer: UnsafePointer<T>?, _ count: Int, _ name: @autoclosure () -> String,
                                  _ countName: @autoclosure () -> String) throws(EmendError) -> UnsafeBufferPointer<T> {
        try CLength.checked(count, elementSize: MemoryLayout<T>.stride, name: countName())
        guard count > 0 else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(start: try required(pointer, name()), count: count)
    }
}
