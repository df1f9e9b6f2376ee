/*
 * emend-gtk.c — Writing Tools on a GtkTextView: attach / detach, the `emend` actions, the
 * "Writing Tools" menu, the buffer as the glue's host (text, styling as attribute runs,
 * replaces, rectangles), suggestion marks and text animations.
 */
#include "emend-gtk-private.h"

#include <math.h>
#include <string.h>

#define DATA_KEY "emend-gtk"

/* ---- styling: tags <-> attribute runs ---------------------------------------------------- */

/* A tag is styling when it has a name of the application's own: not anonymous, not ours
 * ("emend-…"), not GtkSourceView's ("gtksourceview:…"). */
#define LINK_URL "emend-link-url"

static gboolean is_style_tag(GtkTextTag *tag) {
    if (g_object_get_data(G_OBJECT(tag), LINK_URL)) return TRUE;
    char *name = NULL;
    g_object_get(tag, "name", &name, NULL);
    gboolean style = name && !strchr(name, ':') && !g_str_has_prefix(name, "emend-");
    g_free(name);
    return style;
}

/* The tag for an attribute key: the application's tag of that name, else, for the display
 * attributes Emend writes itself, one made with the usual look. NULL for a key the buffer
 * has no tag for (it came from another engine's text). */
static GtkTextTag *tag_for_key(EmendGtk *wt, const char *key, const char *value) {
    GtkTextTagTable *table = gtk_text_buffer_get_tag_table(wt->buffer);
    if (!strcmp(key, EMEND_ATTR_LINK) && value && strcmp(value, "1")) {
        /* A link is its URL: one tag per URL, which goes back out as ("link", URL). */
        char *name = g_strconcat("emend-link ", value, NULL);
        GtkTextTag *link = gtk_text_tag_table_lookup(table, name);
        if (!link) {
            link = gtk_text_buffer_create_tag(wt->buffer, name, "underline", PANGO_UNDERLINE_SINGLE, "foreground",
                                              "#1c71d8", NULL);
            g_object_set_data_full(G_OBJECT(link), LINK_URL, g_strdup(value), g_free);
        }
        g_free(name);
        return link;
    }
    GtkTextTag *tag = gtk_text_tag_table_lookup(table, key);
    if (tag) return tag;
    if (!strcmp(key, EMEND_ATTR_BOLD) || !strcmp(key, EMEND_ATTR_STRONG))
        return gtk_text_buffer_create_tag(wt->buffer, key, "weight", PANGO_WEIGHT_BOLD, NULL);
    if (!strcmp(key, EMEND_ATTR_ITALIC) || !strcmp(key, EMEND_ATTR_EMPHASIS))
        return gtk_text_buffer_create_tag(wt->buffer, key, "style", PANGO_STYLE_ITALIC, NULL);
    if (!strcmp(key, EMEND_ATTR_UNDERLINE))
        return gtk_text_buffer_create_tag(wt->buffer, key, "underline", PANGO_UNDERLINE_SINGLE, NULL);
    if (!strcmp(key, EMEND_ATTR_STRIKETHROUGH))
        return gtk_text_buffer_create_tag(wt->buffer, key, "strikethrough", TRUE, NULL);
    if (!strcmp(key, EMEND_ATTR_MONOSPACE) || !strcmp(key, EMEND_ATTR_CODE))
        return gtk_text_buffer_create_tag(wt->buffer, key, "family", "monospace", NULL);
    if (!strcmp(key, EMEND_ATTR_SUPERSCRIPT))
        return gtk_text_buffer_create_tag(wt->buffer, key, "rise", 4 * PANGO_SCALE, "scale", 0.8, NULL);
    if (!strcmp(key, EMEND_ATTR_SUBSCRIPT))
        return gtk_text_buffer_create_tag(wt->buffer, key, "rise", -4 * PANGO_SCALE, "scale", 0.8, NULL);
    return NULL;
}

typedef struct {
    GtkTextBuffer *buffer;
    GArray *runs;
} RunCollector;

static void collect_tag_runs(GtkTextTag *tag, gpointer data) {
    RunCollector *collector = data;
    if (!is_style_tag(tag)) return;
    const char *url = g_object_get_data(G_OBJECT(tag), LINK_URL);
    char *name = NULL;
    g_object_get(tag, "name", &name, NULL);
    /* A tag named "link" of the application's own has no URL to give: it is not sent (as
     * ("link", "1") a provider would read it as a link to "1"). */
    gboolean skip = !url && name && !strcmp(name, EMEND_ATTR_LINK);
    /* The key must outlive this call: the tag table owns the tag, and the tag its name, but
     * g_object_get copied it. Intern it (a handful of names per application). */
    const char *key = url ? EMEND_ATTR_LINK : g_intern_string(name);
    const char *value = url ? url : "1";
    g_free(name);
    if (skip) return;
    GtkTextIter iter;
    gtk_text_buffer_get_start_iter(collector->buffer, &iter);
    gint start = gtk_text_iter_has_tag(&iter, tag) ? 0 : -1;
    while (gtk_text_iter_forward_to_tag_toggle(&iter, tag)) {
        if (gtk_text_iter_starts_tag(&iter, tag)) {
            start = gtk_text_iter_get_offset(&iter);
        } else if (start >= 0) {
            gint end = gtk_text_iter_get_offset(&iter);
            emend_attribute_run run = {{(uint64_t)start, (uint64_t)(end - start)}, key, value};
            if (end > start) g_array_append_val(collector->runs, run);
            start = -1;
        }
    }
}

/* The style tags covering all of [start, end) (for an empty range: those on both sides of
 * it), which a plain replace keeps. A streamed sentence replacing "a **bold** word" gets no
 * bold: only styling the whole replaced text had is kept, so one styled word never smears
 * over a new phrase. */
static GSList *common_style_tags(const GtkTextIter *start, const GtkTextIter *end) {
    GSList *kept = NULL;
    GSList *tags = gtk_text_iter_get_tags(start);
    for (GSList *l = tags; l; l = l->next) {
        GtkTextTag *tag = l->data;
        if (!is_style_tag(tag)) continue;
        if (gtk_text_iter_equal(start, end)) {
            GtkTextIter before = *start;
            if (!gtk_text_iter_backward_char(&before) || !gtk_text_iter_has_tag(&before, tag)) continue;
        } else {
            GtkTextIter toggle = *start;
            if (gtk_text_iter_forward_to_tag_toggle(&toggle, tag) && gtk_text_iter_compare(&toggle, end) < 0) continue;
        }
        kept = g_slist_prepend(kept, tag);
    }
    g_slist_free(tags);
    return kept;
}

typedef struct {
    GtkTextBuffer *buffer;
    const GtkTextIter *start;
    const GtkTextIter *end;
} TagRemoval;

static void remove_style_tag(GtkTextTag *tag, gpointer data) {
    TagRemoval *removal = data;
    if (is_style_tag(tag)) gtk_text_buffer_remove_tag(removal->buffer, tag, removal->start, removal->end);
}

/* ---- the buffer as the glue's host ------------------------------------------------------- */

static char *host_copy_text(gpointer data, gsize *length) {
    EmendGtk *wt = data;
    GtkTextIter start, end;
    gtk_text_buffer_get_bounds(wt->buffer, &start, &end);
    /* include_hidden_chars: the text as it is, byte for byte (paintables count as U+FFFC). */
    char *text = gtk_text_buffer_get_slice(wt->buffer, &start, &end, TRUE);
    *length = strlen(text);
    return text;
}

static void host_collect_runs(gpointer data, GArray *runs) {
    EmendGtk *wt = data;
    RunCollector collector = {wt->buffer, runs};
    gtk_text_tag_table_foreach(gtk_text_buffer_get_tag_table(wt->buffer), collect_tag_runs, &collector);
}

static gboolean animations_enabled(EmendGtk *wt) {
    gboolean enabled = TRUE;
    g_object_get(gtk_widget_get_settings(GTK_WIDGET(wt->view)), "gtk-enable-animations", &enabled, NULL);
    return enabled;
}

static void ensure_tick(EmendGtk *wt);

typedef struct {
    GtkTextMark *start;
    GtkTextMark *end;
    gint64 until;                /* monotonic µs */
} Arrival;

/* Text a result just streamed in is highlighted for the replace's animation time. */
static void mark_arrival(EmendGtk *wt, gint start, gint end, double seconds) {
    if (end <= start || !animations_enabled(wt)) return;
    GtkTextIter s, e;
    gtk_text_buffer_get_iter_at_offset(wt->buffer, &s, start);
    gtk_text_buffer_get_iter_at_offset(wt->buffer, &e, end);
    gtk_text_buffer_apply_tag_by_name(wt->buffer, "emend-arrived", &s, &e);
    Arrival a = {gtk_text_buffer_create_mark(wt->buffer, NULL, &s, TRUE),
                 gtk_text_buffer_create_mark(wt->buffer, NULL, &e, FALSE),
                 g_get_monotonic_time() + (gint64)(MAX(seconds, 0.4) * G_USEC_PER_SEC)};
    g_array_append_val(wt->arrivals, a);
    ensure_tick(wt);
}

static void end_arrival(EmendGtk *wt, guint i) {
    Arrival a = g_array_index(wt->arrivals, Arrival, i);
    g_array_remove_index(wt->arrivals, i);
    GtkTextIter s, e;
    gtk_text_buffer_get_iter_at_mark(wt->buffer, &s, a.start);
    gtk_text_buffer_get_iter_at_mark(wt->buffer, &e, a.end);
    gtk_text_buffer_remove_tag_by_name(wt->buffer, "emend-arrived", &s, &e);
    gtk_text_buffer_delete_mark(wt->buffer, a.start);
    gtk_text_buffer_delete_mark(wt->buffer, a.end);
}

/* The session's edits go into the buffer's undo history as one step, closed when the
 * session ends. */
static void open_user_action(EmendGtk *wt) {
    if (wt->user_action_open) return;
    gtk_text_buffer_begin_user_action(wt->buffer);
    wt->user_action_open = TRUE;
}

static void close_user_action(EmendGtk *wt) {
    if (!wt->user_action_open) return;
    wt->user_action_open = FALSE;
    gtk_text_buffer_end_user_action(wt->buffer);
}

static gboolean host_replace(gpointer data, const emend_replace_request *r) {
    EmendGtk *wt = data;
    guint64 characters = (guint64)gtk_text_buffer_get_char_count(wt->buffer);
    if (r->range.location > characters || r->range.length > characters - r->range.location ||
        r->text_length > G_MAXINT)
        return FALSE;
    gboolean styled = r->struct_size >= offsetof(emend_replace_request, block_intent_count) + sizeof(size_t) &&
                      (r->flags & EMEND_REPLACE_STYLED);
    gint location = (gint)r->range.location;
    GtkTextIter start, end;
    gtk_text_buffer_get_iter_at_offset(wt->buffer, &start, location);
    gtk_text_buffer_get_iter_at_offset(wt->buffer, &end, location + (gint)r->range.length);
    GSList *kept = styled ? NULL : common_style_tags(&start, &end);

    open_user_action(wt);
    wt->applying++;
    gtk_text_buffer_delete(wt->buffer, &start, &end);
    gtk_text_buffer_insert(wt->buffer, &start, r->text, (int)r->text_length);
    /* `start` now sits at the end of the new text. */
    gint new_end = gtk_text_iter_get_offset(&start);
    GtkTextIter s, e;
    gtk_text_buffer_get_iter_at_offset(wt->buffer, &s, location);
    gtk_text_buffer_get_iter_at_offset(wt->buffer, &e, new_end);
    TagRemoval removal = {wt->buffer, &s, &e};
    gtk_text_tag_table_foreach(gtk_text_buffer_get_tag_table(wt->buffer), remove_style_tag, &removal);
    if (styled) {
        for (size_t i = 0; i < r->attribute_run_count; i++) {
            const emend_attribute_run *run = &r->attribute_runs[i];
            GtkTextTag *tag = run->key ? tag_for_key(wt, run->key, run->value) : NULL;
            if (!tag || run->range.location + run->range.length > (guint64)(new_end - location)) continue;
            GtkTextIter rs, re;
            gtk_text_buffer_get_iter_at_offset(wt->buffer, &rs, location + (gint)run->range.location);
            gtk_text_buffer_get_iter_at_offset(wt->buffer, &re, location + (gint)(run->range.location + run->range.length));
            gtk_text_buffer_apply_tag(wt->buffer, tag, &rs, &re);
        }
    } else {
        for (GSList *l = kept; l; l = l->next) gtk_text_buffer_apply_tag(wt->buffer, l->data, &s, &e);
    }
    g_slist_free(kept);
    if (r->kind == EMEND_CHANGE_RESULT && r->reason == EMEND_REPLACE_INTERACTIVE)
        mark_arrival(wt, location, new_end, r->animation_duration);
    wt->applying--;
    return TRUE;
}

static void host_select(gpointer data, guint64 start, guint64 length) {
    EmendGtk *wt = data;
    GtkTextIter s, e;
    gtk_text_buffer_get_iter_at_offset(wt->buffer, &s, (gint)start);
    gtk_text_buffer_get_iter_at_offset(wt->buffer, &e, (gint)(start + length));
    gtk_text_buffer_select_range(wt->buffer, &s, &e);
}

/* Rectangles of a range in buffer coordinates (they survive scrolling), one per display
 * line it covers. */
static void host_range_rects(gpointer data, guint64 start, guint64 length, GArray *rects) {
    EmendGtk *wt = data;
    GtkTextIter s, end;
    gtk_text_buffer_get_iter_at_offset(wt->buffer, &s, (gint)start);
    gtk_text_buffer_get_iter_at_offset(wt->buffer, &end, (gint)(start + length));
    for (int lines = 0; lines < 10000; lines++) {
        GtkTextIter line_end = s;
        if (!gtk_text_view_forward_display_line_end(wt->view, &line_end) || gtk_text_iter_compare(&line_end, &end) > 0)
            line_end = end;
        GdkRectangle a, b;
        gtk_text_view_get_iter_location(wt->view, &s, &a);
        gtk_text_view_get_iter_location(wt->view, &line_end, &b);
        emend_rect rect = {a.x, a.y, MAX(b.x + (gtk_text_iter_equal(&line_end, &end) ? 0 : b.width) - a.x, 1), a.height};
        g_array_append_val(rects, rect);
        if (gtk_text_iter_compare(&line_end, &end) >= 0) break;
        s = line_end;
        if (!gtk_text_view_forward_display_line(wt->view, &s)) break;
        gtk_text_view_backward_display_line_start(wt->view, &s);
        if (gtk_text_iter_compare(&s, &end) >= 0) break;
    }
}

/* A text animation: the coordinator's range marked with a tag until it finishes. */
typedef struct {
    GtkTextTag *tag;             /* NULL: nothing to show (TRANSLATE) */
    GtkTextMark *start;
    GtkTextMark *end;
    emend_text_animation animation;
} Animation;

static gpointer host_animation_begin(gpointer data, emend_text_animation animation, guint64 start, guint64 length) {
    EmendGtk *wt = data;
    GtkTextTagTable *table = gtk_text_buffer_get_tag_table(wt->buffer);
    Animation *a = g_new0(Animation, 1);
    a->animation = animation;
    switch (animation) {
    case EMEND_ANIMATION_ANTICIPATE:
    case EMEND_ANIMATION_ANTICIPATE_INACTIVE: a->tag = gtk_text_tag_table_lookup(table, "emend-anticipate"); break;
    case EMEND_ANIMATION_REMOVE: a->tag = gtk_text_tag_table_lookup(table, "emend-remove"); break;
    case EMEND_ANIMATION_INSERT: a->tag = gtk_text_tag_table_lookup(table, "emend-insert"); break;
    case EMEND_ANIMATION_TRANSLATE: break;
    }
    guint64 characters = (guint64)gtk_text_buffer_get_char_count(wt->buffer);
    GtkTextIter s, e;
    gtk_text_buffer_get_iter_at_offset(wt->buffer, &s, (gint)MIN(start, characters));
    gtk_text_buffer_get_iter_at_offset(wt->buffer, &e, (gint)MIN(start + length, characters));
    a->start = gtk_text_buffer_create_mark(wt->buffer, NULL, &s, TRUE);
    a->end = gtk_text_buffer_create_mark(wt->buffer, NULL, &e, FALSE);
    if (a->tag) gtk_text_buffer_apply_tag(wt->buffer, a->tag, &s, &e);
    g_ptr_array_add(wt->animations, a);
    ensure_tick(wt);
    return a;
}

static void host_animation_end(gpointer data, gpointer handle) {
    EmendGtk *wt = data;
    Animation *a = handle;
    if (!g_ptr_array_remove(wt->animations, a)) return;
    GtkTextIter s, e;
    gtk_text_buffer_get_iter_at_mark(wt->buffer, &s, a->start);
    gtk_text_buffer_get_iter_at_mark(wt->buffer, &e, a->end);
    if (a->tag) gtk_text_buffer_remove_tag(wt->buffer, a->tag, &s, &e);
    gtk_text_buffer_delete_mark(wt->buffer, a->start);
    gtk_text_buffer_delete_mark(wt->buffer, a->end);
    g_free(a);
}

/* The animation clock: anticipated text pulses (its colour breathes), arrived text loses
 * its highlight when its time is up. Runs only while there is something to animate. */
static gboolean on_tick(GtkWidget *widget, GdkFrameClock *clock, gpointer data) {
    EmendGtk *wt = data;
    (void)widget;
    gint64 now = gdk_frame_clock_get_frame_time(clock);
    for (guint i = wt->arrivals->len; i > 0; i--)
        if (g_array_index(wt->arrivals, Arrival, i - 1).until <= now) end_arrival(wt, i - 1);
    gboolean anticipating = FALSE;
    for (guint i = 0; i < wt->animations->len; i++)
        if (((Animation *)g_ptr_array_index(wt->animations, i))->tag) anticipating = TRUE;
    if (anticipating && animations_enabled(wt)) {
        double wave = sin((double)(now % 1200000) / 1200000.0 * 2 * G_PI);
        GdkRGBA colour = {0.2, 0.35, 0.8, 0.55 + 0.3 * wave}, glow = {0.45, 0.55, 1.0, 0.12 + 0.1 * wave};
        GtkTextTag *tag = gtk_text_tag_table_lookup(gtk_text_buffer_get_tag_table(wt->buffer), "emend-anticipate");
        g_object_set(tag, "foreground-rgba", &colour, "background-rgba", &glow, NULL);
    }
    if (wt->arrivals->len == 0 && !anticipating) {
        wt->tick = 0;
        return G_SOURCE_REMOVE;
    }
    return G_SOURCE_CONTINUE;
}

static void ensure_tick(EmendGtk *wt) {
    if (!wt->tick) wt->tick = gtk_widget_add_tick_callback(GTK_WIDGET(wt->view), on_tick, wt, NULL);
}

/* ---- suggestion marks -------------------------------------------------------------------- */

static const char *const CATEGORIES[] = {"spelling", "grammar", "punctuation", "style", "typography"};

static gboolean retag_suggestions(gpointer data) {
    EmendGtk *wt = data;
    wt->retag_idle = 0;
    GtkTextIter start, end;
    gtk_text_buffer_get_bounds(wt->buffer, &start, &end);
    gtk_text_buffer_remove_tag_by_name(wt->buffer, "emend-suggestion", &start, &end);
    for (size_t c = 0; c < G_N_ELEMENTS(CATEGORIES); c++) {
        char *name = g_strconcat("emend-suggestion-", CATEGORIES[c], NULL);
        gtk_text_buffer_remove_tag_by_name(wt->buffer, name, &start, &end);
        g_free(name);
    }
    gsize count = 0, pending = 0;
    const EmendGlueSuggestion *all = emend_glue_get_suggestions(wt->glue, &count);
    /* The popover stays open while its suggestion is still pending. */
    if (wt->popover_suggestion >= 0 &&
        ((gsize)wt->popover_suggestion >= count || all[wt->popover_suggestion].state != EMEND_SUGGESTION_PENDING))
        emend_gtk_hide_suggestion(wt);
    guint64 characters = (guint64)gtk_text_buffer_get_char_count(wt->buffer);
    for (gsize i = 0; i < count; i++) {
        const EmendGlueSuggestion *s = &all[i];
        if (s->state != EMEND_SUGGESTION_PENDING || s->start + s->length > characters) continue;
        pending++;
        GtkTextIter a, b;
        gtk_text_buffer_get_iter_at_offset(wt->buffer, &a, (gint)s->start);
        gtk_text_buffer_get_iter_at_offset(wt->buffer, &b, (gint)(s->start + s->length));
        gtk_text_buffer_apply_tag_by_name(wt->buffer, "emend-suggestion", &a, &b);
        for (size_t c = 0; c < G_N_ELEMENTS(CATEGORIES); c++) {
            if (strcmp(s->category, CATEGORIES[c])) continue;
            char *name = g_strconcat("emend-suggestion-", CATEGORIES[c], NULL);
            gtk_text_buffer_apply_tag_by_name(wt->buffer, name, &a, &b);
            g_free(name);
        }
    }
    /* Screen readers hear how many suggestions there are and how to reach them. */
    char *description = pending ? g_strdup_printf(g_dngettext(NULL, "Writing Tools: %zu suggestion; F8 goes to the next",
                                                              "Writing Tools: %zu suggestions; F8 goes to the next",
                                                              pending),
                                                  (size_t)pending)
                                : g_strdup("");
    gtk_accessible_update_property(GTK_ACCESSIBLE(wt->view), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description, -1);
    g_free(description);
    GAction *next = g_action_map_lookup_action(G_ACTION_MAP(wt->actions), "next-suggestion");
    GAction *previous = g_action_map_lookup_action(G_ACTION_MAP(wt->actions), "previous-suggestion");
    g_simple_action_set_enabled(G_SIMPLE_ACTION(next), pending > 0);
    g_simple_action_set_enabled(G_SIMPLE_ACTION(previous), pending > 0);
    return G_SOURCE_REMOVE;
}

/* Tags are applied from an idle: the glue may report from inside a buffer signal, where
 * changing tags would invalidate the iterators GTK is using. */
static void host_suggestions_changed(gpointer data) {
    EmendGtk *wt = data;
    if (!wt->retag_idle) wt->retag_idle = g_idle_add(retag_suggestions, wt);
}

/* ---- actions ----------------------------------------------------------------------------- */

static const emend_tool PLAIN_TOOLS[] = {EMEND_TOOL_PROOFREAD,     EMEND_TOOL_REWRITE_FRIENDLY,
                                         EMEND_TOOL_REWRITE_PROFESSIONAL, EMEND_TOOL_REWRITE_CONCISE,
                                         EMEND_TOOL_SUMMARY,       EMEND_TOOL_KEY_POINTS,
                                         EMEND_TOOL_LIST,          EMEND_TOOL_TABLE};

static void set_enabled(EmendGtk *wt, const char *name, gboolean enabled) {
    GAction *action = g_action_map_lookup_action(G_ACTION_MAP(wt->actions), name);
    if (action) g_simple_action_set_enabled(G_SIMPLE_ACTION(action), enabled);
}

static gboolean is_rewrite_tool(emend_tool tool) {
    return tool == EMEND_TOOL_REWRITE_FRIENDLY || tool == EMEND_TOOL_REWRITE_PROFESSIONAL ||
           tool == EMEND_TOOL_REWRITE_CONCISE || tool == EMEND_TOOL_REWRITE_DESCRIBED ||
           tool == EMEND_TOOL_FOLLOW_UP || tool == EMEND_TOOL_COMPOSE;
}

static void host_phase_changed(gpointer data) {
    EmendGtk *wt = data;
    EmendGluePhase phase = emend_glue_get_phase(wt->glue);
    emend_tool tool = emend_glue_get_tool(wt->glue);
    gboolean idle = phase == EMEND_GLUE_IDLE, resting = phase == EMEND_GLUE_RESTING;
    for (size_t i = 0; i < G_N_ELEMENTS(PLAIN_TOOLS); i++) set_enabled(wt, emend_tool_name(PLAIN_TOOLS[i]), idle);
    set_enabled(wt, "compose", idle);
    set_enabled(wt, "rewrite-described", idle || (resting && is_rewrite_tool(tool)));
    set_enabled(wt, "prompt", idle || (resting && is_rewrite_tool(tool)));
    set_enabled(wt, "done", resting);
    set_enabled(wt, "revert", resting);
    set_enabled(wt, "stop", !idle);
    set_enabled(wt, "show-original", resting && is_rewrite_tool(tool));
    set_enabled(wt, "undo", emend_glue_can_undo(wt->glue));
    set_enabled(wt, "redo", emend_glue_can_redo(wt->glue));
    GAction *show = g_action_map_lookup_action(G_ACTION_MAP(wt->actions), "show-original");
    gboolean showing = emend_glue_showing_original(wt->glue);
    GVariant *state = g_action_get_state(show);
    if (g_variant_get_boolean(state) != showing) g_simple_action_set_state(G_SIMPLE_ACTION(show), g_variant_new_boolean(showing));
    g_variant_unref(state);
    /* The view is busy while a result is written into it. */
    gtk_accessible_update_state(GTK_ACCESSIBLE(wt->view), GTK_ACCESSIBLE_STATE_BUSY,
                                phase == EMEND_GLUE_WORKING || phase == EMEND_GLUE_STREAMING, -1);
}

static void host_present(gpointer data, const emend_presented_result *result) {
    emend_gtk_show_presented(data, result);
}

static void host_session_ended(gpointer data, emend_status status, const char *message) {
    EmendGtk *wt = data;
    close_user_action(wt);
    if (status != EMEND_OK) emend_gtk_show_failure(wt, status, message);
}

static void report(EmendGtk *wt, const char *what, emend_status status) {
    if (status == EMEND_OK || status == EMEND_E_AGAIN) return; /* AGAIN: kept, made after the change in flight */
    char *message = g_strdup_printf("%s: %s", what, emend_last_error_message());
    emend_gtk_show_failure(wt, status, message);
    g_free(message);
}

static void start_tool(EmendGtk *wt, emend_tool tool, const char *prompt) {
    /* A view the user cannot edit gets its results presented (Copy), as Apple's limited
     * behavior; an editable one inline. */
    emend_coordinator_set_preferred_behavior(emend_glue_get_coordinator(wt->glue),
                                             gtk_text_view_get_editable(wt->view) ? EMEND_BEHAVIOR_COMPLETE
                                                                                  : EMEND_BEHAVIOR_LIMITED);
    GtkTextIter s, e;
    gtk_text_buffer_get_selection_bounds(wt->buffer, &s, &e);
    /* The selection of this moment is the one the tool works on, however it moves before the
     * coordinator asks for it. */
    emend_status status = emend_glue_start(wt->glue, tool, prompt, (guint64)gtk_text_iter_get_offset(&s),
                                           (guint64)gtk_text_iter_get_offset(&e));
    /* The text being worked on shows its animation, not the selection's highlight (the
     * glue keeps the selection it was given; a rewrite selects its result when it rests). */
    if (status == EMEND_OK && emend_glue_get_phase(wt->glue) != EMEND_GLUE_IDLE) gtk_text_buffer_place_cursor(wt->buffer, &e);
    report(wt, emend_tool_label(tool), status);
}

static void on_tool(GSimpleAction *action, GVariant *parameter, gpointer data) {
    const char *name = g_action_get_name(G_ACTION(action));
    for (int t = EMEND_TOOL_PROOFREAD; t <= EMEND_TOOL_FOLLOW_UP; t++) {
        if (emend_tool_name((emend_tool)t) && !strcmp(emend_tool_name((emend_tool)t), name)) {
            start_tool(data, (emend_tool)t, parameter ? g_variant_get_string(parameter, NULL) : NULL);
            return;
        }
    }
}

static void on_done(GSimpleAction *a, GVariant *p, gpointer data) {
    (void)a, (void)p;
    report(data, "Done", emend_glue_accept(((EmendGtk *)data)->glue));
}
static void on_revert(GSimpleAction *a, GVariant *p, gpointer data) {
    (void)a, (void)p;
    report(data, "Revert", emend_glue_revert(((EmendGtk *)data)->glue));
}
static void on_stop(GSimpleAction *a, GVariant *p, gpointer data) {
    (void)a, (void)p;
    report(data, "Stop", emend_glue_stop(((EmendGtk *)data)->glue));
}
static void on_undo(GSimpleAction *a, GVariant *p, gpointer data) {
    (void)a, (void)p;
    report(data, "Undo", emend_glue_undo(((EmendGtk *)data)->glue));
}
static void on_redo(GSimpleAction *a, GVariant *p, gpointer data) {
    (void)a, (void)p;
    report(data, "Redo", emend_glue_redo(((EmendGtk *)data)->glue));
}
static void on_show_original(GSimpleAction *action, GVariant *value, gpointer data) {
    EmendGtk *wt = data;
    emend_status status = emend_glue_show_original(wt->glue, g_variant_get_boolean(value));
    if (status == EMEND_OK) g_simple_action_set_state(action, value);
    report(wt, "Show Original", status);
}
static void on_prompt(GSimpleAction *a, GVariant *parameter, gpointer data) {
    (void)a;
    emend_gtk_ask_prompt(data, g_variant_get_string(parameter, NULL));
}

/* The next (direction 1) or previous (-1) pending suggestion from the cursor, wrapping. */
static void go_to_suggestion(EmendGtk *wt, int direction) {
    gsize count = 0;
    const EmendGlueSuggestion *all = emend_glue_get_suggestions(wt->glue, &count);
    GtkTextIter cursor;
    gtk_text_buffer_get_iter_at_mark(wt->buffer, &cursor, gtk_text_buffer_get_insert(wt->buffer));
    guint64 at = (guint64)gtk_text_iter_get_offset(&cursor);
    gssize best = -1, wrap = -1;
    for (gsize i = 0; i < count; i++) {
        if (all[i].state != EMEND_SUGGESTION_PENDING) continue;
        gboolean ahead = direction > 0 ? all[i].start > at : all[i].start + all[i].length < at;
        if (ahead && (best < 0 || (direction > 0 ? all[i].start < all[best].start : all[i].start > all[best].start)))
            best = (gssize)i;
        if (wrap < 0 || (direction > 0 ? all[i].start < all[wrap].start : all[i].start > all[wrap].start)) wrap = (gssize)i;
    }
    if (best < 0) best = wrap;
    if (best < 0) return;
    GtkTextIter s, e;
    gtk_text_buffer_get_iter_at_offset(wt->buffer, &s, (gint)all[best].start);
    gtk_text_buffer_get_iter_at_offset(wt->buffer, &e, (gint)(all[best].start + all[best].length));
    gtk_text_buffer_select_range(wt->buffer, &s, &e);
    gtk_text_view_scroll_to_iter(wt->view, &s, 0.1, FALSE, 0, 0);
    emend_gtk_show_suggestion(wt, (gsize)best);
}
static void on_next(GSimpleAction *a, GVariant *p, gpointer data) {
    (void)a, (void)p;
    go_to_suggestion(data, 1);
}
static void on_previous(GSimpleAction *a, GVariant *p, gpointer data) {
    (void)a, (void)p;
    go_to_suggestion(data, -1);
}

static void add_actions(EmendGtk *wt) {
    wt->actions = g_simple_action_group_new();
    for (size_t i = 0; i < G_N_ELEMENTS(PLAIN_TOOLS); i++) {
        GSimpleAction *a = g_simple_action_new(emend_tool_name(PLAIN_TOOLS[i]), NULL);
        g_signal_connect(a, "activate", G_CALLBACK(on_tool), wt);
        g_action_map_add_action(G_ACTION_MAP(wt->actions), G_ACTION(a));
        g_object_unref(a);
    }
    const char *with_prompt[] = {"rewrite-described", "compose"};
    for (size_t i = 0; i < G_N_ELEMENTS(with_prompt); i++) {
        GSimpleAction *a = g_simple_action_new(with_prompt[i], G_VARIANT_TYPE_STRING);
        g_signal_connect(a, "activate", G_CALLBACK(on_tool), wt);
        g_action_map_add_action(G_ACTION_MAP(wt->actions), G_ACTION(a));
        g_object_unref(a);
    }
    const GActionEntry entries[] = {
        {.name = "done", .activate = on_done},
        {.name = "revert", .activate = on_revert},
        {.name = "stop", .activate = on_stop},
        {.name = "undo", .activate = on_undo},
        {.name = "redo", .activate = on_redo},
        {.name = "show-original", .parameter_type = NULL, .state = "false", .change_state = on_show_original},
        {.name = "prompt", .activate = on_prompt, .parameter_type = "s"},
        {.name = "next-suggestion", .activate = on_next},
        {.name = "previous-suggestion", .activate = on_previous},
    };
    g_action_map_add_action_entries(G_ACTION_MAP(wt->actions), entries, G_N_ELEMENTS(entries), wt);
    gtk_widget_insert_action_group(GTK_WIDGET(wt->view), "emend", G_ACTION_GROUP(wt->actions));
    host_phase_changed(wt);
    set_enabled(wt, "next-suggestion", FALSE);
    set_enabled(wt, "previous-suggestion", FALSE);
}

/* ---- the menu ---------------------------------------------------------------------------- */

static void append_tool(GMenu *menu, emend_tool tool) {
    char *action = g_strconcat("emend.", emend_tool_name(tool), NULL);
    g_menu_append(menu, emend_tool_label(tool), action);
    g_free(action);
}

static void append_hidden_when_disabled(GMenu *menu, const char *label, const char *action) {
    GMenuItem *item = g_menu_item_new(label, action);
    g_menu_item_set_attribute(item, "hidden-when", "s", "action-disabled");
    g_menu_append_item(menu, item);
    g_object_unref(item);
}

static void build_menu(EmendGtk *wt) {
    wt->menu = g_menu_new();
    GMenu *proofread = g_menu_new(), *rewrite = g_menu_new(), *transform = g_menu_new(), *compose = g_menu_new(),
          *session = g_menu_new();
    append_tool(proofread, EMEND_TOOL_PROOFREAD);
    append_tool(rewrite, EMEND_TOOL_REWRITE_FRIENDLY);
    append_tool(rewrite, EMEND_TOOL_REWRITE_PROFESSIONAL);
    append_tool(rewrite, EMEND_TOOL_REWRITE_CONCISE);
    char *describe = g_strconcat(emend_tool_label(EMEND_TOOL_REWRITE_DESCRIBED), "…", NULL);
    g_menu_append(rewrite, describe, "emend.prompt::rewrite-described");
    g_free(describe);
    append_tool(transform, EMEND_TOOL_SUMMARY);
    append_tool(transform, EMEND_TOOL_KEY_POINTS);
    append_tool(transform, EMEND_TOOL_LIST);
    append_tool(transform, EMEND_TOOL_TABLE);
    char *compose_label = g_strconcat(emend_tool_label(EMEND_TOOL_COMPOSE), "…", NULL);
    g_menu_append(compose, compose_label, "emend.prompt::compose");
    g_free(compose_label);
    append_hidden_when_disabled(session, "Done", "emend.done");
    append_hidden_when_disabled(session, "Revert", "emend.revert");
    append_hidden_when_disabled(session, "Show Original", "emend.show-original");
    append_hidden_when_disabled(session, "Undo", "emend.undo");
    append_hidden_when_disabled(session, "Redo", "emend.redo");
    append_hidden_when_disabled(session, "Next Suggestion", "emend.next-suggestion");
    append_hidden_when_disabled(session, "Stop", "emend.stop");
    g_menu_append_section(wt->menu, NULL, G_MENU_MODEL(proofread));
    g_menu_append_section(wt->menu, "Rewrite", G_MENU_MODEL(rewrite));
    g_menu_append_section(wt->menu, NULL, G_MENU_MODEL(transform));
    g_menu_append_section(wt->menu, NULL, G_MENU_MODEL(compose));
    g_menu_append_section(wt->menu, NULL, G_MENU_MODEL(session));
    g_object_unref(proofread), g_object_unref(rewrite), g_object_unref(transform), g_object_unref(compose),
        g_object_unref(session);

    wt->section = g_menu_new();
    g_menu_append_submenu(wt->section, "Writing Tools", G_MENU_MODEL(wt->menu));
    GMenuModel *previous = gtk_text_view_get_extra_menu(wt->view);
    wt->previous_extra_menu = previous ? g_object_ref(previous) : NULL;
    GMenu *extra = g_menu_new();
    if (previous) g_menu_append_section(extra, NULL, previous);
    g_menu_append_section(extra, NULL, G_MENU_MODEL(wt->section));
    gtk_text_view_set_extra_menu(wt->view, G_MENU_MODEL(extra));
    g_object_unref(extra);
}

/* ---- input: the user's edits, clicks and keys -------------------------------------------- */

static void on_insert_text(GtkTextBuffer *buffer, GtkTextIter *location, char *text, int length, gpointer data) {
    EmendGtk *wt = data;
    (void)buffer;
    if (wt->applying) return;
    emend_glue_text_changed(wt->glue, (guint64)gtk_text_iter_get_offset(location), 0, text, (gsize)length);
}

static void on_delete_range(GtkTextBuffer *buffer, GtkTextIter *start, GtkTextIter *end, gpointer data) {
    EmendGtk *wt = data;
    (void)buffer;
    if (wt->applying) return;
    gint s = gtk_text_iter_get_offset(start), e = gtk_text_iter_get_offset(end);
    emend_glue_text_changed(wt->glue, (guint64)MIN(s, e), (guint64)ABS(e - s), "", 0);
}

/* A picture or a widget in the text is one U+FFFC character to the coordinator. */
static void on_insert_paintable(GtkTextBuffer *buffer, GtkTextIter *location, GdkPaintable *paintable, gpointer data) {
    EmendGtk *wt = data;
    (void)buffer, (void)paintable;
    if (!wt->applying) emend_glue_text_changed(wt->glue, (guint64)gtk_text_iter_get_offset(location), 0, "\xEF\xBF\xBC", 3);
}

static void on_insert_child_anchor(GtkTextBuffer *buffer, GtkTextIter *location, GtkTextChildAnchor *anchor,
                                   gpointer data) {
    EmendGtk *wt = data;
    (void)buffer, (void)anchor;
    if (!wt->applying) emend_glue_text_changed(wt->glue, (guint64)gtk_text_iter_get_offset(location), 0, "\xEF\xBF\xBC", 3);
}

/* A click on a mark opens its popover, once GTK has placed the cursor. */
static gboolean look_at_click(gpointer data) {
    EmendGtk *wt = data;
    wt->click_idle = 0;
    if (gtk_text_buffer_get_has_selection(wt->buffer) || wt->pending_click < 0) return G_SOURCE_REMOVE;
    gssize position = emend_glue_suggestion_at_offset(wt->glue, (guint64)wt->pending_click);
    wt->pending_click = -1;
    if (position >= 0) emend_gtk_show_suggestion(wt, (gsize)position);
    return G_SOURCE_REMOVE;
}

static void on_pressed(GtkGestureClick *gesture, int n_press, double x, double y, gpointer data) {
    EmendGtk *wt = data;
    (void)gesture;
    if (n_press != 1) return;
    int bx = 0, by = 0;
    gtk_text_view_window_to_buffer_coords(wt->view, GTK_TEXT_WINDOW_WIDGET, (int)x, (int)y, &bx, &by);
    GtkTextIter iter;
    if (!gtk_text_view_get_iter_at_location(wt->view, &iter, bx, by)) return;
    wt->pending_click = gtk_text_iter_get_offset(&iter);
    if (!wt->click_idle) wt->click_idle = g_idle_add(look_at_click, wt);
}

/* Ctrl+Z and Ctrl+Shift+Z / Ctrl+Y undo and redo the session's own steps while a result
 * rests (the buffer's own undo holds the whole session as one step once it ends). */
static gboolean on_undo_key(GtkWidget *widget, GVariant *args, gpointer data) {
    EmendGtk *wt = data;
    (void)widget, (void)args;
    if (!emend_glue_can_undo(wt->glue)) return FALSE;
    on_undo(NULL, NULL, wt);
    return TRUE;
}
static gboolean on_redo_key(GtkWidget *widget, GVariant *args, gpointer data) {
    EmendGtk *wt = data;
    (void)widget, (void)args;
    if (!emend_glue_can_redo(wt->glue)) return FALSE;
    on_redo(NULL, NULL, wt);
    return TRUE;
}

static void add_shortcut(GtkShortcutController *controller, const char *trigger, GtkShortcutFunc func, EmendGtk *wt) {
    gtk_shortcut_controller_add_shortcut(controller, gtk_shortcut_new(gtk_shortcut_trigger_parse_string(trigger),
                                                                      gtk_callback_action_new(func, wt, NULL)));
}

static void add_shortcut_action(GtkShortcutController *controller, const char *trigger, const char *action) {
    gtk_shortcut_controller_add_shortcut(controller, gtk_shortcut_new(gtk_shortcut_trigger_parse_string(trigger),
                                                                      gtk_named_action_new(action)));
}

static void add_input(EmendGtk *wt) {
    wt->insert_handler = g_signal_connect(wt->buffer, "insert-text", G_CALLBACK(on_insert_text), wt);
    wt->delete_handler = g_signal_connect(wt->buffer, "delete-range", G_CALLBACK(on_delete_range), wt);
    wt->paintable_handler = g_signal_connect(wt->buffer, "insert-paintable", G_CALLBACK(on_insert_paintable), wt);
    wt->anchor_handler = g_signal_connect(wt->buffer, "insert-child-anchor", G_CALLBACK(on_insert_child_anchor), wt);
    GtkGesture *click = gtk_gesture_click_new();
    gtk_gesture_single_set_button(GTK_GESTURE_SINGLE(click), GDK_BUTTON_PRIMARY);
    gtk_event_controller_set_propagation_phase(GTK_EVENT_CONTROLLER(click), GTK_PHASE_CAPTURE);
    g_signal_connect(click, "pressed", G_CALLBACK(on_pressed), wt);
    wt->click = GTK_EVENT_CONTROLLER(click);
    gtk_widget_add_controller(GTK_WIDGET(wt->view), wt->click);
    GtkShortcutController *keys = GTK_SHORTCUT_CONTROLLER(gtk_shortcut_controller_new());
    gtk_event_controller_set_propagation_phase(GTK_EVENT_CONTROLLER(keys), GTK_PHASE_CAPTURE);
    add_shortcut(keys, "<Control>z", on_undo_key, wt);
    add_shortcut(keys, "<Control><Shift>z", on_redo_key, wt);
    add_shortcut(keys, "<Control>y", on_redo_key, wt);
    add_shortcut_action(keys, "F8", "emend.next-suggestion");
    add_shortcut_action(keys, "<Shift>F8", "emend.previous-suggestion");
    wt->shortcuts = GTK_EVENT_CONTROLLER(keys);
    gtk_widget_add_controller(GTK_WIDGET(wt->view), wt->shortcuts);
}

/* ---- tags -------------------------------------------------------------------------------- */

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

static void add_tags(EmendGtk *wt) {
    GdkRGBA red = {0.88, 0.11, 0.14, 1}, blue = {0.11, 0.44, 0.85, 1}, green = {0.18, 0.55, 0.34, 1},
            violet = {0.57, 0.25, 0.67, 1}, grey = {0.47, 0.47, 0.47, 1};
    GdkRGBA anticipate = {0.2, 0.35, 0.8, 0.7}, glow = {0.45, 0.55, 1.0, 0.15}, arrived = {0.55, 0.7, 1.0, 0.25}, removed = {0.5, 0.5, 0.5, 0.8};
    ensure_tag(wt->buffer, "emend-suggestion", "underline", PANGO_UNDERLINE_ERROR, NULL);
    ensure_tag(wt->buffer, "emend-suggestion-spelling", "underline-rgba", &red, NULL);
    ensure_tag(wt->buffer, "emend-suggestion-grammar", "underline-rgba", &blue, NULL);
    ensure_tag(wt->buffer, "emend-suggestion-punctuation", "underline-rgba", &violet, NULL);
    ensure_tag(wt->buffer, "emend-suggestion-style", "underline-rgba", &green, NULL);
    ensure_tag(wt->buffer, "emend-suggestion-typography", "underline-rgba", &grey, NULL);
    ensure_tag(wt->buffer, "emend-anticipate", "foreground-rgba", &anticipate, "background-rgba", &glow, NULL);
    ensure_tag(wt->buffer, "emend-remove", "strikethrough", TRUE, "foreground-rgba", &removed, NULL);
    ensure_tag(wt->buffer, "emend-insert", "background-rgba", &arrived, NULL);
    ensure_tag(wt->buffer, "emend-arrived", "background-rgba", &arrived, NULL);
}

/* ---- attach / detach --------------------------------------------------------------------- */

static const EmendGlueHost HOST = {
    .copy_text = host_copy_text,
    .collect_runs = host_collect_runs,
    .replace = host_replace,
    .select = host_select,
    .range_rects = host_range_rects,
    .animation_begin = host_animation_begin,
    .animation_end = host_animation_end,
    .present = host_present,
    .phase_changed = host_phase_changed,
    .suggestions_changed = host_suggestions_changed,
    .session_ended = host_session_ended,
};

static void teardown(EmendGtk *wt) {
    GtkWidget *view = GTK_WIDGET(wt->view);
    if (wt->retag_idle) g_source_remove(wt->retag_idle);
    if (wt->click_idle) g_source_remove(wt->click_idle);
    if (wt->tick) gtk_widget_remove_tick_callback(view, wt->tick);
    g_signal_handler_disconnect(view, wt->destroy_handler);
    g_signal_handler_disconnect(wt->buffer, wt->insert_handler);
    g_signal_handler_disconnect(wt->buffer, wt->delete_handler);
    g_signal_handler_disconnect(wt->buffer, wt->paintable_handler);
    g_signal_handler_disconnect(wt->buffer, wt->anchor_handler);
    emend_gtk_popovers_dispose(wt);
    /* No callback runs any more after this, so the marks it would have ended are ended here. */
    emend_glue_free(wt->glue);
    while (wt->animations->len > 0) host_animation_end(wt, g_ptr_array_index(wt->animations, 0));
    while (wt->arrivals->len > 0) end_arrival(wt, 0);
    close_user_action(wt);
    GtkTextIter start, end;
    gtk_text_buffer_get_bounds(wt->buffer, &start, &end);
    gtk_text_buffer_remove_tag_by_name(wt->buffer, "emend-suggestion", &start, &end);
    for (size_t c = 0; c < G_N_ELEMENTS(CATEGORIES); c++) {
        char *name = g_strconcat("emend-suggestion-", CATEGORIES[c], NULL);
        gtk_text_buffer_remove_tag_by_name(wt->buffer, name, &start, &end);
        g_free(name);
    }
    gtk_widget_remove_controller(view, wt->click);
    gtk_widget_remove_controller(view, wt->shortcuts);
    gtk_widget_insert_action_group(view, "emend", NULL);
    /* The application may hold the group elsewhere (a window's header bar): its actions stay
     * there, disabled and inert. */
    char **names = g_action_group_list_actions(G_ACTION_GROUP(wt->actions));
    for (char **n = names; *n; n++) {
        GAction *action = g_action_map_lookup_action(G_ACTION_MAP(wt->actions), *n);
        g_signal_handlers_disconnect_by_data(action, wt);
        g_simple_action_set_enabled(G_SIMPLE_ACTION(action), FALSE);
    }
    g_strfreev(names);
    gtk_text_view_set_extra_menu(wt->view, wt->previous_extra_menu);
    g_clear_object(&wt->previous_extra_menu);
    g_clear_object(&wt->section);
    g_clear_object(&wt->menu);
    g_clear_object(&wt->actions);
    g_ptr_array_free(wt->animations, TRUE);
    g_array_free(wt->arrivals, TRUE);
    g_object_unref(wt->buffer);
    g_free(wt);
}

static void on_view_destroy(GtkWidget *view, gpointer data) {
    (void)data;
    EmendGtk *wt = g_object_steal_data(G_OBJECT(view), DATA_KEY);
    if (wt) teardown(wt);
}

EMEND_GTK_API EmendGtk *emend_gtk_attach(GtkTextView *view) {
    g_return_val_if_fail(GTK_IS_TEXT_VIEW(view), NULL);
    if (g_object_get_data(G_OBJECT(view), DATA_KEY)) {
        g_warning("emend_gtk_attach: this GtkTextView already has Writing Tools");
        return NULL;
    }
    EmendGtk *wt = g_new0(EmendGtk, 1);
    wt->view = view;
    wt->buffer = g_object_ref(gtk_text_view_get_buffer(view));
    wt->popover_suggestion = -1;
    wt->pending_click = -1;
    emend_status status = EMEND_OK;
    wt->glue = emend_glue_new(&HOST, wt, &status);
    if (!wt->glue) {
        g_warning("emend_gtk_attach: no coordinator: %s: %s", emend_status_name(status), emend_last_error_message());
        g_object_unref(wt->buffer);
        g_free(wt);
        return NULL;
    }
    wt->animations = g_ptr_array_new();
    wt->arrivals = g_array_new(FALSE, TRUE, sizeof(Arrival));
    add_tags(wt);
    add_actions(wt);
    build_menu(wt);
    add_input(wt);
    emend_gtk_popovers_init(wt);
    wt->destroy_handler = g_signal_connect(view, "destroy", G_CALLBACK(on_view_destroy), NULL);
    g_object_set_data(G_OBJECT(view), DATA_KEY, wt);
    return wt;
}

EMEND_GTK_API void emend_gtk_detach(EmendGtk *wt) {
    if (!wt) return;
    g_object_steal_data(G_OBJECT(wt->view), DATA_KEY);
    teardown(wt);
}

EMEND_GTK_API emend_coordinator *emend_gtk_get_coordinator(EmendGtk *wt) {
    g_return_val_if_fail(wt != NULL, NULL);
    return emend_glue_get_coordinator(wt->glue);
}

EMEND_GTK_API GMenuModel *emend_gtk_get_menu_model(EmendGtk *wt) {
    g_return_val_if_fail(wt != NULL, NULL);
    return G_MENU_MODEL(wt->menu);
}

EMEND_GTK_API GActionGroup *emend_gtk_get_action_group(EmendGtk *wt) {
    g_return_val_if_fail(wt != NULL, NULL);
    return G_ACTION_GROUP(wt->actions);
}

EMEND_GTK_API EmendGtk *emend_gtk_from_view(GtkTextView *view) {
    g_return_val_if_fail(GTK_IS_TEXT_VIEW(view), NULL);
    return g_object_get_data(G_OBJECT(view), DATA_KEY);
}
