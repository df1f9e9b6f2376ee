/// A key of an interactive review, `git add -p`'s where it has one.
enum ReviewKey: Character, Sendable {
    case yes = "y", no = "n", addWord = "w", all = "a", noneLeft = "d", quit = "q", help = "?"
}

/// The keys one kind of review offers, each with what it does: the one table the prompt
/// ("[y,n,a,d,q,?]"), the `?` help, the option's --help (and so the man page generated from
/// it) and the keys the review accepts are all made from, so that none of them can name a
/// key the others lack.
struct ReviewKeyMenu: Sendable {
    struct Entry: Sendable {
        let key: ReviewKey
        /// For --help: "accept", "add the word to the dictionary".
        let brief: String
        /// For the `?` help: one line of what the key does.
        let help: String
    }

    /// "Apply this change", "Keep this change".
    let question: String
    let entries: [Entry]

    var keys: [ReviewKey] { entries.map(\.key) }

    /// The key `character` stands for when this review offers it; nil otherwise.
    func answer(_ character: Character) -> ReviewKey? {
        guard let key = ReviewKey(rawValue: character), keys.contains(key) else { return nil }
        return key
    }

    /// "Apply this change [y,n,w,a,d,q,?]? "
    var prompt: String {
        "\(question) [\(keys.map { String($0.rawValue) }.joined(separator: ","))]? "
    }

    /// What `?` shows: a line per key.
    var helpText: String {
        entries.map { "\($0.key.rawValue) - \($0.help)\n" }.joined() + "\n"
    }

    /// For --help: "y accept, n reject, …, ? help".
    var summary: String {
        entries.map { "\($0.key.rawValue) \($0.brief)" }.joined(separator: ", ")
    }

    /// For the examples of `emend --help`: "y, n, w, a, d, q, ?".
    var keyList: String {
        keys.map { String($0.rawValue) }.joined(separator: ", ")
    }

    /// `emend proofread --interactive`: each suggestion.
    static let proofread = ReviewKeyMenu(question: "Apply this change", entries: [
        Entry(key: .yes, brief: "accept", help: "apply this change"),
        Entry(key: .no, brief: "reject", help: "do not apply this change"),
        Entry(key: .addWord, brief: "add the word to the dictionary",
              help: "add the word to your dictionary (every proofreader accepts it from now on); skip it here"),
        Entry(key: .all, brief: "accept all", help: "apply this change and all the remaining ones"),
        Entry(key: .noneLeft, brief: "reject the rest", help: "do not apply this change nor any of the remaining ones"),
        Entry(key: .quit, brief: "quit (keeps what was decided, as git add -p)",
              help: "quit; keep what was decided so far, do not apply this change nor any of the remaining ones"),
        Entry(key: .help, brief: "help", help: "this help"),
    ])

    /// `emend rewrite|follow-up|compose --interactive`: each change of the result.
    static let rewrite = ReviewKeyMenu(question: "Keep this change", entries: [
        Entry(key: .yes, brief: "keep", help: "keep this change"),
        Entry(key: .no, brief: "drop", help: "drop this change (its original comes back)"),
        Entry(key: .all, brief: "keep the rest", help: "keep this change and all the remaining ones"),
        Entry(key: .noneLeft, brief: "drop the rest", help: "drop this change and all the remaining ones"),
        Entry(key: .quit, brief: "quit (keeps what was decided)",
              help: "quit; keep what was decided so far, drop this change and the remaining ones"),
        Entry(key: .help, brief: "help", help: "this help"),
    ])
}
