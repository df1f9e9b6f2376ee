import CEmend
import Glibc
import EmendCore
import EmendText

/// Attribute runs and block intents of a text in their C form, in memory that lives until
/// `release` (after the callback that reads them returned).
final class CStyling {
    let runs: UnsafeMutableBufferPointer<emend_attribute_run>
    let intents: UnsafeMutableBufferPointer<emend_block_intent>
    private var strings: [UnsafeMutablePointer<CChar>] = []

    /// Ranges become ranges of `text` in `encoding`.
    init(runs: [AttributeRun], intents: [BlockIntent], of text: String, encoding: PositionEncoding) {
        self.runs = .allocate(capacity: max(runs.count, 1))
        self.intents = .allocate(capacity: max(intents.count, 1))
        // One count of the text for every range (see ContextConversion): converted from the
        // text's start each, a styled replacement's runs cost their number times its length.
        let positions: any PositionMapping = encoding == .utf8 || runs.count + intents.count < 2
            ? PositionConverter(text) : BuildingPositions(counting: text)
        for (index, run) in runs.enumerated() {
            let key = strdup(run.key)!, value = strdup(run.value)!
            strings += [key, value]
            self.runs[index] = emend_attribute_run(range: CText.cRange(run.range, in: positions, encoding: encoding),
                                                   key: UnsafePointer(key), value: UnsafePointer(value))
        }
        for (index, intent) in intents.enumerated() {
            self.intents[index] = emend_block_intent(
                range: CText.cRange(intent.range, in: positions, encoding: encoding),
                kind: emend_block_kind(rawValue: numericCast(intent.kind.rawValue)),
                level: Int32(clamping: intent.level), ordinal: Int32(clamping: intent.ordinal),
                row: Int32(clamping: intent.row), column: Int32(clamping: intent.column))
        }
        runCount = runs.count
        intentCount = intents.count
    }

    let runCount: Int
    let intentCount: Int

    var runPointer: UnsafePointer<emend_attribute_run>? { runCount > 0 ? UnsafePointer(runs.baseAddress) : nil }
    var intentPointer: UnsafePointer<emend_block_intent>? { intentCount > 0 ? UnsafePointer(intents.baseAddress) : nil }

    deinit {
        for string in strings { free(string) }
        runs.deallocate()
        intents.deallocate()
    }
}
