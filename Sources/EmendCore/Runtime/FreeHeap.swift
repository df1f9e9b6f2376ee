import CEmendSystem

/// The process's heap, as far as giving memory back is concerned.
public enum FreeHeap {
    /// Gives the heap's free pages back to the kernel (glibc's `malloc_trim`). Why: glibc keeps
    /// what a thread freed in that thread's arena, counted in the process's memory; a front end
    /// that built a large structure once (the dictionaries' stems before they were written to
    /// the shared lexicon file) calls it so that what it let go of is not held for its life.
    public static func release() {
        _ = emendsys_release_free_heap()
    }
}
