// emend-provider-host — runs one provider plugin for libemend, in a process of its own, so
// that a plugin that crashes, hangs or eats memory takes down only this process, and in a
// sandbox (Sources/CEmendSandbox), so that it cannot reach the editor, the user's files, the
// network or the user's secrets. libemend starts it with the channel on descriptor 3
// (Sources/EmendProviderHost/PROTOCOL.md); it is not meant to be run by hand.
//
// With `--service` it is the user's checker service instead (`emend service`), which starts
// hosts like the above for every front end of the user and keeps them warm.
import EmendProviders

if CommandLine.arguments.count > 1 && CommandLine.arguments[1] == "--service" {
    ServiceServer.main(arguments: Array(CommandLine.arguments.dropFirst(2)))
}
ProviderHostServer.serve(confine: HostConfinement.enter)
