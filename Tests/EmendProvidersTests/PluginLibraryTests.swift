import Foundation
import XCTest
import CEmend
import EmendCore
@testable import EmendProviders

/// Loading plugins: the descriptor becomes a record; every broken plugin gives an error that
/// names its path and the reason, and the test process lives on.
final class PluginLibraryTests: XCTestCase {
    private func loadError(_ path: String, file: StaticString = #filePath, line: UInt = #line) -> EmendError? {
        do {
            _ = try PluginLibrary.load(path: path)
            XCTFail("\(path) loaded", file: file, line: line)
            return nil
        } catch {
            XCTAssertTrue(error.message.hasPrefix(path + ": "), "\(error.message) does not start with the path", file: file, line: line)
            return error
        }
    }

    func testExampleDescriptorBecomesARecord() throws {
        let path = try PluginBuilder.example("c")
        let record = try PluginLibrary.load(path: path).record
        XCTAssertEqual(record, ProviderRecord(path: path, kind: .plugin, id: "org.emend.example.c", name: "Example speller (C)",
                                              version: "1.0.0", tools: [.proofread, .rewriteConcise], languages: ["en"],
                                              outputs: 5, streams: true, usesNetwork: false, priority: 10))
    }

    func testRustExampleDescriptorBecomesARecord() throws {
        try XCTSkipUnless(PluginBuilder.hasTool("cargo"), "cargo is not installed")
        let path = try PluginBuilder.example("rust")
        let record = try PluginLibrary.load(path: path).record
        XCTAssertEqual(record.id, "org.emend.example.rust")
        XCTAssertEqual(record.tools, [.keyPoints, .list])
        XCTAssertEqual(record.languages, ["*"])
        XCTAssertFalse(record.streams)
    }

    func testLanguagesAndFlags() throws {
        let path = try PluginBuilder.fixture("descriptor", ["LANGUAGES=\"en-US, de,,fr\"",
                                                            "FLAGS=EMEND_PROVIDER_STREAMS|EMEND_PROVIDER_USES_NETWORK"])
        let library = try PluginLibrary.load(path: path)
        XCTAssertEqual(library.record.languages, ["en-US", "de", "fr"])
        XCTAssertTrue(library.record.streams)
        XCTAssertTrue(library.record.usesNetwork)
        XCTAssertFalse(library.isConcurrent)
        XCTAssertEqual(library.record.priority, 3)
        XCTAssertEqual(library.record.tools, [.proofread, .rewriteFriendly, .rewriteProfessional, .rewriteConcise,
                                              .rewriteDescribed, .followUp])
    }

    func testSamePathLoadsOnceAndCallsEntryOnce() throws {
        let path = try PluginBuilder.fixture("descriptor", variant: "once")
        let first = try PluginLibrary.load(path: path)
        let second = try PluginLibrary.load(path: path)
        XCTAssertTrue(first === second)
        let entryCalls = PluginBuilder.function(path, "descriptor_entry_calls", as: (@convention(c) () -> Int32).self)
        XCTAssertEqual(entryCalls(), 1)
    }

    func testTextFileNamedSoIsRefusedWithTheLoaderMessage() throws {
        let path = PluginBuilder.directory + "/x.so"
        try String(repeating: "this is a text file, not a shared object\n", count: 20).write(toFile: path, atomically: true, encoding: .utf8)
        let error = try XCTUnwrap(loadError(path))
        XCTAssertEqual(error.status, .provider)
        XCTAssertTrue(error.message.contains("invalid ELF header"), error.message)
    }

    func testMissingFileIsRefused() throws {
        let path = PluginBuilder.directory + "/does-not-exist.so"
        let error = try XCTUnwrap(loadError(path))
        XCTAssertTrue(error.message.contains("No such file"), error.message)
    }

    func testMissingEntrySymbol() throws {
        let path = try PluginBuilder.fixture("descriptor", ["NO_ENTRY"])
        let error = try XCTUnwrap(loadError(path))
        XCTAssertEqual(error.status, .provider)
        XCTAssertEqual(error.message, "\(path): no emend_provider_entry symbol")
    }

    func testEntryReturningNull() throws {
        let path = try PluginBuilder.fixture("descriptor", ["NULL_DESCRIPTOR"])
        XCTAssertEqual(loadError(path)?.message, "\(path): emend_provider_entry returned NULL")
    }

    func testWrongABIVersion() throws {
        let path = try PluginBuilder.fixture("descriptor", ["ABI=7"])
        let error = try XCTUnwrap(loadError(path))
        XCTAssertEqual(error.status, .provider)
        XCTAssertEqual(error.message, "\(path): ABI version 7, this host speaks 1")
    }

    func testStructTooSmall() throws {
        let minimum = MemoryLayout<emend_provider_descriptor>.size
        for size in [4, 16, minimum - 8] {
            let path = try PluginBuilder.fixture("descriptor", ["STRUCT_SIZE=\(size)"])
            let error = try XCTUnwrap(loadError(path))
            XCTAssertEqual(error.status, .structSize)
            XCTAssertTrue(error.message.contains("struct_size \(size) is smaller than the first version (\(minimum))"), error.message)
        }
    }

    func testLargerStructFromANewerHeaderLoads() throws {
        let path = try PluginBuilder.fixture("descriptor", ["STRUCT_SIZE=sizeof(emend_provider_descriptor)+64"], variant: "larger")
        XCTAssertNoThrow(try PluginLibrary.load(path: path))
    }

    func testNullRequiredFunctions() throws {
        for (define, name) in [("NO_CREATE", "create"), ("NO_RUN", "run"), ("NO_DESTROY", "destroy")] {
            let path = try PluginBuilder.fixture("descriptor", [define])
            let error = try XCTUnwrap(loadError(path))
            XCTAssertEqual(error.status, .invalidArgument)
            XCTAssertEqual(error.message, "\(path): descriptor has no \(name) function")
        }
    }

    func testBadFields() throws {
        let cases: [(String, String)] = [
            ("ID=NULL", "descriptor has no id"),
            ("ID=\"\"", "is not a reverse-DNS name"),
            ("ID=\"my plugin\"", "id \"my plugin\" is not a reverse-DNS name"),
            ("NAME=NULL", "descriptor has no name"),
            ("VERSION_TEXT=NULL", "descriptor has no version"),
            ("NAME=\"bad \\xff name\"", "descriptor name is not valid UTF-8"),
            ("TOOLS=0", "descriptor serves no tools"),
            ("TOOLS=(1u<<20)|1u", "descriptor tools 0x100001 has bits for unknown tools"),
        ]
        for (define, reason) in cases {
            let path = try PluginBuilder.fixture("descriptor", [define])
            let error = try XCTUnwrap(loadError(path))
            XCTAssertEqual(error.status, .invalidArgument, define)
            XCTAssertTrue(error.message.contains(reason), "\(define): \(error.message)")
        }
    }

    func testNullLanguagesMeansAny() throws {
        let path = try PluginBuilder.fixture("descriptor", ["LANGUAGES=NULL"])
        XCTAssertEqual(try PluginLibrary.load(path: path).record.languages, ["*"])
    }
}
