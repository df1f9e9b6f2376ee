/*
 * fullload.h — the dictionary as it is (with Hunspell's n-gram scan), loaded on a thread of its
 * own right after the quick view (quick.h). Why: loading it takes 30–80 ms of CPU, and loading
 * it on the first word Hunspell's edits cannot mend put that on one keystroke's path in an
 * editor (emend lsp's worst keystroke). The thread only creates the Hunspell handle; the
 * instance's run takes it (joins the thread) when it first needs the scan, so the handle is
 * used by one thread at a time. A run that needs it while it still loads waits for the rest of
 * the load: its suggestions are the same as they would be later, never the quick view's alone.
 *
 * Hunspell_create and Hunspell_destroy go through handles_create and handles_destroy: Hunspell
 * 1.7 keeps a process-wide table for UTF-8 case mapping with a count of the handles that use
 * it (csutil's utf_tbl), changed unguarded by every create and destroy; a load on the thread
 * beside a run loading or unloading another dictionary (or another instance in the same host)
 * would race on it. The lock is the plugin's only state shared between instances.
 */
#ifndef EMEND_HUNSPELL_FULLLOAD_H
#define EMEND_HUNSPELL_FULLLOAD_H

#include <pthread.h>

#include <hunspell.h>

/* Where the dictionary as it is stands. */
typedef enum full_state {
    FULL_IS_HANDLE,  /* no quick view: the dictionary's one handle is the dictionary as it is */
    FULL_NOT_LOADED, /* the thread could not start: loaded on first need, on the run's thread */
    FULL_LOADING,    /* the thread loads it (`thread`; `handle` is the thread's until joined) */
    FULL_LOADED,     /* `handle` is it, or NULL when Hunspell could not load it */
} full_state;

typedef struct full_dictionary {
    full_state state;
    pthread_t thread;
    char *aff_path, *dic_path; /* owned */
    Hunhandle *handle;
} full_dictionary;

/* Hunspell_create and Hunspell_destroy, one at a time in the process (see above). */
Hunhandle *handles_create(const char *aff, const char *dic);
void handles_destroy(Hunhandle *handle);

/* Starts loading `aff` + `dic` (copied) on a thread: state FULL_LOADING, or FULL_NOT_LOADED
 * when no thread could start. 0, or -1 out of memory (state FULL_NOT_LOADED, nothing owned). */
int full_load_start(full_dictionary *full, const char *aff, const char *dic);

/* The dictionary as it is once loaded: waits for the thread when it still loads, loads it here
 * when no thread could; NULL when Hunspell could not load it. Not for FULL_IS_HANDLE. */
Hunhandle *full_load_take(full_dictionary *full);

/* Waits for the thread if it loads, frees the handle and the paths. */
void full_load_free(full_dictionary *full);

#endif /* EMEND_HUNSPELL_FULLLOAD_H */
