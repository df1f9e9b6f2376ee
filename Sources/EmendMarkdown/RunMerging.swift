import EmendText

/// Attribute runs in the form engines get them: identical runs (same key and value) that
/// touch or overlap merged into one, empty runs dropped, sorted by start.
enum RunMerging {
    static func merged(_ runs: [AttributeRun]) -> [AttributeRun] {
        let sorted = runs.filter { !$0.range.isEmpty }.sorted(by: precedes)
        var result: [AttributeRun] = []
        var lastIndexByAttribute: [String: Int] = [:]
        for run in sorted {
            let attribute = run.key + "\u{0}" + run.value
            if let index = lastIndexByAttribute[attribute], result[index].range.upperBound >= run.range.lowerBound {
                let upper = max(result[index].range.upperBound, run.range.upperBound)
                result[index].range = result[index].range.lowerBound..<upper
            } else {
                lastIndexByAttribute[attribute] = result.count
                result.append(run)
            }
        }
        return result
    }

    private static func precedes(_ a: AttributeRun, _ b: AttributeRun) -> Bool {
        if a.range.lowerBound != b.range.lowerBound { return a.range.lowerBound < b.range.lowerBound }
        if a.key != b.key { return a.key < b.key }
        if a.value != b.value { return a.value < b.value }
        return a.range.upperBound < b.range.upperBound
    }
}
