import Foundation
import XCTest

/// What the language-detection tests need (through the C ABI, `emend lsp` and `emend
/// proofread`): Hunspell alone, found by discovery, with the English and German dictionaries
/// and libexttextcat's data, so that a German paragraph inside English text is checked as
/// German. One setup for the three, so that they check the same configuration.
public enum HunspellLanguages {
    /// Skips the test unless the en_US and de_DE dictionaries and libexttextcat's data are
    /// installed.
    public static func skipUnlessInstalled() throws {
        try XCTSkipUnless(FileManager.default.fileExists(atPath: "/usr/share/hunspell/de_DE.dic")
                          && FileManager.default.fileExists(atPath: "/usr/share/hunspell/en_US.dic"),
                          "hunspell-en-us or hunspell-de-de is not installed (bash scripts/install-deps.sh)")
        try XCTSkipUnless(FileManager.default.fileExists(atPath: "/usr/share/libexttextcat/fpdb.conf"),
                          "libexttextcat-data is not installed (bash scripts/install-deps.sh)")
    }

    /// Writes `home`/config/emend/config.toml (XDG_CONFIG_HOME is `home`/config) naming
    /// Hunspell alone for proofread.
    public static func configureHunspellAlone(home: String) throws {
        try FileManager.default.createDirectory(atPath: home + "/config/emend", withIntermediateDirectories: true)
        try "[tools]\nproofread = [\"org.emend.hunspell\"]\n"
            .write(toFile: home + "/config/emend/config.toml", atomically: true, encoding: .utf8)
    }

    /// Builds the Hunspell plugin into `plugins` and the scanner into `home` (`home`/emend-scan),
    /// and configures Hunspell alone (`configureHunspellAlone`). A build that fails skips the
    /// test (with its output).
    public static func install(home: String, plugins: String) throws {
        for command in ["/bin/sh '\(TestRepository.root)/providers/hunspell/build.sh' '\(plugins)'",
                        "bash '\(TestRepository.root)/scripts/build-scanner.sh' '\(home)'"] {
            do {
                try TestProcess.shell(command)
            } catch {
                throw XCTSkip("could not build: \(error)")
            }
        }
        try configureHunspellAlone(home: home)
    }
}
