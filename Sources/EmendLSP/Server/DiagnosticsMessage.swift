import EmendText

/// The `textDocument/publishDiagnostics` notification written straight to bytes. Why not
/// through `JSON`: a large document can have thousands of diagnostics and every keystroke
/// republishes all of them; each finding's constant members were encoded once
/// (`UnitFinding.encodedMembers`), and each unit's diagnostics are kept encoded
/// (`DiagnosticsFragment`), so a publish mostly copies bytes.
enum DiagnosticsMessage {
    static func encode(uri: String, version: Int, findings: [PlacedFinding], document: TextDocument,
                       encoding: PositionEncoding, severity: (String) -> Int) -> [UInt8] {
        var cursor = PositionCursor(document: document, encoding: encoding)
        var body: [UInt8] = []
        for placed in findings {
            if !body.isEmpty { body.append(UInt8(ascii: ",")) }
            writeDiagnostic(placed.finding, start: cursor.position(of: placed.range.lowerBound),
                            end: cursor.position(of: placed.range.upperBound), severity: severity(placed.finding.category), into: &body)
        }
        return message(uri: uri, version: version, diagnostics: [body])
    }

    /// The notification around diagnostics already written: each of `diagnostics` is a run of
    /// diagnostic objects separated by commas (empty runs are skipped).
    static func message(uri: String, version: Int, diagnostics: [[UInt8]]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(160 + uri.utf8.count + diagnostics.reduce(0) { $0 + $1.count + 1 })
        out.append(contentsOf: #"{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"diagnostics":["#.utf8)
        var first = true
        for run in diagnostics where !run.isEmpty {
            if !first { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: run)
            first = false
        }
        out.append(contentsOf: #"],"uri":"#.utf8)
        JSONWriter.writeString(uri, into: &out)
        out.append(contentsOf: #","version":"#.utf8)
        writeInteger(version, into: &out)
        out.append(contentsOf: "}}".utf8)
        return out
    }

    /// One diagnostic object: the finding's constant members, then its range and severity.
    static func writeDiagnostic(_ finding: UnitFinding, start: LSPPosition, end: LSPPosition, severity: Int, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "{"))
        out.append(contentsOf: finding.encodedMembers)
        out.append(contentsOf: #","range":{"end":{"character":"#.utf8)
        writeInteger(end.character, into: &out)
        out.append(contentsOf: #","line":"#.utf8)
        writeInteger(end.line, into: &out)
        out.append(contentsOf: #"},"start":{"character":"#.utf8)
        writeInteger(start.character, into: &out)
        out.append(contentsOf: #","line":"#.utf8)
        writeInteger(start.line, into: &out)
        out.append(contentsOf: #"}},"severity":"#.utf8)
        writeInteger(severity, into: &out)
        out.append(UInt8(ascii: "}"))
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
