/*
 * emend-glue.c — the coordinator, its descriptor in the GLib main loop, the delegate and the
 * session state, for any text view whose offsets are code points (see emend-glue.h).
 */
#include "emend-glue.h"

#include <glib-unix.h>
#include <string.h>

/* A text animation in progress: the coordinator names it by (animation, range) in prepare,
 * preview and finish, and the order of prepare and preview is not fixed, so the handle is
 * made by whichever comes first and found again by the same key. */
typedef struct {
    emend_text_animation animation;
    guint64 location;
    guint64 length;
    gpointer handle;
    gboolean previewed;          /* handed out through emend_answer_preview */
} Animation;

/* A call on the session the coordinator answered EMEND_E_AGAIN: a step is in flight (a
 * rejected suggestion's text going back, an undo), so it is made again after the
 * dispatches that deliver it. */
typedef enum { CALL_DONE, CALL_REVERT, CALL_UNDO, CALL_REDO, CALL_ACCEPT_SUGGESTION, CALL_REJECT_SUGGESTION } CallKind;
typedef struct {
    CallKind kind;
    size_t index;                /* the suggestion's, for the suggestion calls */
    int tries;
} Deferred;

/* What a resting rewrite shows: its result, the original (show original), or its result
 * split into changes reviewed one by one (emend_session_review_changes), the session's
 * suggestions until Done, Revert or a follow-up. */
typedef enum { RESULT_SHOWN = 0, ORIGINAL_SHOWN, CHANGES_UNDER_REVIEW } ResultView;

/* The session: its phase and what that phase needs. */
typedef struct {
    EmendGluePhase phase;
    emend_tool tool;
    /* The selection taken when the tool was activated, moved with every edit until the
     * coordinator asks for contexts (a dispatch or more later: SELECTION SNAPSHOT). */
    guint64 selection_start;
    guint64 selection_end;
    /* PRESENTING: the request to answer, and the phase the coordinator is in meanwhile. */
    emend_request_id presented_request;
    EmendGluePhase phase_behind_panel;
    ResultView view;
} Session;

struct EmendGlue {
    EmendGlueHost host;
    gpointer host_data;
    emend_coordinator *coordinator;
    guint fd_source;
    Session session;
    GArray *suggestions;         /* EmendGlueSuggestion, position = the coordinator's index */
    gsize pending;               /* how many of them are PENDING */
    /* The indices suggestions_changed named and the glue has not read yet (first < end),
     * and how many suggestions the coordinator has now. */
    gboolean changes_waiting;
    size_t changed_first;
    size_t changed_end;
    size_t changed_total;
    /* The read in progress: [read_next, read_end), in 8 ms slices from idle callbacks. */
    size_t read_next;
    size_t read_end;
    guint read_idle;
    gboolean phase_dirty;        /* the host has not been told of a change yet */
    GArray *animations;          /* Animation */
    GArray *deferred;            /* Deferred: calls waiting for a change being delivered */
    GArray *runs;                /* scratch for contexts */
    GPtrArray *rect_batches;     /* RectBatch: bounds being laid out (each with its idle source) */
};

/* ---- suggestions ------------------------------------------------------------------------ */

static void clear_entry(EmendGlueSuggestion *s) {
    g_free(s->original);
    g_free(s->replacement);
    g_free(s->explanation);
    g_free(s->category);
    g_free(s->rule_id);
    *s = (EmendGlueSuggestion){0};
}

static void clear_suggestions(EmendGlue *glue) {
    for (guint i = 0; i < glue->suggestions->len; i++) clear_entry(&g_array_index(glue->suggestions, EmendGlueSuggestion, i));
    g_array_set_size(glue->suggestions, 0);
    glue->pending = 0;
    glue->read_next = glue->read_end = 0;
    if (glue->read_idle) g_source_remove(glue->read_idle);
    glue->read_idle = 0;
}

/* Reads suggestion `i` again (its state, its range now, its strings). */
static void read_suggestion(EmendGlue *glue, size_t i) {
    EmendGlueSuggestion *entry = &g_array_index(glue->suggestions, EmendGlueSuggestion, i);
    emend_suggestion s = {0};
    s.struct_size = sizeof s;
    if (emend_session_get_suggestion(glue->coordinator, i, &s) != EMEND_OK) return;
    if (entry->state == EMEND_SUGGESTION_PENDING && entry->original) glue->pending--;
    clear_entry(entry);
    *entry = (EmendGlueSuggestion){
        .index = i,
        .start = s.range.location,
        .length = s.range.length,
        .state = s.state,
        .original = g_strdup(s.original ? s.original : ""),
        .replacement = g_strdup(s.replacement ? s.replacement : ""),
        .explanation = g_strdup(s.explanation ? s.explanation : ""),
        .category = g_strdup(s.category ? s.category : ""),
        .rule_id = g_strdup(s.rule_id ? s.rule_id : ""),
    };
    if (entry->state == EMEND_SUGGESTION_PENDING) glue->pending++;
}

/* The coordinator says which suggestions changed (at the end of a dispatch): kept, and read
 * in settle() once the session is not working or streaming. */
static void on_suggestions_changed(void *user_data, emend_coordinator *c, const emend_suggestion_span *span) {
    EmendGlue *glue = user_data;
    (void)c;
    if (glue->changes_waiting) {
        glue->changed_first = MIN(glue->changed_first, span->first);
        glue->changed_end = MAX(glue->changed_end, span->first + span->count);
    } else {
        glue->changed_first = span->first;
        glue->changed_end = span->first + span->count;
    }
    glue->changed_total = span->total;
    glue->changes_waiting = TRUE;
}

/* Reads the next suggestions of the read in progress for about 8 ms, then lets the main loop
 * run; the host hears of each slice read. */
static gboolean read_some(gpointer data) {
    EmendGlue *glue = data;
    gint64 until = g_get_monotonic_time() + 8000;
    size_t from = glue->read_next;
    while (glue->read_next < glue->read_end) {
        read_suggestion(glue, glue->read_next++);
        if (g_get_monotonic_time() >= until) break;
    }
    if (glue->read_next > from && glue->host.suggestions_changed)
        glue->host.suggestions_changed(glue->host_data, from, glue->read_next - from);
    if (glue->read_next < glue->read_end) return G_SOURCE_CONTINUE;
    glue->read_idle = 0;
    return G_SOURCE_REMOVE;
}

/* Reads the suggestions the coordinator said changed, and only those: each read is constant
 * time, so a change costs what it changed, whatever the number of suggestions (before, every
 * suggestion was read again after every change, and every mark redone). A large span (a
 * result's 1,600 suggestions) is read in 8 ms slices, so the view never freezes. The entries
 * outside the span keep the range they were read with: a suggestion that only moved is not
 * reported (emend_glue_suggestion_range reads where it is now). Not while a result is still
 * arriving (thousands of replaces, 512 per step): the marks wait for it to rest. */
static void emend_glue_sync_suggestions(EmendGlue *glue) {
    if (!glue->changes_waiting) return;
    if (glue->session.phase == EMEND_GLUE_WORKING || glue->session.phase == EMEND_GLUE_STREAMING) return;
    glue->changes_waiting = FALSE;
    size_t total = glue->changed_total;
    size_t first = MIN(glue->changed_first, total), end = MIN(glue->changed_end, total);
    if (total < glue->suggestions->len) {
        /* Suggestions gone (a review ended by a follow-up): the host takes every mark off,
         * and every suggestion there is is read again. */
        clear_suggestions(glue);
        if (glue->host.suggestions_changed) glue->host.suggestions_changed(glue->host_data, 0, G_MAXSIZE);
        first = 0;
        end = total;
    }
    for (size_t i = glue->suggestions->len; i < total; i++) {
        /* Not read yet: nothing to mark, nothing to show. */
        EmendGlueSuggestion unread = {.index = i, .state = EMEND_SUGGESTION_INVALID, .original = g_strdup(""),
                                      .replacement = g_strdup(""), .explanation = g_strdup(""), .category = g_strdup(""),
                                      .rule_id = g_strdup("")};
        g_array_append_val(glue->suggestions, unread);
    }
    if (glue->read_next < glue->read_end) {
        glue->read_next = MIN(glue->read_next, first);
        glue->read_end = MIN(MAX(glue->read_end, end), total);
    } else {
        glue->read_next = first;
        glue->read_end = end;
    }
    if (!glue->read_idle && read_some(glue) == G_SOURCE_CONTINUE) glue->read_idle = g_idle_add(read_some, glue);
}

/* After a dispatch or a call: bring the host up to date. */
static void settle(EmendGlue *glue) {
    emend_glue_sync_suggestions(glue);
    if (glue->phase_dirty) {
        glue->phase_dirty = FALSE;
        if (glue->host.phase_changed) glue->host.phase_changed(glue->host_data);
    }
}

static void set_phase(EmendGlue *glue, EmendGluePhase phase) {
    if (glue->session.phase == EMEND_GLUE_PRESENTING && phase != EMEND_GLUE_IDLE) {
        glue->session.phase_behind_panel = phase;
        return;
    }
    glue->session.phase = phase;
    glue->phase_dirty = TRUE;
}

/* ---- the delegate ----------------------------------------------------------------------- */

static void on_requests_contexts(void *user_data, emend_coordinator *c, emend_context_scope scope,
                                 emend_request_id request) {
    EmendGlue *glue = user_data;
    (void)scope; /* the whole text, with the snapshot as the selection, serves every scope */
    gsize length = 0;
    char *text = glue->host.copy_text(glue->host_data, &length);
    guint64 characters = (guint64)g_utf8_strlen(text, (gssize)length);
    guint64 start = MIN(glue->session.selection_start, characters);
    guint64 end = CLAMP(glue->session.selection_end, start, characters);
    g_array_set_size(glue->runs, 0);
    if (glue->host.collect_runs) glue->host.collect_runs(glue->host_data, glue->runs);
    emend_context_desc context = {0};
    context.struct_size = sizeof context;
    context.text = text;
    context.text_length = length;
    context.selection = (emend_range){start, end - start};
    context.engine_context = glue;
    context.attribute_runs = (const emend_attribute_run *)(void *)glue->runs->data;
    context.attribute_run_count = glue->runs->len;
    if (emend_answer_contexts(c, request, &context, 1) != EMEND_OK) {
        /* Styling the runtime refuses must not cost the user the tool: try without it. */
        context.attribute_runs = NULL;
        context.attribute_run_count = 0;
        if (emend_answer_contexts(c, request, &context, 1) != EMEND_OK)
            emend_answer_failed(c, request, EMEND_E_INTERNAL, emend_last_error_message());
    }
    g_free(text);
}

static void on_replace(void *user_data, emend_coordinator *c, const emend_replace_request *replace,
                       emend_request_id request) {
    EmendGlue *glue = user_data;
    gboolean applied = glue->host.replace(glue->host_data, replace);
    emend_answer_replace(c, request, applied ? EMEND_REPLACE_APPLIED : EMEND_REPLACE_REFUSED, NULL, 0);
    glue->phase_dirty = TRUE; /* can undo / redo may have changed */
}

static void on_select_ranges(void *user_data, emend_coordinator *c, uint64_t context_id, void *engine_context,
                             const emend_range *ranges, size_t count, emend_request_id request) {
    EmendGlue *glue = user_data;
    (void)context_id;
    (void)engine_context;
    if (count > 0 && glue->host.select) glue->host.select(glue->host_data, ranges[0].location, ranges[0].length);
    emend_answer_done(c, request);
}

/* A batched rectangle request being answered: the ranges (copied), the rectangles of those
 * done so far, and how many each has. */
typedef struct {
    EmendGlue *glue;
    emend_request_id request;
    emend_range *ranges;
    size_t count;
    size_t next;
    size_t *rect_counts;
    GArray *rects;               /* emend_rect */
} RectBatch;

static void free_rect_batch(gpointer data) {
    RectBatch *batch = data;
    g_free(batch->ranges);
    g_free(batch->rect_counts);
    g_array_free(batch->rects, TRUE);
    g_free(batch);
}

/* Lays out the next ranges for about 8 ms; once all are done, answers in one call. */
static gboolean lay_out_some(gpointer data) {
    RectBatch *batch = data;
    EmendGlue *glue = batch->glue;
    gint64 until = g_get_monotonic_time() + 8000;
    while (batch->next < batch->count) {
        size_t i = batch->next++;
        guint before = batch->rects->len;
        if (glue->host.range_rects)
            glue->host.range_rects(glue->host_data, batch->ranges[i].location, batch->ranges[i].length, batch->rects);
        batch->rect_counts[i] = batch->rects->len - before;
        if (g_get_monotonic_time() >= until && batch->next < batch->count) return G_SOURCE_CONTINUE;
    }
    emend_status status = emend_answer_rects_batch(glue->coordinator, batch->request, batch->rect_counts, batch->count,
                                                   (const emend_rect *)(void *)batch->rects->data, batch->rects->len);
    if (status != EMEND_OK && status != EMEND_E_STALE)
        emend_answer_failed(glue->coordinator, batch->request, status, emend_last_error_message());
    g_ptr_array_remove_fast(glue->rect_batches, batch); /* frees it */
    return G_SOURCE_REMOVE;
}

/* Answers a batched rectangle request (requests_rects) in one emend_answer_rects_batch call.
 * Underlines: none (the marks are text tags the view lays out itself: 0 rectangles per
 * range, at once). Bounds (hit testing, asked for every suggestion at the first
 * emend_session_suggestion_at_point of a layout): laid out in 8 ms slices from idle
 * callbacks, then answered (the runtime answers EMEND_E_AGAIN meanwhile), so 1,600
 * suggestions never freeze the view. Before, each suggestion was a request of its own and a
 * main-loop round trip. */
static void answer_rect_request(void *user_data, emend_coordinator *c, emend_rect_purpose purpose, uint64_t context_id,
                                void *engine_context, const emend_range *ranges, size_t range_count,
                                emend_request_id request) {
    EmendGlue *glue = user_data;
    (void)context_id;
    (void)engine_context;
    if (purpose != EMEND_RECTS_BOUNDING) {
        size_t *none = g_new0(size_t, range_count);
        emend_answer_rects_batch(c, request, none, range_count, NULL, 0);
        g_free(none);
        return;
    }
    RectBatch *batch = g_new0(RectBatch, 1);
    batch->glue = glue;
    batch->request = request;
    batch->ranges = g_memdup2(ranges, range_count * sizeof *ranges);
    batch->count = range_count;
    batch->rect_counts = g_new0(size_t, range_count);
    batch->rects = g_array_new(FALSE, FALSE, sizeof(emend_rect));
    g_ptr_array_add(glue->rect_batches, batch);
    g_idle_add(lay_out_some, batch);
}

static Animation *find_animation(EmendGlue *glue, emend_text_animation animation, const emend_range *range,
                                 gboolean previewed, guint *position) {
    for (guint i = 0; i < glue->animations->len; i++) {
        Animation *a = &g_array_index(glue->animations, Animation, i);
        if (a->animation == animation && a->location == range->location && a->length == range->length &&
            a->previewed == previewed) {
            if (position) *position = i;
            return a;
        }
    }
    return NULL;
}

static Animation *begin_animation(EmendGlue *glue, emend_text_animation animation, const emend_range *range) {
    Animation a = {animation, range->location, range->length, NULL, FALSE};
    if (glue->host.animation_begin)
        a.handle = glue->host.animation_begin(glue->host_data, animation, range->location, range->length);
    g_array_append_val(glue->animations, a);
    return &g_array_index(glue->animations, Animation, glue->animations->len - 1);
}

static void on_prepare_animation(void *user_data, emend_coordinator *c, emend_text_animation animation,
                                 uint64_t context_id, void *engine_context, const emend_range *range,
                                 emend_request_id request) {
    EmendGlue *glue = user_data;
    (void)context_id;
    (void)engine_context;
    if (!find_animation(glue, animation, range, TRUE, NULL) && !find_animation(glue, animation, range, FALSE, NULL))
        begin_animation(glue, animation, range);
    emend_answer_done(c, request);
}

static void on_requests_preview(void *user_data, emend_coordinator *c, emend_text_animation animation,
                                uint64_t context_id, void *engine_context, const emend_range *range,
                                emend_request_id request) {
    EmendGlue *glue = user_data;
    (void)context_id;
    (void)engine_context;
    Animation *a = find_animation(glue, animation, range, FALSE, NULL);
    if (!a) a = begin_animation(glue, animation, range);
    a->previewed = TRUE;
    emend_answer_preview(c, request, a->handle);
}

static void end_animation_at(EmendGlue *glue, guint position) {
    Animation a = g_array_index(glue->animations, Animation, position);
    g_array_remove_index(glue->animations, position);
    if (glue->host.animation_end && a.handle) glue->host.animation_end(glue->host_data, a.handle);
}

static void on_finish_animation(void *user_data, emend_coordinator *c, emend_text_animation animation,
                                uint64_t context_id, void *engine_context, const emend_range *range,
                                void *preview, emend_request_id request) {
    EmendGlue *glue = user_data;
    (void)context_id;
    (void)engine_context;
    guint position = 0;
    gboolean found = FALSE;
    for (guint i = 0; preview && i < glue->animations->len; i++)
        if (g_array_index(glue->animations, Animation, i).handle == preview) { position = i; found = TRUE; break; }
    if (!found) found = find_animation(glue, animation, range, FALSE, &position) != NULL;
    if (!found) found = find_animation(glue, animation, range, TRUE, &position) != NULL;
    if (found) end_animation_at(glue, position);
    emend_answer_done(c, request);
}

static void on_will_change_to_state(void *user_data, emend_coordinator *c, emend_state state,
                                    emend_request_id request) {
    EmendGlue *glue = user_data;
    switch (state) {
    case EMEND_STATE_INACTIVE: break; /* session_ended follows and ends the session */
    case EMEND_STATE_NONINTERACTIVE: set_phase(glue, EMEND_GLUE_WORKING); break;
    case EMEND_STATE_INTERACTIVE_STREAMING: set_phase(glue, EMEND_GLUE_STREAMING); break;
    case EMEND_STATE_INTERACTIVE_RESTING: set_phase(glue, EMEND_GLUE_RESTING); break;
    }
    emend_answer_done(c, request);
}

static void on_present_result(void *user_data, emend_coordinator *c, const emend_presented_result *result,
                              emend_request_id request) {
    EmendGlue *glue = user_data;
    (void)c;
    if (glue->session.phase != EMEND_GLUE_PRESENTING) glue->session.phase_behind_panel = glue->session.phase;
    glue->session.phase = EMEND_GLUE_PRESENTING;
    glue->session.presented_request = request;
    glue->phase_dirty = TRUE;
    glue->host.present(glue->host_data, result);
}

static void on_session_ended(void *user_data, emend_coordinator *c, emend_status status, const char *message) {
    EmendGlue *glue = user_data;
    (void)c;
    /* Animations the coordinator did not finish (it finishes every one it prepared; this is
     * for safety) end with the session. */
    while (glue->animations->len > 0) end_animation_at(glue, glue->animations->len - 1);
    glue->session = (Session){.phase = EMEND_GLUE_IDLE};
    /* The session's suggestions go with it: the host takes every mark off. */
    glue->changes_waiting = FALSE;
    if (glue->suggestions->len > 0) {
        clear_suggestions(glue);
        if (glue->host.suggestions_changed) glue->host.suggestions_changed(glue->host_data, 0, G_MAXSIZE);
    }
    glue->phase_dirty = TRUE;
    if (glue->host.session_ended) glue->host.session_ended(glue->host_data, status, message);
}

/* ---- the main loop ---------------------------------------------------------------------- */

static emend_status call_now(EmendGlue *glue, const Deferred *call) {
    switch (call->kind) {
    case CALL_DONE: return emend_session_accept(glue->coordinator);
    case CALL_REVERT: return emend_session_revert(glue->coordinator);
    case CALL_UNDO: return emend_session_undo(glue->coordinator);
    case CALL_REDO: return emend_session_redo(glue->coordinator);
    case CALL_ACCEPT_SUGGESTION: return emend_session_accept_suggestion(glue->coordinator, call->index);
    case CALL_REJECT_SUGGESTION: return emend_session_reject_suggestion(glue->coordinator, call->index);
    }
    return EMEND_E_INVALID_ARGUMENT;
}

/* Makes the waiting calls, in order, once the coordinator takes them. A call still answered
 * EMEND_E_AGAIN after a dispatch that had nothing to do, or after 50 dispatches, is dropped
 * (logged): nothing was being delivered. */
static void run_deferred(EmendGlue *glue, size_t processed) {
    while (glue->deferred->len > 0) {
        Deferred *call = &g_array_index(glue->deferred, Deferred, 0);
        if (glue->session.phase != EMEND_GLUE_RESTING) {
            g_array_set_size(glue->deferred, 0);
            return;
        }
        emend_status status = call_now(glue, call);
        if (status == EMEND_E_AGAIN && processed > 0 && ++call->tries < 50) return;
        if (status != EMEND_OK) g_debug("emend: a waiting call was refused: %s: %s", emend_status_name(status), emend_last_error_message());
        g_array_remove_index(glue->deferred, 0);
        glue->phase_dirty = TRUE;
    }
}

/* The descriptor is level-triggered and one dispatch runs about 3 ms of work, so the main
 * loop comes back here while more is pending, and the UI stays responsive in between. */
static gboolean on_fd_ready(gint fd, GIOCondition condition, gpointer data) {
    EmendGlue *glue = data;
    (void)fd;
    (void)condition;
    size_t processed = 0;
    emend_coordinator_dispatch(glue->coordinator, &processed);
    run_deferred(glue, processed);
    settle(glue);
    return G_SOURCE_CONTINUE;
}

EmendGlue *emend_glue_new(const EmendGlueHost *host, gpointer host_data, emend_status *status) {
    EmendGlue *glue = g_new0(EmendGlue, 1);
    glue->host = *host;
    glue->host_data = host_data;
    glue->suggestions = g_array_new(FALSE, TRUE, sizeof(EmendGlueSuggestion));
    glue->animations = g_array_new(FALSE, TRUE, sizeof(Animation));
    glue->deferred = g_array_new(FALSE, TRUE, sizeof(Deferred));
    glue->runs = g_array_new(FALSE, TRUE, sizeof(emend_attribute_run));
    glue->rect_batches = g_ptr_array_new_with_free_func(free_rect_batch);

    emend_delegate d = {0};
    d.struct_size = sizeof d;
    d.user_data = glue;
    d.requests_contexts = on_requests_contexts;
    d.replace = on_replace;
    d.select_ranges = on_select_ranges;
    /* Rectangles in batches serve emend_session_suggestion_at_point (an application may
     * call it on the coordinator): one request for every suggestion's bounds. Only
     * requests_rects, never the one-range callbacks (the runtime then calls only it). No
     * underline rectangles are asked for this way either way: the marks are text tags,
     * which the view lays out itself. */
    d.requests_rects = answer_rect_request;
    /* Which suggestions changed, after each dispatch: the glue reads only those. */
    d.suggestions_changed = on_suggestions_changed;
    d.prepare_for_text_animation = on_prepare_animation;
    d.requests_preview = on_requests_preview;
    d.finish_text_animation = on_finish_animation;
    d.will_change_to_state = on_will_change_to_state;
    d.present_result = on_present_result;
    d.session_ended = on_session_ended;

    emend_coordinator_options options = {0};
    options.struct_size = sizeof options;
    options.encoding = EMEND_ENCODING_CODEPOINT;  /* 1:1 with GtkTextIter offsets */
    options.preferred_behavior = EMEND_BEHAVIOR_COMPLETE;
    options.preferred_result_options = EMEND_RESULT_PLAIN_TEXT | EMEND_RESULT_RICH_TEXT;
    /* One set of checkers for every view and application of the user (the checker service),
     * not one per view: a view's first proofread does not wait for its own hosts. The
     * user's config.toml `[service] hosts = "process"` still chooses own processes. */
    options.provider_hosts = EMEND_PROVIDER_HOSTS_SERVICE;

    emend_status s = emend_coordinator_create(&d, &options, &glue->coordinator);
    if (status) *status = s;
    if (s != EMEND_OK) {
        g_array_free(glue->suggestions, TRUE);
        g_array_free(glue->animations, TRUE);
        g_array_free(glue->deferred, TRUE);
        g_array_free(glue->runs, TRUE);
        g_ptr_array_free(glue->rect_batches, TRUE);
        g_free(glue);
        return NULL;
    }
    glue->fd_source = g_unix_fd_add(emend_coordinator_fd(glue->coordinator), G_IO_IN, on_fd_ready, glue);
    return glue;
}

void emend_glue_free(EmendGlue *glue) {
    if (!glue) return;
    if (glue->fd_source) g_source_remove(glue->fd_source);
    /* Batches still being laid out: their idle callbacks go, and the requests end with the
     * coordinator. */
    for (guint i = 0; i < glue->rect_batches->len; i++) g_idle_remove_by_data(g_ptr_array_index(glue->rect_batches, i));
    g_ptr_array_free(glue->rect_batches, TRUE);
    /* Destroy skips finish_text_animation: end what is still shown. */
    while (glue->animations->len > 0) end_animation_at(glue, glue->animations->len - 1);
    emend_coordinator_destroy(glue->coordinator);
    clear_suggestions(glue);
    g_array_free(glue->suggestions, TRUE);
    g_array_free(glue->animations, TRUE);
    g_array_free(glue->deferred, TRUE);
    g_array_free(glue->runs, TRUE);
    g_free(glue);
}

emend_coordinator *emend_glue_get_coordinator(EmendGlue *glue) { return glue->coordinator; }
EmendGluePhase emend_glue_get_phase(const EmendGlue *glue) { return glue->session.phase; }
emend_tool emend_glue_get_tool(const EmendGlue *glue) { return glue->session.tool; }
gboolean emend_glue_showing_original(const EmendGlue *glue) { return glue->session.view == ORIGINAL_SHOWN; }

/* ---- what the user asks for ------------------------------------------------------------- */

static gboolean is_rewrite(emend_tool tool) {
    return tool == EMEND_TOOL_REWRITE_FRIENDLY || tool == EMEND_TOOL_REWRITE_PROFESSIONAL ||
           tool == EMEND_TOOL_REWRITE_CONCISE || tool == EMEND_TOOL_REWRITE_DESCRIBED ||
           tool == EMEND_TOOL_FOLLOW_UP || tool == EMEND_TOOL_COMPOSE;
}

emend_status emend_glue_start(EmendGlue *glue, emend_tool tool, const char *prompt, guint64 sel_start,
                              guint64 sel_end) {
    if (tool == EMEND_TOOL_REWRITE_DESCRIBED && glue->session.phase == EMEND_GLUE_RESTING &&
        is_rewrite(glue->session.tool))
        tool = EMEND_TOOL_FOLLOW_UP; /* "make it warmer" refines the rewrite in front of the user */
    emend_tool_request request = {sizeof request, tool, EMEND_SCOPE_USER_SELECTION, prompt, NULL};
    Session before = glue->session;
    if (tool != EMEND_TOOL_FOLLOW_UP) {
        glue->session = (Session){.phase = EMEND_GLUE_WORKING, .tool = tool,
                                  .selection_start = MIN(sel_start, sel_end),
                                  .selection_end = MAX(sel_start, sel_end)};
    } else {
        glue->session.phase = EMEND_GLUE_WORKING;
        glue->session.view = RESULT_SHOWN; /* a follow-up ends a review (its result can be reviewed again) */
    }
    emend_status status = emend_coordinator_start(glue->coordinator, &request);
    if (status != EMEND_OK) glue->session = before;
    glue->phase_dirty = TRUE;
    settle(glue);
    return status;
}

/* Every call that changes the session: the host hears of the result at once (a change that
 * posts no work would otherwise wait for a dispatch that never comes). */
static emend_status changed(EmendGlue *glue, emend_status status) {
    glue->phase_dirty = TRUE;
    settle(glue);
    return status;
}

/* A call on the resting session: made now, or kept while a step is in flight (the
 * coordinator answers EMEND_E_AGAIN) and made after it. */
static emend_status session_call(EmendGlue *glue, CallKind kind, size_t index) {
    Deferred call = {kind, index, 0};
    emend_status status = glue->deferred->len == 0 ? call_now(glue, &call) : EMEND_E_AGAIN;
    if (status == EMEND_E_AGAIN && glue->session.phase == EMEND_GLUE_RESTING) {
        g_array_append_val(glue->deferred, call);
        return EMEND_E_AGAIN;
    }
    return changed(glue, status);
}

emend_status emend_glue_accept(EmendGlue *glue) { return session_call(glue, CALL_DONE, 0); }
emend_status emend_glue_revert(EmendGlue *glue) { return session_call(glue, CALL_REVERT, 0); }
emend_status emend_glue_stop(EmendGlue *glue) {
    if (glue->session.phase == EMEND_GLUE_PRESENTING) {
        /* The panel is open: the person's answer is "dismiss". */
        return emend_glue_answer_presented(glue, EMEND_PRESENTED_DISMISS);
    }
    return changed(glue, emend_coordinator_stop(glue->coordinator));
}
emend_status emend_glue_show_original(EmendGlue *glue, gboolean show_original) {
    emend_status status = emend_session_show_original(glue->coordinator, show_original ? 1 : 0);
    if (status == EMEND_OK) glue->session.view = show_original ? ORIGINAL_SHOWN : RESULT_SHOWN;
    return changed(glue, status);
}
emend_status emend_glue_review_changes(EmendGlue *glue, gsize *count) {
    size_t changes = 0;
    emend_status status = emend_session_review_changes(glue->coordinator, &changes);
    if (status == EMEND_OK) glue->session.view = CHANGES_UNDER_REVIEW;
    if (count) *count = status == EMEND_OK ? changes : 0;
    return changed(glue, status);
}
gboolean emend_glue_reviewing(const EmendGlue *glue) { return glue->session.view == CHANGES_UNDER_REVIEW; }
gboolean emend_glue_can_review(const EmendGlue *glue) {
    return glue->session.phase == EMEND_GLUE_RESTING && is_rewrite(glue->session.tool) &&
           glue->session.view == RESULT_SHOWN && glue->deferred->len == 0;
}
emend_status emend_glue_undo(EmendGlue *glue) { return session_call(glue, CALL_UNDO, 0); }
emend_status emend_glue_redo(EmendGlue *glue) { return session_call(glue, CALL_REDO, 0); }

gboolean emend_glue_can_undo(const EmendGlue *glue) {
    int out = 0;
    return glue->session.phase == EMEND_GLUE_RESTING && emend_session_can_undo(glue->coordinator, &out) == EMEND_OK && out;
}
gboolean emend_glue_can_redo(const EmendGlue *glue) {
    int out = 0;
    return glue->session.phase == EMEND_GLUE_RESTING && emend_session_can_redo(glue->coordinator, &out) == EMEND_OK && out;
}

emend_status emend_glue_answer_presented(EmendGlue *glue, emend_presented_action action) {
    if (glue->session.phase != EMEND_GLUE_PRESENTING) return EMEND_E_STATE;
    emend_request_id request = glue->session.presented_request;
    glue->session.phase = glue->session.phase_behind_panel;
    emend_status status = emend_answer_presented(glue->coordinator, request, action);
    return changed(glue, status);
}

const EmendGlueSuggestion *emend_glue_get_suggestions(const EmendGlue *glue, gsize *count) {
    *count = glue->suggestions->len;
    return (const EmendGlueSuggestion *)(void *)glue->suggestions->data;
}

gsize emend_glue_pending_count(const EmendGlue *glue) { return glue->pending; }

/* The coordinator's own search (by halving over the suggestions' current ranges). */
gssize emend_glue_suggestion_at_offset(const EmendGlue *glue, guint64 offset) {
    uint64_t context = 0;
    size_t contexts = 0, index = 0;
    if (emend_coordinator_context_ids(glue->coordinator, &context, 1, &contexts) != EMEND_OK || contexts == 0) return -1;
    if (emend_session_suggestion_at_offset(glue->coordinator, context, offset, &index) != EMEND_OK) return -1;
    return index < glue->suggestions->len ? (gssize)index : -1;
}

gboolean emend_glue_suggestion_range(const EmendGlue *glue, gsize position, guint64 *start, guint64 *length) {
    emend_suggestion s = {0};
    s.struct_size = sizeof s;
    if (position >= glue->suggestions->len || emend_session_get_suggestion(glue->coordinator, position, &s) != EMEND_OK)
        return FALSE;
    *start = s.range.location;
    *length = s.range.length;
    return TRUE;
}

static const EmendGlueSuggestion *at(const EmendGlue *glue, gsize position) {
    return position < glue->suggestions->len ? &g_array_index(glue->suggestions, EmendGlueSuggestion, position) : NULL;
}

emend_status emend_glue_accept_suggestion(EmendGlue *glue, gsize position) {
    const EmendGlueSuggestion *s = at(glue, position);
    if (!s) return EMEND_E_NOT_FOUND;
    return session_call(glue, CALL_ACCEPT_SUGGESTION, s->index);
}

emend_status emend_glue_reject_suggestion(EmendGlue *glue, gsize position) {
    const EmendGlueSuggestion *s = at(glue, position);
    if (!s) return EMEND_E_NOT_FOUND;
    return session_call(glue, CALL_REJECT_SUGGESTION, s->index);
}

emend_status emend_glue_add_word(EmendGlue *glue, gsize position) {
    const EmendGlueSuggestion *s = at(glue, position);
    if (!s) return EMEND_E_NOT_FOUND;
    emend_status status = emend_coordinator_add_word(glue->coordinator, s->original);
    if (status != EMEND_OK) return status;
    return session_call(glue, CALL_REJECT_SUGGESTION, s->index);
}

/* ---- the user's edits ------------------------------------------------------------------- */

static guint64 moved(guint64 offset, guint64 start, guint64 old_length, guint64 new_length, gboolean is_end) {
    if (offset >= start + old_length && (old_length > 0 || offset > start || is_end))
        return offset - old_length + new_length;
    if (offset > start) return is_end ? start + new_length : start;
    return offset;
}

void emend_glue_text_changed(EmendGlue *glue, guint64 start, guint64 old_length, const char *text,
                             gsize text_length) {
    if (glue->session.phase == EMEND_GLUE_IDLE) return;
    guint64 new_length = (guint64)g_utf8_strlen(text, (gssize)text_length);
    glue->session.selection_start = moved(glue->session.selection_start, start, old_length, new_length, FALSE);
    glue->session.selection_end = moved(glue->session.selection_end, start, old_length, new_length, TRUE);
    uint64_t context = 0;
    size_t count = 0;
    if (emend_coordinator_context_ids(glue->coordinator, &context, 1, &count) != EMEND_OK || count == 0) return;
    emend_status status = emend_coordinator_update_range(glue->coordinator, context, (emend_range){start, old_length},
                                                         text, text_length, EMEND_UPDATE_TYPING);
    if (status != EMEND_OK)
        g_debug("emend: update_range: %s: %s", emend_status_name(status), emend_last_error_message());
    changed(glue, status);
}
