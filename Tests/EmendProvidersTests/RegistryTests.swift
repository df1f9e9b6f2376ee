import XCTest
import EmendCore
import EmendProofreading
@testable import EmendProviders

/// A provider made by the counting factory below.
private struct MadeProvider: WritingProvider {
    let id: String
    let tools: Set<WritingTool>
    func run(_ request: ProviderRequest, sink: ProviderSink) -> ProviderOutcome { .finished }
}

/// Counts how often each record is made; refuses the ids in `failing`.
private final class CountingFactory: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [String: Int] = [:]
    let failing: Set<String>
    init(failing: Set<String> = []) { self.failing = failing }

    func count(_ id: String) -> Int { lock.withLock { counts[id] ?? 0 } }
    var total: Int { lock.withLock { counts.values.reduce(0, +) } }

    var factory: ProviderFactory {
        ProviderFactory { (record, _) throws(EmendError) -> WritingProvider in
            self.lock.withLock { self.counts[record.id, default: 0] += 1 }
            if self.failing.contains(record.id) { throw EmendError(.provider, "cannot open \(record.path)") }
            return MadeProvider(id: record.id, tools: record.tools)
        }
    }
}

private func record(_ id: String, priority: Int = 0, tools: Set<WritingTool> = [.proofread, .summary],
                    network: Bool = false, kind: ProviderRecord.Kind = .plugin) -> ProviderRecord {
    ProviderRecord(path: "/providers/\(id).so", kind: kind, id: id, name: id, version: "1", tools: tools,
                   languages: ["*"], outputs: 1, streams: false, usesNetwork: network, priority: priority)
}

final class RegistryTests: XCTestCase {
    private func registry(_ records: [ProviderRecord], config: String = "", builtins: [WritingProvider] = [FixtureProvider()],
                          factory: CountingFactory = CountingFactory()) throws -> ProviderRegistry {
        var configuration = try ProviderConfiguration.parse(config, source: "config.toml")
        configuration.path = "/home/u/.config/emend/config.toml"
        return ProviderRegistry(discovery: DiscoveryResult(records: records), configuration: configuration,
                                builtins: builtins, logger: { _ in }, factory: factory.factory)
    }

    func testHighestPriorityWinsThenIdAndBuiltinsComeLast() throws {
        let r = try registry([record("org.b", priority: 5), record("org.a", priority: 5), record("org.low", priority: -100)])
        XCTAssertEqual(try r.provider(for: .proofread, named: nil).id, "org.a")
        XCTAssertEqual(r.candidates(for: .proofread).map(\.id), ["org.a", "org.b", "org.low", "org.emend.fixture"])
        XCTAssertEqual(try r.provider(for: .compose, named: nil).id, "org.emend.fixture", "only the built-in serves compose")
    }

    func testConfigurationOrderComesBeforePriority() throws {
        let r = try registry([record("org.high", priority: 50), record("org.mid", priority: 10), record("org.off")],
                             config: """
                             [tools]
                             proofread = ["org.missing", "org.off", "org.mid"]
                             summary = ["org.emend.fixture"]
                             [providers."org.off"]
                             enabled = false
                             """)
        XCTAssertEqual(try r.provider(for: .proofread, named: nil).id, "org.mid", "unknown and disabled ids are passed over")
        XCTAssertEqual(r.candidates(for: .proofread).map(\.id), ["org.mid", "org.high", "org.emend.fixture"])
        XCTAssertEqual(try r.provider(for: .summary, named: nil).id, "org.emend.fixture")
    }

    func testNamedProviderAndItsErrors() throws {
        let r = try registry([record("org.speller", tools: [.proofread]), record("org.off"), record("org.cloud", network: true)],
                             config: "[providers.\"org.off\"]\nenabled = false\n")
        XCTAssertEqual(try r.provider(for: .proofread, named: "org.speller").id, "org.speller")
        XCTAssertEqual(try r.provider(for: .proofread, named: "org.emend.fixture").id, "org.emend.fixture")

        func error(_ tool: WritingTool, _ id: String) -> EmendError? {
            do { _ = try r.provider(for: tool, named: id); return nil } catch { return error }
        }
        XCTAssertEqual(error(.proofread, "org.nope")?.status, .notFound)
        XCTAssertEqual(error(.proofread, "org.nope")?.message,
                       "no provider \"org.nope\" (installed: org.emend.fixture, org.speller, org.off, org.cloud)")
        XCTAssertEqual(error(.summary, "org.speller"),
                       EmendError(.unsupported, "provider \"org.speller\" does not serve summary (it serves proofread)"))
        XCTAssertEqual(error(.proofread, "org.off"), EmendError(.refused, "provider \"org.off\" is off: disabled in config.toml"))
        XCTAssertEqual(error(.proofread, "org.cloud"),
                       EmendError(.refused, "provider \"org.cloud\" is off: uses the network; set network = true in config.toml"))
    }

    func testNetworkProvidersStayOffUntilEnabled() throws {
        let cloud = record("org.cloud", priority: 100, network: true)
        let off = try registry([cloud])
        XCTAssertEqual(try off.provider(for: .proofread, named: nil).id, "org.emend.fixture")
        XCTAssertEqual(off.entries.first { $0.id == "org.cloud" }?.disabledReason, "uses the network; set network = true in config.toml")

        let on = try registry([cloud], config: "network = true")
        XCTAssertEqual(try on.provider(for: .proofread, named: nil).id, "org.cloud")
        XCTAssertTrue(on.entries.allSatisfy(\.isEnabled))

        let disabledAnyway = try registry([cloud], config: "network = true\n[providers.\"org.cloud\"]\nenabled = false")
        XCTAssertEqual(disabledAnyway.entries.first { $0.id == "org.cloud" }?.disabledReason, "disabled in config.toml")
    }

    func testProvidersAreMadeOnFirstUseAndKept() throws {
        let factory = CountingFactory()
        let r = try registry([record("org.a", priority: 2), record("org.b", priority: 1), record("org.c", tools: [.table])],
                             factory: factory)
        XCTAssertEqual(factory.total, 0, "nothing is made before it is asked for")
        let first = try r.provider(for: .proofread, named: nil)
        let again = try r.provider(for: .summary, named: nil)
        XCTAssertEqual(first.id, "org.a")
        XCTAssertEqual(again.id, "org.a")
        XCTAssertEqual(factory.count("org.a"), 1)
        XCTAssertEqual(factory.count("org.b"), 0)
        XCTAssertEqual(factory.count("org.c"), 0)
        _ = try r.provider(for: .proofread, named: "org.b")
        XCTAssertEqual(factory.total, 2)
    }

    func testAProviderThatCannotBeMadeIsBrokenAndTheNextOneServes() throws {
        let factory = CountingFactory(failing: ["org.bad"])
        let r = try registry([record("org.bad", priority: 9, kind: .simple), record("org.good", priority: 1)], factory: factory)
        XCTAssertEqual(try r.provider(for: .proofread, named: nil).id, "org.good")
        XCTAssertEqual(r.entries.first { $0.id == "org.bad" }?.disabledReason, "broken: cannot open /providers/org.bad.so")
        XCTAssertEqual(try r.provider(for: .proofread, named: nil).id, "org.good")
        XCTAssertEqual(factory.count("org.bad"), 1, "a broken provider is not tried again")
        XCTAssertThrowsError(try r.provider(for: .proofread, named: "org.bad")) { error in
            XCTAssertEqual((error as? EmendError)?.message, "provider \"org.bad\" is off: broken: cannot open /providers/org.bad.so")
        }
    }

    func testNoEnabledProviderNamesWhatIsOff() throws {
        let r = try registry([record("org.cloud", network: true)], builtins: [])
        XCTAssertThrowsError(try r.provider(for: .proofread, named: nil)) { error in
            XCTAssertEqual(error as? EmendError, EmendError(.unsupported,
                "no enabled provider serves proofread; off: org.cloud (uses the network; set network = true in config.toml)"))
        }
    }

    func testBuiltinKeepsItsIdAndCanBeDisabled() throws {
        let r = try registry([record("org.emend.fixture", priority: 99)], config: "")
        XCTAssertEqual(r.entries.map(\.id), ["org.emend.fixture"])
        XCTAssertTrue(r.entries[0].isBuiltin)
        XCTAssertTrue((try r.provider(for: .proofread, named: nil) as? FilteringProofreader)?.base is FixtureProvider,
                      "proofreading built-ins pass the filter too")

        let off = try registry([record("org.x")], config: "[providers.\"org.emend.fixture\"]\nenabled = false")
        XCTAssertEqual(off.entries.first { $0.id == "org.emend.fixture" }?.disabledReason, "disabled in config.toml")
        XCTAssertEqual(try off.provider(for: .proofread, named: nil).id, "org.x")
    }

    func testProofreadCombinesEveryPluginOrWhatTheConfigLists() throws {
        let plugins = [record("org.spell", priority: 1), record("org.grammar", priority: 5), record("org.sum", tools: [.summary])]
        let all = try registry(plugins)
        XCTAssertEqual(try all.membersToCombine(for: .proofread).map(\.id), ["org.grammar", "org.spell"],
                       "every enabled plugin that proofreads, by priority; not the built-in fixture")
        // Two or more come as one combined provider, over the registry's one instance of each:
        // every coordinator of the process shares the same checkers (one warm process each).
        let first = try XCTUnwrap(try all.proofreader(for: .proofread) as? CombinedProofreader)
        let second = try XCTUnwrap(try all.proofreader(for: .proofread) as? CombinedProofreader)
        XCTAssertEqual(first.members.map(\.id), ["org.grammar", "org.spell"])
        XCTAssertTrue(zip(first.members, second.members).allSatisfy { $0 as AnyObject === $1 as AnyObject })
        let listed = try registry(plugins, config: "[tools]\nproofread = [\"org.spell\"]\n")
        XCTAssertEqual(try listed.proofreader(for: .proofread).id, "org.spell")
        let none = try registry([])
        XCTAssertEqual(try none.proofreader(for: .proofread).id, "org.emend.fixture",
                       "the fixture only when no plugin proofreads")
        let failing = try registry(plugins, factory: CountingFactory(failing: ["org.grammar"]))
        XCTAssertEqual(try failing.proofreader(for: .proofread).id, "org.spell", "a broken one is left out")
    }
}
