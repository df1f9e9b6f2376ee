import Glibc
import EmendCore

/// Starts a detached thread of the host for one call into a plugin.
enum PluginThread {
    private final class Box {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    static func start(_ body: @escaping () -> Void) throws(EmendError) {
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { raw in
            Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue().body()
            return nil
        }, box)
        guard result == 0 else {
            Unmanaged<Box>.fromOpaque(box).release()
            throw EmendError(.internal, "could not start a thread for the plugin (error \(result))")
        }
        pthread_detach(thread)
    }
}
