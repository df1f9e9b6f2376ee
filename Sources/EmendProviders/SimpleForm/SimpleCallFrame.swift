import CFFI
import EmendCore
import Glibc

/// The argument values for calls of one binding: an 8-byte slot per argument, the array of
/// pointers to the slots that ffi_call reads, and a slot for the result. Settings are
/// written once; the request's strings are written before each call and freed after it.
/// Used under the library's lock only.
final class SimpleCallFrame: @unchecked Sendable {
    private static let slotSize = 8
    private let arguments: [SimpleArgument]
    private let slots: UnsafeMutableRawPointer
    /// `void **avalue` for ffi_call.
    let values: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    /// `void *rvalue` for ffi_call: room for an ffi_arg or a pointer.
    let result: UnsafeMutableRawPointer
    private var settingStrings: [UnsafeMutablePointer<CChar>] = []
    private var callStrings: [UnsafeMutablePointer<CChar>] = []

    init(arguments: [SimpleArgument], settings: [String: SimpleSettingValue]) {
        self.arguments = arguments
        let count = max(arguments.count, 1)
        slots = .allocate(byteCount: count * Self.slotSize, alignment: 16)
        slots.initializeMemory(as: UInt8.self, repeating: 0, count: count * Self.slotSize)
        values = .allocate(capacity: count)
        result = .allocate(byteCount: 16, alignment: 16)
        for index in arguments.indices {
            values[index] = slots + index * Self.slotSize
        }
        for (index, argument) in arguments.enumerated() {
            guard case .setting(let name, _) = argument, let value = settings[name] else { continue }
            let slot = slots + index * Self.slotSize
            switch value {
            case .string(let s):
                let copy = strdup(s)!
                settingStrings.append(copy)
                slot.storeBytes(of: UnsafePointer(copy), as: UnsafePointer<CChar>.self)
            case .int(let i): slot.storeBytes(of: CLong(i), as: CLong.self)
            case .double(let d): slot.storeBytes(of: d, as: Double.self)
            case .bool(let b): slot.storeBytes(of: b ? 1 : 0, as: CInt.self)
            }
        }
    }

    deinit {
        releaseCall()
        for copy in settingStrings { Glibc.free(copy) }
        slots.deallocate()
        values.deallocate()
        result.deallocate()
    }

    /// Writes the request's strings and the emit pointer; a problem if a string holds a NUL
    /// byte (C would see it cut short, and the rest of the selection would be lost).
    func prepare(_ request: ProviderRequest, emit: UnsafeMutableRawPointer?) -> SimpleProblem? {
        releaseCall()
        for (index, argument) in arguments.enumerated() {
            let slot = slots + index * Self.slotSize
            let string: String
            switch argument {
            case .text: string = request.selectedText
            case .prompt: string = request.prompt ?? ""
            case .language: string = request.language
            case .previousResult: string = request.previousResult ?? ""
            case .emit:
                slot.storeBytes(of: emit, as: UnsafeMutableRawPointer?.self)
                continue
            case .setting: continue
            }
            let copy = strdup(string)!
            callStrings.append(copy)
            guard strlen(copy) == string.utf8.count else {
                releaseCall()
                return SimpleProblem("the \(argument.spelling) argument contains a NUL byte, which a C string cannot carry")
            }
            slot.storeBytes(of: UnsafePointer(copy), as: UnsafePointer<CChar>.self)
        }
        return nil
    }

    /// Frees the strings of the last call.
    func releaseCall() {
        for copy in callStrings { Glibc.free(copy) }
        callStrings.removeAll(keepingCapacity: true)
    }
}
