import EmendCore

/// The one proofreader a front end hands its coordinator, built the same way for the CLI,
/// the language server and libemend. Why one place: the same providers must give the same
/// suggestions in every front end; before, the server handed the checkers it was told to use
/// to the coordinator one by one, whose own merge kept what `ProofreadingCombiner` would have
/// dropped or ranked otherwise.
public enum Proofreader {
    /// The proofreader of `members` (most preferred first): a `CombinedProofreader` that
    /// decides between their suggestions; a checker alone keeps its id and its suggestions as
    /// it gives them, and gets the same time limit and completeness report (a checker alone
    /// past its limit is a partial result, not a failed session). Each member passes its own filters first (the registry wraps
    /// every proofreading provider in a `FilteringProofreader`).
    /// `terms` are the languages and time limit of each (by id; see `MemberTerms`).
    public static func combining(_ members: [WritingProvider], terms: [String: MemberTerms] = [:]) throws(EmendError) -> WritingProvider {
        guard !members.isEmpty else { throw EmendError(.unsupported, "no provider serves \(WritingTool.proofread.name)") }
        return CombinedProofreader(members: members, terms: terms)
    }

    /// `proofreader` checking each paragraph in the language it is written in
    /// (`LanguageDetectingProofreader`), for a front end whose user gave no language; itself
    /// when libexttextcat is not installed (every paragraph in the request's language).
    public static func detectingLanguage(_ proofreader: WritingProvider, detector: LanguageDetector? = LanguageDetector.shared) -> WritingProvider {
        guard let detector else { return proofreader }
        return LanguageDetectingProofreader(base: proofreader, detector: detector)
    }

    /// The proofreader of the checkers the user named (`emend proofread --provider ID`), each
    /// required: one that is not installed, does not serve `tool` or is broken is an error
    /// (as `catalog.provider(for:named:)` says it), never replaced by another. Combined and
    /// bounded as `proofreader(for:listed:in:)` combines the catalog's choice, so that a
    /// named checker gets the same time limit, language terms and completeness report.
    public static func named(_ ids: [String], for tool: WritingTool, in catalog: ProviderCatalog) throws(EmendError) -> WritingProvider {
        var members: [WritingProvider] = []
        var terms: [String: MemberTerms] = [:]
        for id in ids {
            let member = try catalog.provider(for: tool, named: id)
            members.append(member)
            if let choosing = catalog as? ProofreadingMembers { terms[member.id] = choosing.memberTerms(for: member.id) }
        }
        return try combining(members, terms: terms)
    }

    /// The proofreader `catalog` gives for `tool` with the checkers `listed` by id (nil or
    /// empty: the catalog's own choice). A catalog that chooses its checkers itself
    /// (`ProofreadingMembers`: the registry, which follows config.toml and leaves out broken
    /// plugins) is asked for them; any other gives the listed ones by id, or its proofreader.
    public static func proofreader(for tool: WritingTool, listed: [String]?, in catalog: ProviderCatalog) throws(EmendError) -> WritingProvider {
        let listed = listed.flatMap { $0.isEmpty ? nil : $0 }
        if let choosing = catalog as? ProofreadingMembers {
            let members = try choosing.membersToCombine(for: tool, listed: listed)
            var terms: [String: MemberTerms] = [:]
            for member in members { terms[member.id] = choosing.memberTerms(for: member.id) }
            return try combining(members, terms: terms)
        }
        guard let listed else { return try catalog.proofreader(for: tool) }
        var members: [WritingProvider] = []
        for id in listed { members.append(try catalog.provider(for: tool, named: id)) }
        return try combining(members)
    }
}

/// A catalog that chooses the checkers whose proofreading is combined: the registry (those
/// config.toml lists for the tool, else every enabled plugin that serves it, the broken ones
/// left out).
public protocol ProofreadingMembers {
    /// The checkers to combine for `tool`, most preferred first: those of `listed` (ids, in
    /// that order) that are usable, else the catalog's own choice.
    func membersToCombine(for tool: WritingTool, listed: [String]?) throws(EmendError) -> [WritingProvider]
    /// The languages and time limit of the checker `providerID` (its descriptor's languages,
    /// config.toml's `[providers."ID"] timeout_ms`).
    func memberTerms(for providerID: String) -> MemberTerms
}

extension ProofreadingMembers {
    /// Any language, the default time limit.
    public func memberTerms(for providerID: String) -> MemberTerms { MemberTerms() }
}
