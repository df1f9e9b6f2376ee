import Foundation
import XCTest
import EmendTestSupport

/// The Hunspell plugin's quick view (providers/hunspell/quick.c: its dictionary loaded from a
/// copy of the .aff with MAXNGRAMSUGS 0, read by Hunspell through /proc/self/fd) inside a real
/// sandboxed provider host, the plugin found by discovery, as `emend` runs it for a user; and
/// its fallback to the .aff as it is when Hunspell cannot read the copy. Which one serves shows
/// in the suggestions: for "recieve" Hunspell's edits give "receive" and "relieve", and only
/// the n-gram scan of the whole dictionary (Hunspell 1.7.1 runs it for every word unless the
/// quick view stops it) adds the far "reverie"; "acomodashun", which no edit mends, gets the
/// scan's "accommodation" either way (the dictionary as it is, loaded on the plugin's thread).
final class HunspellQuickViewHostTests: XCTestCase {
    static let text = "We recieve the acomodashun for our stories.\n"

    private func sandbox() throws -> CLISandbox {
        let sandbox = try RealCheckers.sandbox()
        sandbox.environment["EMEND_LOG"] = "1"
        try "[providers.\"org.emend.hunspell\"]\ntimeout_ms = 600000\nsuggestion_disk_cache = false\n"
            .write(toFile: sandbox.root + "/config/emend/config.toml", atomically: true, encoding: .utf8)
        return sandbox
    }

    private func proofread(_ sandbox: CLISandbox) -> CLISandbox.Result {
        sandbox.write("note.txt", Self.text)
        return sandbox.run(["proofread", "--provider", "org.emend.hunspell", "--json", "note.txt"], timeout: 600)
    }

    /// The words the JSON output flags, each with its replacements (the first is the edit's).
    private func flagged(_ stdout: String) throws -> [String: [String]] {
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any], stdout)
        let matches = try XCTUnwrap(json["matches"] as? [[String: Any]], stdout)
        let text = Array(Self.text.utf8)
        var words: [String: [String]] = [:]
        for match in matches {
            let offset = try XCTUnwrap(match["offset"] as? Int), length = try XCTUnwrap(match["length"] as? Int)
            let replacements = (match["replacements"] as? [[String: Any]] ?? []).compactMap { $0["value"] as? String }
            words[String(decoding: text[offset..<offset + length], as: UTF8.self)] = replacements
        }
        return words
    }

    func testTheQuickViewServesInTheSandboxedHost() throws {
        let sandbox = try sandbox()
        let result = proofread(sandbox)
        let words = try flagged(result.stdout)
        XCTAssertEqual(Set(words.keys), ["recieve", "acomodashun"], result.stdout + result.stderr)
        XCTAssertEqual(words["recieve"], ["receive", "relieve"], "the n-gram scan ran for a word the edits mend (reverie)")
        XCTAssertEqual(words["acomodashun"]?.first, "accommodation", "the scan of the dictionary as it is, loaded on its thread")
    }

    /// The host started with /proc hidden (an empty tmpfs over it, in a user and mount
    /// namespace of its own: `unshare`), as in a container without /proc: the memfd copy is
    /// made, but Hunspell cannot open /proc/self/fd/N and, as it never fails, loads the .dic
    /// without affixes or MAXNGRAMSUGS 0. The plugin must see that (quick_view_fault) and load
    /// the .aff as it is: right words, and every suggestion scans ("reverie" is back).
    func testWithoutProcTheDictionaryAsItIsServes() throws {
        let sandbox = try sandbox()
        let host = URL(fileURLWithPath: CLISandbox.executable).deletingLastPathComponent().appendingPathComponent("emend-provider-host").path
        let probe = try? TestProcess.shell("unshare -r -m sh -c 'mount -t tmpfs none /proc && echo hidden'")
        guard let probe, probe.contains("hidden") else { throw XCTSkip("unshare cannot hide /proc here (no user namespaces)") }
        let wrapper = sandbox.root + "/host-without-proc"
        try """
            #!/bin/sh
            exec unshare -r -m sh -c 'mount -t tmpfs none /proc && exec "$0" "$@"' '\(host)' "$@"

            """.write(toFile: wrapper, atomically: true, encoding: .utf8)
        chmod(wrapper, 0o755)
        sandbox.environment["EMEND_PROVIDER_HOST"] = wrapper
        let result = proofread(sandbox)
        let words = try flagged(result.stdout)
        XCTAssertEqual(Set(words.keys), ["recieve", "acomodashun"],
                       "the .aff was read (\"stories\" is \"story\" with an affix): " + result.stdout + result.stderr)
        XCTAssertEqual(words["recieve"]?.first, "receive")
        XCTAssertTrue(words["recieve"]?.contains("reverie") ?? false, "the dictionary as it is scans for every word: \(words)")
        XCTAssertEqual(words["acomodashun"]?.first, "accommodation")
    }
}
