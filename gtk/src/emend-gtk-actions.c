/*
 * emend-gtk-actions.c — the `emend` actions on the view, their enabled states per phase,
 * the "Writing Tools" menu added to the view's extra menu, and the keys (session undo and
 * redo, F8 for the next suggestion or change under review).
 */
#include "emend-gtk-private.h"

#include <string.h>

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

void emend_gtk_phase_changed(gpointer data) {
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
    /* Under review, a change's original is seen by undoing that change, not the whole. */
    set_enabled(wt, "show-original", resting && is_rewrite_tool(tool) && !emend_glue_reviewing(wt->glue));
    set_enabled(wt, "review-changes", emend_glue_can_review(wt->glue));
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


void emend_gtk_report(EmendGtk *wt, const char *what, emend_status status) {
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
    emend_gtk_report(wt, emend_tool_label(tool), status);
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
    emend_gtk_report(data, "Done", emend_glue_accept(((EmendGtk *)data)->glue));
}
static void on_revert(GSimpleAction *a, GVariant *p, gpointer data) {
    (void)a, (void)p;
    emend_gtk_report(data, "Revert", emend_glue_revert(((EmendGtk *)data)->glue));
}
static void on_stop(GSimpleAction *a, GVariant *p, gpointer data) {
    (void)a, (void)p;
    emend_gtk_report(data, "Stop", emend_glue_stop(((EmendGtk *)data)->glue));
}
static void on_undo(GSimpleAction *a, GVariant *p, gpointer data) {
    (void)a, (void)p;
    emend_gtk_report(data, "Undo", emend_glue_undo(((EmendGtk *)data)->glue));
}
static void on_redo(GSimpleAction *a, GVariant *p, gpointer data) {
    (void)a, (void)p;
    emend_gtk_report(data, "Redo", emend_glue_redo(((EmendGtk *)data)->glue));
}
static void on_show_original(GSimpleAction *action, GVariant *value, gpointer data) {
    EmendGtk *wt = data;
    emend_status status = emend_glue_show_original(wt->glue, g_variant_get_boolean(value));
    if (status == EMEND_OK) g_simple_action_set_state(action, value);
    emend_gtk_report(wt, "Show Original", status);
}
static void on_review_changes(GSimpleAction *a, GVariant *p, gpointer data) {
    EmendGtk *wt = data;
    (void)a, (void)p;
    /* Each change gets its mark once the glue has read them (suggestions_changed), and
     * F8 / Shift+F8 go through them as through a proofread's suggestions. */
    emend_gtk_report(wt, "Review Changes", emend_glue_review_changes(wt->glue, NULL));
}
static void on_prompt(GSimpleAction *a, GVariant *parameter, gpointer data) {
    (void)a;
    emend_gtk_ask_prompt(data, g_variant_get_string(parameter, NULL));
}

/* The next (direction 1) or previous (-1) pending suggestion from the cursor, wrapping.
 * Suggestions are in text order: the coordinator's search gives the one at the cursor,
 * and the walk from there reads each suggestion's range where it is now. */
static void go_to_suggestion(EmendGtk *wt, int direction) {
    gsize count = 0;
    const EmendGlueSuggestion *all = emend_glue_get_suggestions(wt->glue, &count);
    if (count == 0 || emend_glue_pending_count(wt->glue) == 0) return;
    GtkTextIter cursor;
    gtk_text_buffer_get_iter_at_mark(wt->buffer, &cursor, gtk_text_buffer_get_insert(wt->buffer));
    guint64 at = (guint64)gtk_text_iter_get_offset(&cursor);
    gssize best = -1;
    guint64 best_start = 0, best_length = 0;
    for (gsize step = 0; step < count && best < 0; step++) {
        gsize i = direction > 0 ? step : count - 1 - step;
        guint64 start = 0, length = 0;
        if (all[i].state != EMEND_SUGGESTION_PENDING || !emend_glue_suggestion_range(wt->glue, i, &start, &length)) continue;
        if (direction > 0 ? start > at : start + length < at) { best = (gssize)i; best_start = start; best_length = length; }
    }
    for (gsize step = 0; step < count && best < 0; step++) { /* wrap: the first (last) pending one */
        gsize i = direction > 0 ? step : count - 1 - step;
        if (all[i].state == EMEND_SUGGESTION_PENDING && emend_glue_suggestion_range(wt->glue, i, &best_start, &best_length))
            best = (gssize)i;
    }
    if (best < 0) return;
    GtkTextIter s, e;
    gtk_text_buffer_get_iter_at_offset(wt->buffer, &s, (gint)best_start);
    gtk_text_buffer_get_iter_at_offset(wt->buffer, &e, (gint)(best_start + best_length));
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
        {.name = "review-changes", .activate = on_review_changes},
        {.name = "prompt", .activate = on_prompt, .parameter_type = "s"},
        {.name = "next-suggestion", .activate = on_next},
        {.name = "previous-suggestion", .activate = on_previous},
    };
    g_action_map_add_action_entries(G_ACTION_MAP(wt->actions), entries, G_N_ELEMENTS(entries), wt);
    gtk_widget_insert_action_group(GTK_WIDGET(wt->view), "emend", G_ACTION_GROUP(wt->actions));
    emend_gtk_phase_changed(wt);
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
    append_hidden_when_disabled(session, "Review Changes", "emend.review-changes");
    append_hidden_when_disabled(session, "Undo", "emend.undo");
    append_hidden_when_disabled(session, "Redo", "emend.redo");
    append_hidden_when_disabled(session, "Next Suggestion", "emend.next-suggestion");
    append_hidden_when_disabled(session, "Previous Suggestion", "emend.previous-suggestion");
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

/* ---- keys ------------------------------------------------------------------------------- */

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

/* The actions, the menu and the keys on the view. */
void emend_gtk_actions_init(EmendGtk *wt) {
    add_actions(wt);
    build_menu(wt);
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

/* Takes them off again: the menu as it was, the keys gone, the actions disabled and inert
 * (the application may hold the group elsewhere, a window's header bar). */
void emend_gtk_actions_dispose(EmendGtk *wt) {
    GtkWidget *view = GTK_WIDGET(wt->view);
    gtk_widget_remove_controller(view, wt->shortcuts);
    gtk_widget_insert_action_group(view, "emend", NULL);
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
}
