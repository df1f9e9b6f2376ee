import Glibc

/// Starts a detached runtime thread running `body`.
public enum RuntimeThread {
    private final class Box {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    public static func start(_ body: @escaping () -> Void) throws(EmendError) {
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { raw in
            let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
            box.body()
            return nil
        }, box)
        guard result == 0 else {
            Unmanaged<Box>.fromOpaque(box).release()
            throw EmendError(.internal, "could not start a runtime thread (error \(result))")
        }
        pthread_detach(thread)
    }
}
