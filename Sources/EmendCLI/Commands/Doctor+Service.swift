import EmendProviders

extension Doctor {
    /// Where provider hosts run: the checker service (running or not, of this build or of
    /// another, which the next run replaces) or each process's own.
    func checkService(_ environment: ProviderEnvironment, _ settings: ServiceSettings, _ report: inout DoctorReport) {
        var reason: String?
        let route = HostRoute.resolve(environment: environment.environment, settings: settings, serviceByDefault: true,
                                      logger: { reason = $0 })
        guard case .service(let endpoint) = route else {
            if let reason { return report.add(.warning, "service", reason, fix: "give XDG_RUNTIME_DIR a directory of your own (mode 0700)") }
            return report.add(.ok, "service", "off ([service] hosts = \"process\" or EMEND_SERVICE=off): each command starts its own providers")
        }
        guard let answer = ServiceClient.status(endpoint) else {
            return report.add(.ok, "service", "not running; the next command or editor starts it at \(endpoint.socketPath)")
        }
        let hosts = answer.status.split(separator: "\n").filter { $0.hasPrefix("host ") }.count
        if let host = environment.hostPath, answer.identity != ServiceIdentity.of(executable: host) {
            return report.add(.warning, "service", "pid \(answer.pid) at \(endpoint.socketPath) is of another build (\(answer.identity))",
                              fix: "nothing to do: the next command replaces it (or run `emend service stop`)")
        }
        report.add(.ok, "service", "pid \(answer.pid) at \(endpoint.socketPath), \(hosts) provider host(s) warm (`emend service status`)")
    }
}
