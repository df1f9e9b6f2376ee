import ArgumentParser
import Glibc
import EmendCore
import EmendLSP

/// `emend lsp`: the language server on standard input and output. The work is in EmendLSP;
/// this command only says where the providers are (the same discovery and config.toml as
/// every other command) and turns the server's end into the exit status LSP asks for.
struct Lsp: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lsp",
        abstract: "Run the Language Server Protocol server on standard input and output (for editors).",
        discussion: """
            Speaks LSP 3.17 over stdio: diagnostics from the combined proofreading providers while \
            you type, hover, a quick fix per replacement, "Add to dictionary" and "Ignore this rule", \
            and over a selection Rewrite (friendly, professional, concise), Summarize, Make a list \
            and Make a table: the command is answered at once and the result comes as \
            workspace/applyEdit with $/progress. Settings come from the client \
            (initializationOptions, workspace/configuration, section "emend"), then config.toml. \
            Exits 0 after shutdown and exit, 1 otherwise. EMEND_LOG=1 logs to standard error.

            Emacs with eglot (init.el):
              (with-eval-after-load 'eglot
                (add-to-list 'eglot-server-programs
                  '((text-mode markdown-mode gfm-mode org-mode) . ("emend" "lsp"))))
              (add-hook 'text-mode-hook #'eglot-ensure)
              (setq eglot-confirm-server-initiated-edits nil)

            Neovim 0.11+: vim.lsp.config("emend", { cmd = { "emend", "lsp" }, filetypes = \
            { "markdown", "text" } }) and vim.lsp.enable("emend"). The README in Emend's source has \
            lsp-mode, Helix, Kakoune and VS Code setups.
            """
    )

    @Flag(help: "Accepted for clients that pass it; standard input and output are always used.")
    var stdio = false

    @Option(help: ArgumentHelp("Give up on a provider's check or tool after this many seconds.", valueName: "seconds"))
    var timeout: Double = 120

    func validate() throws {
        guard timeout > 0 else { throw ValidationError("--timeout must be more than 0 seconds") }
    }

    func run() throws {
        // A client that goes away must end the server through the end of input, not SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        let environment = ProviderEnvironment()
        let logging = environment.environment["EMEND_LOG"].map { !$0.isEmpty && $0 != "0" } ?? false
        let logger: @Sendable (String) -> Void
        if logging {
            logger = { message in Terminal.err("emend lsp: \(message)\n") }
        } else {
            logger = { _ in }
        }
        let makeCatalog: @Sendable () -> Result<ProviderCatalog, EmendError> = {
            do throws(CLIFailure) {
                return .success(try environment.registry())
            } catch {
                return .failure(EmendError(.invalidArgument, error.message))
            }
        }
        var configuration = ServerConfiguration(version: EmendVersion.string, environment: environment.environment,
                                                makeCatalog: makeCatalog, logger: logger)
        configuration.providerTimeoutMilliseconds = Int64(timeout * 1000)
        let status = LanguageServer(configuration: configuration).run()
        throw ExitCode(status)
    }
}
