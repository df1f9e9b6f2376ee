import EmendCore
import EmendText

/// Whether the spellers that flag a word see a slip in it or only a word they do not know.
/// Why: a slip has an obvious nearest word, which checkers with different dictionaries and
/// different ranking find alike ("recieve" → "receive" from all three), or which at least
/// one of them proposes one keystroke away with no letter lost (a letter restored, changed,
/// or two swapped: "adress" → "address", "wich" → "with") or with the same letters in
/// another order ("lisence" → "license"); a name none of them knows gets a
/// different, farther guess from each (`pixbuf` → "pickup", "pix's", "pixie"; `mypy` →
/// "MYP", "many", "pygmy"), and then the flag says only that the word is unknown — on
/// technical prose, a false alarm. A guess that only drops a letter does not count as a
/// slip's fix: names are often a word and a letter (`bindgen` → "Bingen").
///
/// In a long word a guess two keystrokes away counts as a slip's fix too ("wensday" →
/// "Wednesday", "occurance" → "occurrence": the spellers each guessed a different word, and
/// the combination lost both on the held-out sets). Why only from `twoKeystrokeSlipLength`
/// letters: a short name has a word two keystrokes away by chance (`mypy` → "many", `pytest`
/// → "patent"); none of the longer names the spellers disagreed on in the development and
/// used held-out sets had one that kept its first letter and length (`ripgrep` → "regret"
/// is three, `luarocks` → "oarlocks" changes the first letter, `bindgen` → "binder" is shorter).
///
/// Only spelling flags are compared by `spellersSeeOnlyAName`; a grammar flag proposing the
/// same replacement as a speller is agreement, which `supportersAgreeOnTheCluster` finds and
/// `ProofreadingCombiner.keeps` keeps before asking about names.
extension ProofreadingCombiner {
    /// The shortest typed word (in characters) in which a guess two keystrokes away (not
    /// shorter, same first letter) is taken for a slip's fix.
    static let twoKeystrokeSlipLength = 7

    /// True when two or more of `spellers` flag spelling in `items`, no two of them turn the
    /// cluster's span into the same text (letter case aside), and none turns it into a text
    /// one keystroke away that is not shorter, or into the same letters in another order, or
    /// (a word of `twoKeystrokeSlipLength` letters or more) into a word two keystrokes away
    /// that is not shorter and starts with the same letter.
    static func spellersSeeOnlyAName(_ items: [(edit: ProviderEdit, id: String, rank: Int)], spellers: Set<String>,
                                     bytes: [UInt8]) -> Bool {
        let spelling = items.filter { $0.edit.category == "spelling" && spellers.contains($0.id) }
        let ids = Set(spelling.map(\.id))
        guard ids.count >= 2, let start = spelling.map(\.edit.range.lowerBound).min(),
              let end = spelling.map(\.edit.range.upperBound).max() else { return false }
        let typed = String(decoding: bytes[start..<end], as: UTF8.self).lowercased()
        var readings: Set<String> = []
        for id in ids {
            let reading = corrected(bytes, start..<end, by: spelling.filter { $0.id == id }.map(\.edit))
            if !readings.insert(reading).inserted { return false }
            if reading.count >= typed.count, EditDistance.distance(typed, reading, limit: 1) == 1 { return false }
            if reading != typed, reading.sorted() == typed.sorted() { return false }
            if typed.count >= twoKeystrokeSlipLength, reading.count >= typed.count, reading.first == typed.first,
               isOneWord(typed), isOneWord(reading), EditDistance.distance(typed, reading, limit: 2) == 2 { return false }
        }
        return true
    }

    /// True when two of `supporters` (the checkers behind the chosen proposal) turn the whole
    /// cluster into the same text with all their edits in it, of any category. Why the whole
    /// cluster and not the chosen edit alone: in a name of several parts two spellers can share
    /// a guess on one part and differ on the rest ("Mensah-Bonsu": "Mensa-Bonsu", "Mensch-Bonus",
    /// "Mensa-Bonus", heldout4's technical set), which is the spread of guesses of a name, not
    /// agreement on a fix.
    static func supportersAgreeOnTheCluster(_ supporters: [String], items: [(edit: ProviderEdit, id: String, rank: Int)],
                                            bytes: [UInt8]) -> Bool {
        let ids = Set(supporters)
        guard ids.count >= 2, let start = items.map(\.edit.range.lowerBound).min(),
              let end = items.map(\.edit.range.upperBound).max() else { return false }
        var readings: Set<String> = []
        for id in ids where !readings.insert(corrected(bytes, start..<end, by: items.filter { $0.id == id }.map(\.edit))).inserted {
            return true
        }
        return false
    }

    /// True when the word `edit` replaces is letters only, no English dictionary of the machine
    /// has it (`Lexicon.knows` is false: with no dictionary to ask, the vote decides as before),
    /// and the replacement is a slip's fix as `spellersSeeOnlyAName` reads one: one word, not
    /// shorter, one keystroke away — or two in a word of `twoKeystrokeSlipLength` letters or
    /// more, keeping the first letter (`mypy` → "many" is a short name's chance neighbour). Why: a speller that stays
    /// silent on such a word has not found it in a dictionary — it skipped it, or its own
    /// filter did — so its silence is no vote that the word is right; the majority rule
    /// dropped real misspellings so (non-word recall fell from 100% to 93% on the held-out
    /// learner set). The user's words never get here: `ProofreadingFilter` drops every
    /// checker's flag on them. A name no dictionary has and whose nearest word is farther
    /// (`pixbuf` → "pix's") is still voted on.
    static func isUnknownWordWithASlipsFix(_ edit: ProviderEdit, lexicon: Lexicon, bytes: [UInt8]) -> Bool {
        let typed = String(decoding: bytes[edit.range], as: UTF8.self)
        guard typed.count >= 3, isOneWord(typed), isOneWord(edit.replacement), lexicon.knows(typed) == false else { return false }
        let (word, fix) = (typed.lowercased(), edit.replacement.lowercased())
        guard fix.count >= word.count else { return false }
        switch EditDistance.distance(word, fix, limit: 2) {
        case 1: return true
        case 2: return word.count >= twoKeystrokeSlipLength && word.first == fix.first
        default: return false
        }
    }

    /// Letters only. Why the two-keystroke reading needs it on both sides: a compound's
    /// reading is pieced together from a speller's edits on its parts (`wasm-bindgen` →
    /// "was-bind gen", from "was" and "bind gen"), and two keystrokes across a compound say
    /// nothing about a slip in one word (it put the development set's `wasm-bindgen` back).
    private static func isOneWord(_ text: String) -> Bool { text.allSatisfy(\.isLetter) }

    /// The text of `span` with `edits` (inside it) applied, lower-cased; an edit that overlaps
    /// an earlier one is skipped.
    private static func corrected(_ bytes: [UInt8], _ span: Range<Int>, by edits: [ProviderEdit]) -> String {
        var out: [UInt8] = []
        var at = span.lowerBound
        for edit in edits.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) where edit.range.lowerBound >= at {
            out += bytes[at..<edit.range.lowerBound]
            out += Array(edit.replacement.utf8)
            at = edit.range.upperBound
        }
        out += bytes[at..<span.upperBound]
        return String(decoding: out, as: UTF8.self).lowercased()
    }
}
