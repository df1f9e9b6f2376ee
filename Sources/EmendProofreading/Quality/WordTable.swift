import Glibc

/// A set of words laid out as an open-addressing hash table in bytes, read through a
/// read-only mapping of a file (`LexiconCache`). Why: the English dictionaries' 150,000-odd
/// stems as `Set<String>` took some 8 MB of heap in every front end (each `emend lsp` and each
/// `emend proofread`); mapped from one file, their pages are the kernel's page cache, held once
/// however many processes read them.
///
/// Layout of one table (native byte order, `UInt32` fields at 4-byte alignment):
/// `slotCount` (a power of two), `blobCount`, `slotCount` slots (0: empty, else a word's
/// offset in the blob plus 1), then the blob: each word as a `UInt16` length and its UTF-8
/// bytes. A word's slot is found by `hash(of:)` and linear probing.
struct WordTable: @unchecked Sendable {
    /// The first byte of the table (inside a mapping that lives as long as the process: the
    /// installed lexicon is never released).
    private let base: UnsafeRawPointer
    private let slotCount: Int
    private let blob: UnsafeRawBufferPointer

    /// The table at the start of `bytes` and its size in bytes, or nil when `bytes` does not
    /// hold a whole, well-formed one (a truncated or foreign file is never read past its end).
    static func read(_ bytes: UnsafeRawBufferPointer) -> (table: WordTable, size: Int)? {
        guard bytes.count >= 8, let base = bytes.baseAddress, Int(bitPattern: base) % 4 == 0 else { return nil }
        let slotCount = Int(bytes.load(fromByteOffset: 0, as: UInt32.self))
        let blobCount = Int(bytes.load(fromByteOffset: 4, as: UInt32.self))
        guard slotCount > 0, slotCount & (slotCount - 1) == 0 else { return nil }
        let blobStart = 8 + 4 * slotCount
        let size = (blobStart + blobCount + 3) & ~3
        guard size <= bytes.count else { return nil }
        let blob = UnsafeRawBufferPointer(rebasing: bytes[blobStart..<(blobStart + blobCount)])
        return (WordTable(base: base, slotCount: slotCount, blob: blob), size)
    }

    /// The bytes of a table of `words` (appended to `out`, which must be 4-byte aligned in length).
    static func write(_ words: Set<String>, to out: inout [UInt8]) {
        var slotCount = 1
        while slotCount < max(2, words.count * 2) { slotCount <<= 1 }
        var slots = [UInt32](repeating: 0, count: slotCount)
        var blob: [UInt8] = []
        for word in words.sorted() {
            let bytes = Array(word.utf8)
            guard bytes.count <= Int(UInt16.max) else { continue }
            var slot = Int(hash(of: word) & UInt64(slotCount - 1))
            while slots[slot] != 0 { slot = (slot + 1) & (slotCount - 1) }
            slots[slot] = UInt32(blob.count + 1)
            withUnsafeBytes(of: UInt16(bytes.count)) { blob += $0 }
            blob += bytes
        }
        withUnsafeBytes(of: UInt32(slotCount)) { out += $0 }
        withUnsafeBytes(of: UInt32(blob.count)) { out += $0 }
        slots.withUnsafeBytes { out += $0 }
        out += blob
        while out.count % 4 != 0 { out.append(0) }
    }

    /// Whether the table has `word`, with `String`'s equality (canonically equivalent
    /// spellings are the same word, as in a `Set<String>`).
    func contains(_ word: String) -> Bool {
        let ascii = Self.isPlainASCII(word)
        let hash = Self.hash(of: word)
        var slot = Int(hash & UInt64(slotCount - 1))
        for _ in 0..<slotCount {
            let entry = Int(base.load(fromByteOffset: 8 + 4 * slot, as: UInt32.self))
            if entry == 0 { return false }
            let start = entry - 1
            guard start + 2 <= blob.count else { return false }
            let length = Int(blob.loadUnaligned(fromByteOffset: start, as: UInt16.self))
            guard start + 2 + length <= blob.count else { return false }
            let stored = UnsafeRawBufferPointer(rebasing: blob[(start + 2)..<(start + 2 + length)])
            if ascii {
                if stored.elementsEqual(word.utf8) { return true }
            } else if String(decoding: stored, as: UTF8.self) == word {
                return true
            }
            slot = (slot + 1) & (slotCount - 1)
        }
        return false
    }

    /// ASCII without a carriage return: each byte is one `Character`.
    static func isPlainASCII(_ word: String) -> Bool {
        word.utf8.allSatisfy { $0 < 0x80 && $0 != 0x0D }
    }

    /// 64-bit FNV-1a (stable across processes and builds: the table is a file) of a word's
    /// bytes when it is plain ASCII, else of one byte per `Character` — its own when it is one
    /// byte, 0xFF otherwise — so that canonically equivalent spellings (`é` composed or not),
    /// equal as `String`s, hash alike.
    static func hash(of word: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func add(_ byte: UInt8) {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        if isPlainASCII(word) {
            for byte in word.utf8 { add(byte) }
        } else {
            for character in word { add(character.utf8.count == 1 ? character.utf8.first! : 0xFF) }
        }
        return hash
    }
}
