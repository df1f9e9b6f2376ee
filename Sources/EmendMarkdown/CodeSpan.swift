/// Inline code as Markdown: enough backticks to hold the content, and a space inside each
/// fence where the content would otherwise touch one or lose its edge spaces.
enum CodeSpan {
    static func markdown(_ content: String, inCell: Bool) -> String {
        // GFM reads "\|" inside a table cell's code as "|".
        let body = inCell ? content.replacingPipes() : content
        let fence = String(repeating: "`", count: Backticks.longestRun(in: body) + 1)
        let scalars = body.unicodeScalars
        let allSpaces = scalars.allSatisfy { $0 == " " }
        let needsPadding = scalars.first == "`" || scalars.last == "`"
            || (!allSpaces && scalars.first == " " && scalars.last == " ")
        return needsPadding ? fence + " " + body + " " + fence : fence + body + fence
    }
}

/// Counting backticks, for code spans and fences.
enum Backticks {
    static func longestRun(in text: String) -> Int {
        var longest = 0, current = 0
        for scalar in text.unicodeScalars {
            current = scalar == "`" ? current + 1 : 0
            longest = max(longest, current)
        }
        return longest
    }
}

extension String {
    fileprivate func replacingPipes() -> String {
        var result = ""
        for scalar in unicodeScalars {
            if scalar == "|" { result += "\\" }
            result.unicodeScalars.append(scalar)
        }
        return result
    }
}
