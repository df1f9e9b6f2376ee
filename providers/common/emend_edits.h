/*
 * emend_edits.h — a model's proofreading answer turned into validated edits.
 *
 * The model answers {"edits":[{"original":"teh","replacement":"the","explanation":"..."}]}
 * (see emend_prompts.c). Models do not count bytes, so each edit names the text it changes:
 * `original` is looked up in the request's text, in order (after the previous edit), inside
 * the part of the selection the model was shown, on word boundaries. An edit is dropped, with
 * a log line, when it is a no-op, its original is empty or not found there, it overlaps an
 * earlier one, touches a protected range, or has text that is not valid UTF-8. Nothing
 * unvalidated reaches the host.
 */
#ifndef EMEND_EDITS_H
#define EMEND_EDITS_H

#include <stddef.h>

#include "emend_plugin.h" /* the UTF-8 helpers, emend_utf8_* (providers/sdk) */
#include "emend_provider.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Validated edits; every string malloc'd and owned by the set. */
typedef struct emend_edit_set {
    emend_provider_edit *items;
    size_t count;
    size_t proposed; /* edits in the answer */
    size_t dropped;  /* proposed - count */
} emend_edit_set;

/* Receives one line per dropped edit (and per answer that is not the JSON asked for). */
typedef void (*emend_edits_log_fn)(void *context, const char *message);

/* Parses `json` (length bytes; trailing text after the object is ignored) against
 * `request`, looking originals up in request->text[within.start, within.end) (clamped to the
 * selection). `rule_id` (e.g. "LLAMA") is copied into each edit; its category is "grammar"
 * unless the answer names one. 0 on success (possibly with no edits); -1 when the answer is
 * not JSON of that form (logged, out stays empty). */
int emend_edits_parse(const emend_provider_request *request, emend_byte_range within, const char *json,
                      size_t length, const char *rule_id, emend_edit_set *out, emend_edits_log_fn log,
                      void *log_context);

/* Emits each edit of `set` through host->emit_edit; returns how many the host accepted. */
size_t emend_edits_emit(const emend_host *host, emend_run *run, const emend_edit_set *set);

/* Parse (logging through host->log) and emit; returns the number emitted, or -1 when the
 * answer is not the JSON asked for. */
long emend_edits_apply(const emend_host *host, emend_run *run, const emend_provider_request *request,
                       emend_byte_range within, const char *json, size_t length, const char *rule_id);

void emend_edits_free(emend_edit_set *set);

#ifdef __cplusplus
}
#endif

#endif /* EMEND_EDITS_H */
