/// A link's URL as a Markdown link destination that reads back as the same URL.
enum LinkDestination {
    static func markdown(_ url: String) -> String {
        let scalars = url.unicodeScalars.filter { $0 != "\n" && $0 != "\r" }
        let needsBrackets = scalars.isEmpty || scalars.contains { scalar in
            scalar == " " || scalar == "(" || scalar == ")" || scalar == "<" || scalar == ">" || scalar.value < 0x20
        }
        var result = needsBrackets ? "<" : ""
        for (position, scalar) in scalars.enumerated() {
            let escape = scalar == "\\" || (needsBrackets && (scalar == "<" || scalar == ">"))
                || (scalar == "&" && EntityReference.starts(scalars.dropFirst(position + 1)))
            if escape { result += "\\" }
            result.unicodeScalars.append(scalar)
        }
        return needsBrackets ? result + ">" : result
    }
}
