/// Settings fixed when a coordinator is created.
public struct CoordinatorOptions: Sendable {
    public var preferredBehavior: Behavior = .default
    public var preferredResultOptions: ResultOptions = []
    /// An unanswered delegate call ends the session after this long; not a presented result,
    /// which a person answers at their own pace (no machine timeout applies to it).
    public var completionTimeoutMilliseconds: Int64 = 30_000
    /// A provider that has not finished after this long is cancelled.
    public var providerTimeoutMilliseconds: Int64 = 60_000
    /// What the person changes to give the provider more time, named when it times out: the
    /// C ABI's option unless the front end has its own (the CLI's `--timeout`).
    public var providerTimeoutSetting = "provider_timeout_ms"
    /// When the finished sentences of a rewrite go into the text while the provider writes.
    public var streaming = StreamingPolicy.standard
    /// BCP 47 language of the text, handed to providers (a speller picks its dictionary).
    public var language = "en-US"
    /// How much work one `dispatch()` does before it returns (see `DispatchBudget`).
    public var dispatchBudget = DispatchBudget.standard
    /// Seconds an engine may animate an insertion for.
    public var animationDuration: Double = 0.25
    /// Contexts whose texts hold at least this many bytes in all have their ropes built on a
    /// thread of their own (see `Coordinator.buildContexts`); smaller ones in the dispatch
    /// that takes the engine's answer (well under a millisecond). Tests set 0 to take the
    /// thread's way with any text.
    public var contextsBuiltElsewhereBytes = 1 << 18
    /// Regions shorter than this (UTF-8 bytes) are written as Markdown for a provider's
    /// request on the engine's thread (the writer takes about 0.7 µs a byte: 1.5 ms at most,
    /// less than a thread's round trip on a loaded machine); longer ones on a thread of their
    /// own. Tests set 0 to write every region elsewhere.
    public var markdownWrittenHereBelow = 2_048
    /// A proofread's request text shorter than this (UTF-8 bytes) is copied out of the
    /// context's rope on the engine's thread (a fresh buffer's page faults and UTF-8
    /// validation: about 0.7 ms a megabyte); a longer one on a thread of its own, from a
    /// snapshot of the rope's chunks (`RequestText`). Tests set 0 to copy every one elsewhere.
    public var requestTextCopiedHereBelow = 1 << 18
    public init() {}
}
