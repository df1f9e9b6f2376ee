/*
 * emend-gtk.c — Writing Tools on a GtkTextView: attach / detach, the table of functions the
 * glue calls (EmendGlueHost, made of the other files' parts), and the user's input: edits
 * reported to the coordinator, a click on a mark.
 */
#include "emend-gtk-private.h"

#include <string.h>

#define DATA_KEY "emend-gtk"

/* ---- what the glue tells the widgets ------------------------------------------------------ */

static void host_present(gpointer data, const emend_presented_result *result) {
    emend_gtk_show_presented(data, result);
}

static void host_session_ended(gpointer data, emend_status status, const char *message) {
    EmendGtk *wt = data;
    emend_gtk_close_user_action(wt);
    if (status != EMEND_OK) emend_gtk_show_failure(wt, status, message);
}

/* ---- input: the user's edits and clicks ------------------------------------------------- */

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

/* A click on a mark opens its popover, once GTK has placed the cursor (after the release). */
static gboolean look_at_click(gpointer data) {
    EmendGtk *wt = data;
    wt->click_idle = 0;
    if (gtk_text_buffer_get_has_selection(wt->buffer) || wt->pending_click < 0) return G_SOURCE_REMOVE;
    gssize position = emend_gtk_suggestion_at_click(wt, (guint64)wt->pending_click);
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
    /* The character under the pointer: _at_position, not _at_location, which gives the
     * cursor place nearest the point (the next character from a character's right half). */
    GtkTextIter iter;
    int trailing = 0;
    if (!gtk_text_view_get_iter_at_position(wt->view, &iter, &trailing, bx, by)) return;
    wt->pending_click = gtk_text_iter_get_offset(&iter);
}

/* Looked at once the button is up: a press inside a selection leaves the selection until the
 * release (it may start dragging the selected text), and a drag that selects text is not a
 * click on a mark. The release is seen by a legacy controller, which gets every event: the
 * click gesture gets no "released" when the view's drag gesture claimed the press (as it
 * does for a press inside the selection). */
static gboolean on_event(GtkEventControllerLegacy *controller, GdkEvent *event, gpointer data) {
    EmendGtk *wt = data;
    (void)controller;
    if (gdk_event_get_event_type(event) != GDK_BUTTON_RELEASE || gdk_button_event_get_button(event) != GDK_BUTTON_PRIMARY ||
        wt->pending_click < 0)
        return FALSE;
    if (!wt->click_idle) wt->click_idle = g_idle_add(look_at_click, wt);
    return FALSE;
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
    wt->release = gtk_event_controller_legacy_new();
    gtk_event_controller_set_propagation_phase(wt->release, GTK_PHASE_CAPTURE);
    g_signal_connect(wt->release, "event", G_CALLBACK(on_event), wt);
    gtk_widget_add_controller(GTK_WIDGET(wt->view), wt->release);
}

/* ---- attach / detach --------------------------------------------------------------------- */

static const EmendGlueHost HOST = {
    .copy_text = emend_gtk_copy_text,
    .collect_runs = emend_gtk_collect_runs,
    .replace = emend_gtk_replace,
    .select = emend_gtk_select,
    .range_rects = emend_gtk_range_rects,
    .animation_begin = emend_gtk_animation_begin,
    .animation_end = emend_gtk_animation_end,
    .present = host_present,
    .phase_changed = emend_gtk_phase_changed,
    .suggestions_changed = emend_gtk_suggestions_changed,
    .session_ended = host_session_ended,
};

static void teardown(EmendGtk *wt) {
    GtkWidget *view = GTK_WIDGET(wt->view);
    if (wt->click_idle) g_source_remove(wt->click_idle);
    g_signal_handler_disconnect(view, wt->destroy_handler);
    g_signal_handler_disconnect(wt->buffer, wt->insert_handler);
    g_signal_handler_disconnect(wt->buffer, wt->delete_handler);
    g_signal_handler_disconnect(wt->buffer, wt->paintable_handler);
    g_signal_handler_disconnect(wt->buffer, wt->anchor_handler);
    emend_gtk_popovers_dispose(wt);
    /* No callback runs any more after this, so the marks it would have ended are ended here. */
    emend_glue_free(wt->glue);
    emend_gtk_animations_dispose(wt);
    emend_gtk_close_user_action(wt);
    emend_gtk_marks_clear(wt);
    gtk_widget_remove_controller(view, wt->click);
    gtk_widget_remove_controller(view, wt->release);
    emend_gtk_actions_dispose(wt);
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
    emend_gtk_animations_init(wt);
    emend_gtk_marks_init(wt);
    emend_gtk_actions_init(wt);
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

