/// The escaping of the scanner's report and of the cache file: one value per line, with
/// `\\`, `\n`, `\r`, `\t` and `\xHH` for other control bytes (same rules as emend-scan.c).
enum LineEscaping {
    static func escape(_ value: String) -> String {
        var out = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7f {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\x" + (hex.count < 2 ? "0" : "") + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// The value `escaped` stands for; nil for a malformed escape.
    static func unescape(_ escaped: Substring) -> String? {
        var bytes: [UInt8] = []
        var utf8 = escaped.utf8.makeIterator()
        while let byte = utf8.next() {
            guard byte == UInt8(ascii: "\\") else { bytes.append(byte); continue }
            switch utf8.next() {
            case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\"))
            case UInt8(ascii: "n"): bytes.append(10)
            case UInt8(ascii: "r"): bytes.append(13)
            case UInt8(ascii: "t"): bytes.append(9)
            case UInt8(ascii: "x"):
                guard let high = utf8.next(), let low = utf8.next(),
                      let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16) else { return nil }
                bytes.append(value)
            default: return nil
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `key=value` lines into a dictionary (values unescaped); nil for a malformed line.
    static func fields<S: Sequence>(_ lines: S) -> [String: String]? where S.Element == Substring {
        var fields: [String: String] = [:]
        for line in lines {
            guard let equals = line.firstIndex(of: "="),
                  let value = unescape(line[line.index(after: equals)...]) else { return nil }
            fields[String(line[..<equals])] = value
        }
        return fields
    }
}
