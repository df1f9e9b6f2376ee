/* libffi for Swift: the type descriptors are globals, which Swift 6 refuses to take the
 * address of (not concurrency-safe); these accessors hand out their addresses. */
#ifndef EMEND_FFI_H
#define EMEND_FFI_H
#include <ffi.h>

static inline ffi_type *emend_ffi_type_void(void) { return &ffi_type_void; }
static inline ffi_type *emend_ffi_type_pointer(void) { return &ffi_type_pointer; }
static inline ffi_type *emend_ffi_type_sint32(void) { return &ffi_type_sint32; }
static inline ffi_type *emend_ffi_type_sint64(void) { return &ffi_type_sint64; }
static inline ffi_type *emend_ffi_type_uint8(void) { return &ffi_type_uint8; }
static inline ffi_type *emend_ffi_type_double(void) { return &ffi_type_double; }
static inline ffi_abi emend_ffi_default_abi(void) { return FFI_DEFAULT_ABI; }

/* C `int` and `long` as this platform defines them (ffi_type_sint and ffi_type_slong are
 * macros, which Swift does not import). */
static inline ffi_type *emend_ffi_type_sint(void) { return &ffi_type_sint; }
static inline ffi_type *emend_ffi_type_slong(void) { return &ffi_type_slong; }

/* sizeof(ffi_closure), for ffi_closure_alloc (the struct holds a union Swift may not size). */
static inline size_t emend_ffi_closure_size(void) { return sizeof(ffi_closure); }
#endif
