/*
 * A GtkSourceView editor with Writing Tools: libemend-gtk4 attached to the view (one call),
 * its menu in the header bar and in the view's context menu, Done / Revert / Show Original /
 * Review Changes buttons. Opens the file named on the command line (or a sample with a few
 * mistakes and a bold word) and saves it back with Ctrl+S.
 *
 * Build: cc -std=c11 -Wall -Wextra -Werror examples/gtk/editor.c \
 *           $(pkg-config --cflags --libs emend-gtk4 gtksourceview-5) -o editor
 * (installed in ~/.local or another prefix the loader does not search, add
 *  -Wl,-rpath,$(pkg-config --variable=libdir emend-gtk4)).
 */
#include <emend-gtk.h>
#include <gtksourceview/gtksource.h>
#include <string.h>

static const char *SAMPLE =
    "Their going to the party tomorow, and they has brought snacks. I could of done it better. "
    "This is a example.\n\n"
    "I can't come today, it's raining. We're gonna stay home.\n";

static char *path = NULL;

static gboolean save(GtkWidget *widget, GVariant *args, gpointer data) {
    GtkTextBuffer *buffer = data;
    (void)widget, (void)args;
    GtkTextIter start, end;
    gtk_text_buffer_get_bounds(buffer, &start, &end);
    char *text = gtk_text_buffer_get_text(buffer, &start, &end, TRUE);
    GError *error = NULL;
    if (path && !g_file_set_contents(path, text, -1, &error)) {
        g_printerr("editor: %s\n", error->message);
        g_error_free(error);
    }
    g_free(text);
    return TRUE;
}

static void load(GtkTextBuffer *buffer) {
    char *text = NULL;
    gsize length = 0;
    if (path && g_file_get_contents(path, &text, &length, NULL) && g_utf8_validate(text, (gssize)length, NULL)) {
        gtk_text_buffer_set_text(buffer, text, (int)length);
    } else {
        gtk_text_buffer_set_text(buffer, SAMPLE, -1);
        GtkTextIter start, end;   /* one bold word: styling travels through every tool */
        gtk_text_buffer_get_iter_at_offset(buffer, &start, (int)g_utf8_strlen(SAMPLE, strstr(SAMPLE, "today") - SAMPLE));
        end = start;
        gtk_text_iter_forward_chars(&end, 5);
        gtk_text_buffer_create_tag(buffer, "bold", "weight", PANGO_WEIGHT_BOLD, NULL);
        gtk_text_buffer_apply_tag_by_name(buffer, "bold", &start, &end);
    }
    g_free(text);
    GtkTextIter start;
    gtk_text_buffer_get_start_iter(buffer, &start);
    gtk_text_buffer_place_cursor(buffer, &start);
}

static GtkWidget *session_button(const char *label, const char *action) {
    GtkWidget *button = label[0] == '!' ? gtk_toggle_button_new_with_label(label + 1) : gtk_button_new_with_label(label);
    gtk_actionable_set_action_name(GTK_ACTIONABLE(button), action);
    return button;
}

static void activate(GtkApplication *app, gpointer data) {
    (void)data;
    /* ---- window setup ---- */
    GtkWidget *window = gtk_application_window_new(app);
    gtk_window_set_title(GTK_WINDOW(window), path ? path : "Emend editor");
    gtk_window_set_default_size(GTK_WINDOW(window), 760, 460);
    GtkWidget *view = gtk_source_view_new();
    gtk_text_view_set_wrap_mode(GTK_TEXT_VIEW(view), GTK_WRAP_WORD_CHAR);
    gtk_text_view_set_monospace(GTK_TEXT_VIEW(view), FALSE);
    gtk_text_view_set_top_margin(GTK_TEXT_VIEW(view), 12);
    gtk_text_view_set_left_margin(GTK_TEXT_VIEW(view), 12);
    gtk_text_view_set_right_margin(GTK_TEXT_VIEW(view), 12);
    GtkWidget *scrolled = gtk_scrolled_window_new();
    gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(scrolled), view);
    gtk_window_set_child(GTK_WINDOW(window), scrolled);
    GtkTextBuffer *buffer = gtk_text_view_get_buffer(GTK_TEXT_VIEW(view));
    load(buffer);
    GtkEventController *keys = gtk_shortcut_controller_new();
    gtk_shortcut_controller_add_shortcut(GTK_SHORTCUT_CONTROLLER(keys),
                                         gtk_shortcut_new(gtk_shortcut_trigger_parse_string("<Control>s"),
                                                          gtk_callback_action_new(save, buffer, NULL)));
    gtk_widget_add_controller(window, keys);

    /* ---- Writing Tools ---- */
    EmendGtk *wt = emend_gtk_attach(GTK_TEXT_VIEW(view));
    if (!wt) return; /* libemend said why (a warning); the editor works without */
    /* The header bar's buttons are outside the view: give them the same actions. */
    gtk_widget_insert_action_group(window, "emend", emend_gtk_get_action_group(wt));
    GtkWidget *header = gtk_header_bar_new();
    GtkWidget *tools = gtk_menu_button_new();
    gtk_menu_button_set_label(GTK_MENU_BUTTON(tools), "Writing Tools");
    gtk_menu_button_set_menu_model(GTK_MENU_BUTTON(tools), emend_gtk_get_menu_model(wt));
    gtk_header_bar_pack_start(GTK_HEADER_BAR(header), tools);
    gtk_header_bar_pack_end(GTK_HEADER_BAR(header), session_button("Done", "emend.done"));
    gtk_header_bar_pack_end(GTK_HEADER_BAR(header), session_button("Revert", "emend.revert"));
    gtk_header_bar_pack_end(GTK_HEADER_BAR(header), session_button("!Show Original", "emend.show-original"));
    gtk_header_bar_pack_end(GTK_HEADER_BAR(header), session_button("Review Changes", "emend.review-changes"));
    gtk_window_set_titlebar(GTK_WINDOW(window), header);
    gtk_window_present(GTK_WINDOW(window));
    gtk_widget_grab_focus(view);
}

int main(int argc, char **argv) {
    if (argc > 1) path = argv[1];
    gtk_init();
    gtk_source_init();
    GtkApplication *app = gtk_application_new("org.emend.Editor", G_APPLICATION_NON_UNIQUE);
    g_signal_connect(app, "activate", G_CALLBACK(activate), NULL);
    int status = g_application_run(G_APPLICATION(app), 1, argv);
    g_object_unref(app);
    return status;
}
