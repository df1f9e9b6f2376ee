import Glibc
import XCTest
import EmendCore
@testable import EmendProviders

/// `[service]` of config.toml and EMEND_SERVICE decide where provider hosts run; the service's
/// directory is the user's own and closed to others, or it is not used.
final class ServiceRouteTests: XCTestCase {
    private func temporaryDirectory() -> String {
        var template = Array("/tmp/emend-route-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        return String(cString: made!)
    }

    func testServiceTableIsReadAndCheckedWithTheLine() throws {
        let config = try ProviderConfiguration.parse("[service]\nhosts = \"service\"\nidle_timeout_ms = 1500\n")
        XCTAssertEqual(config.service.hosts, .service)
        XCTAssertEqual(config.service.idleTimeoutMilliseconds, 1500)
        XCTAssertNil(try ProviderConfiguration.parse("").service.hosts)
        XCTAssertEqual(try ProviderConfiguration.parse("").service.idleTimeoutMilliseconds, 600_000)
        XCTAssertThrowsError(try ProviderConfiguration.parse("[service]\nhosts = \"shared\"\n")) { error in
            let message = (error as? EmendError)?.message ?? ""
            XCTAssertTrue(message.hasPrefix("config.toml:2:"), message)
            XCTAssertTrue(message.contains("\"service\" or \"process\""), message)
        }
        XCTAssertThrowsError(try ProviderConfiguration.parse("[service]\nidle = 3\n"))
    }

    func testTheEnvironmentOverridesTheFileWhichOverridesTheFrontEndsDefault() {
        let runtime = temporaryDirectory()
        defer { _ = rmdir(runtime + "/emend"); _ = rmdir(runtime) }
        var settings = ServiceSettings()
        let base = ["XDG_RUNTIME_DIR": runtime]
        XCTAssertEqual(HostRoute.resolve(environment: base, settings: settings, serviceByDefault: false), .ownProcesses)
        guard case .service(let endpoint) = HostRoute.resolve(environment: base, settings: settings, serviceByDefault: true) else {
            return XCTFail("the CLI's default is the service")
        }
        XCTAssertEqual(endpoint.socketPath, runtime + "/emend/service.sock")
        var info = stat()
        XCTAssertEqual(stat(runtime + "/emend", &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o700)
        settings.hosts = .process
        XCTAssertEqual(HostRoute.resolve(environment: base, settings: settings, serviceByDefault: true), .ownProcesses)
        var on = base
        on["EMEND_SERVICE"] = "on"
        if case .ownProcesses = HostRoute.resolve(environment: on, settings: settings, serviceByDefault: false) {
            XCTFail("EMEND_SERVICE=on did not win over the file")
        }
        settings.hosts = .service
        on["EMEND_SERVICE"] = "off"
        XCTAssertEqual(HostRoute.resolve(environment: on, settings: settings, serviceByDefault: true), .ownProcesses)
    }

    /// emend_provider_hosts: the user's file wins over an engine's SERVICE or DEFAULT, OWN
    /// ignores the file, EMEND_SERVICE decides over all three.
    func testAnEnginesPreferenceYieldsToTheFileExceptOwnAndEverythingToTheEnvironment() {
        let runtime = temporaryDirectory()
        defer { _ = rmdir(runtime + "/emend"); _ = rmdir(runtime) }
        let base = ["XDG_RUNTIME_DIR": runtime]
        func route(_ preference: HostPreference, file: ServiceSettings.Hosts?, environment: String? = nil) -> String {
            var settings = ServiceSettings()
            settings.hosts = file
            var env = base
            env["EMEND_SERVICE"] = environment
            switch HostRoute.resolve(environment: env, settings: settings, preference: preference) {
            case .ownProcesses: return "own"
            case .service(let endpoint):
                XCTAssertEqual(endpoint.socketPath, runtime + "/emend/service.sock")
                return "service"
            }
        }
        XCTAssertEqual(route(.ownUnlessConfigured, file: nil), "own")
        XCTAssertEqual(route(.ownUnlessConfigured, file: .service), "service")
        XCTAssertEqual(route(.serviceUnlessConfigured, file: nil), "service")
        XCTAssertEqual(route(.serviceUnlessConfigured, file: .process), "own")
        XCTAssertEqual(route(.serviceUnlessConfigured, file: .service), "service")
        XCTAssertEqual(route(.ownProcesses, file: nil), "own")
        XCTAssertEqual(route(.ownProcesses, file: .service), "own")
        for preference in [HostPreference.ownUnlessConfigured, .serviceUnlessConfigured, .ownProcesses] {
            XCTAssertEqual(route(preference, file: .process, environment: "on"), "service", "\(preference)")
            XCTAssertEqual(route(preference, file: .service, environment: "off"), "own", "\(preference)")
            XCTAssertEqual(route(preference, file: .service, environment: "0"), "own", "\(preference)")
            XCTAssertEqual(route(preference, file: nil, environment: "1"), "service", "\(preference)")
        }
    }

    func testADirectoryOpenToOthersIsClosedAndOneOfAnotherUserRefused() {
        let runtime = temporaryDirectory()
        defer { _ = rmdir(runtime + "/emend"); _ = rmdir(runtime) }
        XCTAssertEqual(mkdir(runtime + "/emend", 0o777), 0)
        XCTAssertEqual(chmod(runtime + "/emend", 0o777), 0)
        guard case .success = ServiceEndpoint.prepare(directory: runtime + "/emend") else { return XCTFail("refused its own directory") }
        var info = stat()
        XCTAssertEqual(stat(runtime + "/emend", &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o700)
        guard getuid() == 0 else { return }
        XCTAssertEqual(chown(runtime + "/emend", 65534, 65534), 0)
        var logged: [String] = []
        XCTAssertEqual(HostRoute.resolve(environment: ["XDG_RUNTIME_DIR": runtime, "EMEND_SERVICE": "on"], settings: ServiceSettings(),
                                         serviceByDefault: true, logger: { logged.append($0) }), .ownProcesses)
        XCTAssertTrue(logged.first?.contains("belongs to uid 65534") ?? false, "\(logged)")
    }
}
