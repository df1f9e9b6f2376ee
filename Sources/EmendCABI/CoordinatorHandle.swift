import CEmend
import Glibc
import EmendCore
import EmendProofreading
import EmendProviders
import EmendText

/// What an `emend_coordinator *` points to: the coordinator, its C delegate, the engine's
/// position encoding, and C strings handed out by getters.
final class CoordinatorHandle {
    let coordinator: Coordinator
    let delegate: CDelegate
    let encoding: PositionEncoding
    /// Where the user's dictionary.txt and ignored-rules.txt are: the directory the
    /// providers' filter reads, fixed from the environment at create (nil: none).
    let dictionaryDirectory: String?
    /// strdup'ed strings of emend_session_get_suggestion, freed on the next mutating call.
    private var lentStrings: [UnsafeMutablePointer<CChar>] = []

    /// `detectsLanguage`: the engine gave no language, so proofread checks each paragraph in
    /// the language it is written in (`ProviderSetup.catalog`). `hosts`: where its provider
    /// hosts run (emend_coordinator_options.provider_hosts).
    init(delegate: CDelegate, options: CoordinatorOptions, encoding: PositionEncoding, detectsLanguage: Bool,
         hosts: HostPreference) throws(EmendError) {
        self.delegate = delegate
        self.encoding = encoding
        let environment = ProcessEnvironment.current
        self.dictionaryDirectory = PersonalDictionary.standardDirectory(environment: environment)
        self.coordinator = try Coordinator(delegate: delegate, options: options,
                                           catalog: ProviderSetup.catalog(environment: environment, detectsLanguage: detectsLanguage, hosts: hosts,
                                                                                  logger: LogSink.standardError))
        coordinator.logger = LogSink.standardError
    }

    deinit { releaseLentStrings() }

    var opaque: OpaquePointer { OpaquePointer(Unmanaged.passUnretained(self).toOpaque()) }

    /// A C string that stays valid until the next mutating call on this coordinator.
    func lend(_ string: String) -> UnsafePointer<CChar> {
        let copy = strdup(string)!
        lentStrings.append(copy)
        return UnsafePointer(copy)
    }

    func releaseLentStrings() {
        for pointer in lentStrings { free(pointer) }
        lentStrings.removeAll()
    }

    /// Offset conversion for the current text of a context (an empty text when there is no
    /// such context).
    func positions(of contextID: UInt64) -> any PositionMapping {
        (try? coordinator.contextPositions(contextID)) ?? PositionConverter("")
    }
}

/// Runs `body` with the handle behind a C pointer, without retain/release. Offsets and
/// ranges in a failure's message are said in the coordinator's encoding.
@inline(__always)
func withHandle(_ pointer: OpaquePointer?, _ body: (CoordinatorHandle) throws(EmendError) -> Void) -> emend_status {
    exporting { () throws(EmendError) in
        let raw = try required(pointer, "coordinator")
        var failure: EmendError?
        Unmanaged<CoordinatorHandle>.fromOpaque(UnsafeRawPointer(raw))._withUnsafeGuaranteedRef { handle in
            do throws(EmendError) { try body(handle) } catch { failure = error.speaking(handle.encoding) }
        }
        if let failure { throw failure }
    }
}

/// Like withHandle, for calls that change the session: lent strings are released first.
@inline(__always)
func withMutatingHandle(_ pointer: OpaquePointer?, _ body: (CoordinatorHandle) throws(EmendError) -> Void) -> emend_status {
    withHandle(pointer) { handle throws(EmendError) in
        try handle.coordinator.checkOwnerThread()
        try handle.coordinator.checkOutsideCallbacks()
        handle.releaseLentStrings()
        try body(handle)
    }
}
