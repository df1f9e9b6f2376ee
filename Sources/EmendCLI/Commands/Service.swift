import ArgumentParser
import Glibc
import EmendCore
import EmendProviders

/// `emend service`: the per-user checker service that holds the provider hosts for every
/// front end (this command, each `emend lsp`, editors), started on first use and gone after
/// its idle time. These subcommands show it, stop it, or run it in the foreground.
struct Service: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "service",
        abstract: "Show, stop or run the checker service that keeps the providers loaded for all your editors and commands.",
        discussion: """
            The first command or language server that needs a provider starts the service \
            (emend-provider-host --service) and every later one reuses its warm providers. It \
            listens on $XDG_RUNTIME_DIR/emend/service.sock (/tmp/emend-UID without \
            XDG_RUNTIME_DIR), only for your own user, and exits after [service] \
            idle_timeout_ms of config.toml (default 10 minutes) without a connection. A \
            service of another build is replaced on first use. [service] hosts = "process" \
            in config.toml, or EMEND_SERVICE=off, runs providers in each process instead.
            """,
        subcommands: [Status.self, Stop.self, Run.self],
        defaultSubcommand: Status.self
    )

    /// The endpoint config.toml and the environment describe.
    static func endpoint(_ environment: ProviderEnvironment) throws(CLIFailure) -> ServiceEndpoint {
        var settings = ServiceSettings()
        if let path = environment.configFile {
            do { settings = try ProviderConfiguration.load(path: path).service } catch {
                throw CLIFailure.usage("\(error.message)\n  fix the configuration file (see `emend config`)")
            }
        }
        switch ServiceEndpoint.standard(environment: environment.environment, idleTimeoutMilliseconds: settings.idleTimeoutMilliseconds) {
        case .success(let endpoint): return endpoint
        case .failure(let problem): throw CLIFailure.usage("the checker service cannot be used: \(problem.reason)")
        }
    }

    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status",
            abstract: "Show the running service: pid, identity, front ends, and each provider host it holds.",
            discussion: "Exit status: 0 when a service runs, 1 when none does."
        )

        func run() throws {
            let endpoint = try Service.endpoint(ProviderEnvironment())
            guard let answer = ServiceClient.status(endpoint) else {
                Terminal.out("no checker service runs at \(endpoint.socketPath) (the next command or editor starts one)\n")
                throw ExitCode(1)
            }
            Terminal.out("checker service at \(endpoint.socketPath)\n\(answer.status)\n")
        }
    }

    struct Stop: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "stop",
            abstract: "Stop the running service (its provider hosts end; front ends start a new one when they next need it).",
            discussion: "Exit status: 0 when a service was stopped, 1 when none ran."
        )

        func run() throws {
            let endpoint = try Service.endpoint(ProviderEnvironment())
            guard let pid = ServiceClient.stop(endpoint) else {
                Terminal.out("no checker service runs at \(endpoint.socketPath)\n")
                throw ExitCode(1)
            }
            Terminal.out("stopped the checker service (pid \(pid))\n")
        }
    }

    struct Run: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "run",
            abstract: "Run the service in the foreground (for a systemd --user unit or debugging); it still exits when idle.",
            discussion: "Replaced by exec of emend-provider-host --service; exit status 2 when the provider host is missing."
        )

        func run() throws {
            let environment = ProviderEnvironment()
            let endpoint = try Service.endpoint(environment)
            guard let host = environment.hostPath else {
                throw CLIFailure.usage("emend-provider-host not found (set EMEND_PROVIDER_HOST, or reinstall)")
            }
            let arguments = [host, "--service", "--directory", endpoint.directory, "--idle-ms", String(endpoint.idleTimeoutMilliseconds)]
            let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
            execv(host, argv)
            throw CLIFailure.usage("cannot run \(host): \(String(cString: strerror(errno)))")
        }
    }
}
