import CEmend
import EmendCore
import EmendProofreading
import EmendProviders

/// "Add to dictionary" and "Ignore rule" for engines: the same two files the `emend` command
/// and `emend lsp` write (PersonalDictionary, in the directory fixed when the coordinator was
/// created), which every proofread reads again when it starts. Not a mutating call: the
/// session and the strings lent by emend_session_get_suggestion stay as they are, so an
/// engine may pass a suggestion's `original` or `rule_id` straight in, inside a callback too.
@_cdecl("emend_coordinator_add_word")
public func emend_coordinator_add_word(_ coordinator: OpaquePointer?, _ word: UnsafePointer<CChar>?) -> emend_status {
    withHandle(coordinator) { handle throws(EmendError) in
        try handle.coordinator.checkOwnerThread()
        let word = try CText.optionalCString(try required(word, "word"), name: "word") ?? ""
        var dictionary = PersonalDictionary.load(directory: handle.dictionaryDirectory)
        try dictionary.add(word: word)
    }
}

@_cdecl("emend_coordinator_ignore_rule")
public func emend_coordinator_ignore_rule(_ coordinator: OpaquePointer?, _ ruleID: UnsafePointer<CChar>?) -> emend_status {
    withHandle(coordinator) { handle throws(EmendError) in
        try handle.coordinator.checkOwnerThread()
        let rule = try CText.optionalCString(try required(ruleID, "rule_id"), name: "rule_id") ?? ""
        var dictionary = PersonalDictionary.load(directory: handle.dictionaryDirectory)
        try dictionary.ignore(rule: rule)
    }
}
