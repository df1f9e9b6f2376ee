import Glibc
import EmendCore
import EmendProviders

/// Which languages the installed proofreaders serve, to check `--language` before any work.
/// Why: a tag no provider serves (`--language german`, `xx-YY`) used to give "no suggestions"
/// and exit 0 — a silent, wrong answer. Now it is a usage error (exit 2) that lists what is
/// installed, and a provider that cannot serve a real language (Hunspell without a dictionary
/// for it) is named on standard error instead of being skipped without a word.
struct LanguageSupport {
    /// What one enabled proofreader serves.
    enum Served: Equatable {
        /// These tags (`en`, `de-DE`); a tag matches one with the same language subtag.
        case tags([String])
        /// Hunspell: the dictionaries found, as file names (`en_US`, `de_DE`).
        case dictionaries([String])
        /// Any language (`*`): models and checkers that declare no list.
        case anyLanguage
    }

    struct Member: Equatable {
        let id: String
        let name: String
        let served: Served
    }

    let members: [Member]
    /// ISO 639 codes (two and three letters) from the iso-codes package; nil when it is not
    /// installed (then any well-formed language subtag counts as a language).
    let knownLanguages: Set<String>?

    static let hunspellID = "org.emend.hunspell"
    static let hunspellDirectories = ["/usr/share/hunspell", "/usr/share/myspell/dicts"]

    /// The proofreaders `registry` would combine (or only `providerID`), with what they serve:
    /// chosen as `ProviderRegistry.membersToCombine` chooses them.
    init(registry: ProviderRegistry, providerID: String?) {
        let candidates = registry.candidates(for: .proofread)
        let listed = registry.configuration.toolOrder[.proofread] ?? []
        var entries: [RegistryEntry]
        if let providerID {
            entries = candidates.filter { $0.id == providerID }
        } else {
            entries = listed.isEmpty ? candidates.filter { !$0.isBuiltin } : candidates.filter { listed.contains($0.id) }
            if entries.isEmpty { entries = Array(candidates.prefix(1)) }
        }
        members = entries.map { entry in
            let languages = entry.record?.languages ?? ["*"]
            let served: Served
            if entry.id == Self.hunspellID {
                let setting = registry.configuration.settingPairs(for: entry.id).first { $0.key == "dictionary_dir" }?.value
                served = .dictionaries(Self.dictionaries(in: Self.expand(setting) + Self.hunspellDirectories))
            } else if languages.isEmpty || languages.contains("*") {
                served = .anyLanguage
            } else {
                served = .tags(languages)
            }
            return Member(id: entry.id, name: entry.record?.name ?? entry.id, served: served)
        }
        knownLanguages = Self.iso639Codes()
    }

    init(members: [Member], knownLanguages: Set<String>?) {
        self.members = members
        self.knownLanguages = knownLanguages
    }

    /// Notes for standard error (members that skip `tag`), or a usage failure when `tag` is
    /// not a language tag or no member serves it.
    func check(_ tag: String) throws(CLIFailure) -> [String] {
        guard let language = Self.languageSubtag(of: tag) else {
            throw CLIFailure.usage("--language \(tag): not a BCP 47 language tag; give one such as en-US or de (installed: \(installed))")
        }
        if let knownLanguages, !knownLanguages.contains(language) {
            throw CLIFailure.usage("--language \(tag): \"\(language)\" is not a language code (ISO 639); installed: \(installed)")
        }
        var notes: [String] = []
        var servedBy: [String] = []
        for member in members {
            if serves(member, tag) {
                servedBy.append(member.id)
            } else if case .dictionaries(let names) = member.served {
                let found = names.isEmpty ? "none" : names.joined(separator: ", ")
                notes.append("\(member.name) (\(member.id)) has no dictionary for \(tag) (installed: \(found); on Debian, "
                             + "the \(Self.debianPackage(tag)) package); it is skipped")
            } else {
                notes.append("\(member.name) (\(member.id)) does not serve \(tag); it is skipped")
            }
        }
        guard !servedBy.isEmpty else {
            throw CLIFailure.usage("--language \(tag): no installed proofreader serves it (installed: \(installed))")
        }
        return notes
    }

    /// What is installed, for the messages: `en_US (org.emend.hunspell); en (org.emend.harper); any language (org.emend.llama)`.
    var installed: String {
        guard !members.isEmpty else { return "no proofreader" }
        return members.map { member in
            switch member.served {
            case .tags(let tags): return "\(tags.joined(separator: ", ")) (\(member.id))"
            case .dictionaries(let names): return "\(names.isEmpty ? "no dictionary" : names.joined(separator: ", ")) (\(member.id))"
            case .anyLanguage: return "any language (\(member.id))"
            }
        }.joined(separator: "; ")
    }

    private func serves(_ member: Member, _ tag: String) -> Bool {
        switch member.served {
        case .anyLanguage: return true
        case .tags(let tags): return tags.contains { Self.languageSubtag(of: $0) == Self.languageSubtag(of: tag) }
        case .dictionaries(let names): return Self.dictionary(for: tag, among: names) != nil
        }
    }

    /// The dictionary Hunspell would pick for `tag` (as the plugin's locate.c does with
    /// `region_fallback` on): the exact `ll_RR`, then `ll`, then any `ll_XX`.
    static func dictionary(for tag: String, among names: [String]) -> String? {
        let parts = tag.split(separator: "-").map(String.init)
        guard let language = parts.first?.lowercased() else { return nil }
        let lowered = names.map { $0.lowercased() }
        if parts.count >= 2, let exact = lowered.firstIndex(of: "\(language)_\(parts[parts.count - 1].lowercased())") { return names[exact] }
        if let bare = lowered.firstIndex(of: language) { return names[bare] }
        if let any = lowered.firstIndex(where: { $0.hasPrefix(language + "_") }) { return names[any] }
        return nil
    }

    /// The lower-cased language subtag of a well-formed tag (`en` of `en-US`), or nil: two or
    /// three letters, then subtags of letters and digits (script, region, variants), each 1 to 8.
    static func languageSubtag(of tag: String) -> String? {
        let parts = tag.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = parts.first, (2...3).contains(first.count), first.allSatisfy({ $0.isASCII && $0.isLetter }) else { return nil }
        for part in parts.dropFirst() where !(1...8).contains(part.count) || !part.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) {
            return nil
        }
        return first.lowercased()
    }

    /// The Debian package with the Hunspell dictionary of `tag`, as Debian names them (the
    /// same table as providers/hunspell/locate.c): most are `hunspell-LANGUAGE` (`fr-FR` →
    /// `hunspell-fr`), German, English and Portuguese come per country (`de` → `hunspell-de-de`,
    /// `en-GB` → `hunspell-en-gb`, `pt-BR` → `hunspell-pt-br`), Norwegian is `hunspell-no`,
    /// and a few languages have only a `myspell-` package.
    static func debianPackage(_ tag: String) -> String {
        let parts = tag.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
        let language = parts.first ?? tag.lowercased()
        let region = parts.dropFirst().first { $0.count == 2 }
        let byCountry: [String: (regions: Set<String>, fallback: String)] = [
            "de": (["at", "ch", "de"], "de"), "en": (["au", "ca", "gb", "us", "za"], "us"), "pt": (["br", "pt"], "pt"),
        ]
        if let countries = byCountry[language] {
            return "hunspell-\(language)-\(region.flatMap { countries.regions.contains($0) ? $0 : nil } ?? countries.fallback)"
        }
        if language == "nb" || language == "nn" { return "hunspell-no" }
        if ["eo", "et", "fa", "fo", "ga", "gv", "hy", "sq", "tl"].contains(language) { return "myspell-\(language)" }
        return "hunspell-\(language)"
    }

    private static func expand(_ setting: String?) -> [String] {
        guard let setting else { return [] }
        let home = getenv("HOME").map { String(cString: $0) } ?? ""
        return setting.split(separator: ":").map { $0.hasPrefix("~/") ? home + $0.dropFirst() : String($0) }
    }

    /// The names of the `.dic` files with an `.aff` beside them in `directories`.
    static func dictionaries(in directories: [String]) -> [String] {
        var names: [String] = []
        for directory in directories {
            guard let dir = opendir(directory) else { continue }
            defer { closedir(dir) }
            var files: Set<String> = []
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
                files.insert(name)
            }
            for file in files.sorted() where file.hasSuffix(".dic") {
                let name = String(file.dropLast(4))
                if files.contains(name + ".aff"), !names.contains(name) { names.append(name) }
            }
        }
        return names
    }

    /// ISO 639 codes from iso-codes' iso_639-3.json (`"alpha_2": "de"`, `"alpha_3": "deu"`), or nil.
    static func iso639Codes(path: String = "/usr/share/iso-codes/json/iso_639-3.json") -> Set<String>? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = fread(&buffer, 1, buffer.count, file)
            if n <= 0 { break }
            bytes += buffer[0..<n]
        }
        var codes: Set<String> = []
        let text = String(decoding: bytes, as: UTF8.self)
        for key in ["\"alpha_2\": \"", "\"alpha_3\": \""] {
            var rest = text[...]
            while let found = rest.firstRange(of: key) {
                rest = rest[found.upperBound...]
                if let end = rest.firstIndex(of: "\"") { codes.insert(String(rest[..<end])) }
            }
        }
        return codes.isEmpty ? nil : codes
    }
}
