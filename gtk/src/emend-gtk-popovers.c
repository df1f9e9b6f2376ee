/*
 * emend-gtk-popovers.c — the widgets libemend-gtk4 opens over the text view: the popover of a
 * proofreading suggestion (Accept / Reject / Add to Dictionary) or of a rewrite's change
 * under review (Keep / Undo This Change), the panel of a presented
 * result (Replace / Copy / Dismiss, and a failure's message) and the prompt of "Describe
 * Your Change…" and "Compose…".
 */
#include "emend-gtk-private.h"

#include <string.h>

void emend_gtk_range_pointing_rect(EmendGtk *wt, guint64 start, guint64 length, GdkRectangle *rect) {
    guint64 characters = (guint64)gtk_text_buffer_get_char_count(wt->buffer);
    GtkTextIter s, e;
    gtk_text_buffer_get_iter_at_offset(wt->buffer, &s, (gint)MIN(start, characters));
    gtk_text_buffer_get_iter_at_offset(wt->buffer, &e, (gint)MIN(start + length, characters));
    GdkRectangle a, b;
    gtk_text_view_get_iter_location(wt->view, &s, &a);
    gtk_text_view_get_iter_location(wt->view, &e, &b);
    int width = b.y == a.y && b.x > a.x ? b.x - a.x : MAX(a.width, 1);
    int x = 0, y = 0;
    gtk_text_view_buffer_to_window_coords(wt->view, GTK_TEXT_WINDOW_WIDGET, a.x, a.y, &x, &y);
    *rect = (GdkRectangle){x, y, width, MAX(a.height, 1)};
}

static GtkWidget *new_popover(EmendGtk *wt) {
    GtkWidget *popover = gtk_popover_new();
    gtk_widget_set_parent(popover, GTK_WIDGET(wt->view));
    gtk_popover_set_position(GTK_POPOVER(popover), GTK_POS_BOTTOM);
    return popover;
}

static GtkWidget *label(const char *text, const char *css_class) {
    GtkWidget *l = gtk_label_new(text);   /* text, never markup: explanations are plain text */
    gtk_label_set_wrap(GTK_LABEL(l), TRUE);
    gtk_label_set_max_width_chars(GTK_LABEL(l), 48);
    gtk_label_set_xalign(GTK_LABEL(l), 0);
    if (css_class) gtk_widget_add_css_class(l, css_class);
    return l;
}

static GtkWidget *button(const char *text, const char *accessible, GCallback callback, EmendGtk *wt) {
    GtkWidget *b = gtk_button_new_with_mnemonic(text);
    gtk_accessible_update_property(GTK_ACCESSIBLE(b), GTK_ACCESSIBLE_PROPERTY_LABEL, accessible, -1);
    g_signal_connect(b, "clicked", callback, wt);
    return b;
}

/* ---- a proofreading suggestion ---------------------------------------------------------- */

static const EmendGlueSuggestion *shown_suggestion(EmendGtk *wt) {
    gsize count = 0;
    const EmendGlueSuggestion *all = emend_glue_get_suggestions(wt->glue, &count);
    if (wt->popover_suggestion < 0 || (gsize)wt->popover_suggestion >= count) return NULL;
    return &all[wt->popover_suggestion];
}

static void on_accept(GtkButton *b, gpointer data) {
    EmendGtk *wt = data;
    (void)b;
    gssize position = wt->popover_suggestion;
    emend_gtk_hide_suggestion(wt);
    if (position >= 0) emend_glue_accept_suggestion(wt->glue, (gsize)position);
}

static void on_reject(GtkButton *b, gpointer data) {
    EmendGtk *wt = data;
    (void)b;
    gssize position = wt->popover_suggestion;
    emend_gtk_hide_suggestion(wt);
    if (position >= 0) emend_glue_reject_suggestion(wt->glue, (gsize)position);
}

static void on_add_word(GtkButton *b, gpointer data) {
    EmendGtk *wt = data;
    (void)b;
    gssize position = wt->popover_suggestion;
    emend_gtk_hide_suggestion(wt);
    if (position < 0) return;
    emend_status status = emend_glue_add_word(wt->glue, (gsize)position);
    if (status != EMEND_OK && status != EMEND_E_AGAIN) emend_gtk_show_failure(wt, status, emend_last_error_message());
}

static void on_suggestion_closed(GtkPopover *popover, gpointer data) {
    (void)popover;
    ((EmendGtk *)data)->popover_suggestion = -1;
}

/* The same popover serves a rewrite's change under review (category "rewrite"): the
 * rewrite is already in the text, so the choice is to keep the change or to undo it (its
 * original back), and no word of it goes to the dictionary. */
void emend_gtk_show_suggestion(EmendGtk *wt, gsize position) {
    wt->popover_suggestion = (gssize)position;
    const EmendGlueSuggestion *s = shown_suggestion(wt);
    if (!s) return;
    gboolean rewrite = !strcmp(s->category, "rewrite");
    char *category = rewrite          ? g_strdup("Rewrite change")
                     : s->category[0] ? g_strdup_printf("%c%s", g_ascii_toupper(s->category[0]), s->category + 1)
                                      : g_strdup("Suggestion");
    char *change = s->original[0] ? g_strdup_printf("“%s” → “%s”", s->original, s->replacement[0] ? s->replacement : "(removed)")
                                  : g_strdup_printf("Insert “%s”", s->replacement);
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6);
    gtk_box_append(GTK_BOX(box), label(category, "heading"));
    gtk_box_append(GTK_BOX(box), label(change, NULL));
    if (s->explanation[0]) gtk_box_append(GTK_BOX(box), label(s->explanation, "dim-label"));
    GtkWidget *buttons = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6);
    char *keep = g_strdup_printf(rewrite ? "Keep this change: “%s”" : "Accept “%s”", s->replacement);
    char *put_back = g_strdup_printf(rewrite ? "Undo this change: put back “%s”" : "Reject: put back “%s”", s->original);
    GtkWidget *accept = button(rewrite ? "_Keep" : "_Accept", keep, G_CALLBACK(on_accept), wt);
    gtk_widget_add_css_class(accept, "suggested-action");
    gtk_box_append(GTK_BOX(buttons), accept);
    gtk_box_append(GTK_BOX(buttons), button(rewrite ? "_Undo This Change" : "_Reject", put_back, G_CALLBACK(on_reject), wt));
    if (!rewrite && !strcmp(s->category, "spelling") && s->original[0] && !strpbrk(s->original, " \t\n")) {
        char *add = g_strdup_printf("Add “%s” to the dictionary", s->original);
        gtk_box_append(GTK_BOX(buttons), button("Add to _Dictionary", add, G_CALLBACK(on_add_word), wt));
        g_free(add);
    }
    gtk_box_append(GTK_BOX(box), buttons);
    gtk_popover_set_child(GTK_POPOVER(wt->suggestion_popover), box);

    char *description = rewrite ? g_strdup_printf("%s: %s", category, change)
                                : g_strdup_printf("%s suggestion: %s. %s", category, change, s->explanation);
    gtk_accessible_update_property(GTK_ACCESSIBLE(wt->suggestion_popover), GTK_ACCESSIBLE_PROPERTY_LABEL, description, -1);
    GdkRectangle rect;
    guint64 start = s->start, length = s->length;
    emend_glue_suggestion_range(wt->glue, position, &start, &length); /* where it is now */
    emend_gtk_range_pointing_rect(wt, start, length, &rect);
    gtk_popover_set_pointing_to(GTK_POPOVER(wt->suggestion_popover), &rect);
    gtk_popover_popup(GTK_POPOVER(wt->suggestion_popover));
    gtk_widget_grab_focus(accept);
    g_free(description), g_free(keep), g_free(put_back), g_free(category), g_free(change);
}

void emend_gtk_hide_suggestion(EmendGtk *wt) {
    wt->popover_suggestion = -1;
    if (wt->suggestion_popover && gtk_widget_get_visible(wt->suggestion_popover))
        gtk_popover_popdown(GTK_POPOVER(wt->suggestion_popover));
}

/* ---- the result panel ------------------------------------------------------------------- */

static void forget_presented(EmendGtk *wt) {
    g_clear_pointer(&wt->presented.text, g_free);
    if (wt->presented.start) gtk_text_buffer_delete_mark(wt->buffer, wt->presented.start);
    if (wt->presented.end) gtk_text_buffer_delete_mark(wt->buffer, wt->presented.end);
    wt->presented.start = wt->presented.end = NULL;
}

static void answer(EmendGtk *wt, emend_presented_action action) {
    if (emend_glue_get_phase(wt->glue) != EMEND_GLUE_PRESENTING) return;
    emend_status status = emend_glue_answer_presented(wt->glue, action);
    if (status != EMEND_OK && action == EMEND_PRESENTED_APPLY && wt->presented.text) {
        /* The coordinator no longer takes the answer (its session ended while the person was
         * reading): the person still asked for the text, so it goes in as one undo step. */
        GtkTextIter s, e;
        gtk_text_buffer_get_iter_at_mark(wt->buffer, &s, wt->presented.start);
        gtk_text_buffer_get_iter_at_mark(wt->buffer, &e, wt->presented.end);
        gtk_text_buffer_begin_user_action(wt->buffer);
        gtk_text_buffer_delete(wt->buffer, &s, &e);
        gtk_text_buffer_insert(wt->buffer, &s, wt->presented.text, -1);
        gtk_text_buffer_end_user_action(wt->buffer);
    }
}

static void close_panel(EmendGtk *wt, emend_presented_action action) {
    answer(wt, action);
    forget_presented(wt);
    gtk_popover_popdown(GTK_POPOVER(wt->panel));
}

static void on_replace(GtkButton *b, gpointer data) {
    (void)b;
    close_panel(data, EMEND_PRESENTED_APPLY);
}

static void on_copy(GtkButton *b, gpointer data) {
    EmendGtk *wt = data;
    (void)b;
    if (wt->presented.text) gdk_clipboard_set_text(gtk_widget_get_clipboard(GTK_WIDGET(wt->view)), wt->presented.text);
    close_panel(wt, EMEND_PRESENTED_COPY);
}

static void on_dismiss(GtkButton *b, gpointer data) {
    (void)b;
    close_panel(data, EMEND_PRESENTED_DISMISS);
}

/* Escape, or the view going away, is the person's "dismiss". */
static void on_panel_closed(GtkPopover *popover, gpointer data) {
    EmendGtk *wt = data;
    (void)popover;
    answer(wt, EMEND_PRESENTED_DISMISS);
    forget_presented(wt);
}

static GtkWidget *panel_box(const char *title, const char *explanation) {
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6);
    gtk_box_append(GTK_BOX(box), label(title, "heading"));
    if (explanation && explanation[0]) gtk_box_append(GTK_BOX(box), label(explanation, "error"));
    return box;
}

/* The result's text in a read-only view of its own, styled by its runs. */
static GtkWidget *result_view(const emend_presented_result *result) {
    GtkWidget *view = gtk_text_view_new();
    gtk_text_view_set_editable(GTK_TEXT_VIEW(view), FALSE);
    gtk_text_view_set_wrap_mode(GTK_TEXT_VIEW(view), GTK_WRAP_WORD_CHAR);
    gtk_text_view_set_left_margin(GTK_TEXT_VIEW(view), 6);
    gtk_text_view_set_right_margin(GTK_TEXT_VIEW(view), 6);
    GtkTextBuffer *buffer = gtk_text_view_get_buffer(GTK_TEXT_VIEW(view));
    gtk_text_buffer_set_text(buffer, result->text, (int)result->text_length);
    gboolean styled = result->struct_size >= offsetof(emend_presented_result, block_intent_count) + sizeof(size_t) &&
                      (result->flags & EMEND_REPLACE_STYLED);
    GtkTextTag *bold = gtk_text_buffer_create_tag(buffer, NULL, "weight", PANGO_WEIGHT_BOLD, NULL);
    GtkTextTag *italic = gtk_text_buffer_create_tag(buffer, NULL, "style", PANGO_STYLE_ITALIC, NULL);
    GtkTextTag *mono = gtk_text_buffer_create_tag(buffer, NULL, "family", "monospace", NULL);
    gint characters = gtk_text_buffer_get_char_count(buffer);
    for (size_t i = 0; styled && i < result->attribute_run_count; i++) {
        const emend_attribute_run *run = &result->attribute_runs[i];
        GtkTextTag *tag = !run->key ? NULL
                          : !strcmp(run->key, EMEND_ATTR_BOLD) || !strcmp(run->key, EMEND_ATTR_STRONG) ? bold
                          : !strcmp(run->key, EMEND_ATTR_ITALIC) || !strcmp(run->key, EMEND_ATTR_EMPHASIS) ? italic
                          : !strcmp(run->key, EMEND_ATTR_MONOSPACE) || !strcmp(run->key, EMEND_ATTR_CODE) ? mono
                                                                                                         : NULL;
        if (!tag || run->range.location + run->range.length > (guint64)characters) continue;
        GtkTextIter s, e;
        gtk_text_buffer_get_iter_at_offset(buffer, &s, (gint)run->range.location);
        gtk_text_buffer_get_iter_at_offset(buffer, &e, (gint)(run->range.location + run->range.length));
        gtk_text_buffer_apply_tag(buffer, tag, &s, &e);
    }
    GtkWidget *scrolled = gtk_scrolled_window_new();
    gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(scrolled), view);
    gtk_scrolled_window_set_min_content_width(GTK_SCROLLED_WINDOW(scrolled), 380);
    gtk_scrolled_window_set_min_content_height(GTK_SCROLLED_WINDOW(scrolled), 120);
    gtk_scrolled_window_set_max_content_height(GTK_SCROLLED_WINDOW(scrolled), 320);
    gtk_scrolled_window_set_propagate_natural_height(GTK_SCROLLED_WINDOW(scrolled), TRUE);
    gtk_widget_add_css_class(scrolled, "frame");
    return scrolled;
}

static void show_panel(EmendGtk *wt, GtkWidget *box, guint64 start, guint64 length) {
    gtk_popover_set_child(GTK_POPOVER(wt->panel), box);
    GdkRectangle rect;
    emend_gtk_range_pointing_rect(wt, start, length, &rect);
    gtk_popover_set_pointing_to(GTK_POPOVER(wt->panel), &rect);
    gtk_popover_popup(GTK_POPOVER(wt->panel));
}

void emend_gtk_show_presented(EmendGtk *wt, const emend_presented_result *result) {
    emend_gtk_hide_suggestion(wt);
    forget_presented(wt);
    guint64 characters = (guint64)gtk_text_buffer_get_char_count(wt->buffer);
    guint64 start = MIN(result->range.location, characters);
    guint64 end = MIN(start + result->range.length, characters);
    wt->presented.text = g_strndup(result->text, result->text_length);
    GtkTextIter s, e;
    gtk_text_buffer_get_iter_at_offset(wt->buffer, &s, (gint)start);
    gtk_text_buffer_get_iter_at_offset(wt->buffer, &e, (gint)end);
    wt->presented.start = gtk_text_buffer_create_mark(wt->buffer, NULL, &s, TRUE);
    wt->presented.end = gtk_text_buffer_create_mark(wt->buffer, NULL, &e, FALSE);

    const char *explanation = result->explanation;
    char *poor = explanation ? g_strdup_printf("This result may not be what you want: %s", explanation) : NULL;
    GtkWidget *box = panel_box(emend_tool_label(result->tool) ? emend_tool_label(result->tool) : "Writing Tools", poor);
    gtk_box_append(GTK_BOX(box), result_view(result));
    GtkWidget *buttons = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6);
    gtk_widget_set_halign(buttons, GTK_ALIGN_END);
    if (gtk_text_view_get_editable(wt->view)) {
        GtkWidget *replace = button("_Replace", "Replace the text with this result", G_CALLBACK(on_replace), wt);
        if (!explanation) gtk_widget_add_css_class(replace, "suggested-action");
        gtk_box_append(GTK_BOX(buttons), replace);
    }
    gtk_box_append(GTK_BOX(buttons), button("_Copy", "Copy this result", G_CALLBACK(on_copy), wt));
    gtk_box_append(GTK_BOX(buttons), button("_Dismiss", "Dismiss this result", G_CALLBACK(on_dismiss), wt));
    gtk_box_append(GTK_BOX(box), buttons);
    char *description = g_strdup_printf("%s result%s%s", emend_tool_label(result->tool) ? emend_tool_label(result->tool) : "",
                                        poor ? ". " : "", poor ? poor : "");
    gtk_accessible_update_property(GTK_ACCESSIBLE(wt->panel), GTK_ACCESSIBLE_PROPERTY_LABEL, description, -1);
    g_free(description);
    g_free(poor);
    show_panel(wt, box, start, end - start);
}

static void on_failure_ok(GtkButton *b, gpointer data) {
    (void)b;
    gtk_popover_popdown(GTK_POPOVER(((EmendGtk *)data)->panel));
}

void emend_gtk_show_failure(EmendGtk *wt, emend_status status, const char *message) {
    if (emend_glue_get_phase(wt->glue) == EMEND_GLUE_PRESENTING) {
        g_warning("Writing Tools: %s: %s", emend_status_name(status), message);
        return;
    }
    char *text = g_strdup_printf("%s (%s)", message && message[0] ? message : "Writing Tools could not finish",
                                 emend_status_name(status));
    GtkWidget *box = panel_box("Writing Tools", text);
    GtkWidget *ok = button("_OK", "Close this message", G_CALLBACK(on_failure_ok), wt);
    gtk_widget_set_halign(ok, GTK_ALIGN_END);
    gtk_box_append(GTK_BOX(box), ok);
    gtk_accessible_update_property(GTK_ACCESSIBLE(wt->panel), GTK_ACCESSIBLE_PROPERTY_LABEL, text, -1);
    GtkTextIter cursor;
    gtk_text_buffer_get_iter_at_mark(wt->buffer, &cursor, gtk_text_buffer_get_insert(wt->buffer));
    show_panel(wt, box, (guint64)gtk_text_iter_get_offset(&cursor), 0);
    g_free(text);
}

/* ---- the prompt of Describe Your Change… and Compose… ----------------------------------- */

static void on_prompt_activate(GtkEntry *entry, gpointer data) {
    EmendGtk *wt = data;
    const char *tool = g_object_get_data(G_OBJECT(entry), "emend-tool");
    const char *text = gtk_editable_get_text(GTK_EDITABLE(entry));
    if (!text[0]) return;
    char *action = g_strconcat("emend.", tool, NULL);
    char *prompt = g_strdup(text);
    gtk_popover_popdown(GTK_POPOVER(wt->prompt_popover));
    gtk_widget_activate_action(GTK_WIDGET(wt->view), action, "s", prompt);
    g_free(action);
    g_free(prompt);
}

void emend_gtk_ask_prompt(EmendGtk *wt, const char *tool_name) {
    gboolean compose = !strcmp(tool_name, "compose");
    if (!compose && strcmp(tool_name, "rewrite-described")) return;
    GtkWidget *entry = gtk_entry_new();
    g_object_set_data_full(G_OBJECT(entry), "emend-tool", g_strdup(tool_name), g_free);
    gtk_entry_set_placeholder_text(GTK_ENTRY(entry), compose ? "Describe what to write" : "Describe your change");
    gtk_widget_set_size_request(entry, 320, -1);
    gtk_accessible_update_property(GTK_ACCESSIBLE(entry), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                   emend_tool_label(compose ? EMEND_TOOL_COMPOSE : EMEND_TOOL_REWRITE_DESCRIBED), -1);
    g_signal_connect(entry, "activate", G_CALLBACK(on_prompt_activate), wt);
    gtk_popover_set_child(GTK_POPOVER(wt->prompt_popover), entry);
    GtkTextIter cursor;
    gtk_text_buffer_get_iter_at_mark(wt->buffer, &cursor, gtk_text_buffer_get_insert(wt->buffer));
    GdkRectangle rect;
    emend_gtk_range_pointing_rect(wt, (guint64)gtk_text_iter_get_offset(&cursor), 0, &rect);
    gtk_popover_set_pointing_to(GTK_POPOVER(wt->prompt_popover), &rect);
    gtk_popover_popup(GTK_POPOVER(wt->prompt_popover));
    gtk_widget_grab_focus(entry);
}

/* ---- life ------------------------------------------------------------------------------- */

void emend_gtk_popovers_init(EmendGtk *wt) {
    wt->suggestion_popover = new_popover(wt);
    g_signal_connect(wt->suggestion_popover, "closed", G_CALLBACK(on_suggestion_closed), wt);
    wt->panel = new_popover(wt);
    /* A result waits for the person, however long they read: clicks elsewhere leave it. */
    gtk_popover_set_autohide(GTK_POPOVER(wt->panel), FALSE);
    g_signal_connect(wt->panel, "closed", G_CALLBACK(on_panel_closed), wt);
    wt->prompt_popover = new_popover(wt);
}

void emend_gtk_popovers_dispose(EmendGtk *wt) {
    GtkWidget **popovers[] = {&wt->suggestion_popover, &wt->panel, &wt->prompt_popover};
    for (size_t i = 0; i < G_N_ELEMENTS(popovers); i++) {
        if (!*popovers[i]) continue;
        g_signal_handlers_disconnect_by_data(*popovers[i], wt);
        gtk_widget_unparent(*popovers[i]);
        *popovers[i] = NULL;
    }
    forget_presented(wt);
}
