import CEmend
import Glibc
import EmendCore

/// Reads versioned structs that start with `size_t struct_size`: min(struct_size, ours)
/// bytes are copied and the rest is zero, so older and newer headers both work.
enum StructReader {
    static func read<T>(_ pointer: UnsafeRawPointer, as: T.Type, minimumSize: Int, name: String) throws(EmendError) -> T {
        let size = pointer.load(as: Int.self)
        guard size >= minimumSize else {
            throw EmendError(.structSize, "\(name).struct_size is \(size), smaller than its first version (\(minimumSize) bytes)")
        }
        let ours = MemoryLayout<T>.size
        let raw = UnsafeMutableRawPointer.allocate(byteCount: ours, alignment: MemoryLayout<T>.alignment)
        defer { raw.deallocate() }
        memset(raw, 0, ours)
        memcpy(raw, pointer, min(size, ours))
        return raw.load(as: T.self)
    }

    /// Writes `value` into a caller's struct of `struct_size` bytes (its own size first).
    static func write<T>(_ value: T, to pointer: UnsafeMutableRawPointer, minimumSize: Int, name: String) throws(EmendError) {
        let size = pointer.load(as: Int.self)
        guard size >= minimumSize else {
            throw EmendError(.structSize, "\(name).struct_size is \(size), smaller than its first version (\(minimumSize) bytes)")
        }
        _ = withUnsafeBytes(of: value) { bytes in
            memcpy(pointer + MemoryLayout<Int>.size, bytes.baseAddress! + MemoryLayout<Int>.size,
                   min(size, bytes.count) - MemoryLayout<Int>.size)
        }
    }
}
