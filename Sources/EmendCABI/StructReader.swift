import CEmend
import Glibc
import EmendCore

/// Reads versioned structs that start with `size_t struct_size`: the fields struct_size
/// covers whole are copied and the rest is zero, so older and newer headers both work and a
/// struct_size ending inside a field never yields half a pointer (see StructLayout).
///
/// Every access is unaligned (loadUnaligned, memcpy): the caller's pointer may be any
/// address, e.g. the second element of a context array whose stride is not a multiple of
/// 8, and a typed load from a misaligned address traps in debug builds.
enum StructReader {
    /// The caller's struct_size, checked against the first version of the struct.
    static func size<T>(at pointer: UnsafeRawPointer, _ layout: StructLayout<T>, name: String? = nil) throws(EmendError) -> Int {
        let size = pointer.loadUnaligned(as: Int.self)
        guard size >= layout.minimumSize else {
            // A negative Int is a size_t above PTRDIFF_MAX (SIZE_MAX, say): print it as the caller wrote it.
            throw EmendError(.structSize, "\(name ?? layout.name).struct_size is \(UInt(bitPattern: size)), "
                             + "smaller than its first version (\(layout.minimumSize) bytes)")
        }
        return size
    }

    static func read<T>(_ pointer: UnsafeRawPointer, _ layout: StructLayout<T>, name: String? = nil) throws(EmendError) -> T {
        let size = try size(at: pointer, layout, name: name)
        let ours = MemoryLayout<T>.size
        let raw = UnsafeMutableRawPointer.allocate(byteCount: ours, alignment: MemoryLayout<T>.alignment)
        defer { raw.deallocate() }
        memset(raw, 0, ours)
        memcpy(raw, pointer, min(layout.wholeFieldBytes(size), ours))
        return raw.load(as: T.self)
    }

    /// Writes `value` into a caller's struct of `struct_size` bytes (its own size first):
    /// the fields that struct_size covers whole, nothing past them.
    static func write<T>(_ value: T, to pointer: UnsafeMutableRawPointer, _ layout: StructLayout<T>) throws(EmendError) {
        let size = try size(at: UnsafeRawPointer(pointer), layout)
        let header = MemoryLayout<Int>.size
        let end = min(layout.wholeFieldBytes(size), MemoryLayout<T>.size)
        guard end > header else { return }
        _ = withUnsafeBytes(of: value) { bytes in
            memcpy(pointer + header, bytes.baseAddress! + header, end - header)
        }
    }
}
