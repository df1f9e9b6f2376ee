/// Whether what follows an "&" would read as an entity or numeric character reference
/// ("amp;", "#38;", "#x26;"), so that the "&" must be escaped to stay literal.
enum EntityReference {
    static func starts<S: Sequence>(_ following: S) -> Bool where S.Element == Unicode.Scalar {
        var iterator = following.makeIterator()
        guard let first = iterator.next() else { return false }
        var count = 0
        if first == "#" {
            guard var next = iterator.next() else { return false }
            let hex = next == "x" || next == "X"
            if hex { guard let digit = iterator.next() else { return false }; next = digit }
            while isDigit(next, hex: hex) && count < 8 {
                count += 1
                guard let following = iterator.next() else { return false }
                next = following
            }
            return count > 0 && next == ";"
        }
        var next = first
        while isAlphanumeric(next) && count < 32 {
            count += 1
            guard let following = iterator.next() else { return false }
            next = following
        }
        return count > 0 && next == ";"
    }

    private static func isDigit(_ scalar: Unicode.Scalar, hex: Bool) -> Bool {
        ("0"..."9").contains(scalar) || (hex && (("a"..."f").contains(scalar) || ("A"..."F").contains(scalar)))
    }

    private static func isAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
    }
}
