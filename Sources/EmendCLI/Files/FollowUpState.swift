import FoundationEssentials
import EmendCore

/// Where a result sits in a document: `before` is `after` with `result` at `start` put back
/// to the original text `before[start..<originalEnd]`.
struct RegionSplit: Equatable {
    let start: Int
    let originalEnd: Int

    /// Finds a split of `after` = before[..<start] + result + before[originalEnd...], or nil
    /// when there is none (the document does not hold the result). Where several splits fit
    /// (the result repeats text around it), the one that starts nearest `near` is taken.
    static func find(before: [UInt8], after: [UInt8], result: [UInt8], near: Int = 0) -> RegionSplit? {
        guard after.count >= result.count else { return nil }
        var prefix = 0
        while prefix < before.count && prefix < after.count && before[prefix] == after[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < before.count && suffix < after.count
                && before[before.count - 1 - suffix] == after[after.count - 1 - suffix] { suffix += 1 }
        let low = max(0, after.count - result.count - suffix)
        let high = min(prefix, after.count - result.count)
        guard low <= high else { return nil }
        var best: RegionSplit?
        for start in low...high where after[start..<(start + result.count)].elementsEqual(result) {
            let originalEnd = before.count - (after.count - start - result.count)
            guard originalEnd >= start else { continue }
            if let found = best, abs(found.start - near) <= abs(start - near) { break }
            best = RegionSplit(start: start, originalEnd: originalEnd)
        }
        return best
    }
}

/// The last rewrite (or compose) of a file, so `emend follow-up` can refine it: kept in
/// `$XDG_STATE_HOME/emend/rewrites/<hash of the absolute path>.json`.
struct FollowUpState: Codable {
    var version = 1
    /// The file's absolute path (the key).
    var path: String
    /// The tool that made the result (`rewrite-friendly`, `compose`, ...) and its prompt.
    var tool: String
    var prompt: String?
    /// The selection the session was started with (UTF-8 bytes of the original document).
    var selectionStart: Int
    var selectionEnd: Int
    /// Where the region starts in the document (UTF-8 bytes).
    var regionStart: Int
    /// The region's text before the rewrite, and the latest result.
    var original: String
    var result: String
    /// What the file holds at `regionStart` now: the original, or a result once written.
    var inFile: String
    var provider: String?

    var writingTool: WritingTool? { WritingTool.allCases.first { $0.name == tool } }

    static func make(path: String, tool: WritingTool, prompt: String?, selection: Range<Int>, before: [UInt8], after: [UInt8],
                     result: String, inFile: String?, provider: String?) -> FollowUpState? {
        guard let split = RegionSplit.find(before: before, after: after, result: Array(result.utf8), near: selection.lowerBound) else {
            return nil
        }
        let original = String(decoding: before[split.start..<split.originalEnd], as: UTF8.self)
        return FollowUpState(path: path, tool: tool.name, prompt: prompt, selectionStart: selection.lowerBound,
                             selectionEnd: selection.upperBound, regionStart: split.start, original: original,
                             result: result, inFile: inFile ?? original, provider: provider)
    }

    /// The file's text with the original region put back (what the rewrite started from),
    /// or nil when the file no longer holds what the state says.
    func originalDocument(from file: [UInt8]) -> [UInt8]? {
        let held = Array(inFile.utf8)
        guard regionStart + held.count <= file.count, file[regionStart..<(regionStart + held.count)].elementsEqual(held) else {
            return nil
        }
        return Array(file[..<regionStart]) + Array(original.utf8) + Array(file[(regionStart + held.count)...])
    }

    static func fileName(for path: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in path.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return String(hash, radix: 16) + ".json"
    }

    static func location(for path: String, in directory: String?) -> String? {
        directory.map { Paths.join(Paths.join($0, "rewrites"), fileName(for: path)) }
    }

    static func load(for path: String, in directory: String?) -> FollowUpState? {
        guard let location = location(for: path, in: directory),
              let data = FileManager.default.contents(atPath: location),
              let state = try? JSONDecoder().decode(FollowUpState.self, from: data), state.path == path else { return nil }
        return state
    }

    /// Saves the state; a failure only warns (the result itself was delivered).
    func save(in directory: String?) {
        guard let directory, let location = FollowUpState.location(for: path, in: directory) else { return }
        do {
            try FileManager.default.createDirectory(atPath: Paths.directory(of: location), withIntermediateDirectories: true)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try AtomicFile.write(Array(try encoder.encode(self)), to: location, expected: nil)
        } catch let failure as CLIFailure {
            Terminal.err("emend: warning: could not save the result for follow-up: \(failure.message)\n")
        } catch {
            Terminal.err("emend: warning: could not save the result for follow-up in \(directory): \(error)\n")
        }
    }
}
