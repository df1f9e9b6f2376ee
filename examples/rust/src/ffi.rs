//! Hand-written declarations for the parts of `include/emend.h` this example uses.
//!
//! Layouts mirror the header exactly: `size_t` = `usize`, `uint64_t` = `u64`,
//! `double` = `f64`, pointers as raw pointers, callbacks as
//! `Option<unsafe extern "C" fn(...)>` (a NULL callback is `None`).
//!
//! C enums are `int`-sized. They are plain integer aliases with constants, never Rust enums:
//! the library may hand back a value this file does not know (a newer library), and a Rust
//! enum holding an undeclared value is undefined behavior. `emend_behavior` has -1 and is
//! `i32`; the others have only non-negative values and are `u32` (what GCC and Clang pick
//! for them; the size and the calling convention are the same as `int` either way).
//!
//! Nothing here is safe to call on its own: every function is `unsafe`, and `main.rs`
//! wraps the few it needs.

#![allow(dead_code)] // constants and fields are declared for completeness of the mirror

use std::ffi::{c_char, c_int, c_void};

pub const EMEND_ABI_VERSION: u32 = 2;

// ---- emend_status ----------------------------------------------------------------------

pub type EmendStatus = u32;
pub const EMEND_OK: EmendStatus = 0;
pub const EMEND_E_INVALID_ARGUMENT: EmendStatus = 1;
pub const EMEND_E_STRUCT_SIZE: EmendStatus = 2;
pub const EMEND_E_INVALID_UTF8: EmendStatus = 3;
pub const EMEND_E_RANGE: EmendStatus = 4;
pub const EMEND_E_NOT_FOUND: EmendStatus = 5;
pub const EMEND_E_STATE: EmendStatus = 6;
pub const EMEND_E_WRONG_THREAD: EmendStatus = 7;
pub const EMEND_E_TIMEOUT: EmendStatus = 8;
pub const EMEND_E_REFUSED: EmendStatus = 9;
pub const EMEND_E_STALE: EmendStatus = 10;
pub const EMEND_E_PROVIDER: EmendStatus = 11;
pub const EMEND_E_UNSUPPORTED: EmendStatus = 12;
pub const EMEND_E_CANCELLED: EmendStatus = 13;
pub const EMEND_E_PROTECTED: EmendStatus = 14;
pub const EMEND_E_INTERNAL: EmendStatus = 15;
pub const EMEND_E_POOR_RESULT: EmendStatus = 16;
pub const EMEND_E_BUSY: EmendStatus = 17;
pub const EMEND_E_IN_CALLBACK: EmendStatus = 18;
pub const EMEND_E_AGAIN: EmendStatus = 19;

// ---- coordinator vocabulary ------------------------------------------------------------

pub type EmendBehavior = i32;
pub const EMEND_BEHAVIOR_NONE: EmendBehavior = -1;
pub const EMEND_BEHAVIOR_DEFAULT: EmendBehavior = 0;
pub const EMEND_BEHAVIOR_COMPLETE: EmendBehavior = 1;
pub const EMEND_BEHAVIOR_LIMITED: EmendBehavior = 2;

/// `typedef uint32_t emend_result_options` (bit flags; the constants are an anonymous enum).
pub type EmendResultOptions = u32;

pub type EmendState = u32;
pub const EMEND_STATE_INACTIVE: EmendState = 0;
pub const EMEND_STATE_NONINTERACTIVE: EmendState = 1;
pub const EMEND_STATE_INTERACTIVE_RESTING: EmendState = 2;
pub const EMEND_STATE_INTERACTIVE_STREAMING: EmendState = 3;

pub type EmendPositionEncoding = u32;
pub const EMEND_ENCODING_UTF8: EmendPositionEncoding = 0;
pub const EMEND_ENCODING_UTF16: EmendPositionEncoding = 1;
pub const EMEND_ENCODING_CODEPOINT: EmendPositionEncoding = 2;

pub type EmendProviderHosts = u32;
pub const EMEND_PROVIDER_HOSTS_DEFAULT: EmendProviderHosts = 0;
pub const EMEND_PROVIDER_HOSTS_SERVICE: EmendProviderHosts = 1;
pub const EMEND_PROVIDER_HOSTS_OWN: EmendProviderHosts = 2;

pub type EmendContextScope = u32;
pub const EMEND_SCOPE_USER_SELECTION: EmendContextScope = 0;
pub const EMEND_SCOPE_FULL_DOCUMENT: EmendContextScope = 1;
pub const EMEND_SCOPE_VISIBLE_AREA: EmendContextScope = 2;

pub type EmendTool = u32;
pub const EMEND_TOOL_PROOFREAD: EmendTool = 0;
pub const EMEND_TOOL_REWRITE_FRIENDLY: EmendTool = 1;
pub const EMEND_TOOL_REWRITE_PROFESSIONAL: EmendTool = 2;
pub const EMEND_TOOL_REWRITE_CONCISE: EmendTool = 3;
pub const EMEND_TOOL_REWRITE_DESCRIBED: EmendTool = 4;
pub const EMEND_TOOL_SUMMARY: EmendTool = 5;
pub const EMEND_TOOL_KEY_POINTS: EmendTool = 6;
pub const EMEND_TOOL_LIST: EmendTool = 7;
pub const EMEND_TOOL_TABLE: EmendTool = 8;
pub const EMEND_TOOL_COMPOSE: EmendTool = 9;
pub const EMEND_TOOL_FOLLOW_UP: EmendTool = 10;

pub type EmendReplaceReason = u32;
pub const EMEND_REPLACE_INTERACTIVE: EmendReplaceReason = 0;
pub const EMEND_REPLACE_NONINTERACTIVE: EmendReplaceReason = 1;

pub type EmendChangeKind = u32;
pub const EMEND_CHANGE_RESULT: EmendChangeKind = 0;
pub const EMEND_CHANGE_SUGGESTION_REJECT: EmendChangeKind = 1;
pub const EMEND_CHANGE_REVERT: EmendChangeKind = 2;
pub const EMEND_CHANGE_SHOW_ORIGINAL: EmendChangeKind = 3;
pub const EMEND_CHANGE_SHOW_REWRITTEN: EmendChangeKind = 4;
pub const EMEND_CHANGE_UNDO: EmendChangeKind = 5;
pub const EMEND_CHANGE_REDO: EmendChangeKind = 6;
pub const EMEND_CHANGE_CANCEL: EmendChangeKind = 7;

pub type EmendTextAnimation = u32;

pub type EmendReplaceAnswer = u32;
pub const EMEND_REPLACE_APPLIED: EmendReplaceAnswer = 0;
pub const EMEND_REPLACE_REFUSED: EmendReplaceAnswer = 1;

pub type EmendPresentedAction = u32;
pub const EMEND_PRESENTED_APPLY: EmendPresentedAction = 0;
pub const EMEND_PRESENTED_COPY: EmendPresentedAction = 1;
pub const EMEND_PRESENTED_DISMISS: EmendPresentedAction = 2;

pub type EmendSuggestionState = u32;
pub const EMEND_SUGGESTION_PENDING: EmendSuggestionState = 0;
pub const EMEND_SUGGESTION_ACCEPTED: EmendSuggestionState = 1;
pub const EMEND_SUGGESTION_REJECTED: EmendSuggestionState = 2;
pub const EMEND_SUGGESTION_INVALID: EmendSuggestionState = 3;

pub type EmendBlockKind = u32;

pub type EmendRequestId = u64;

// ---- plain structs ---------------------------------------------------------------------

/// `emend_range`: location and length in the coordinator's position encoding.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EmendRange {
    pub location: u64,
    pub length: u64,
}

/// `emend_rect`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct EmendRect {
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
}

/// `emend_attribute_run` (only pointed to by `EmendContextDesc`; this example passes none).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct EmendAttributeRun {
    pub range: EmendRange,
    pub key: *const c_char,
    pub value: *const c_char,
}

/// `emend_block_intent` (only pointed to by `EmendContextDesc`; this example passes none).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct EmendBlockIntent {
    pub range: EmendRange,
    pub kind: EmendBlockKind,
    pub level: i32,
    pub ordinal: i32,
    pub row: i32,
    pub column: i32,
}

/// Opaque `emend_coordinator`: only ever behind a pointer. The marker makes it
/// `!Send`, `!Sync` and `!Unpin`, as a handle owned by one thread should be.
#[repr(C)]
pub struct EmendCoordinator {
    _private: [u8; 0],
    _marker: std::marker::PhantomData<(*mut u8, std::marker::PhantomPinned)>,
}

/// `emend_context_desc`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct EmendContextDesc {
    pub struct_size: usize,
    pub text: *const c_char,
    pub text_length: usize,
    pub selection: EmendRange,
    pub engine_context: *mut c_void,
    pub protected_ranges: *const EmendRange,
    pub protected_range_count: usize,
    pub attribute_runs: *const EmendAttributeRun,
    pub attribute_run_count: usize,
    pub block_intents: *const EmendBlockIntent,
    pub block_intent_count: usize,
}

/// `emend_replace_request`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct EmendReplaceRequest {
    pub struct_size: usize,
    pub context_id: u64,
    pub engine_context: *mut c_void,
    pub range: EmendRange,
    pub text: *const c_char,
    pub text_length: usize,
    pub reason: EmendReplaceReason,
    pub kind: EmendChangeKind,
    pub animation_duration: f64,
    pub animation_delay: f64,
}

/// `emend_presented_result` (needed for the `present_result` callback's type).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct EmendPresentedResult {
    pub struct_size: usize,
    pub context_id: u64,
    pub engine_context: *mut c_void,
    pub tool: EmendTool,
    pub range: EmendRange,
    pub text: *const c_char,
    pub text_length: usize,
}

// ---- the delegate ----------------------------------------------------------------------

pub type RequestsContextsFn = unsafe extern "C" fn(
    user_data: *mut c_void,
    coordinator: *mut EmendCoordinator,
    scope: EmendContextScope,
    request: EmendRequestId,
);
pub type ReplaceFn = unsafe extern "C" fn(
    user_data: *mut c_void,
    coordinator: *mut EmendCoordinator,
    replace: *const EmendReplaceRequest,
    request: EmendRequestId,
);
pub type SelectRangesFn = unsafe extern "C" fn(
    user_data: *mut c_void,
    coordinator: *mut EmendCoordinator,
    context_id: u64,
    engine_context: *mut c_void,
    ranges: *const EmendRange,
    range_count: usize,
    request: EmendRequestId,
);
pub type RectsFn = unsafe extern "C" fn(
    user_data: *mut c_void,
    coordinator: *mut EmendCoordinator,
    context_id: u64,
    engine_context: *mut c_void,
    range: *const EmendRange,
    request: EmendRequestId,
);
pub type AnimationFn = unsafe extern "C" fn(
    user_data: *mut c_void,
    coordinator: *mut EmendCoordinator,
    animation: EmendTextAnimation,
    context_id: u64,
    engine_context: *mut c_void,
    range: *const EmendRange,
    request: EmendRequestId,
);
pub type FinishAnimationFn = unsafe extern "C" fn(
    user_data: *mut c_void,
    coordinator: *mut EmendCoordinator,
    animation: EmendTextAnimation,
    context_id: u64,
    engine_context: *mut c_void,
    range: *const EmendRange,
    preview: *mut c_void,
    request: EmendRequestId,
);
pub type WillChangeToStateFn = unsafe extern "C" fn(
    user_data: *mut c_void,
    coordinator: *mut EmendCoordinator,
    new_state: EmendState,
    request: EmendRequestId,
);
pub type PresentResultFn = unsafe extern "C" fn(
    user_data: *mut c_void,
    coordinator: *mut EmendCoordinator,
    result: *const EmendPresentedResult,
    request: EmendRequestId,
);

/// `emend_delegate`, every field in the header's order (a `None` callback is NULL: "not
/// supported").
#[repr(C)]
#[derive(Clone, Copy)]
pub struct EmendDelegate {
    pub struct_size: usize,
    pub user_data: *mut c_void,
    pub requests_contexts: Option<RequestsContextsFn>,
    pub replace: Option<ReplaceFn>,
    pub select_ranges: Option<SelectRangesFn>,
    pub requests_bounding_rects: Option<RectsFn>,
    pub requests_underline_rects: Option<RectsFn>,
    pub prepare_for_text_animation: Option<AnimationFn>,
    pub requests_preview: Option<AnimationFn>,
    pub finish_text_animation: Option<FinishAnimationFn>,
    pub will_change_to_state: Option<WillChangeToStateFn>,
    pub present_result: Option<PresentResultFn>,
}

// ---- coordinator and session structs ----------------------------------------------------

/// `emend_coordinator_options` (this example passes NULL: the defaults).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct EmendCoordinatorOptions {
    pub struct_size: usize,
    pub encoding: EmendPositionEncoding,
    pub preferred_behavior: EmendBehavior,
    pub preferred_result_options: EmendResultOptions,
    pub completion_timeout_ms: u32,
    pub provider_timeout_ms: u32,
    pub stream_chunk_bytes: u32,
    pub language: *const c_char,
    pub provider_hosts: EmendProviderHosts,
}

/// `emend_tool_request`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct EmendToolRequest {
    pub struct_size: usize,
    pub tool: EmendTool,
    pub scope: EmendContextScope,
    pub prompt: *const c_char,
    pub provider_id: *const c_char,
}

/// `emend_suggestion`: filled by the runtime; its strings stay valid only until the next
/// non-getter call on the coordinator.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct EmendSuggestion {
    pub struct_size: usize,
    pub context_id: u64,
    pub range: EmendRange,
    pub original: *const c_char,
    pub replacement: *const c_char,
    pub explanation: *const c_char,
    pub category: *const c_char,
    pub rule_id: *const c_char,
    pub state: EmendSuggestionState,
}

// Layout checks against the header on LP64 (Linux x86_64 / aarch64): sizes as a C compiler
// gives them for emend.h. A field added, dropped or reordered here fails the build.
#[cfg(target_pointer_width = "64")]
const _: () = {
    use std::mem::{align_of, offset_of, size_of};
    assert!(size_of::<EmendRange>() == 16);
    assert!(size_of::<EmendRect>() == 32);
    assert!(size_of::<EmendAttributeRun>() == 32);
    assert!(size_of::<EmendBlockIntent>() == 40);
    assert!(size_of::<EmendContextDesc>() == 96);
    assert!(offset_of!(EmendContextDesc, selection) == 24);
    assert!(offset_of!(EmendContextDesc, block_intent_count) == 88);
    assert!(size_of::<EmendReplaceRequest>() == 80);
    assert!(offset_of!(EmendReplaceRequest, reason) == 56);
    assert!(offset_of!(EmendReplaceRequest, kind) == 60);
    assert!(offset_of!(EmendReplaceRequest, animation_duration) == 64);
    assert!(size_of::<EmendPresentedResult>() == 64);
    assert!(offset_of!(EmendPresentedResult, range) == 32);
    assert!(size_of::<EmendDelegate>() == 96);
    assert!(offset_of!(EmendDelegate, present_result) == 88);
    assert!(size_of::<EmendCoordinatorOptions>() == 48);
    assert!(offset_of!(EmendCoordinatorOptions, provider_hosts) == 40);
    assert!(size_of::<EmendToolRequest>() == 32);
    assert!(size_of::<EmendSuggestion>() == 80);
    assert!(offset_of!(EmendSuggestion, state) == 72);
    assert!(align_of::<EmendSuggestion>() == 8);
};

extern "C" {
    // ---- status and errors (thread: any) ----
    /// NUL-terminated; valid until the next emend_* call on this thread: copy at once.
    pub fn emend_last_error_message() -> *const c_char;
    /// Static storage, never NULL.
    pub fn emend_status_name(status: EmendStatus) -> *const c_char;
    pub fn emend_abi_version() -> u32;

    // ---- answers to delegate callbacks (thread: any) ----
    pub fn emend_answer_contexts(
        coordinator: *mut EmendCoordinator,
        request: EmendRequestId,
        contexts: *const EmendContextDesc,
        count: usize,
    ) -> EmendStatus;
    /// `inserted_text` NULL (not merely empty) means "applied exactly as proposed".
    pub fn emend_answer_replace(
        coordinator: *mut EmendCoordinator,
        request: EmendRequestId,
        answer: EmendReplaceAnswer,
        inserted_text: *const c_char,
        inserted_length: usize,
    ) -> EmendStatus;
    pub fn emend_answer_done(
        coordinator: *mut EmendCoordinator,
        request: EmendRequestId,
    ) -> EmendStatus;
    pub fn emend_answer_failed(
        coordinator: *mut EmendCoordinator,
        request: EmendRequestId,
        status: EmendStatus,
        message: *const c_char,
    ) -> EmendStatus;

    // ---- coordinator (thread: the coordinator's) ----
    pub fn emend_coordinator_create(
        delegate: *const EmendDelegate,
        options: *const EmendCoordinatorOptions,
        out: *mut *mut EmendCoordinator,
    ) -> EmendStatus;
    pub fn emend_coordinator_destroy(coordinator: *mut EmendCoordinator);
    pub fn emend_coordinator_run_until_idle(
        coordinator: *mut EmendCoordinator,
        timeout_ms: c_int,
    ) -> EmendStatus;
    pub fn emend_coordinator_get_state(
        coordinator: *const EmendCoordinator,
        state: *mut EmendState,
    ) -> EmendStatus;
    pub fn emend_coordinator_start(
        coordinator: *mut EmendCoordinator,
        request: *const EmendToolRequest,
    ) -> EmendStatus;

    // ---- the session (thread: the coordinator's) ----
    pub fn emend_session_accept(coordinator: *mut EmendCoordinator) -> EmendStatus;
    pub fn emend_session_revert(coordinator: *mut EmendCoordinator) -> EmendStatus;
    pub fn emend_session_suggestion_count(
        coordinator: *const EmendCoordinator,
        count: *mut usize,
    ) -> EmendStatus;
    pub fn emend_session_get_suggestion(
        coordinator: *const EmendCoordinator,
        index: usize,
        out: *mut EmendSuggestion,
    ) -> EmendStatus;
    pub fn emend_session_accept_suggestion(
        coordinator: *mut EmendCoordinator,
        index: usize,
    ) -> EmendStatus;
    pub fn emend_session_reject_suggestion(
        coordinator: *mut EmendCoordinator,
        index: usize,
    ) -> EmendStatus;
}
