/// The text of one paragraph (or comment) with its protected ranges, relative to its start.
/// It is the cache key: a paragraph whose text did not change is never checked again, even
/// when lines were added above it (its key does not hold its position).
public struct UnitKey: Sendable, Hashable {
    public let text: [UInt8]
    public let protected: [Range<Int>]

    public init(text: [UInt8], protected: [Range<Int>]) {
        self.text = text
        self.protected = protected
    }

    /// The bytes in one call rather than one combine per byte: opening a document, or an edit
    /// that makes the server cut it again, looks up every paragraph, so this hash then runs
    /// over the whole text.
    public func hash(into hasher: inout Hasher) {
        text.withUnsafeBytes { hasher.combine(bytes: $0) }
        hasher.combine(protected.count)
        for range in protected {
            hasher.combine(range.lowerBound)
            hasher.combine(range.upperBound)
        }
    }
}

/// A unit where it stands in the document now.
public struct CheckUnit: Sendable, Equatable {
    /// UTF-8 byte offset of the unit's first byte in the document.
    public let offset: Int
    public let key: UnitKey

    public var range: Range<Int> { offset..<(offset + key.text.count) }
}

/// One suggestion of a provider in a unit, in UTF-8 bytes of the unit's text.
public struct UnitFinding: Sendable, Equatable {
    public let range: Range<Int>
    public let original: String
    public let replacement: String
    public let explanation: String
    public let category: String
    public let ruleID: String
    /// The misspelled word a dictionary entry would accept, when this is a spelling finding
    /// of one word.
    public let dictionaryWord: String?
    /// Further replacements the provider named (`ExplanationDetails`), after `replacement`.
    public let alternatives: [String]
    /// A page about the rule, when the provider gave one (`codeDescription`, hover).
    public let ruleLink: String?
    /// The diagnostic's members that never change (code, data, message, source) as JSON,
    /// written once on the worker thread: a keystroke in a large document republishes every
    /// diagnostic, and only their ranges and severities are new.
    let encodedMembers: [UInt8]

    public init(range: Range<Int>, original: String, replacement: String, explanation: String, category: String, ruleID: String) {
        self.range = range
        self.original = original
        self.replacement = replacement
        self.explanation = explanation
        self.category = category
        self.ruleID = ruleID
        let spelling = category.lowercased() == "spelling" || ruleID.uppercased().contains("SPELL")
        let oneWord = !original.isEmpty && !original.unicodeScalars.contains(where: { $0.properties.isWhitespace })
        self.dictionaryWord = spelling && oneWord ? original : nil
        self.alternatives = ExplanationDetails.alternatives(in: explanation).filter { $0 != replacement && $0 != original }
        self.ruleLink = ExplanationDetails.link(in: explanation)
        var members: [String: JSON] = [
            "source": "emend",
            "message": .string(UnitFinding.message(original: original, replacement: replacement, explanation: explanation)),
            "data": ["replacement": .string(replacement), "category": .string(category)],
        ]
        if !ruleID.isEmpty { members["code"] = .string(ruleID) }
        if let ruleLink { members["codeDescription"] = ["href": .string(ruleLink)] }
        var bytes = JSONWriter.bytes(.object(members))
        bytes.removeFirst()   // "{"
        bytes.removeLast()    // "}"
        self.encodedMembers = bytes
    }

    /// A copy at another range of its unit.
    func moved(to range: Range<Int>) -> UnitFinding {
        UnitFinding(range: range, original: original, replacement: replacement, explanation: explanation,
                    category: category, ruleID: ruleID)
    }

    /// What the diagnostic says: the provider's explanation, else what the fix does.
    public var message: String { UnitFinding.message(original: original, replacement: replacement, explanation: explanation) }

    static func message(original: String, replacement: String, explanation: String) -> String {
        if !explanation.isEmpty { return explanation }
        if replacement.isEmpty { return "Remove “\(original)”." }
        if original.isEmpty { return "Insert “\(replacement)”." }
        return "Replace “\(original)” with “\(replacement)”."
    }
}

/// A finding placed in the document.
public struct PlacedFinding: Sendable, Equatable {
    /// UTF-8 byte range in the document.
    public let range: Range<Int>
    public let finding: UnitFinding
}
