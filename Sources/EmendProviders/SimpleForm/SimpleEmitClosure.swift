import CFFI
import EmendCore

/// A C function pointer `void (*emit)(const char *chunk)` made by libffi for one run and
/// bound to its receiver. Freed with the object, after the call that used it returned.
final class SimpleEmitClosure {
    /// The function pointer to pass as the emit argument.
    let code: UnsafeMutableRawPointer
    private let closure: UnsafeMutableRawPointer
    private let receiver: SimpleChunkReceiver

    /// `cif` is the binding's `void (const char *)` interface; it outlives the closure.
    init(cif: UnsafeMutablePointer<ffi_cif>, receiver: SimpleChunkReceiver) throws(EmendError) {
        var code: UnsafeMutableRawPointer?
        guard let closure = ffi_closure_alloc(emend_ffi_closure_size(), &code), let code else {
            throw EmendError(.internal, "libffi could not allocate a closure")
        }
        self.closure = closure
        self.code = code
        self.receiver = receiver
        let status = ffi_prep_closure_loc(closure.assumingMemoryBound(to: ffi_closure.self), cif, { _, _, arguments, userData in
            guard let arguments, let userData, let slot = arguments[0] else { return }
            let chunk = slot.load(as: UnsafePointer<CChar>?.self)
            Unmanaged<SimpleChunkReceiver>.fromOpaque(userData).takeUnretainedValue().receive(chunk)
        }, Unmanaged.passUnretained(receiver).toOpaque(), code)
        guard status == FFI_OK else {
            ffi_closure_free(closure)
            throw EmendError(.internal, "libffi could not prepare a closure (status \(status.rawValue))")
        }
    }

    deinit { ffi_closure_free(closure) }
}
