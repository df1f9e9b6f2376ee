/// When the finished sentences of a rewrite go into the text while the provider still writes.
public enum StreamingPolicy: Sendable, Equatable {
    /// Each finished sentence goes in as soon as the next one begins, once at least
    /// `minimumNewBytes` bytes arrived since the last part went in (1: every sentence).
    case sentences(minimumNewBytes: Int)
    /// Nothing goes in before the whole result arrived.
    case wholeResult

    /// Every sentence as soon as it is finished: what a person watching the text expects
    /// (a sentence appears within a token of the model writing its last word). Segmenting is
    /// incremental (`StreamedSentences`), so waiting for more bytes saves nothing.
    public static let standard = StreamingPolicy.sentences(minimumNewBytes: 1)

    /// The C field `stream_chunk_bytes`: 0 is the default, UINT32_MAX the whole result only,
    /// anything else the minimum of new bytes.
    public init(streamChunkBytes: UInt32) {
        switch streamChunkBytes {
        case 0: self = .standard
        case UInt32.max: self = .wholeResult
        default: self = .sentences(minimumNewBytes: Int(streamChunkBytes))
        }
    }

    /// Whether anything streams at all.
    var streams: Bool { self != .wholeResult }
}
