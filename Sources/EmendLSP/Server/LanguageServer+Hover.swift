/// textDocument/hover over a finding: what is wrong, every replacement offered, the rule and
/// its page (as ltex and harper-ls show them).
extension LanguageServer {
    func hover(_ params: JSON) throws(ResponseError) -> JSON {
        let open = try document(params)
        let offset = try open.document.offset(of: try LSPPosition(json: params["position"]), encoding: encoding)
        let here = placedFindings(open.document.uri).filter { $0.range.lowerBound <= offset && offset < max($0.range.upperBound, $0.range.lowerBound + 1) }
        guard !here.isEmpty else { return .null }
        let markdown = client.hoverMarkdown
        let text = here.map { Self.hoverText($0.finding, markdown: markdown) }.joined(separator: markdown ? "\n\n---\n\n" : "\n\n")
        let span = here.map(\.range.lowerBound).min()!..<here.map(\.range.upperBound).max()!
        return ["contents": ["kind": .string(markdown ? "markdown" : "plaintext"), "value": .string(text)],
                "range": open.document.lspRange(of: span, encoding: encoding).json]
    }

    static func hoverText(_ finding: UnitFinding, markdown: Bool) -> String {
        func quoted(_ s: String) -> String { s.isEmpty ? "(remove)" : "“\(s)”" }
        var lines: [String] = []
        var heading = finding.category.isEmpty ? "Emend" : "Emend: \(finding.category)"
        if !finding.ruleID.isEmpty { heading += markdown ? " (`\(finding.ruleID)`)" : " (\(finding.ruleID))" }
        lines.append(markdown ? "**\(heading)**" : heading)
        lines.append(finding.message)
        let replacements = [finding.replacement] + finding.alternatives
        lines.append((replacements.count == 1 ? "Replacement: " : "Replacements: ") + replacements.map(quoted).joined(separator: ", "))
        if let link = finding.ruleLink {
            lines.append(markdown ? "[About this rule](\(link))" : "About this rule: \(link)")
        }
        return lines.joined(separator: markdown ? "\n\n" : "\n")
    }
}
