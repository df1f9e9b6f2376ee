// swift-tools-version:6.0
import PackageDescription

/// Release builds of libemend.so get a soname, export only `emend_*` symbols and carry the
/// Swift standard library inside, so that the library loads without the Swift toolchain.
/// Debug builds (and `swift test`) stay plain so the test runner shares one Swift runtime.
let releaseLibraryFlags: [String] = [
    "-static-stdlib",
    "-Xlinker", "-soname=libemend.so.0",
    "-Xlinker", "--version-script=\(Context.packageDirectory)/Sources/EmendCABI/emend.map",
]

let package = Package(
    name: "Emend",
    products: [
        .library(name: "emend", type: .dynamic, targets: ["EmendCABI"]),
        // The `emend` command. Its product cannot be named "emend" too (SwiftPM drops an
        // executable product whose name a library product already has), so the binary is
        // emend-cli in the build directory; installs name it emend.
        .executable(name: "emend-cli", targets: ["EmendCLI"]),
        // The provider host libemend starts per plugin instance (installed in <libdir>/emend
        // next to emend-scan). Release builds carry the Swift runtime inside.
        .executable(name: "emend-provider-host", targets: ["EmendProviderHost"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .target(name: "CEmend", path: "Sources/CEmend", sources: ["shim.c"], publicHeadersPath: "include"),
        .target(name: "EmendText"),
        .target(name: "CEmendSystem"),
        // The plugin sandbox (namespaces, Landlock, seccomp), linked only by the provider host
        // and the CLI's doctor; scripts/build-scanner.sh compiles the same file into emend-scan.
        .target(name: "CEmendSandbox", linkerSettings: [.linkedLibrary("seccomp")]),
        .systemLibrary(name: "CCmarkGFM", providers: [.apt(["libcmark-gfm-dev", "libcmark-gfm-extensions-dev"])]),
        .target(name: "EmendMarkdown", dependencies: ["EmendText", "CCmarkGFM"]),
        .target(name: "EmendCore", dependencies: ["EmendText", "EmendMarkdown", "CEmendSystem"]),
        .systemLibrary(name: "CFFI", pkgConfig: "libffi", providers: [.apt(["libffi-dev"])]),
        // English proofreading policy: the filters of suggestions (the user's dictionary,
        // technical prose, word shapes) and the combination of several checkers into one
        // proofreader. Apart from plugin loading and isolation (EmendProviders), which uses it.
        .target(name: "EmendProofreading", dependencies: ["EmendCore", "EmendText"]),
        .target(name: "EmendProviders", dependencies: ["EmendCore", "EmendText", "EmendProofreading", "CEmend", "CFFI", "CEmendSystem"]),
        .target(
            name: "EmendCABI",
            dependencies: ["CEmend", "CEmendSystem", "EmendCore", "EmendText", "EmendMarkdown", "EmendProofreading", "EmendProviders"],
            exclude: ["emend.map"],
            linkerSettings: [.unsafeFlags(releaseLibraryFlags, .when(configuration: .release))]
        ),
        // The language server (`emend lsp`): JSON-RPC over stdio, documents, diagnostics and
        // code actions over the same core; the CLI only starts it.
        .target(name: "EmendLSP", dependencies: ["EmendCore", "EmendText", "EmendMarkdown", "EmendProofreading", "EmendProviders"]),
        .executableTarget(
            name: "EmendProviderHost",
            dependencies: ["EmendProviders", "CEmendSandbox"],
            exclude: ["PROTOCOL.md"],
            linkerSettings: [.unsafeFlags(["-static-stdlib"], .when(configuration: .release))]
        ),
        .executableTarget(
            name: "EmendCLI",
            dependencies: ["EmendCore", "EmendText", "EmendMarkdown", "EmendProofreading", "EmendProviders", "EmendLSP", "CEmendSandbox", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            // Release builds carry the Swift runtime inside, as the provider host does: each
            // `emend` run then loads and binds no Swift shared objects at start (a warm one-line
            // proofread: the client's CPU 14.5 -> 10.4 ms median, its RSS 20.3 -> 17.0 MB;
            // benchmarks/README.md row 4c), and runs without the toolchain's libraries. The
            // static FoundationEssentials (ArgumentParser's, and the JSON output's) needs its C
            // shims, its collections and Synchronization named.
            linkerSettings: [
                .unsafeFlags(["-static-stdlib"], .when(configuration: .release)),
                .linkedLibrary("_FoundationCShims", .when(configuration: .release)),
                .linkedLibrary("_FoundationCollections", .when(configuration: .release)),
                .linkedLibrary("swiftSynchronization", .when(configuration: .release)),
            ]
        ),
        .executableTarget(name: "EmendBenchmarks", dependencies: ["EmendCore", "EmendProofreading", "EmendProviders"], path: "benchmarks/swift"),
        // What several test targets share (running commands, compiling C fixtures, the
        // environment, a pseudo-terminal); only test targets depend on it.
        .target(name: "EmendTestSupport", path: "Tests/EmendTestSupport"),
        .testTarget(name: "EmendTextTests", dependencies: ["EmendText"]),
        .testTarget(name: "EmendMarkdownTests", dependencies: ["EmendMarkdown", "EmendText"]),
        .testTarget(name: "EmendCoreTests", dependencies: ["EmendCore", "EmendText"]),
        .testTarget(name: "EmendABITests", dependencies: ["EmendCABI", "CEmend", "EmendCore", "EmendTestSupport"]),
        .testTarget(name: "EmendProofreadingTests", dependencies: ["EmendProofreading", "EmendCore", "EmendText"]),
        .testTarget(name: "EmendProvidersTests", dependencies: ["EmendProviders", "EmendProofreading", "EmendCore", "EmendText", "CEmend", "CEmendSandbox", "EmendTestSupport"]),
        .testTarget(name: "EmendCLITests", dependencies: ["EmendCLI", "EmendTestSupport"]),
        // Also EmendCLI: the client tests run the built `emend lsp`.
        .testTarget(name: "EmendLSPTests", dependencies: ["EmendLSP", "EmendCore", "EmendText", "EmendProofreading", "EmendProviders", "EmendCLI", "EmendTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
