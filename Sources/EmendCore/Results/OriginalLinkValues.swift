import EmendText
import EmendMarkdown

/// A link's URL is the engine's value, never the provider's text: the Markdown a provider
/// reads spells each link out as `[text](url)`, and whatever the provider does to that text
/// (upper-casing all of it, say) would otherwise come back as a different URL on the link.
enum OriginalLinkValues {
    /// `result` with each link whose destination matches an original link's URL up to case
    /// given that URL byte for byte. A destination the provider invented stays: a new link.
    static func restore(in result: AttributedText, original: AttributedText) -> AttributedText {
        let links = original.attributeRuns.filter { $0.key == AttributeKey.link }
        guard !links.isEmpty, result.attributeRuns.contains(where: { $0.key == AttributeKey.link }) else { return result }
        let exact = Set(links.map(\.value))
        let runs = result.attributeRuns.map { run -> AttributeRun in
            guard run.key == AttributeKey.link, !exact.contains(run.value) else { return run }
            let destination = run.value.lowercased()
            let candidates = links.filter { $0.value.lowercased() == destination }
            // Two original URLs that differ only in case: the one on the same words wins.
            let words = result.substring(run.range).lowercased()
            guard let match = candidates.first(where: { original.substring($0.range).lowercased() == words }) ?? candidates.first else {
                return run
            }
            return AttributeRun(range: run.range, key: run.key, value: match.value)
        }
        return AttributedText(result.string, attributeRuns: runs, blockIntents: result.blockIntents,
                              protectedRanges: result.protectedRanges)
    }
}
