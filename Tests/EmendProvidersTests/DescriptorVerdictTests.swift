import CEmend
import EmendCore
import Foundation
import XCTest
@testable import EmendProviders
import EmendTestSupport

/// One verdict on descriptors: every plugin of Tests/Fixtures/descriptors goes through the
/// scanner (emend-scan, in C) and through the host's own check (PluginDescriptorCheck, in
/// Swift); both must give the verdict written in the fixture, reason for reason, and agree
/// on the record of a good one.
final class DescriptorVerdictTests: XCTestCase {
    private static let directory = PluginBuilder.repoRoot + "/Tests/Fixtures/descriptors"

    func testScannerAndHostGiveTheFixturesVerdict() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.directory)
            .filter { $0.hasSuffix(".c") }.sorted()
        XCTAssertGreaterThan(names.count, 30)
        for name in names {
            let expected = try verdict(written: Self.directory + "/" + name)
            let plugin = try build(name)
            let scanned = try scan(plugin)
            let loaded = load(plugin)
            XCTAssertEqual(scanned, expected, "scanner on \(name)")
            XCTAssertEqual(loaded, expected, "host on \(name)")
            if case .ok(let fromScanner) = scanned, case .ok(let fromHost) = loaded {
                XCTAssertEqual(fromScanner, fromHost, "records of \(name)")
            }
        }
    }

    /// The scanner's tool count comes from emend.h's last tool; the host's from WritingTool.
    func testTheToolsOfTheHeaderAreTheToolsOfTheHost() {
        XCTAssertEqual(WritingTool.allCases.count, Int(EMEND_TOOL_FOLLOW_UP.rawValue) + 1)
        XCTAssertEqual(PluginToolBits.known, (1 << (EMEND_TOOL_FOLLOW_UP.rawValue + 1)) - 1)
    }

    func testAReportInAnotherFormatSaysSo() {
        XCTAssertEqual(ScanReport("ok\nid=org.x\n"),
                       .broken("the scanner writes report format 1, this host reads 2 (emend-scan and libemend come from different builds)"))
        XCTAssertEqual(ScanReport("broken\nformat=2\nreason=why\n"), .broken("why"))
    }

    // MARK: - the two checks

    private enum Verdict: Equatable {
        case ok(ProviderRecord?) // the record, where the check made one
        case broken(String)

        static func == (a: Verdict, b: Verdict) -> Bool {
            switch (a, b) {
            case (.ok, .ok): true
            case (.broken(let x), .broken(let y)): x == y
            default: false
            }
        }
    }

    /// `verdict: ok` or `verdict: broken: REASON` on the fixture's first line.
    private func verdict(written path: String) throws -> Verdict {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let first = String(text.prefix { $0 != "\n" })
        guard first.hasPrefix("/* verdict: "), first.hasSuffix(" */") else {
            throw XCTSkip("\(path) has no verdict line")
        }
        let verdict = first.dropFirst("/* verdict: ".count).dropLast(" */".count)
        if verdict == "ok" { return .ok(nil) }
        XCTAssertTrue(verdict.hasPrefix("broken: "), path)
        return .broken(String(verdict.dropFirst("broken: ".count))
            .replacingOccurrences(of: "{MIN}", with: String(MemoryLayout<emend_provider_descriptor>.size)))
    }

    private func build(_ name: String) throws -> String {
        let output = DiscoveryFixtures.buildDirectory + "/verdict-" + name.replacingOccurrences(of: ".c", with: ".so")
        XCTAssertNoThrow(try TestCompiler.plugin(Self.directory + "/" + name, to: output), "cc \(name)")
        return output
    }

    private func scan(_ plugin: String) throws -> Verdict {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: DiscoveryFixtures.scanner)
        process.arguments = ["plugin", plugin]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        switch ScanReport(text) {
        case .ok(let fields)?: return .ok(ScanReport.pluginRecord(path: plugin, fields: fields))
        case .broken(let reason)?: return .broken(reason)
        case nil: return .broken("unreadable report: \(text)")
        }
    }

    /// What the host makes of the descriptor (PluginLibrary.load would add the path to the
    /// reason and keep the library loaded).
    private func load(_ plugin: String) -> Verdict {
        guard let handle = dlopen(plugin, RTLD_NOW | RTLD_LOCAL), let symbol = dlsym(handle, "emend_provider_entry") else {
            return .broken("cannot load \(plugin)")
        }
        let entry = unsafeBitCast(symbol, to: (@convention(c) () -> UnsafePointer<emend_provider_descriptor>?).self)
        guard let pointer = entry() else { return .broken("entry returned NULL") }
        do {
            return .ok(try PluginDescriptorCheck.record(of: PluginDescriptorCheck.copy(pointer), path: plugin))
        } catch {
            return .broken(error.message)
        }
    }
}
