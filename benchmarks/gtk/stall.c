/*
 * stall.c — preloaded into the example GTK editor (examples/gtk/editor.c) with the file to
 * proofread: proofreads it with the fixture provider through the emend.proofread action and
 * prints the seconds until the coordinator rests, until every mark is a text tag, and the
 * longest gap between two runs of a 1 ms main-loop timer meanwhile (how long the view was
 * frozen). Run by benchmarks/gtk/run.sh.
 */
#include <emend-gtk.h>

#include <stdio.h>
#include <stdlib.h>

static GtkTextView *view;
static emend_coordinator *coordinator;
static gint64 started, last, longest, rested;

static GtkWidget *find_view(GtkWidget *root) {
    if (GTK_IS_TEXT_VIEW(root)) return root;
    for (GtkWidget *c = gtk_widget_get_first_child(root); c; c = gtk_widget_get_next_sibling(c)) {
        GtkWidget *found = find_view(c);
        if (found) return found;
    }
    return NULL;
}

static gboolean on_millisecond(gpointer data) {
    (void)data;
    gint64 now = g_get_monotonic_time();
    if (started && last && now - last > longest) longest = now - last;
    last = now;
    return G_SOURCE_CONTINUE;
}

static int marks(void) {
    GtkTextBuffer *buffer = gtk_text_view_get_buffer(view);
    GtkTextTag *tag = gtk_text_tag_table_lookup(gtk_text_buffer_get_tag_table(buffer), "emend-suggestion");
    GtkTextIter iter;
    gtk_text_buffer_get_start_iter(buffer, &iter);
    int count = 0;
    while (tag && gtk_text_iter_forward_to_tag_toggle(&iter, tag))
        if (gtk_text_iter_starts_tag(&iter, tag)) count++;
    return count;
}

static gboolean on_tick(gpointer data) {
    (void)data;
    gint64 now = g_get_monotonic_time();
    if (!view) {
        GListModel *toplevels = gtk_window_get_toplevels();
        for (guint i = 0; i < g_list_model_get_n_items(toplevels); i++) {
            GtkWidget *w = g_list_model_get_item(toplevels, i);
            g_object_unref(w);
            if (gtk_widget_get_mapped(w)) view = (GtkTextView *)find_view(w);
        }
        if (!view) return G_SOURCE_CONTINUE;
        coordinator = emend_gtk_get_coordinator(emend_gtk_from_view(view));
        emend_coordinator_choose_provider(coordinator, EMEND_TOOL_PROOFREAD, "org.emend.fixture");
        started = now;
        gtk_widget_activate_action(GTK_WIDGET(view), "emend.proofread", NULL);
        return G_SOURCE_CONTINUE;
    }
    emend_state state = EMEND_STATE_INACTIVE;
    emend_coordinator_get_state(coordinator, &state);
    if (state == EMEND_STATE_INTERACTIVE_RESTING && !rested) rested = now;
    int count = rested ? marks() : 0;
    size_t expected = 0;
    if (rested) emend_session_suggestion_count(coordinator, &expected);
    if (rested && count > 0 && (size_t)count == expected) {
        printf("%zu suggestions: rests after %.2f s, marked after %.2f s, longest main-loop stall %.1f ms\n", expected,
               (double)(rested - started) / 1e6, (double)(now - started) / 1e6, (double)longest / 1000.0);
        exit(0);
    }
    if (now - started > 300 * G_USEC_PER_SEC) {
        printf("FAIL: not marked within 300 s (%d marks)\n", count);
        exit(1);
    }
    return G_SOURCE_CONTINUE;
}

__attribute__((constructor)) static void stall_init(void) {
    g_timeout_add(20, on_tick, NULL);
    g_timeout_add(1, on_millisecond, NULL);
}
