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

    public init(range: Range<Int>, original: String, replacement: String, explanation: String, category: String, ruleID: String) {
        self.range = range
        self.original = original
        self.replacement = replacement
        self.explanation = explanation
        self.category = category
        self.ruleID = ruleID
    }

    /// What the diagnostic says: the provider's explanation, else what the fix does.
    public var message: String {
        if !explanation.isEmpty { return explanation }
        if replacement.isEmpty { return "Remove “\(original)”." }
        if original.isEmpty { return "Insert “\(replacement)”." }
        return "Replace “\(original)” with “\(replacement)”."
    }

    /// The misspelled word a dictionary entry would accept, when this is a spelling finding
    /// of one word.
    public var dictionaryWord: String? {
        guard category.lowercased() == "spelling" || ruleID.uppercased().contains("SPELL") else { return nil }
        guard !original.isEmpty, !original.unicodeScalars.contains(where: { $0.properties.isWhitespace }) else { return nil }
        return original
    }
}

/// A finding placed in the document.
public struct PlacedFinding: Sendable, Equatable {
    /// UTF-8 byte range in the document.
    public let range: Range<Int>
    public let finding: UnitFinding
}
