/*
 * glue.c — libemend-gtk4's engine glue (gtk/src/emend-glue.c) with no GTK at all: a host
 * over a plain UTF-8 string in a GMainLoop, as a Qt library or any other toolkit would put
 * its own text behind EmendGlueHost. Built against glib-2.0 only (scripts/test-gtk.sh), so
 * the glue cannot grow a GTK dependency unnoticed. Proofreads (accept, reject, add a word),
 * rewrites with the user typing meanwhile and reverts, reviews a rewrite change by change
 * (undo one, keep one, the session's undo, Done), presents a summary and copies it.
 */
#include "emend-glue.h"

#include <stdio.h>
#include <string.h>

static int failures = 0;
#define CHECK(cond, ...)                                             \
    do {                                                             \
        if (!(cond)) {                                               \
            fprintf(stderr, "FAIL glue.c:%d: ", __LINE__);           \
            fprintf(stderr, __VA_ARGS__);                            \
            fprintf(stderr, "\n");                                   \
            failures++;                                              \
        }                                                            \
    } while (0)

/* The host: a document and what the glue told it. */
typedef struct {
    GString *text;
    int replaces;
    int animations;
    int suggestion_updates;
    gsize updated_first;         /* the span of the last suggestions_changed */
    gsize updated_count;
    int ended;
    emend_status ended_status;
    char *presented;
} Document;

static gsize byte_at(Document *doc, guint64 offset) {
    return (gsize)(g_utf8_offset_to_pointer(doc->text->str, (glong)offset) - doc->text->str);
}

static char *copy_text(gpointer host, gsize *length) {
    Document *doc = host;
    *length = doc->text->len;
    return g_strndup(doc->text->str, doc->text->len);
}

static gboolean replace(gpointer host, const emend_replace_request *r) {
    Document *doc = host;
    glong characters = g_utf8_strlen(doc->text->str, (gssize)doc->text->len);
    if (r->range.location + r->range.length > (guint64)characters) return FALSE;
    gsize start = byte_at(doc, r->range.location), end = byte_at(doc, r->range.location + r->range.length);
    g_string_erase(doc->text, (gssize)start, (gssize)(end - start));
    g_string_insert_len(doc->text, (gssize)start, r->text, (gssize)r->text_length);
    doc->replaces++;
    return TRUE;
}

static gpointer animation_begin(gpointer host, emend_text_animation animation, guint64 start, guint64 length) {
    Document *doc = host;
    (void)animation, (void)start, (void)length;
    doc->animations++;
    return GINT_TO_POINTER(doc->animations);
}

static void animation_end(gpointer host, gpointer handle) {
    Document *doc = host;
    (void)handle;
    doc->animations--;
}

static void present(gpointer host, const emend_presented_result *result) {
    Document *doc = host;
    g_free(doc->presented);
    doc->presented = g_strndup(result->text, result->text_length);
}

static void suggestions_changed(gpointer host, gsize first, gsize count) {
    Document *doc = host;
    doc->suggestion_updates++;
    doc->updated_first = first;
    doc->updated_count = count;
}

static void session_ended(gpointer host, emend_status status, const char *message) {
    Document *doc = host;
    doc->ended++;
    doc->ended_status = status;
    if (status != EMEND_OK) fprintf(stderr, "session failed: %s\n", message);
}

static const EmendGlueHost HOST = {
    .copy_text = copy_text,
    .replace = replace,
    .animation_begin = animation_begin,
    .animation_end = animation_end,
    .present = present,
    .suggestions_changed = suggestions_changed,
    .session_ended = session_ended,
};

/* Runs the main loop until `done` holds (or 10 s pass). */
static gboolean until(EmendGlue *glue, gboolean (*done)(EmendGlue *, Document *), Document *doc) {
    gint64 deadline = g_get_monotonic_time() + 10 * G_USEC_PER_SEC;
    while (!done(glue, doc)) {
        if (g_get_monotonic_time() > deadline) return FALSE;
        g_main_context_iteration(NULL, FALSE);
        g_usleep(1000);
    }
    return TRUE;
}

static gboolean resting(EmendGlue *glue, Document *doc) {
    (void)doc;
    return emend_glue_get_phase(glue) == EMEND_GLUE_RESTING;
}
static gboolean idle(EmendGlue *glue, Document *doc) {
    (void)doc;
    return emend_glue_get_phase(glue) == EMEND_GLUE_IDLE;
}
static gboolean presenting(EmendGlue *glue, Document *doc) {
    return emend_glue_get_phase(glue) == EMEND_GLUE_PRESENTING && doc->presented;
}
static gboolean has_suggestions(EmendGlue *glue, Document *doc) {
    gsize count = 0;
    emend_glue_get_suggestions(glue, &count);
    return resting(glue, doc) && count > 0;
}

/* Runs the main loop until the text reads `expected` (or 10 s pass). */
static gboolean text_becomes(Document *doc, const char *expected) {
    gint64 deadline = g_get_monotonic_time() + 10 * G_USEC_PER_SEC;
    while (strcmp(doc->text->str, expected)) {
        if (g_get_monotonic_time() > deadline) return FALSE;
        g_main_context_iteration(NULL, FALSE);
        g_usleep(1000);
    }
    for (int i = 0; i < 20; i++) g_main_context_iteration(NULL, FALSE); /* what follows it settles */
    return TRUE;
}

static const char *ORIGINAL = "Ünïcode first: we meet tomorow. They has brought snacks.\n\nI can't come, it's raining.";

int main(void) {
    Document doc = {.text = g_string_new(ORIGINAL)};
    emend_status status = EMEND_OK;
    EmendGlue *glue = emend_glue_new(&HOST, &doc, &status);
    CHECK(glue != NULL, "emend_glue_new: %s", emend_status_name(status));
    if (!glue) return 1;
    for (int t = EMEND_TOOL_PROOFREAD; t <= EMEND_TOOL_FOLLOW_UP; t++)
        emend_coordinator_choose_provider(emend_glue_get_coordinator(glue), (emend_tool)t, "org.emend.fixture");

    /* Proofread: code point offsets through a text that starts with non-ASCII letters. */
    CHECK(emend_glue_start(glue, EMEND_TOOL_PROOFREAD, NULL, 0, 0) == EMEND_OK, "start proofread");
    CHECK(until(glue, has_suggestions, &doc), "the proofread rests with suggestions");
    gsize count = 0;
    const EmendGlueSuggestion *s = emend_glue_get_suggestions(glue, &count);
    CHECK(count == 2, "two suggestions, got %zu", count);
    CHECK(strstr(doc.text->str, "tomorrow") && strstr(doc.text->str, "They have"), "corrected inline: %s", doc.text->str);
    gssize at = emend_glue_suggestion_at_offset(glue, (guint64)g_utf8_strlen(doc.text->str, strstr(doc.text->str, "tomorrow") - doc.text->str) + 2);
    CHECK(at >= 0 && !strcmp(s[at].original, "tomorow"), "the suggestion at an offset inside “tomorrow”");
    CHECK(doc.suggestion_updates > 0, "the host heard of the suggestions");
    CHECK(emend_glue_pending_count(glue) == 2, "two pending");
    gssize they = at == 0 ? 1 : 0;
    /* Accepting one reads that one again, and only that one (the coordinator's
     * suggestions_changed names it). */
    int updates = doc.suggestion_updates;
    CHECK(emend_glue_accept_suggestion(glue, (gsize)at) == EMEND_OK, "accept “tomorrow”");
    gint64 deadline = g_get_monotonic_time() + 10 * G_USEC_PER_SEC;
    while (doc.suggestion_updates == updates && g_get_monotonic_time() < deadline) {
        g_main_context_iteration(NULL, FALSE);
        g_usleep(1000);
    }
    s = emend_glue_get_suggestions(glue, &count);
    CHECK(doc.updated_first == (gsize)at && doc.updated_count == 1 && s[at].state == EMEND_SUGGESTION_ACCEPTED,
          "only the accepted suggestion is read again: span %zu+%zu, state %d", doc.updated_first, doc.updated_count, s[at].state);
    CHECK(emend_glue_pending_count(glue) == 1, "one pending");
    CHECK(emend_glue_reject_suggestion(glue, (gsize)they) == EMEND_OK, "reject “They have”");
    /* At once, while the rejected text is still going back (the coordinator says
     * EMEND_E_AGAIN then: a step in flight): kept, and made after it. So is Done. */
    status = emend_glue_undo(glue);
    CHECK(status == EMEND_E_AGAIN, "undo at once: %s", emend_status_name(status));
    status = emend_glue_redo(glue);
    CHECK(status == EMEND_E_AGAIN, "redo at once: %s", emend_status_name(status));
    emend_status accept_status = status;
    status = emend_glue_accept(glue);
    CHECK(status == EMEND_E_AGAIN || status == EMEND_OK, "Done at once: %s", emend_status_name(status));
    printf("   reject, then at once undo and redo (%s) and Done (%s)\n", emend_status_name(accept_status), emend_status_name(status));
    CHECK(until(glue, idle, &doc), "the session ends");
    CHECK(strstr(doc.text->str, "tomorrow") && strstr(doc.text->str, "They has"), "reviewed: %s", doc.text->str);
    emend_glue_get_suggestions(glue, &count);
    CHECK(count == 0, "no suggestions after the session");

    /* Rewrite the last paragraph, the user types at the start meanwhile, revert. */
    g_string_assign(doc.text, ORIGINAL);
    guint64 paragraph = (guint64)g_utf8_strlen(ORIGINAL, strstr(ORIGINAL, "I can't") - ORIGINAL);
    guint64 end = (guint64)g_utf8_strlen(ORIGINAL, -1);
    CHECK(emend_glue_start(glue, EMEND_TOOL_REWRITE_PROFESSIONAL, NULL, paragraph, end) == EMEND_OK, "start rewrite");
    CHECK(until(glue, resting, &doc), "the rewrite rests");
    CHECK(strstr(doc.text->str, "I cannot come, it is raining.") != NULL, "rewritten: %s", doc.text->str);
    CHECK(emend_glue_can_undo(glue), "the rewrite is a step of the session");
    g_string_prepend(doc.text, "Typed ");
    emend_glue_text_changed(glue, 0, 0, "Typed ", 6);
    CHECK(emend_glue_revert(glue) == EMEND_OK, "revert");
    CHECK(until(glue, idle, &doc), "the session ends");
    char *expected = g_strconcat("Typed ", ORIGINAL, NULL);
    CHECK(!strcmp(doc.text->str, expected), "revert: the original byte for byte around the typing:\n%s", doc.text->str);
    g_free(expected);
    CHECK(doc.animations == 0, "every animation ended (%d left)", doc.animations);

    /* The rewrite again, reviewed change by change: its changes are the suggestions. */
    g_string_assign(doc.text, ORIGINAL);
    CHECK(emend_glue_start(glue, EMEND_TOOL_REWRITE_PROFESSIONAL, NULL, paragraph, end) == EMEND_OK, "start rewrite");
    CHECK(until(glue, resting, &doc), "the rewrite rests");
    char *rewritten = g_strdup(doc.text->str);
    CHECK(emend_glue_can_review(glue) && !emend_glue_reviewing(glue), "a resting rewrite can be reviewed");
    gsize changes = 0;
    CHECK(emend_glue_review_changes(glue, &changes) == EMEND_OK, "review changes: %s", emend_last_error_message());
    CHECK(emend_glue_reviewing(glue) && !emend_glue_can_review(glue), "under review");
    CHECK(until(glue, has_suggestions, &doc), "the changes are read as suggestions");
    s = emend_glue_get_suggestions(glue, &count);
    CHECK(count == changes && count >= 2, "%zu changes read, %zu reviewed", count, changes);
    for (gsize i = 0; i < count; i++)
        CHECK(!strcmp(s[i].category, "rewrite") && s[i].state == EMEND_SUGGESTION_PENDING, "change %zu: a pending “rewrite”", i);
    /* Undo the first change (its original back), keep the second at once (kept, made after). */
    gsize byte_start = byte_at(&doc, s[0].start), byte_end = byte_at(&doc, s[0].start + s[0].length);
    GString *reviewed = g_string_new_len(rewritten, (gssize)byte_start);
    g_string_append(reviewed, s[0].original);
    g_string_append(reviewed, rewritten + byte_end);
    printf("   review: %zu changes; undo “%s” → “%s”, keep “%s” → “%s”\n", count, s[0].original, s[0].replacement,
           s[1].original, s[1].replacement);
    CHECK(emend_glue_reject_suggestion(glue, 0) == EMEND_OK, "undo change 0");
    status = emend_glue_accept_suggestion(glue, 1);
    CHECK(status == EMEND_OK || status == EMEND_E_AGAIN, "keep change 1 at once: %s", emend_status_name(status));
    CHECK(text_becomes(&doc, reviewed->str), "only change 0's original back:\n%s\nexpected:\n%s", doc.text->str, reviewed->str);
    /* The session's undo steps back through both decisions (keep, then undo): the rewrite as
     * it came; redo makes the first again (its original back). */
    for (int i = 0; i < 2; i++) {
        status = emend_glue_undo(glue);
        CHECK(status == EMEND_OK || status == EMEND_E_AGAIN, "session undo %d: %s", i, emend_status_name(status));
    }
    CHECK(text_becomes(&doc, rewritten), "both decisions undone: the rewrite as it came:\n%s", doc.text->str);
    status = emend_glue_redo(glue);
    CHECK(status == EMEND_OK || status == EMEND_E_AGAIN, "session redo: %s", emend_status_name(status));
    CHECK(text_becomes(&doc, reviewed->str), "redo: change 0's original back again:\n%s", doc.text->str);
    status = emend_glue_accept(glue);
    CHECK(status == EMEND_OK || status == EMEND_E_AGAIN, "Done: %s", emend_status_name(status));
    CHECK(until(glue, idle, &doc), "the session ends");
    CHECK(!strcmp(doc.text->str, reviewed->str), "Done keeps every change but the undone one:\n%s", doc.text->str);
    CHECK(!emend_glue_reviewing(glue), "no review after the session");
    emend_glue_get_suggestions(glue, &count);
    CHECK(count == 0, "no changes left after Done");
    g_string_free(reviewed, TRUE);
    g_free(rewritten);

    /* A summary is presented; the host copies it. */
    g_string_assign(doc.text, ORIGINAL);
    CHECK(emend_glue_start(glue, EMEND_TOOL_SUMMARY, NULL, 0, 0) == EMEND_OK, "start summary");
    CHECK(until(glue, presenting, &doc), "the summary is presented");
    CHECK(emend_glue_answer_presented(glue, EMEND_PRESENTED_COPY) == EMEND_OK, "copy");
    CHECK(until(glue, idle, &doc), "the session ends");
    CHECK(!strcmp(doc.text->str, ORIGINAL), "a copied summary leaves the text");
    CHECK(doc.ended == 4 && doc.ended_status == EMEND_OK, "four sessions ended OK (%d)", doc.ended);

    emend_glue_free(glue);
    g_string_free(doc.text, TRUE);
    g_free(doc.presented);
    printf(failures ? "glue: %d check(s) failed\n" : "glue: all checks passed (GLib only, no GTK)\n", failures);
    return failures ? 1 : 0;
}
