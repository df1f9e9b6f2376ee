/*
 * emend-gtk-buffer.c — the GtkTextBuffer as the glue's host: its text, its styling as
 * attribute runs (tags <-> runs), Emend's replaces (one undo step per session), the
 * selection and the rectangles of a range.
 */
#include "emend-gtk-private.h"

#include <string.h>

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

/* [start, end) in characters of a stretch of text a tag covers. */
typedef struct {
    gint start, end;
} TagRange;

/* The stretches `tag` covers in `buffer`, in order: a GArray of TagRange the caller frees.
 * Both the attribute runs sent to Emend and the tags kept across an undo walk a tag this way. */
static GArray *tag_ranges(GtkTextBuffer *buffer, GtkTextTag *tag) {
    GArray *ranges = g_array_new(FALSE, FALSE, sizeof(TagRange));
    GtkTextIter iter;
    gtk_text_buffer_get_start_iter(buffer, &iter);
    gint start = gtk_text_iter_has_tag(&iter, tag) ? 0 : -1;
    while (gtk_text_iter_forward_to_tag_toggle(&iter, tag)) {
        if (gtk_text_iter_starts_tag(&iter, tag)) {
            start = gtk_text_iter_get_offset(&iter);
        } else if (start >= 0) {
            TagRange range = {start, gtk_text_iter_get_offset(&iter)};
            g_array_append_val(ranges, range);
            start = -1;
        }
    }
    return ranges;
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
    GArray *ranges = tag_ranges(collector->buffer, tag);
    for (guint i = 0; i < ranges->len; i++) {
        TagRange *range = &g_array_index(ranges, TagRange, i);
        emend_attribute_run run = {{(uint64_t)range->start, (uint64_t)(range->end - range->start)}, key, value};
        if (range->end > range->start) g_array_append_val(collector->runs, run);
    }
    g_array_free(ranges, TRUE);
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

char *emend_gtk_copy_text(gpointer data, gsize *length) {
    EmendGtk *wt = data;
    GtkTextIter start, end;
    gtk_text_buffer_get_bounds(wt->buffer, &start, &end);
    /* include_hidden_chars: the text as it is, byte for byte (paintables count as U+FFFC). */
    char *text = gtk_text_buffer_get_slice(wt->buffer, &start, &end, TRUE);
    *length = strlen(text);
    return text;
}

void emend_gtk_collect_runs(gpointer data, GArray *runs) {
    EmendGtk *wt = data;
    RunCollector collector = {wt->buffer, runs};
    gtk_text_tag_table_foreach(gtk_text_buffer_get_tag_table(wt->buffer), collect_tag_runs, &collector);
}


/* The session's edits go into the buffer's undo history as one step, closed when the
 * session ends. */
void emend_gtk_open_user_action(EmendGtk *wt) {
    if (wt->user_action_open) return;
    gsize length = 0;
    wt->text_before_session = emend_gtk_copy_text(wt, &length);
    wt->session_edited = FALSE;
    gtk_text_buffer_begin_user_action(wt->buffer);
    wt->user_action_open = TRUE;
}

/* A tag over [start, end) of the text, kept across an undo that takes tags off. */
typedef struct {
    GtkTextTag *tag;
    gint start, end;
} TagSpan;

typedef struct {
    GtkTextBuffer *buffer;
    GArray *spans;
} SpanCollector;

/* Every tag of the application's (named or anonymous), not GtkSourceView's (it highlights
 * again by itself) nor Emend's marks (none are left when a session ended). */
static void collect_tag_spans(GtkTextTag *tag, gpointer data) {
    SpanCollector *collector = data;
    char *name = NULL;
    g_object_get(tag, "name", &name, NULL);
    gboolean skip = name && (strchr(name, ':') || g_str_has_prefix(name, "emend-")) && !g_object_get_data(G_OBJECT(tag), LINK_URL);
    g_free(name);
    if (skip) return;
    GArray *ranges = tag_ranges(collector->buffer, tag);
    for (guint i = 0; i < ranges->len; i++) {
        TagRange *range = &g_array_index(ranges, TagRange, i);
        TagSpan span = {tag, range->start, range->end};
        g_array_append_val(collector->spans, span);
    }
    g_array_free(ranges, TRUE);
}

/* A session that ends with the text it began with (reverted, stopped, every suggestion
 * rejected) leaves no step in the buffer's undo history: an undo that changes nothing would
 * read as a broken undo. GtkTextBuffer has no call that drops a step, so the step is undone
 * (its changes add up to nothing, so the text stays) and the redo it leaves is cleared by an
 * empty user action (GtkTextHistory drops an empty group and clears the redo queue when a
 * user action ends). The undo puts text back without tags and moves the selection: both
 * are kept and put back. If the undo did change the text after all, it is redone. */
static void drop_empty_session_step(EmendGtk *wt, const char *before) {
    if (!gtk_text_buffer_get_enable_undo(wt->buffer) || !gtk_text_buffer_get_can_undo(wt->buffer)) return;
    gsize length = 0;
    char *now = emend_gtk_copy_text(wt, &length);
    gboolean unchanged = !strcmp(now, before);
    g_free(now);
    if (!unchanged) return;
    GArray *spans = g_array_new(FALSE, FALSE, sizeof(TagSpan));
    SpanCollector collector = {wt->buffer, spans};
    GtkTextTagTable *table = gtk_text_buffer_get_tag_table(wt->buffer);
    gtk_text_tag_table_foreach(table, collect_tag_spans, &collector);
    for (guint i = 0; i < spans->len; i++) g_object_ref(g_array_index(spans, TagSpan, i).tag);
    GtkTextIter insert, bound;
    gtk_text_buffer_get_iter_at_mark(wt->buffer, &insert, gtk_text_buffer_get_insert(wt->buffer));
    gtk_text_buffer_get_iter_at_mark(wt->buffer, &bound, gtk_text_buffer_get_selection_bound(wt->buffer));
    gint insert_at = gtk_text_iter_get_offset(&insert), bound_at = gtk_text_iter_get_offset(&bound);

    wt->applying++;
    gtk_text_buffer_undo(wt->buffer);
    now = emend_gtk_copy_text(wt, &length);
    if (strcmp(now, before)) {
        gtk_text_buffer_redo(wt->buffer); /* not a step that changed nothing: keep it */
    } else {
        gtk_text_buffer_begin_user_action(wt->buffer);
        gtk_text_buffer_end_user_action(wt->buffer);
    }
    g_free(now);
    for (guint i = 0; i < spans->len; i++) {
        TagSpan *span = &g_array_index(spans, TagSpan, i);
        GtkTextIter a, b;
        gtk_text_buffer_get_iter_at_offset(wt->buffer, &a, span->start);
        gtk_text_buffer_get_iter_at_offset(wt->buffer, &b, span->end);
        gtk_text_buffer_apply_tag(wt->buffer, span->tag, &a, &b);
        g_object_unref(span->tag);
    }
    g_array_free(spans, TRUE);
    gtk_text_buffer_get_iter_at_offset(wt->buffer, &insert, insert_at);
    gtk_text_buffer_get_iter_at_offset(wt->buffer, &bound, bound_at);
    gtk_text_buffer_select_range(wt->buffer, &insert, &bound);
    wt->applying--;
}

void emend_gtk_close_user_action(EmendGtk *wt) {
    if (!wt->user_action_open) return;
    wt->user_action_open = FALSE;
    gtk_text_buffer_end_user_action(wt->buffer);
    char *before = wt->text_before_session;
    wt->text_before_session = NULL;
    /* (A step GtkTextHistory found empty is gone already; the one on top is another's.) */
    if (before && wt->session_edited) drop_empty_session_step(wt, before);
    g_free(before);
}

gboolean emend_gtk_replace(gpointer data, const emend_replace_request *r) {
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

    emend_gtk_open_user_action(wt);
    if (r->range.length > 0 || r->text_length > 0) wt->session_edited = TRUE;
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
        emend_gtk_mark_arrival(wt, location, new_end, r->animation_duration);
    wt->applying--;
    return TRUE;
}

void emend_gtk_select(gpointer data, guint64 start, guint64 length) {
    EmendGtk *wt = data;
    GtkTextIter s, e;
    gtk_text_buffer_get_iter_at_offset(wt->buffer, &s, (gint)start);
    gtk_text_buffer_get_iter_at_offset(wt->buffer, &e, (gint)(start + length));
    gtk_text_buffer_select_range(wt->buffer, &s, &e);
}

/* Rectangles of a range in buffer coordinates (they survive scrolling), one per display
 * line it covers. */
void emend_gtk_range_rects(gpointer data, guint64 start, guint64 length, GArray *rects) {
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

