import XCTest
import EmendCore
@testable import EmendProofreading

/// A spelling flag on a word that no dictionary has needs no majority of the spellers: the
/// silence of the others is no vote that the word is right. A word a dictionary has, or a
/// far guess at a name, is still voted on.
final class SpellerMajorityTests: XCTestCase {
    private let hunspell = "org.emend.hunspell", harper = "org.emend.harper", lt = "org.emend.lingotweaker"
    private let lexicon = Lexicon(words: ["en_US": ["receive", "install", "it", "and", "we", "will"]])

    private func spelling(_ text: String, _ word: String, _ replacement: String) -> ProviderEdit {
        ProviderEdit(range: byteRange(of: word, in: text), replacement: replacement, category: "spelling", ruleID: "S")
    }

    private func combine(_ text: String, _ members: [(String, [ProviderEdit])], lexicon: Lexicon) -> [String] {
        let input = members.enumerated().map { MemberEdits(providerID: $0.element.0, rank: $0.offset, edits: $0.element.1) }
        let bytes = Array(text.utf8)
        return ProofreadingCombiner(lexicon: lexicon).combine(input, text: text).map {
            String(decoding: bytes[$0.edit.range], as: UTF8.self) + "→" + $0.edit.replacement
        }
    }

    func testAWordNoDictionaryHasIsFlaggedByOneSpellerAlone() {
        let text = "We will recieve it and instal pixbuf."
        let recieve = spelling(text, "recieve", "receive"), pixbuf = spelling(text, "pixbuf", "pix's")
        let members = [(harper, [recieve, pixbuf]), (hunspell, []), (lt, [])]
        XCTAssertEqual(combine(text, members, lexicon: lexicon), ["recieve→receive"])
        XCTAssertEqual(combine(text, members, lexicon: .none), [], "without a dictionary to ask, the majority decides as before")
        // Two spellers, one flags it: kept too.
        XCTAssertEqual(combine(text, [(hunspell, [recieve]), (harper, [])], lexicon: lexicon), ["recieve→receive"])
        // A long word two keystrokes from its fix is a slip; a short one is a name's chance neighbour.
        let long = "The occurance of mypy."
        let members2 = [(harper, [spelling(long, "occurance", "occurrence"), spelling(long, "mypy", "many")]), (hunspell, []), (lt, [])]
        XCTAssertEqual(combine(long, members2, lexicon: lexicon), ["occurance→occurrence"])
    }

    func testAWordADictionaryHasIsStillVotedOn() {
        let text = "We will install it."
        let install = spelling(text, "install", "instill")
        XCTAssertEqual(combine(text, [(harper, [install]), (hunspell, []), (lt, [])], lexicon: lexicon), [])
    }
}
