//! An Emend provider plugin in Rust (std only): `org.emend.example.rust` serves key points
//! and lists, one `- ` line per sentence of the selection. It works synchronously inside
//! `run` (emitting, then finishing before it returns), the simplest shape a plugin can have.
//!
//! Build: `examples/plugins/rust/build.sh OUT_DIR` (cargo build --offline --release, then
//! the library is copied to `OUT_DIR/example-rust.so`).
//!
//! Where the `unsafe` is: the four `extern "C"` functions of the descriptor turn their raw
//! arguments into Rust values at the top (`Instance`, `&str`), and `Output` wraps the host
//! functions; everything else is safe code. No panic crosses into the host: each entry
//! catches it and answers EMEND_E_INTERNAL.

#![deny(warnings)]
#![deny(unsafe_op_in_unsafe_fn)]

mod ffi;

use std::ffi::{c_char, c_void, CStr, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr;

use ffi::*;

// ---- the descriptor ----------------------------------------------------------------------

/// The descriptor holds raw pointers to static strings and functions: never mutated, so
/// sharing it between threads is sound.
struct Descriptor(ProviderDescriptor);
unsafe impl Sync for Descriptor {}

static DESCRIPTOR: Descriptor = Descriptor(ProviderDescriptor {
    struct_size: std::mem::size_of::<ProviderDescriptor>(),
    abi_version: EMEND_PROVIDER_ABI_VERSION,
    id: c"org.emend.example.rust".as_ptr(),
    name: c"Example sentence lister (Rust)".as_ptr(),
    version: c"1.0.0".as_ptr(),
    tools: provides(EMEND_TOOL_KEY_POINTS) | provides(EMEND_TOOL_LIST),
    languages: c"*".as_ptr(),
    outputs: EMEND_OUTPUT_PLAIN | EMEND_OUTPUT_MARKDOWN,
    flags: 0,
    priority: 0,
    create: Some(create),
    run: Some(run),
    cancel: None, // a synchronous plugin: it asks host->is_cancelled between lines
    destroy: Some(destroy),
});

/// The one symbol Emend looks for.
#[no_mangle]
pub extern "C" fn emend_provider_entry() -> *const ProviderDescriptor {
    &DESCRIPTOR.0
}

// ---- instance ------------------------------------------------------------------------------

/// What `create` makes: the host table, kept for `run`.
struct Instance {
    host: *const Host,
}

unsafe extern "C" fn create(
    host: *const Host,
    settings: *const ProviderSetting,
    setting_count: usize,
    instance: *mut *mut c_void,
) -> EmendStatus {
    if host.is_null() || instance.is_null() {
        return EMEND_E_INVALID_ARGUMENT;
    }
    let result = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: the host passes `setting_count` settings with NUL-terminated strings.
        let settings: &[ProviderSetting] = if setting_count == 0 || settings.is_null() {
            &[]
        } else {
            unsafe { std::slice::from_raw_parts(settings, setting_count) }
        };
        let output = Output { host, run: ptr::null_mut() };
        for setting in settings {
            // SAFETY: see above.
            let key = unsafe { CStr::from_ptr(setting.key) }.to_string_lossy();
            output.log(EMEND_LOG_WARNING, &format!("unknown setting \"{key}\" ignored"));
        }
        Box::into_raw(Box::new(Instance { host })) as *mut c_void
    }));
    match result {
        Ok(pointer) => {
            // SAFETY: checked non-NULL above.
            unsafe { *instance = pointer };
            EMEND_OK
        }
        Err(_) => EMEND_E_INTERNAL,
    }
}

unsafe extern "C" fn destroy(instance: *mut c_void) {
    if !instance.is_null() {
        // SAFETY: made by Box::into_raw in create, destroyed once.
        drop(unsafe { Box::from_raw(instance as *mut Instance) });
    }
}

// ---- run ---------------------------------------------------------------------------------

unsafe extern "C" fn run(instance: *mut c_void, request: *const ProviderRequest, run: *mut EmendRun) -> EmendStatus {
    if instance.is_null() || request.is_null() || run.is_null() {
        return EMEND_E_INVALID_ARGUMENT;
    }
    // SAFETY: `instance` is ours; `request` is the host's and valid until finish.
    let instance = unsafe { &*(instance as *const Instance) };
    let request = unsafe { &*request };
    let output = Output { host: instance.host, run };
    if request.tool != EMEND_TOOL_KEY_POINTS && request.tool != EMEND_TOOL_LIST {
        return EMEND_E_UNSUPPORTED; // failed at once: no finish
    }
    // SAFETY: `text_length` bytes at `text`, valid until finish.
    let text = unsafe { std::slice::from_raw_parts(request.text as *const u8, request.text_length) };
    let selection = request.selection;
    if selection.start > selection.end || selection.end > text.len() {
        return EMEND_E_RANGE;
    }
    let Ok(selected) = std::str::from_utf8(&text[selection.start..selection.end]) else {
        return EMEND_E_INVALID_UTF8;
    };
    let key_points = request.tool == EMEND_TOOL_KEY_POINTS;
    let status = match catch_unwind(AssertUnwindSafe(|| write_lines(&output, selected, key_points))) {
        Ok(status) => status,
        Err(_) => EMEND_E_INTERNAL,
    };
    output.finish(status);
    EMEND_OK
}

/// Emits one `- ` line per sentence; stops early when the run is cancelled.
fn write_lines(output: &Output, selected: &str, key_points: bool) -> EmendStatus {
    for (index, sentence) in sentences(selected).into_iter().enumerate() {
        if output.is_cancelled() {
            return EMEND_E_CANCELLED;
        }
        // Key points keep the gist: no closing period.
        let body = if key_points { sentence.strip_suffix('.').unwrap_or(sentence) } else { sentence };
        let line = format!("{}- {}", if index == 0 { "" } else { "\n" }, body);
        match output.emit_text(&line) {
            EMEND_OK => {}
            EMEND_E_CANCELLED => return EMEND_E_CANCELLED,
            _ => return EMEND_E_INTERNAL,
        }
    }
    EMEND_OK
}

/// The sentences of `text`: ended by '.', '!' or '?' before white space (or the end), or by
/// a line break; trimmed, empty ones left out.
fn sentences(text: &str) -> Vec<&str> {
    let mut result = Vec::new();
    let mut start = 0;
    let mut chars = text.char_indices().peekable();
    while let Some((index, c)) = chars.next() {
        let next_is_space = chars.peek().map_or(true, |&(_, n)| n.is_whitespace());
        let end = match c {
            '.' | '!' | '?' if next_is_space => Some(index + c.len_utf8()),
            '\n' => Some(index),
            _ => None,
        };
        if let Some(end) = end {
            let sentence = text[start..end].trim();
            if !sentence.is_empty() {
                result.push(sentence);
            }
            start = end;
        }
    }
    let rest = text[start..].trim();
    if !rest.is_empty() {
        result.push(rest);
    }
    result
}

// ---- the host's functions, made safe ------------------------------------------------------

/// The host table and one run: the only code that calls host functions.
struct Output {
    host: *const Host,
    run: *mut EmendRun,
}

impl Output {
    fn host(&self) -> &Host {
        // SAFETY: the host table outlives every instance.
        unsafe { &*self.host }
    }

    fn log(&self, level: EmendLogLevel, message: &str) {
        if let (Some(log), Ok(message)) = (self.host().log, CString::new(message)) {
            // SAFETY: a NUL-terminated string the host copies before returning.
            unsafe { log(self.run, level, message.as_ptr()) };
        }
    }

    fn is_cancelled(&self) -> bool {
        // SAFETY: `run` is the handle of the running request.
        self.host().is_cancelled.is_some_and(|f| unsafe { f(self.run) } != 0)
    }

    fn emit_text(&self, text: &str) -> EmendStatus {
        match self.host().emit_text {
            // SAFETY: `text.len()` valid bytes, copied by the host before it returns.
            Some(emit) => unsafe { emit(self.run, text.as_ptr() as *const c_char, text.len()) },
            None => EMEND_E_INTERNAL,
        }
    }

    fn finish(&self, status: EmendStatus) {
        let message: &CStr = match status {
            EMEND_OK => c"",
            EMEND_E_CANCELLED => c"cancelled",
            _ => c"could not list the sentences",
        };
        if let Some(finish) = self.host().finish {
            let message = if status == EMEND_OK { ptr::null() } else { message.as_ptr() };
            // SAFETY: exactly once per run.
            unsafe { finish(self.run, status, message) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::sentences;

    #[test]
    fn splits_sentences() {
        assert_eq!(
            sentences("One. Two! Three? v1.2 is out\nFour"),
            vec!["One.", "Two!", "Three?", "v1.2 is out", "Four"]
        );
    }
}
