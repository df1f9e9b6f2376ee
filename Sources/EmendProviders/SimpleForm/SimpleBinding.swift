import CFFI
import EmendCore
import Glibc

/// A manifest's function, opened and prepared once: the library (RTLD_NOW | RTLD_LOCAL,
/// never closed), the function and free pointers, and the libffi call interfaces with their
/// type arrays, which live as long as the binding.
final class SimpleBinding: @unchecked Sendable {
    typealias CFunction = @convention(c) () -> Void
    typealias FreeFunction = @convention(c) (UnsafeMutableRawPointer?) -> Void

    let function: CFunction
    /// Frees a `string` result; nil for the streaming form.
    let free: FreeFunction?
    /// The function's call interface.
    let cif: UnsafeMutablePointer<ffi_cif>
    /// For the streaming form: the call interface of `void emit(const char *)`.
    let emitCif: UnsafeMutablePointer<ffi_cif>?
    /// Serializes calls into the library.
    let libraryLock: Lock
    private let argumentTypes: UnsafeMutablePointer<UnsafeMutablePointer<ffi_type>?>
    private let emitArgumentTypes: UnsafeMutablePointer<UnsafeMutablePointer<ffi_type>?>?

    /// Opens the library and finds the symbols; every error names the manifest, the library
    /// and the reason.
    init(_ manifest: SimpleManifest) throws(EmendError) {
        let library = manifest.libraryPath
        _ = dlerror()
        guard let handle = dlopen(library, RTLD_NOW | RTLD_LOCAL) else {
            throw EmendError(.provider, "\(manifest.path): cannot load \(library): \(Self.lastError())")
        }
        func symbol(_ name: String) throws(EmendError) -> UnsafeMutableRawPointer {
            _ = dlerror()
            guard let address = dlsym(handle, name) else {
                throw EmendError(.provider, "\(manifest.path): symbol \"\(name)\" not found in \(library)")
            }
            return address
        }
        function = unsafeBitCast(try symbol(manifest.symbol), to: CFunction.self)
        free = try manifest.freeSymbol.map { (name) throws(EmendError) in unsafeBitCast(try symbol(name), to: FreeFunction.self) }
        libraryLock = SimpleLibraryLocks.shared.lock(for: handle)

        let count = manifest.arguments.count
        argumentTypes = .allocate(capacity: max(count, 1))
        for (index, argument) in manifest.arguments.enumerated() {
            argumentTypes[index] = Self.ffiType(of: argument)
        }
        cif = .allocate(capacity: 1)
        let returnType = manifest.returns == .string ? emend_ffi_type_pointer() : emend_ffi_type_void()
        let status = ffi_prep_cif(cif, emend_ffi_default_abi(), UInt32(count), returnType, argumentTypes)
        if manifest.streams {
            emitArgumentTypes = .allocate(capacity: 1)
            emitArgumentTypes![0] = emend_ffi_type_pointer()
            emitCif = .allocate(capacity: 1)
        } else {
            emitArgumentTypes = nil
            emitCif = nil
        }
        let emitStatus = emitCif.map { ffi_prep_cif($0, emend_ffi_default_abi(), 1, emend_ffi_type_void(), emitArgumentTypes) } ?? FFI_OK
        guard status == FFI_OK, emitStatus == FFI_OK else {
            throw EmendError(.provider, "\(manifest.path): libffi cannot prepare a call to \(manifest.symbol) (ffi_prep_cif status \(status.rawValue), \(emitStatus.rawValue))")
        }
    }

    deinit {
        cif.deallocate()
        argumentTypes.deallocate()
        emitCif?.deallocate()
        emitArgumentTypes?.deallocate()
    }

    /// The libffi type of an argument: pointers for strings and emit, C long for int, C int for bool.
    static func ffiType(of argument: SimpleArgument) -> UnsafeMutablePointer<ffi_type> {
        switch argument {
        case .text, .prompt, .language, .previousResult, .emit: return emend_ffi_type_pointer()
        case .setting(_, let type):
            switch type {
            case .string: return emend_ffi_type_pointer()
            case .int: return emend_ffi_type_slong()
            case .double: return emend_ffi_type_double()
            case .bool: return emend_ffi_type_sint()
            }
        }
    }

    private static func lastError() -> String {
        guard let text = dlerror() else { return "unknown dlopen error" }
        return String(cString: text)
    }
}
