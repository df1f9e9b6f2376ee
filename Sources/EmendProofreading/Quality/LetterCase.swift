/// The letter case of a scalar, ASCII answered without the Unicode property tables. Why: the
/// filter asks it of every letter of every flagged word, and the table lookups were 8% of a
/// dense proofread's provider time.
extension Unicode.Scalar {
    var isUpperCaseLetter: Bool { isASCII ? (0x41...0x5A).contains(value) : properties.isUppercase }
    var isLowerCaseLetter: Bool { isASCII ? (0x61...0x7A).contains(value) : properties.isLowercase }
}
