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
    for (size_t c = 0; c < G_N_ELEMENTS(CATEGORIES); c++) {
        char *name = g_strconcat("emend-suggestion-", CATEGORIES[c], NULL);
        gtk_text_buffer_remove_tag_by_name(wt->buffer, name, start, end);
        g_free(name);
    }
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
        const EmendGlueSuggestion *s = &all[i];
        guint64 start = 0, length = 0;
        if (emend_glue_suggestion_range(wt->glue, i, &start, &length) && start + length <= characters) {
            GtkTextIter a, b;
            gtk_text_buffer_get_iter_at_offset(wt->buffer, &a, (gint)start);
            gtk_text_buffer_get_iter_at_offset(wt->buffer, &b, (gint)(start + length));
            remove_marks(wt, &a, &b);
            if (s->state == EMEND_SUGGESTION_PENDING) {
                gtk_text_buffer_apply_tag_by_name(wt->buffer, "emend-suggestion", &a, &b);
                for (size_t c = 0; c < G_N_ELEMENTS(CATEGORIES); c++) {
                    if (strcmp(s->category, CATEGORIES[c])) continue;
                    char *name = g_strconcat("emend-suggestion-", CATEGORIES[c], NULL);
                    gtk_text_buffer_apply_tag_by_name(wt->buffer, name, &a, &b);
                    g_free(name);
                }
            }
        }
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
