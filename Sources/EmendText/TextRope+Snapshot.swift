extension TextRope {
    /// A part of a rope's text as its chunks held it when taken, readable on another thread
    /// while the rope's own thread goes on editing the rope.
    ///
    /// Why it is safe: it holds the chunks' byte arrays themselves (their slices), not the
    /// chunks. A rope's edit changes a chunk's array in place only when the chunk holds it
    /// alone; while a snapshot holds it too, the edit copies it first (arrays are
    /// copy-on-write, their reference counts atomic), and the snapshot keeps reading the bytes
    /// as they were. Taking one costs the number of chunks (a 10 MB text: about 5,000
    /// references), not the bytes: the bytes are copied by whoever reads it
    /// (`TextRopeSnapshotTests`).
    public struct Snapshot: Sendable {
        let parts: [ArraySlice<UInt8>]
        /// Where it starts in the text.
        public let start: Int
        /// Its length in UTF-8 bytes.
        public let count: Int

        /// The text (costs its length: made on the thread that needs it).
        public var string: String {
            guard count > 0 else { return "" }
            return String(unsafeUninitializedCapacity: count) { buffer in
                var written = 0
                for part in parts {
                    _ = UnsafeMutableBufferPointer(rebasing: buffer[written..<(written + part.count)]).initialize(from: part)
                    written += part.count
                }
                return written
            }
        }

        /// The ranges of its attachment characters, in the text's offsets (costs its length;
        /// no part cuts one: parts are chunks, which end between characters).
        public var attachmentRanges: [Range<Int>] {
            var found: [Range<Int>] = []
            var offset = start
            for part in parts {
                found += part.withUnsafeBufferPointer { AttributedText.attachmentRanges(in: $0, at: offset) }
                offset += part.count
            }
            return found
        }
    }
}
