/// One attribute (bold, link, font, any key the engine sets) on a UTF-8 byte range.
public struct AttributeRun: Equatable, Hashable, Sendable {
    public var range: Range<Int>
    public var key: String
    public var value: String
    public init(range: Range<Int>, key: String, value: String) {
        self.range = range
        self.key = key
        self.value = value
    }
}
