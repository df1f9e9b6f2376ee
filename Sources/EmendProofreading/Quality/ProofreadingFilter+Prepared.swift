import EmendCore

extension ProofreadingFilter {
    /// `edit` as every front end gets it: its category one of `FixedCategory`'s, its
    /// explanation plain text listing every replacement it proposes (`PlainExplanation`).
    /// `FilteringProofreader` emits this form, and `verdict(for:)` judges it.
    public func prepared(_ edit: ProviderEdit) -> ProviderEdit {
        var result = edit
        result.category = FixedCategory.of(ruleID: edit.ruleID, category: edit.category, explanation: edit.explanation).rawValue
        let range = edit.range.clamped(to: 0..<bytes.count)
        let original = String(decoding: bytes[range], as: UTF8.self)
        result.explanation = PlainExplanation.cleaned(edit.explanation, replacement: edit.replacement, original: original)
        return result
    }
}
