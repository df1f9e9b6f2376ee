/*
 * emend-gtk-marks.c — proofreading marks: the emend-suggestion tag and one per category over
 * each pending suggestion (a rewrite's change under review is one, of category "rewrite"),
 * the view's accessible description, and the tags libemend-gtk4 adds to the buffer's tag
 * table.
 */
#include "emend-gtk-private.h"

#include <string.h>

/* ---- suggestion marks -------------------------------------------------------------------- */

static const char *const CATEGORIES[] = {"spelling", "grammar", "punctuation", "style", "typography", "rewrite"};

static void remove_marks(EmendGtk *wt, const GtkTextIter *start, const GtkTextIter *end) {
    gtk_text_buffer_remove_tag_by_name(wt->buffer, "emend-suggestion", start, end);
    gtk_text_buffer_remove_tag_by_name(wt->buffer, "emend-suggestion-deletion", start, end);
    for (size_t c = 0; c < G_N_ELEMENTS(CATEGORIES); c++) {
        char *name = g_strconcat("emend-suggestion-", CATEGORIES[c], NULL);
        gtk_text_buffer_remove_tag_by_name(wt->buffer, name, start, end);
        g_free(name);
    }
}

/* Where the mark of a suggestion whose current range is [start, start + length) goes. A
 * deletion (a change that removed text: its range is empty) has no character of its own to
 * carry a tag, so it is marked on a neighbour: the character after it, or, at the end of a
 * line or of the text, the one before it (a click there finds it too, see
 * emend_gtk_suggestion_at_click). FALSE when there is no character at all (an empty text). */
gboolean emend_gtk_mark_range(EmendGtk *wt, guint64 start, guint64 length, GtkTextIter *a, GtkTextIter *b) {
    guint64 characters = (guint64)gtk_text_buffer_get_char_count(wt->buffer);
    if (start + length > characters) return FALSE;
    gtk_text_buffer_get_iter_at_offset(wt->buffer, a, (gint)start);
    gtk_text_buffer_get_iter_at_offset(wt->buffer, b, (gint)(start + length));
    if (length > 0) return TRUE;
    if (start < characters && !gtk_text_iter_ends_line(a)) return gtk_text_iter_forward_char(b);
    if (start > 0) return gtk_text_iter_backward_char(a);
    return start < characters && gtk_text_iter_forward_char(b);
}

/* The pending suggestion a click at `offset` is on: the one whose range holds it, or a
 * deletion marked on this character because it sits just after it (at the end of a line).
 * -1 when none. */
gssize emend_gtk_suggestion_at_click(EmendGtk *wt, guint64 offset) {
    gssize position = emend_glue_suggestion_at_offset(wt->glue, offset);
    if (position >= 0) return position;
    gssize after = emend_glue_suggestion_at_offset(wt->glue, offset + 1);
    guint64 start = 0, length = 0;
    if (after < 0 || !emend_glue_suggestion_range(wt->glue, (gsize)after, &start, &length) || length != 0) return -1;
    GtkTextIter a, b;
    if (!emend_gtk_mark_range(wt, start, length, &a, &b) || (guint64)gtk_text_iter_get_offset(&a) != offset) return -1;
    return after;
}

static void apply_category_marks(EmendGtk *wt, const EmendGlueSuggestion *s, const GtkTextIter *a, const GtkTextIter *b) {
    gtk_text_buffer_apply_tag_by_name(wt->buffer, "emend-suggestion", a, b);
    for (size_t c = 0; c < G_N_ELEMENTS(CATEGORIES); c++) {
        if (strcmp(s->category, CATEGORIES[c])) continue;
        char *name = g_strconcat("emend-suggestion-", CATEGORIES[c], NULL);
        gtk_text_buffer_apply_tag_by_name(wt->buffer, name, a, b);
        g_free(name);
    }
}

/* The deletion mark of suggestion `i` again, when it is a pending deletion (a neighbour's
 * marks coming off may have taken it). */
static void remark_deletion(EmendGtk *wt, const EmendGlueSuggestion *all, gsize count, gsize i) {
    guint64 start = 0, length = 0;
    GtkTextIter a, b;
    if (i >= count || all[i].state != EMEND_SUGGESTION_PENDING || !emend_glue_suggestion_range(wt->glue, i, &start, &length) ||
        length != 0 || !emend_gtk_mark_range(wt, start, length, &a, &b))
        return;
    gtk_text_buffer_apply_tag_by_name(wt->buffer, "emend-suggestion-deletion", &a, &b);
}

/* Marks suggestion `i` again where it is now. A deletion's mark sits on a neighbour, so it
 * comes off there; a suggestion with text takes every mark off its range and the deletion
 * mark off the characters on either side (where its own deletion mark was, before a reject
 * put its text back), then puts back the deletion marks of the suggestions beside it. */
static void retag_one(EmendGtk *wt, const EmendGlueSuggestion *all, gsize count, gsize i, guint64 characters) {
    const EmendGlueSuggestion *s = &all[i];
    guint64 start = 0, length = 0;
    GtkTextIter a, b;
    if (!emend_glue_suggestion_range(wt->glue, i, &start, &length) || start + length > characters ||
        !emend_gtk_mark_range(wt, start, length, &a, &b))
        return;
    gboolean pending = s->state == EMEND_SUGGESTION_PENDING;
    if (length == 0) {
        gtk_text_buffer_remove_tag_by_name(wt->buffer, "emend-suggestion-deletion", &a, &b);
        if (pending) gtk_text_buffer_apply_tag_by_name(wt->buffer, "emend-suggestion-deletion", &a, &b);
        return;
    }
    GtkTextIter before = a, after = b;
    gtk_text_iter_backward_char(&before);
    gtk_text_iter_forward_char(&after);
    remove_marks(wt, &a, &b);
    gtk_text_buffer_remove_tag_by_name(wt->buffer, "emend-suggestion-deletion", &before, &a);
    gtk_text_buffer_remove_tag_by_name(wt->buffer, "emend-suggestion-deletion", &b, &after);
    if (pending) apply_category_marks(wt, s, &a, &b);
    if (i > 0) remark_deletion(wt, all, count, i - 1);
    remark_deletion(wt, all, count, i + 1);
}

/* Marks again the suggestions that changed, and only those: their marks come off where each
 * is now (for an INVALID one, where it was), and a pending one is marked again. The others'
 * tags moved with the text. About 8 ms at a time: the rest in the next idle callback. */
static gboolean retag_suggestions(gpointer data) {
    EmendGtk *wt = data;
    gsize count = 0;
    const EmendGlueSuggestion *all = emend_glue_get_suggestions(wt->glue, &count);
    if (wt->retag_all) {
        GtkTextIter a, b;
        gtk_text_buffer_get_bounds(wt->buffer, &a, &b);
        remove_marks(wt, &a, &b);
        wt->retag_all = FALSE;
    }
    /* The popover stays open while its suggestion is still pending. */
    if (wt->popover_suggestion >= 0 &&
        ((gsize)wt->popover_suggestion >= count || all[wt->popover_suggestion].state != EMEND_SUGGESTION_PENDING))
        emend_gtk_hide_suggestion(wt);
    guint64 characters = (guint64)gtk_text_buffer_get_char_count(wt->buffer);
    gint64 until = g_get_monotonic_time() + 8000;
    wt->retag_end = MIN(wt->retag_end, count);
    while (wt->retag_first < wt->retag_end) {
        gsize i = wt->retag_first++;
        retag_one(wt, all, count, i, characters);
        if (g_get_monotonic_time() >= until && wt->retag_first < wt->retag_end) return G_SOURCE_CONTINUE;
    }
    wt->retag_idle = 0;
    wt->retag_first = wt->retag_end = 0;
    /* Screen readers hear how many suggestions (or changes under review) there are and how
     * to reach them. */
    gsize pending = emend_glue_pending_count(wt->glue);
    gboolean changes = emend_glue_reviewing(wt->glue);
    char *description = !pending ? g_strdup("")
                        : changes ? g_strdup_printf(g_dngettext(NULL, "Writing Tools: %zu change to review; F8 goes to the next",
                                                                "Writing Tools: %zu changes to review; F8 goes to the next",
                                                                pending),
                                                    (size_t)pending)
                                  : g_strdup_printf(g_dngettext(NULL, "Writing Tools: %zu suggestion; F8 goes to the next",
                                                                "Writing Tools: %zu suggestions; F8 goes to the next",
                                                                pending),
                                                    (size_t)pending);
    gtk_accessible_update_property(GTK_ACCESSIBLE(wt->view), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description, -1);
    g_free(description);
    GAction *next = g_action_map_lookup_action(G_ACTION_MAP(wt->actions), "next-suggestion");
    GAction *previous = g_action_map_lookup_action(G_ACTION_MAP(wt->actions), "previous-suggestion");
    g_simple_action_set_enabled(G_SIMPLE_ACTION(next), pending > 0);
    g_simple_action_set_enabled(G_SIMPLE_ACTION(previous), pending > 0);
    return G_SOURCE_REMOVE;
}

/* Tags are applied from an idle: the glue may report from inside a buffer signal, where
 * changing tags would invalidate the iterators GTK is using. Spans reported meanwhile are
 * joined. */
void emend_gtk_suggestions_changed(gpointer data, gsize first, gsize count) {
    EmendGtk *wt = data;
    if (count == G_MAXSIZE) {
        /* Every mark comes off; the suggestions there are come in spans of their own. */
        wt->retag_all = TRUE;
        wt->retag_first = wt->retag_end = 0;
    } else if (count > 0) {
        gboolean had = wt->retag_end > wt->retag_first;
        wt->retag_first = had ? MIN(wt->retag_first, first) : first;
        wt->retag_end = had ? MAX(wt->retag_end, first + count) : first + count;
    }
    if (!wt->retag_idle) wt->retag_idle = g_idle_add(retag_suggestions, wt);
}

/* ---- the tags ---------------------------------------------------------------------------- */

static void ensure_tag(GtkTextBuffer *buffer, const char *name, const char *first_property, ...) {
    GtkTextTagTable *table = gtk_text_buffer_get_tag_table(buffer);
    if (gtk_text_tag_table_lookup(table, name)) return;
    GtkTextTag *tag = gtk_text_tag_new(name);
    va_list args;
    va_start(args, first_property);
    g_object_set_valist(G_OBJECT(tag), first_property, args);
    va_end(args);
    gtk_text_tag_table_add(table, tag);
    g_object_unref(tag);
}

void emend_gtk_marks_init(EmendGtk *wt) {
    GdkRGBA red = {0.88, 0.11, 0.14, 1}, blue = {0.11, 0.44, 0.85, 1}, green = {0.18, 0.55, 0.34, 1},
            violet = {0.57, 0.25, 0.67, 1}, grey = {0.47, 0.47, 0.47, 1}, amber = {0.85, 0.52, 0.05, 1};
    GdkRGBA anticipate = {0.2, 0.35, 0.8, 0.7}, glow = {0.45, 0.55, 1.0, 0.15}, arrived = {0.55, 0.7, 1.0, 0.25}, removed = {0.5, 0.5, 0.5, 0.8};
    ensure_tag(wt->buffer, "emend-suggestion", "underline", PANGO_UNDERLINE_ERROR, NULL);
    ensure_tag(wt->buffer, "emend-suggestion-spelling", "underline-rgba", &red, NULL);
    ensure_tag(wt->buffer, "emend-suggestion-grammar", "underline-rgba", &blue, NULL);
    ensure_tag(wt->buffer, "emend-suggestion-punctuation", "underline-rgba", &violet, NULL);
    ensure_tag(wt->buffer, "emend-suggestion-style", "underline-rgba", &green, NULL);
    ensure_tag(wt->buffer, "emend-suggestion-typography", "underline-rgba", &grey, NULL);
    /* A rewrite's change under review: not a mistake, so a plain line, in its own colour. */
    ensure_tag(wt->buffer, "emend-suggestion-rewrite", "underline", PANGO_UNDERLINE_SINGLE, "underline-rgba", &amber, NULL);
    /* A deletion, on the character beside the removed text: a double line in its own
     * colour and a faint tint, so it can be seen and clicked though no text of its own is left. */
    GdkRGBA deleted = {0.75, 0.11, 0.36, 1}, deleted_tint = {0.75, 0.11, 0.36, 0.25};
    ensure_tag(wt->buffer, "emend-suggestion-deletion", "underline", PANGO_UNDERLINE_DOUBLE, "underline-rgba", &deleted,
               "background-rgba", &deleted_tint, NULL);
    ensure_tag(wt->buffer, "emend-anticipate", "foreground-rgba", &anticipate, "background-rgba", &glow, NULL);
    ensure_tag(wt->buffer, "emend-remove", "strikethrough", TRUE, "foreground-rgba", &removed, NULL);
    ensure_tag(wt->buffer, "emend-insert", "background-rgba", &arrived, NULL);
    ensure_tag(wt->buffer, "emend-arrived", "background-rgba", &arrived, NULL);
}

/* Takes every mark off the text (detach). */
void emend_gtk_marks_clear(EmendGtk *wt) {
    if (wt->retag_idle) g_source_remove(wt->retag_idle);
    wt->retag_idle = 0;
    GtkTextIter start, end;
    gtk_text_buffer_get_bounds(wt->buffer, &start, &end);
    remove_marks(wt, &start, &end);
}
