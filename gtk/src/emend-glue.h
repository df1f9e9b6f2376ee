/*
 * emend-glue.h — the engine glue of libemend-gtk4: everything a GUI toolkit needs between a
 * text view and libemend's coordinator that is not a widget. GLib only (no GTK), so a Qt
 * library can follow the same design (a QSocketNotifier instead of g_unix_fd_add, QString
 * offsets instead of GtkTextIter offsets).
 *
 * What it owns:
 *   - the coordinator (code point offsets: one GtkTextIter offset is one emend offset) and
 *     its descriptor in the main loop (g_unix_fd_add + emend_coordinator_dispatch);
 *   - the session as an explicit state (EmendGluePhase and the data each phase carries):
 *     the tool, the selection taken when the tool was activated (kept in step with edits),
 *     the presented result waiting for the person;
 *   - the delegate: contexts from the snapshot, replaces, animations, rectangles and
 *     presented results handed to the host (the widgets) through EmendGlueHost;
 *   - the suggestions, copied out as the coordinator's suggestions_changed names them (only
 *     those: emend_glue_sync_suggestions, the one place that reads them);
 *   - the user's own edits, reported to the coordinator with emend_coordinator_update_range.
 *
 * Every offset here is a code point offset into the host's whole text.
 */
#ifndef EMEND_GLUE_H
#define EMEND_GLUE_H

#include <emend.h>
#include <glib.h>

G_BEGIN_DECLS

/* Where the session is, as the user sees it. Apple's states, plus PRESENTING: a result (a
 * summary, a table in limited behavior, a poor result) waits for the person in a panel,
 * whatever state the coordinator reports then (a poor result is presented while the
 * coordinator still says INTERACTIVE_STREAMING: the panel, not "Writing…", is what the user
 * must see). */
typedef enum {
    EMEND_GLUE_IDLE = 0,       /* no session */
    EMEND_GLUE_WORKING,        /* a tool started; nothing in the text yet */
    EMEND_GLUE_STREAMING,      /* a result is arriving into the text */
    EMEND_GLUE_RESTING,        /* a result is in the text, waiting for Done / Revert */
    EMEND_GLUE_PRESENTING      /* a presented result waits for Replace / Copy / Dismiss */
} EmendGluePhase;

/* One suggestion as the glue copied it (strings owned by the glue until the next sync). Its
 * position in emend_glue_get_suggestions is its index. */
typedef struct {
    gsize index;                     /* for emend_session_*_suggestion */
    guint64 start;                   /* code points, when it was last reported: a suggestion */
    guint64 length;                  /* that only moved is not; emend_glue_suggestion_range
                                        says where it is now */
    emend_suggestion_state state;
    char *original;
    char *replacement;
    char *explanation;               /* plain text, never markup */
    char *category;                  /* spelling, grammar, punctuation, style, typography, "" or
                                        rewrite (a change of a rewrite under review) */
    char *rule_id;
} EmendGlueSuggestion;

/* What the widgets implement. Called from inside a dispatch (never two at once) unless
 * said otherwise; `host` is the pointer given to emend_glue_new. */
typedef struct {
    /* The whole text (UTF-8, newly allocated with g_malloc; *length in bytes). */
    char *(*copy_text)(gpointer host, gsize *length);
    /* Append the styling of the whole text as emend_attribute_run (code points); key and
     * value strings must stay valid until the next call. */
    void (*collect_runs)(gpointer host, GArray *runs);
    /* Apply a replace (range in code points, text in UTF-8, styling as the request says).
     * TRUE: applied as proposed; FALSE: refused (the text is unchanged). The host must not
     * report this edit through emend_glue_text_* (it is Emend's, not the user's). */
    gboolean (*replace)(gpointer host, const emend_replace_request *request);
    void (*select)(gpointer host, guint64 start, guint64 length);
    /* Rectangles of a range (emend_rect, in the host's buffer coordinates). */
    void (*range_rects)(gpointer host, guint64 start, guint64 length, GArray *rects);
    /* A text animation on a range begins; the returned handle comes back to end it. */
    gpointer (*animation_begin)(gpointer host, emend_text_animation animation, guint64 start,
                                guint64 length);
    void (*animation_end)(gpointer host, gpointer handle);
    /* Show a presented result; the host answers later with emend_glue_answer_presented. The
     * result's pointers are valid only during the call. */
    void (*present)(gpointer host, const emend_presented_result *result);
    /* Something the host shows changed: the phase (emend_glue_get_phase), can undo / redo. */
    void (*phase_changed)(gpointer host);
    /* Suggestions [first, first + count) of emend_glue_get_suggestions changed (state,
     * text, new or gone); count G_MAXSIZE: all of them, and suggestions may be gone (take
     * every mark off, then mark the ones there are). The others did not change (they may
     * have moved with the text: marks that are text tags move with it). */
    void (*suggestions_changed)(gpointer host, gsize first, gsize count);
    /* The session ended; status EMEND_OK unless it failed (then message says why). */
    void (*session_ended)(gpointer host, emend_status status, const char *message);
} EmendGlueHost;

typedef struct EmendGlue EmendGlue;

/* A coordinator for one text view, its descriptor watched on the thread-default main
 * context. NULL on failure (*status and emend_last_error_message say why). */
EmendGlue *emend_glue_new(const EmendGlueHost *host, gpointer host_data, emend_status *status);
void emend_glue_free(EmendGlue *glue);
emend_coordinator *emend_glue_get_coordinator(EmendGlue *glue);

EmendGluePhase emend_glue_get_phase(const EmendGlue *glue);
/* The tool of the session (meaningful unless IDLE). */
emend_tool emend_glue_get_tool(const EmendGlue *glue);

/* Start `tool` on the selection [sel_start, sel_end) taken now (a caret: the whole text).
 * A rewrite-described while a rewrite rests becomes a follow-up. */
emend_status emend_glue_start(EmendGlue *glue, emend_tool tool, const char *prompt,
                              guint64 sel_start, guint64 sel_end);
/* The calls on a resting session (Done, Revert, Undo, Redo, a suggestion's accept, reject,
 * add word) are made at once, or, while a step is in flight (a rejected suggestion's text
 * going back: the coordinator answers EMEND_E_AGAIN meanwhile), kept and made after it:
 * they then return EMEND_E_AGAIN, which is not a failure. */
emend_status emend_glue_accept(EmendGlue *glue);
emend_status emend_glue_revert(EmendGlue *glue);
emend_status emend_glue_stop(EmendGlue *glue);
emend_status emend_glue_show_original(EmendGlue *glue, gboolean show_original);
emend_status emend_glue_undo(EmendGlue *glue);
emend_status emend_glue_redo(EmendGlue *glue);
gboolean emend_glue_can_undo(const EmendGlue *glue);
gboolean emend_glue_can_redo(const EmendGlue *glue);
gboolean emend_glue_showing_original(const EmendGlue *glue);

/* Split the rewrite resting in the text into its changes (emend_session_review_changes):
 * from then on the suggestions are those changes (category "rewrite"), accepted ("keep")
 * and rejected ("undo this change", the change's original put back) as a proofread's;
 * undo / redo step through the decisions; Done keeps what was not rejected, Revert gives
 * the original. *count: the number of changes (0 when the result changed nothing). */
emend_status emend_glue_review_changes(EmendGlue *glue, gsize *count);
/* Whether a rewrite rests that can be reviewed now (not under review, not showing the
 * original, no call waiting). */
gboolean emend_glue_can_review(const EmendGlue *glue);
/* Whether the session's suggestions are a rewrite's changes under review. */
gboolean emend_glue_reviewing(const EmendGlue *glue);

/* The answer to the result the host is presenting. */
emend_status emend_glue_answer_presented(EmendGlue *glue, emend_presented_action action);

/* Suggestions as of the last sync (all states; the host shows the PENDING ones). */
const EmendGlueSuggestion *emend_glue_get_suggestions(const EmendGlue *glue, gsize *count);
/* How many of them are PENDING. Constant time. */
gsize emend_glue_pending_count(const EmendGlue *glue);
/* The pending suggestion at a code point offset (its position in the array), or -1: the
 * coordinator's search, by halving. */
gssize emend_glue_suggestion_at_offset(const EmendGlue *glue, guint64 offset);
/* Where suggestion `position` is now (code points), read from the coordinator (constant
 * time); for an INVALID one, where it was. FALSE if there is no such suggestion. */
gboolean emend_glue_suggestion_range(const EmendGlue *glue, gsize position, guint64 *start, guint64 *length);
emend_status emend_glue_accept_suggestion(EmendGlue *glue, gsize position);
emend_status emend_glue_reject_suggestion(EmendGlue *glue, gsize position);
/* Add the suggestion's original word to the user's dictionary, then reject the suggestion
 * (the word goes back and its mark away). */
emend_status emend_glue_add_word(EmendGlue *glue, gsize position);

/* The user changed the text (not Emend): `old_length` code points at `start` now read
 * `text` (`text_length` bytes). Call before or after the change is applied, with offsets as
 * the text was before it. */
void emend_glue_text_changed(EmendGlue *glue, guint64 start, guint64 old_length, const char *text,
                             gsize text_length);

G_END_DECLS

#endif
