/// One argument of the bound C function, in C order (`arguments` in a manifest).
public enum SimpleArgument: Sendable, Equatable {
    /// `const char *`: the selected text.
    case text
    /// `const char *`: the described change, compose prompt or follow-up request; "" if none.
    case prompt
    /// `const char *`: the BCP 47 language tag, e.g. "en-US".
    case language
    /// `const char *`: for a follow-up, the result being refined; "" otherwise.
    case previousResult
    /// `void (*emit)(const char *chunk)`: the streaming callback, valid during the call only.
    case emit
    /// A value from the settings, as its declared C type.
    case setting(name: String, type: SimpleSettingType)

    /// The kinds a manifest may name, for messages.
    static let kindList = "text, prompt, language, previous_result, emit, setting:NAME:TYPE"

    /// Parses "text", "emit", "setting:level:int", ...
    static func parse(_ spelling: String) -> Result<SimpleArgument, SimpleProblem> {
        switch spelling {
        case "text": return .success(.text)
        case "prompt": return .success(.prompt)
        case "language": return .success(.language)
        case "previous_result": return .success(.previousResult)
        case "emit": return .success(.emit)
        default: break
        }
        let parts = spelling.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard parts.first == "setting" else {
            return .failure(SimpleProblem("unknown argument kind \"\(spelling)\" (kinds: \(kindList))"))
        }
        guard parts.count == 3 else {
            return .failure(SimpleProblem("\"\(spelling)\" is not setting:NAME:TYPE"))
        }
        guard SimpleName.isSettingName(parts[1]) else {
            return .failure(SimpleProblem("\"\(parts[1])\" in \"\(spelling)\" is not a setting name (letters, digits, _ and -)"))
        }
        guard let type = SimpleSettingType(rawValue: parts[2]) else {
            let types = SimpleSettingType.allCases.map(\.rawValue).joined(separator: ", ")
            return .failure(SimpleProblem("unknown type \"\(parts[2])\" in \"\(spelling)\" (types: \(types))"))
        }
        return .success(.setting(name: parts[1], type: type))
    }

    /// The manifest spelling.
    public var spelling: String {
        switch self {
        case .text: return "text"
        case .prompt: return "prompt"
        case .language: return "language"
        case .previousResult: return "previous_result"
        case .emit: return "emit"
        case .setting(let name, let type): return "setting:\(name):\(type.rawValue)"
        }
    }
}
