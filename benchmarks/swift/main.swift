// EmendBenchmarks: throughput of TextAlignment.edits(from:to:) on a large document.
//
// Generates a deterministic ~1 MB English-like text (seeded PRNG, words and sentences in
// paragraphs), changes 1% of its words, and times TextAlignment.edits(from:to:) (best of N runs).
// The edits are checked to turn the original into the proposed text.
//
// Usage: EmendBenchmarks [--bytes N] [--runs N] [--percent P]
//        EmendBenchmarks --providers DIR --scanner PATH [--cold-runs N] [--warm-runs N]
//        EmendBenchmarks --facts [--runs N]
//        EmendBenchmarks --quality DIR --providers DIR --scanner PATH
//        EmendBenchmarks --stream PIECES
//        EmendBenchmarks --edits COUNT [--shapes ascending,descending,shuffled,accept,every-word,engine-edit,engine-adopt,rewrite,rewrite-engine-edit,refused-rewrite,utf16-building,reflow,shrink-rewrite]
// The second form prints the discovery figures instead (DiscoveryBenchmark.swift), the third
// the fact guard's cost by the size of the text (FactsBenchmark.swift), the fourth the
// proofreading-quality figures (QualityBenchmark.swift, benchmarks/quality/run.sh), the
// fifth the longest dispatch while a provider streams (StreamBenchmark.swift), the sixth the
// longest dispatch while very many tiny edits are delivered and reverted (EditsBenchmark.swift).
import EmendCore
import EmendText

#if canImport(Glibc)
import Glibc
#endif

let vocabulary: [String] = """
    the of and to in is was that for it with as his on be at by had are but from or have an they which
    one you were her all there been has when who will more no if out so said what up its about into than
    them can only other new some could time these two may then do first any my now such like our over
    man me even most made after also did many before must through back years where much your way well
    down should because each just those people how too little state good very make world still own see
    men work long get here between both life being under never day same another know while last might us
    great old year off come since against go came right used take three states himself few house use
    during without again place around however home small found thought went say part once general high
    upon school every number often word write river garden window letter morning evening summer winter
    quiet bright simple careful gentle distant ancient modern ordinary curious silver golden wooden paper
    table chair bridge mountain valley forest harbor market station village library kitchen question
    answer reason moment minute history science music picture journey promise message problem method
    """.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)

func capitalized(_ word: String) -> String {
    guard let first = word.first else { return word }
    return first.uppercased() + word.dropFirst()
}

/// Words of a document: sentences of 6–20 words, 3–7 sentences per paragraph, until `bytes` are reached.
func generateWords(bytes: Int, rng: inout SplitMix64) -> [String] {
    var words: [String] = []
    var size = 0
    while size < bytes {
        let sentences = 3 + rng.below(5)
        for s in 0..<sentences {
            let length = 6 + rng.below(15)
            for w in 0..<length {
                var word = vocabulary[rng.below(vocabulary.count)]
                if w == 0 { word = capitalized(word) }
                if w == length - 1 { word += rng.below(8) == 0 ? "?" : "." }
                else if rng.below(12) == 0 { word += "," }
                // The separator that follows this word.
                let separator = w < length - 1 || s < sentences - 1 ? " " : "\n\n"
                words.append(word + separator)
                size += word.utf8.count + separator.utf8.count
            }
        }
    }
    return words
}

/// A copy of `words` with `percent`% of them swapped for another vocabulary word (punctuation kept).
func changeWords(_ words: [String], percent: Double, rng: inout SplitMix64) -> (words: [String], changed: Int) {
    var out = words
    let target = Int((Double(words.count) * percent / 100).rounded())
    var chosen = Set<Int>()
    while chosen.count < target { chosen.insert(rng.below(words.count)) }
    for index in chosen {
        let word = out[index]
        let core = word.prefix(while: { $0.isLetter })
        let tail = word.dropFirst(core.count)
        var replacement = vocabulary[rng.below(vocabulary.count)]
        while replacement == core.lowercased() { replacement = vocabulary[rng.below(vocabulary.count)] }
        if core.first?.isUppercase == true { replacement = capitalized(replacement) }
        out[index] = replacement + tail
    }
    return (out, chosen.count)
}

func nanoseconds(_ body: () -> Void) -> UInt64 { nanoseconds(on: CLOCK_MONOTONIC, body) }

/// The CPU time the calling thread spent in `body` (time it was preempted left out).
func threadNanoseconds(_ body: () -> Void) -> UInt64 { nanoseconds(on: CLOCK_THREAD_CPUTIME_ID, body) }

private func nanoseconds(on clock: clockid_t, _ body: () -> Void) -> UInt64 {
    var start = timespec(), end = timespec()
    clock_gettime(clock, &start)
    body()
    clock_gettime(clock, &end)
    return UInt64(end.tv_sec - start.tv_sec) &* 1_000_000_000 &+ UInt64(end.tv_nsec) &- UInt64(start.tv_nsec)
}

func fail(_ message: String) -> Never {
    let line = Array("EmendBenchmarks: FAIL: \(message)\n".utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(1)
}

// ---- arguments ----
var targetBytes = 1_000_000
var runs = 5
var percent = 1.0
var providersDirectory: String?
var scannerPath: String?
var coldRuns = 3
var warmRuns = 7
var qualityDirectory: String?
var streamPieces: Int?
var editCount: Int?
var editShapes: Set<String>?
var arguments = CommandLine.arguments.dropFirst()
var factsOnly = false
while let flag = arguments.popFirst() {
    if flag == "--facts" {
        factsOnly = true
        continue
    }
    guard let value = arguments.popFirst() else { fail("missing value for \(flag)") }
    switch flag {
    case "--bytes": targetBytes = Int(value) ?? targetBytes
    case "--runs": runs = max(1, Int(value) ?? runs)
    case "--percent": percent = Double(value) ?? percent
    case "--providers": providersDirectory = value
    case "--quality": qualityDirectory = value
    case "--scanner": scannerPath = value
    case "--cold-runs": coldRuns = max(1, Int(value) ?? coldRuns)
    case "--warm-runs": warmRuns = max(1, Int(value) ?? warmRuns)
    case "--stream": streamPieces = max(1, Int(value) ?? 300_000)
    case "--edits": editCount = max(1, Int(value) ?? 1_000_000)
    case "--shapes": editShapes = Set(value.split(separator: ",").map(String.init))
    default: fail("unknown argument \(flag)")
    }
}

// ---- proofreading quality (instead of the alignment figures) ----
if let quality = qualityDirectory {
    guard let providers = providersDirectory, let scanner = scannerPath else { fail("--quality needs --providers DIR --scanner PATH") }
    QualityBenchmark(dataDirectory: quality, providers: providers, scanner: scanner).run()
    exit(0)
}

// ---- discovery (instead of the alignment figures) ----
if let providers = providersDirectory {
    guard let scanner = scannerPath else { fail("--providers needs --scanner PATH (the emend-scan executable)") }
    DiscoveryBenchmark(providers: providers, scanner: scanner, coldRuns: coldRuns, warmRuns: warmRuns).run()
    exit(0)
}

// ---- the fact guard (instead of the alignment figures) ----
if factsOnly {
    FactsBenchmark(runs: runs).run()
    exit(0)
}

// ---- streaming (instead of the alignment figures) ----
if let pieces = streamPieces {
    StreamBenchmark(pieces: pieces).run()
    exit(0)
}

// ---- many tiny edits (instead of the alignment figures) ----
if let count = editCount {
    EditsBenchmark(count: count, shapes: editShapes).run()
    exit(0)
}

// ---- the documents ----
var rng = SplitMix64(seed: 0x454D_454E_44)  // "EMEND"
let originalWords = generateWords(bytes: targetBytes, rng: &rng)
let (proposedWords, changedWords) = changeWords(originalWords, percent: percent, rng: &rng)
let original = originalWords.joined()
let proposed = proposedWords.joined()
let megabytes = Double(original.utf8.count) / 1_000_000

@MainActor
func measure(_ granularity: AlignmentGranularity, label: String) {
    var edits: [TextEdit] = []
    var best = UInt64.max
    var total: UInt64 = 0
    for _ in 0..<runs {
        let elapsed = nanoseconds { edits = TextAlignment.edits(from: original, to: proposed, granularity: granularity) }
        best = min(best, elapsed)
        total += elapsed
    }
    guard TextEdit.apply(edits, to: original) == proposed else {
        fail("\(label): the \(edits.count) edits do not turn the original into the proposed text")
    }
    guard !edits.isEmpty, granularity == .character || edits.count <= changedWords else {
        fail("\(label): \(edits.count) edits for \(changedWords) changed words")
    }
    let seconds = Double(best) / 1e9
    let line = "alignment (\(label)): \(fmt(megabytes / seconds, 1)) MB/s"
        + " — best \(fmt(seconds * 1000, 2)) ms of \(runs) (mean \(fmt(Double(total) / Double(runs) / 1e6, 2)) ms)"
        + " on \(original.utf8.count) bytes, \(originalWords.count) words, \(changedWords) changed (\(fmt(percent, 1))%),"
        + " \(edits.count) edits"
    print(line)
}

func fmt(_ value: Double, _ decimals: Int) -> String {
    var buffer = [CChar](repeating: 0, count: 64)
    _ = withVaList([value]) { vsnprintf(&buffer, buffer.count, "%.\(decimals)f", $0) }
    return String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

// Warm up once (page faults, lazy statics) before timing.
_ = TextAlignment.edits(from: original, to: proposed)
measure(.word, label: "word granularity")
measure(.character, label: "character granularity")
