//! A small text engine in Rust on top of libemend: a document in memory and a delegate that
//! really applies replace and select to it. It proofreads, accepts one suggestion and
//! rejects another, rewrites and reverts, and checks the document byte for byte. It is the
//! same engine as `examples/c/engine.c`.
//!
//! Where the `unsafe` is:
//! * `Coordinator` (below) owns the handle and is the only code calling coordinator and
//!   session functions; its methods are safe.
//! * The delegate callbacks are `unsafe extern "C" fn`s; each turns its raw arguments into
//!   Rust values at the top and then works on safe code only.
//! * `bad_input_checks` passes a NULL coordinator on purpose.
//!
//! Build libemend.so first (swift build -c release --product emend; the directory also needs
//! the soname link libemend.so.0 -> libemend.so), then
//!   EMEND_LIB_DIR=/path/to/.build/release cargo run --offline

#![deny(warnings)]
#![deny(unsafe_op_in_unsafe_fn)]

mod ffi;

use std::cell::RefCell;
use std::ffi::{c_char, c_void, CStr};
use std::marker::PhantomData;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr;
use std::sync::atomic::{AtomicUsize, Ordering};

use ffi::*;

// ---- checks ------------------------------------------------------------------------------

static FAILURES: AtomicUsize = AtomicUsize::new(0);

fn fail(message: String) {
    eprintln!("FAIL {message}");
    FAILURES.fetch_add(1, Ordering::Relaxed);
}

/// `check!(cond, "format", args...)`: report and count a failed check.
macro_rules! check {
    ($cond:expr, $($arg:tt)*) => {
        if !$cond {
            fail(format!("{}:{}: {}", file!(), line!(), format!($($arg)*)));
        }
    };
}

/// `call!(expr)`: `expr` gives a `Result<T, EmendError>`; an error is reported with the
/// library's message and counted. Evaluates to `Option<T>`.
macro_rules! call {
    ($expr:expr) => {
        match $expr {
            Ok(value) => Some(value),
            Err(error) => {
                let error: EmendError = error;
                fail(format!(
                    "{}:{}: {} -> {}",
                    file!(),
                    line!(),
                    stringify!($expr),
                    error
                ));
                None
            }
        }
    };
}

/// A failed status with the thread's error message, copied at once (the message is only
/// valid until the next emend_* call on this thread).
#[derive(Debug)]
struct EmendError {
    status: EmendStatus,
    message: String,
}

impl EmendError {
    fn last(status: EmendStatus) -> EmendError {
        EmendError {
            status,
            message: last_error_message(),
        }
    }
}

impl std::fmt::Display for EmendError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", status_name(self.status), self.message)
    }
}

/// Turns a status into a result, reading the error message right away.
fn status_result(status: EmendStatus) -> Result<(), EmendError> {
    if status == EMEND_OK {
        Ok(())
    } else {
        Err(EmendError::last(status))
    }
}

/// Copies a NUL-terminated string from the library; NULL reads as "".
///
/// # Safety
/// `text` is NULL or points to a NUL-terminated string valid for the duration of the call.
unsafe fn copy_c_string(text: *const c_char) -> String {
    if text.is_null() {
        return String::new();
    }
    // SAFETY: non-NULL and NUL-terminated by the caller's promise; copied before returning.
    unsafe { CStr::from_ptr(text) }
        .to_string_lossy()
        .into_owned()
}

fn status_name(status: EmendStatus) -> String {
    // SAFETY: any value may be passed; the result is static, NUL-terminated, never NULL.
    unsafe { copy_c_string(emend_status_name(status)) }
}

fn last_error_message() -> String {
    // SAFETY: thread-local, NUL-terminated, valid until the next emend_* call on this
    // thread; copied here before any other call.
    unsafe { copy_c_string(emend_last_error_message()) }
}

// ---- the document ------------------------------------------------------------------------

/// The engine's document: UTF-8 bytes and a selection, plus counters for the checks.
/// Offsets are UTF-8 bytes: the coordinator keeps the default encoding.
struct Document {
    text: Vec<u8>,
    selection: EmendRange,
    replaces: usize,
    selects: usize,
    last_state: EmendState,
}

impl Document {
    fn new(text: &str) -> Document {
        Document {
            text: text.as_bytes().to_vec(),
            selection: EmendRange::default(),
            replaces: 0,
            selects: 0,
            last_state: EMEND_STATE_INACTIVE,
        }
    }

    fn set(&mut self, text: &str) {
        self.text = text.as_bytes().to_vec();
    }

    fn as_str(&self) -> std::borrow::Cow<'_, str> {
        String::from_utf8_lossy(&self.text)
    }

    /// Replaces `range` with `text`; a range outside the document is refused, unchanged.
    fn replace(&mut self, range: EmendRange, text: &[u8]) -> Result<(), String> {
        let start = usize::try_from(range.location).ok();
        let end = range
            .location
            .checked_add(range.length)
            .and_then(|end| usize::try_from(end).ok());
        match (start, end) {
            (Some(start), Some(end)) if end <= self.text.len() => {
                self.text.splice(start..end, text.iter().copied());
                Ok(())
            }
            _ => Err(format!(
                "range {}+{} is outside the document ({} bytes)",
                range.location,
                range.length,
                self.text.len()
            )),
        }
    }
}

// ---- the delegate ------------------------------------------------------------------------

/// The document behind `user_data`.
///
/// # Safety
/// `user_data` is the pointer `Coordinator::create` put in the delegate: a live
/// `RefCell<Document>` that outlives the coordinator (the `'doc` lifetime). Callbacks run on
/// the coordinator's thread only, inside dispatch, so a shared reference is sound; the
/// `RefCell` catches a callback arriving while `main` holds a borrow.
unsafe fn document<'a>(user_data: *mut c_void) -> &'a RefCell<Document> {
    // SAFETY: see above.
    unsafe { &*(user_data as *const RefCell<Document>) }
}

/// Runs a callback's body, which answers the request and returns the answer's status. A
/// failed answer is reported; a panic must not unwind into the library (it would abort the
/// process), so it is caught and the request failed with EMEND_E_INTERNAL instead.
fn answering(
    coordinator: *mut EmendCoordinator,
    request: EmendRequestId,
    callback: &str,
    body: impl FnOnce() -> EmendStatus,
) {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(status) => {
            if let Err(error) = status_result(status) {
                fail(format!(
                    "{callback}: answering request {request} -> {error}"
                ));
            }
        }
        Err(_) => {
            fail(format!("{callback}: panicked; failing request {request}"));
            // SAFETY: `coordinator` is the handle the runtime passed to this callback; the
            // message is a NUL-terminated literal.
            unsafe {
                emend_answer_failed(
                    coordinator,
                    request,
                    EMEND_E_INTERNAL,
                    c"the engine panicked".as_ptr(),
                );
            }
        }
    }
}

/// Gives the whole document as one context (a caret selection: the whole text).
unsafe extern "C" fn requests_contexts(
    user_data: *mut c_void,
    coordinator: *mut EmendCoordinator,
    scope: EmendContextScope,
    request: EmendRequestId,
) {
    // SAFETY: `user_data` is ours (see `document`).
    let doc = unsafe { document(user_data) };
    answering(coordinator, request, "requests_contexts", || {
        let doc_ref = doc.borrow();
        let context = EmendContextDesc {
            struct_size: std::mem::size_of::<EmendContextDesc>(),
            text: doc_ref.text.as_ptr().cast(),
            text_length: doc_ref.text.len(),
            selection: if scope == EMEND_SCOPE_USER_SELECTION {
                doc_ref.selection
            } else {
                EmendRange::default()
            },
            engine_context: user_data,
            protected_ranges: ptr::null(),
            protected_range_count: 0,
            attribute_runs: ptr::null(),
            attribute_run_count: 0,
            block_intents: ptr::null(),
            block_intent_count: 0,
        };
        // SAFETY: `context` and the text it points to live across the call (the borrow is
        // held); the runtime copies everything before returning.
        unsafe { emend_answer_contexts(coordinator, request, &context, 1) }
    });
}

/// Applies a replace to the document and answers "applied as proposed".
unsafe extern "C" fn replace(
    user_data: *mut c_void,
    coordinator: *mut EmendCoordinator,
    replace: *const EmendReplaceRequest,
    request: EmendRequestId,
) {
    // SAFETY: `user_data` is ours; `replace` is valid until this callback returns, and its
    // `text` points to `text_length` bytes (NULL is only accepted with length 0).
    let (doc, replace) = unsafe { (document(user_data), &*replace) };
    let text: &[u8] = if replace.text_length == 0 || replace.text.is_null() {
        &[]
    } else {
        // SAFETY: see above; the slice is used only inside this callback.
        unsafe { std::slice::from_raw_parts(replace.text.cast::<u8>(), replace.text_length) }
    };
    answering(coordinator, request, "replace", || {
        let mut doc = doc.borrow_mut();
        match doc.replace(replace.range, text) {
            Ok(()) => {
                doc.replaces += 1;
                // NULL (not an empty slice, whose pointer is dangling but non-NULL) means
                // "inserted exactly as proposed".
                // SAFETY: `coordinator` is the runtime's handle; NULL text with length 0.
                unsafe {
                    emend_answer_replace(
                        coordinator,
                        request,
                        EMEND_REPLACE_APPLIED,
                        ptr::null(),
                        0,
                    )
                }
            }
            Err(why) => {
                fail(format!("replace: refused (kind {}): {why}", replace.kind));
                // SAFETY: as above; the document is unchanged.
                unsafe {
                    emend_answer_replace(
                        coordinator,
                        request,
                        EMEND_REPLACE_REFUSED,
                        ptr::null(),
                        0,
                    )
                }
            }
        }
    });
}

/// Selects the first of the ranges.
unsafe extern "C" fn select_ranges(
    user_data: *mut c_void,
    coordinator: *mut EmendCoordinator,
    _context_id: u64,
    _engine_context: *mut c_void,
    ranges: *const EmendRange,
    range_count: usize,
    request: EmendRequestId,
) {
    // SAFETY: `user_data` is ours; `ranges` holds `range_count` ranges until we return.
    let doc = unsafe { document(user_data) };
    let first = if range_count > 0 && !ranges.is_null() {
        // SAFETY: see above.
        Some(unsafe { *ranges })
    } else {
        None
    };
    answering(coordinator, request, "select_ranges", || {
        let mut doc = doc.borrow_mut();
        if let Some(range) = first {
            doc.selection = range;
        }
        doc.selects += 1;
        // SAFETY: `coordinator` is the runtime's handle.
        unsafe { emend_answer_done(coordinator, request) }
    });
}

/// Records the state the coordinator moves to.
unsafe extern "C" fn will_change_to_state(
    user_data: *mut c_void,
    coordinator: *mut EmendCoordinator,
    new_state: EmendState,
    request: EmendRequestId,
) {
    // SAFETY: `user_data` is ours.
    let doc = unsafe { document(user_data) };
    answering(coordinator, request, "will_change_to_state", || {
        doc.borrow_mut().last_state = new_state;
        // SAFETY: `coordinator` is the runtime's handle.
        unsafe { emend_answer_done(coordinator, request) }
    });
}

// ---- a safe handle -----------------------------------------------------------------------

/// One proofreading suggestion, copied out of the library.
#[derive(Debug)]
struct Suggestion {
    original: String,
    replacement: String,
    explanation: String,
    category: String,
    state: EmendSuggestionState,
}

/// The coordinator of one document. It borrows the document for `'doc` (the delegate's
/// `user_data` points to it), and it is neither `Send` nor `Sync` (the raw pointer), as a
/// coordinator belongs to the thread that created it.
struct Coordinator<'doc> {
    raw: *mut EmendCoordinator,
    _document: PhantomData<&'doc RefCell<Document>>,
}

impl<'doc> Coordinator<'doc> {
    fn create(document: &'doc RefCell<Document>) -> Result<Coordinator<'doc>, EmendError> {
        let delegate = EmendDelegate {
            struct_size: std::mem::size_of::<EmendDelegate>(),
            user_data: ptr::from_ref(document).cast_mut().cast::<c_void>(),
            requests_contexts: Some(requests_contexts),
            replace: Some(replace),
            select_ranges: Some(select_ranges),
            requests_bounding_rects: None,
            requests_underline_rects: None,
            prepare_for_text_animation: None,
            requests_preview: None,
            finish_text_animation: None,
            will_change_to_state: Some(will_change_to_state),
            present_result: None,
        };
        let mut raw = ptr::null_mut();
        // SAFETY: the delegate is copied by the runtime; NULL options are the defaults;
        // `raw` receives the handle.
        status_result(unsafe { emend_coordinator_create(&delegate, ptr::null(), &mut raw) })?;
        Ok(Coordinator {
            raw,
            _document: PhantomData,
        })
    }

    // Every method below: `self.raw` is a live handle created on this thread (the type is
    // !Send), and no method runs inside a callback (callbacks never see a `Coordinator`), so
    // dispatch is never re-entered. Out-pointers point to locals of the right type.

    fn start(&mut self, tool: EmendTool, scope: EmendContextScope) -> Result<(), EmendError> {
        self.start_request(&tool_request(tool, scope))
    }

    fn start_request(&mut self, request: &EmendToolRequest) -> Result<(), EmendError> {
        // SAFETY: live handle (above); `request` is a valid struct, copied by the runtime.
        status_result(unsafe { emend_coordinator_start(self.raw, request) })
    }

    fn run_until_idle(&mut self, timeout_ms: i32) -> Result<(), EmendError> {
        // SAFETY: live handle (above); our callbacks run inside this call.
        status_result(unsafe { emend_coordinator_run_until_idle(self.raw, timeout_ms) })
    }

    fn state(&self) -> Result<EmendState, EmendError> {
        let mut state = EMEND_STATE_INACTIVE;
        // SAFETY: live handle (above); `state` is a valid out-pointer.
        status_result(unsafe { emend_coordinator_get_state(self.raw, &mut state) })?;
        Ok(state)
    }

    fn suggestion_count(&self) -> Result<usize, EmendError> {
        let mut count = 0;
        // SAFETY: live handle (above); `count` is a valid out-pointer.
        status_result(unsafe { emend_session_suggestion_count(self.raw, &mut count) })?;
        Ok(count)
    }

    fn suggestion(&self, index: usize) -> Result<Suggestion, EmendError> {
        let mut out = EmendSuggestion {
            struct_size: std::mem::size_of::<EmendSuggestion>(),
            context_id: 0,
            range: EmendRange::default(),
            original: ptr::null(),
            replacement: ptr::null(),
            explanation: ptr::null(),
            category: ptr::null(),
            rule_id: ptr::null(),
            state: EMEND_SUGGESTION_PENDING,
        };
        // SAFETY: live handle (above); `out` is a full `emend_suggestion` with struct_size set.
        status_result(unsafe { emend_session_get_suggestion(self.raw, index, &mut out) })?;
        // SAFETY: the strings are NULL or NUL-terminated and the runtime's until the next
        // non-getter call on this coordinator: they are copied now, before any other call.
        Ok(unsafe {
            Suggestion {
                original: copy_c_string(out.original),
                replacement: copy_c_string(out.replacement),
                explanation: copy_c_string(out.explanation),
                category: copy_c_string(out.category),
                state: out.state,
            }
        })
    }

    fn accept_suggestion(&mut self, index: usize) -> Result<(), EmendError> {
        // SAFETY: live handle (above); a bad index is an error status, not UB.
        status_result(unsafe { emend_session_accept_suggestion(self.raw, index) })
    }

    fn reject_suggestion(&mut self, index: usize) -> Result<(), EmendError> {
        // SAFETY: live handle (above); the replace it causes runs in the next dispatch.
        status_result(unsafe { emend_session_reject_suggestion(self.raw, index) })
    }

    fn accept(&mut self) -> Result<(), EmendError> {
        // SAFETY: live handle (above).
        status_result(unsafe { emend_session_accept(self.raw) })
    }

    fn revert(&mut self) -> Result<(), EmendError> {
        // SAFETY: live handle (above); the restoring replaces run in the next dispatch.
        status_result(unsafe { emend_session_revert(self.raw) })
    }
}

impl Drop for Coordinator<'_> {
    fn drop(&mut self) {
        // SAFETY: the handle is live and owned by this thread; it is not used afterwards.
        unsafe { emend_coordinator_destroy(self.raw) }
    }
}

/// The built-in fixture provider: deterministic, whatever plugins are installed.
const FIXTURE_PROVIDER: &CStr = c"org.emend.fixture";

fn tool_request(tool: EmendTool, scope: EmendContextScope) -> EmendToolRequest {
    EmendToolRequest {
        struct_size: std::mem::size_of::<EmendToolRequest>(),
        tool,
        scope,
        prompt: ptr::null(),
        provider_id: FIXTURE_PROVIDER.as_ptr(),
    }
}

// ---- the engine --------------------------------------------------------------------------

const ORIGINAL: &str = "Their going to the party tomorow, and they has brought snacks. \
                        I could of done it better. This is a example.";
const REVIEWED: &str = "Their going to the party tomorrow, and they has brought snacks. \
                        I could have done it better. This is an example.";
const TO_REWRITE: &str = "I can't come today, it's raining. We're gonna stay home.";

const TIMEOUT_MS: i32 = 10_000;

fn proofread_review(coordinator: &mut Coordinator<'_>, doc: &RefCell<Document>) {
    // Proofread the whole document (a caret selects everything).
    call!(coordinator.start(EMEND_TOOL_PROOFREAD, EMEND_SCOPE_FULL_DOCUMENT));
    call!(coordinator.run_until_idle(TIMEOUT_MS));

    let count = call!(coordinator.suggestion_count()).unwrap_or(0);
    println!("proofread: {count} suggestions");
    check!(count == 4, "expected 4 suggestions, got {count}");
    for index in 0..count {
        if let Some(s) = call!(coordinator.suggestion(index)) {
            println!(
                "  [{index}] {} -> {} ({}: {})",
                s.original, s.replacement, s.category, s.explanation
            );
            check!(
                s.state == EMEND_SUGGESTION_PENDING,
                "suggestion {index} is pending (state {})",
                s.state
            );
        }
    }
    println!("  inline: {}", doc.borrow().as_str());
    check!(
        doc.borrow().as_str().contains("tomorrow"),
        "suggestions are applied inline"
    );

    // Accept the first suggestion, reject the second, then Done.
    call!(coordinator.accept_suggestion(0));
    call!(coordinator.reject_suggestion(1));
    call!(coordinator.run_until_idle(TIMEOUT_MS));
    if count >= 2 {
        let states = (
            call!(coordinator.suggestion(0)),
            call!(coordinator.suggestion(1)),
        );
        if let (Some(first), Some(second)) = states {
            check!(
                first.state == EMEND_SUGGESTION_ACCEPTED,
                "suggestion 0 accepted (state {})",
                first.state
            );
            check!(
                second.state == EMEND_SUGGESTION_REJECTED,
                "suggestion 1 rejected (state {})",
                second.state
            );
        }
    }
    call!(coordinator.accept());
    call!(coordinator.run_until_idle(TIMEOUT_MS));

    let doc_ref = doc.borrow();
    println!("after review: {}", doc_ref.as_str());
    check!(
        doc_ref.text == REVIEWED.as_bytes(),
        "document after review is\n  {}\nexpected\n  {REVIEWED}",
        doc_ref.as_str()
    );
    let state = call!(coordinator.state());
    check!(
        state == Some(EMEND_STATE_INACTIVE),
        "inactive after Done (state {state:?})"
    );
}

fn rewrite_revert(coordinator: &mut Coordinator<'_>, doc: &RefCell<Document>) {
    // Rewrite professionally, then revert: the document must come back byte for byte.
    let before = {
        let mut doc = doc.borrow_mut();
        doc.set(TO_REWRITE);
        doc.selection = EmendRange::default();
        doc.replaces = 0;
        doc.text.clone()
    };
    call!(coordinator.start(EMEND_TOOL_REWRITE_PROFESSIONAL, EMEND_SCOPE_USER_SELECTION));
    call!(coordinator.run_until_idle(TIMEOUT_MS));
    {
        let doc = doc.borrow();
        println!(
            "rewritten: {} ({} replaces, {} selects)",
            doc.as_str(),
            doc.replaces,
            doc.selects
        );
        check!(doc.text != before, "the rewrite changed the text");
        check!(doc.replaces > 0, "the rewrite arrived through replace");
        check!(
            doc.last_state == EMEND_STATE_INTERACTIVE_RESTING,
            "resting after the rewrite (last state {})",
            doc.last_state
        );
    }
    call!(coordinator.revert());
    call!(coordinator.run_until_idle(TIMEOUT_MS));
    {
        let doc = doc.borrow();
        println!("reverted: {}", doc.as_str());
        check!(
            doc.text == before,
            "revert restores the original byte for byte"
        );
    }
    let state = call!(coordinator.state());
    check!(
        state == Some(EMEND_STATE_INACTIVE),
        "inactive after revert (state {state:?})"
    );
}

fn bad_input_checks(coordinator: &mut Coordinator<'_>) {
    // Bad input is an error, never a crash.
    let rewrite = tool_request(EMEND_TOOL_REWRITE_PROFESSIONAL, EMEND_SCOPE_USER_SELECTION);
    // SAFETY: a NULL coordinator is documented to be rejected with EMEND_E_INVALID_ARGUMENT;
    // the request is a valid struct.
    let status = unsafe { emend_coordinator_start(ptr::null_mut(), &rewrite) };
    println!("start(NULL coordinator): {}", status_name(status));
    check!(
        status == EMEND_E_INVALID_ARGUMENT,
        "NULL coordinator -> {}",
        status_name(status)
    );

    let old = EmendToolRequest {
        struct_size: 4,
        ..rewrite
    };
    let result = coordinator.start_request(&old);
    let status = result.as_ref().err().map_or(EMEND_OK, |error| error.status);
    println!("start(struct_size 4): {}", status_name(status));
    check!(
        status == EMEND_E_STRUCT_SIZE,
        "struct too small -> {}",
        status_name(status)
    );

    let status = coordinator
        .accept()
        .err()
        .map_or(EMEND_OK, |error| error.status);
    println!("accept without a session: {}", status_name(status));
    check!(
        status == EMEND_E_STATE,
        "accept without a session -> {}",
        status_name(status)
    );
}

fn run() {
    // SAFETY: no arguments; thread: any.
    let abi = unsafe { emend_abi_version() };
    println!("libemend ABI version {abi}");
    check!(
        abi == EMEND_ABI_VERSION,
        "ABI version {abi}, this program is written for {EMEND_ABI_VERSION}"
    );

    // Declared before the coordinator, which borrows it (and is dropped first).
    let doc = RefCell::new(Document::new(ORIGINAL));
    let mut coordinator = match Coordinator::create(&doc) {
        Ok(coordinator) => coordinator,
        Err(error) => {
            fail(format!("emend_coordinator_create -> {error}"));
            return;
        }
    };
    proofread_review(&mut coordinator, &doc);
    rewrite_revert(&mut coordinator, &doc);
    bad_input_checks(&mut coordinator);
}

fn main() {
    run();
    let failures = FAILURES.load(Ordering::Relaxed);
    if failures > 0 {
        eprintln!("{failures} check(s) failed");
        std::process::exit(1);
    }
    println!("rust engine: all checks passed");
}
