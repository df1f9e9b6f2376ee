import EmendText

/// The `textDocument/publishDiagnostics` notification written straight to bytes. Why not
/// through `JSON`: a large document can have thousands of diagnostics and every keystroke
/// republishes all of them; each finding's constant members were encoded once
/// (`UnitFinding.encodedMembers`), so a publish writes ranges and severities and copies the rest.
enum DiagnosticsMessage {
    static func encode(uri: String, version: Int, findings: [PlacedFinding], document: TextDocument,
                       encoding: PositionEncoding, severity: (String) -> Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64 + findings.reduce(0) { $0 + $1.finding.encodedMembers.count + 96 })
        out.append(contentsOf: #"{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"diagnostics":["#.utf8)
        var cursor = PositionCursor(document: document, encoding: encoding)
        var severities: [String: Int] = [:]
        for (index, placed) in findings.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            let start = cursor.position(of: placed.range.lowerBound)
            let end = cursor.position(of: placed.range.upperBound)
            let level: Int
            if let known = severities[placed.finding.category] {
                level = known
            } else {
                level = severity(placed.finding.category)
                severities[placed.finding.category] = level
            }
            out.append(UInt8(ascii: "{"))
            out.append(contentsOf: placed.finding.encodedMembers)
            out.append(contentsOf: #","range":{"end":{"character":"#.utf8)
            writeInteger(end.character, into: &out)
            out.append(contentsOf: #","line":"#.utf8)
            writeInteger(end.line, into: &out)
            out.append(contentsOf: #"},"start":{"character":"#.utf8)
            writeInteger(start.character, into: &out)
            out.append(contentsOf: #","line":"#.utf8)
            writeInteger(start.line, into: &out)
            out.append(contentsOf: #"}},"severity":"#.utf8)
            writeInteger(level, into: &out)
            out.append(UInt8(ascii: "}"))
        }
        out.append(contentsOf: #"],"uri":"#.utf8)
        JSONWriter.writeString(uri, into: &out)
        out.append(contentsOf: #","version":"#.utf8)
        writeInteger(version, into: &out)
        out.append(contentsOf: "}}".utf8)
        return out
    }

    /// A non-negative integer in decimal, without making a String.
    static func writeInteger(_ value: Int, into out: inout [UInt8]) {
        if value < 10 {
            out.append(UInt8(ascii: "0") + UInt8(max(0, value)))
            return
        }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var rest = value
        withUnsafeMutableBytes(of: &digits) { buffer in
            while rest > 0 && count < 20 {
                buffer[count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                count += 1
            }
            for index in stride(from: count - 1, through: 0, by: -1) { out.append(buffer[index]) }
        }
    }
}
