import Foundation

/// Compiles the C parts tests need with the project's C flags (C11, -Wall -Wextra -Werror):
/// the provider scanner and plugins (test fixtures and others), the same way in every target.
public enum TestCompiler {
    /// The flags of every C file the tests compile.
    public static let flags = ["-std=c11", "-Wall", "-Wextra", "-Werror"]

    /// Compiles scanner/emend-scan.c with the sandbox, as scripts/build-scanner.sh does, to `output`.
    public static func scanner(to output: String) throws {
        let root = TestRepository.root, sandbox = root + "/Sources/CEmendSandbox"
        try TestProcess.run("cc", flags + ["-I", root + "/include", "-I", sandbox + "/include", root + "/scanner/emend-scan.c",
                                           sandbox + "/sandbox.c", "-ldl", "-lseccomp", "-o", output])
    }

    /// Compiles the plugin `source` (a path) against include/ to the shared object `output`,
    /// with `options` (defines, include directories) before the source.
    public static func plugin(_ source: String, to output: String, options: [String] = []) throws {
        try TestProcess.run("cc", flags + ["-shared", "-fPIC", "-I", TestRepository.root + "/include"] + options
                            + [source, "-o", output])
    }
}
