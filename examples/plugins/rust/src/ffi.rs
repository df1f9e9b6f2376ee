//! Hand-written mirrors of the parts of `include/emend_provider.h` (and `emend.h`) this
//! plugin uses.
//!
//! Layouts follow the header exactly: `size_t` = `usize`, `uint32_t` = `u32`, `int32_t` =
//! `i32`, pointers as raw pointers, function pointers as `Option<unsafe extern "C" fn(...)>`
//! (NULL is `None`). C enums are `int`-sized integers with constants, never Rust enums: the
//! host may pass a value this file does not know, and a Rust enum holding an undeclared value
//! is undefined behavior.

#![allow(dead_code)] // constants and fields are declared for completeness of the mirror

use std::ffi::{c_char, c_int, c_void};

pub const EMEND_PROVIDER_ABI_VERSION: u32 = 1;

// ---- emend_status (emend.h) -------------------------------------------------------------

pub type EmendStatus = u32;
pub const EMEND_OK: EmendStatus = 0;
pub const EMEND_E_INVALID_ARGUMENT: EmendStatus = 1;
pub const EMEND_E_INVALID_UTF8: EmendStatus = 3;
pub const EMEND_E_RANGE: EmendStatus = 4;
pub const EMEND_E_UNSUPPORTED: EmendStatus = 12;
pub const EMEND_E_CANCELLED: EmendStatus = 13;
pub const EMEND_E_INTERNAL: EmendStatus = 15;

// ---- emend_tool (emend.h) ---------------------------------------------------------------

pub type EmendTool = u32;
pub const EMEND_TOOL_KEY_POINTS: EmendTool = 6;
pub const EMEND_TOOL_LIST: EmendTool = 7;

/// `EMEND_PROVIDES(tool)`.
pub const fn provides(tool: EmendTool) -> u32 {
    1 << tool
}

// ---- descriptor vocabulary --------------------------------------------------------------

pub const EMEND_OUTPUT_PLAIN: u32 = 1;
pub const EMEND_OUTPUT_MARKDOWN: u32 = 2;
pub const EMEND_OUTPUT_EDITS: u32 = 4;

pub const EMEND_PROVIDER_STREAMS: u32 = 1;
pub const EMEND_PROVIDER_USES_NETWORK: u32 = 2;
pub const EMEND_PROVIDER_CONCURRENT: u32 = 4;

pub type EmendLogLevel = u32;
pub const EMEND_LOG_DEBUG: EmendLogLevel = 0;
pub const EMEND_LOG_INFO: EmendLogLevel = 1;
pub const EMEND_LOG_WARNING: EmendLogLevel = 2;
pub const EMEND_LOG_ERROR: EmendLogLevel = 3;

// ---- structs ----------------------------------------------------------------------------

/// `emend_byte_range`: [start, end) in UTF-8 bytes of the request's text.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct ByteRange {
    pub start: usize,
    pub end: usize,
}

/// `emend_provider_request`: owned by the host, valid until the run finishes.
#[repr(C)]
pub struct ProviderRequest {
    pub struct_size: usize,
    pub tool: EmendTool,
    pub text: *const c_char,
    pub text_length: usize,
    pub selection: ByteRange,
    pub protected_ranges: *const ByteRange,
    pub protected_range_count: usize,
    pub result_options: u32,
    pub prompt: *const c_char,
    pub previous_result: *const c_char,
    pub language: *const c_char,
}

/// `emend_provider_edit`.
#[repr(C)]
pub struct ProviderEdit {
    pub struct_size: usize,
    pub range: ByteRange,
    pub replacement: *const c_char,
    pub replacement_length: usize,
    pub explanation: *const c_char,
    pub category: *const c_char,
    pub rule_id: *const c_char,
}

/// `emend_run`: opaque, only ever behind a pointer.
#[repr(C)]
pub struct EmendRun {
    _private: [u8; 0],
}

/// `emend_host`: the host's functions, valid as long as the instance.
#[repr(C)]
pub struct Host {
    pub struct_size: usize,
    pub abi_version: u32,
    pub log: Option<unsafe extern "C" fn(*mut EmendRun, EmendLogLevel, *const c_char)>,
    pub is_cancelled: Option<unsafe extern "C" fn(*mut EmendRun) -> c_int>,
    pub emit_text: Option<unsafe extern "C" fn(*mut EmendRun, *const c_char, usize) -> EmendStatus>,
    pub emit_edit: Option<unsafe extern "C" fn(*mut EmendRun, *const ProviderEdit) -> EmendStatus>,
    pub finish: Option<unsafe extern "C" fn(*mut EmendRun, EmendStatus, *const c_char) -> EmendStatus>,
}

/// `emend_provider_setting`.
#[repr(C)]
pub struct ProviderSetting {
    pub key: *const c_char,
    pub value: *const c_char,
}

/// `emend_provider_descriptor`.
#[repr(C)]
pub struct ProviderDescriptor {
    pub struct_size: usize,
    pub abi_version: u32,
    pub id: *const c_char,
    pub name: *const c_char,
    pub version: *const c_char,
    pub tools: u32,
    pub languages: *const c_char,
    pub outputs: u32,
    pub flags: u32,
    pub priority: i32,
    pub create: Option<
        unsafe extern "C" fn(*const Host, *const ProviderSetting, usize, *mut *mut c_void) -> EmendStatus,
    >,
    pub run: Option<unsafe extern "C" fn(*mut c_void, *const ProviderRequest, *mut EmendRun) -> EmendStatus>,
    pub cancel: Option<unsafe extern "C" fn(*mut c_void, *mut EmendRun)>,
    pub destroy: Option<unsafe extern "C" fn(*mut c_void)>,
}

// The layouts of the header on 64-bit Linux (checked by hand against offsetof in C).
#[cfg(target_pointer_width = "64")]
const _: () = {
    assert!(std::mem::size_of::<ProviderRequest>() == 96);
    assert!(std::mem::size_of::<ProviderEdit>() == 64);
    assert!(std::mem::size_of::<Host>() == 56);
    assert!(std::mem::size_of::<ProviderDescriptor>() == 104);
};
