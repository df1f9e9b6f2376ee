/*
 * emend-gtk-animation.c — the text animations the coordinator asks for, as text tags: text
 * being worked on pulses (emend-anticipate), removed and inserted text is marked
 * (emend-remove, emend-insert), text a result just streamed in is highlighted for the
 * replace's animation time (emend-arrived). Nothing moves when gtk-enable-animations is off.
 */
#include "emend-gtk-private.h"

#include <math.h>

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
void emend_gtk_mark_arrival(EmendGtk *wt, gint start, gint end, double seconds) {
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

typedef struct {
    GtkTextTag *tag;             /* NULL: nothing to show (TRANSLATE) */
    GtkTextMark *start;
    GtkTextMark *end;
    emend_text_animation animation;
} Animation;

gpointer emend_gtk_animation_begin(gpointer data, emend_text_animation animation, guint64 start, guint64 length) {
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

void emend_gtk_animation_end(gpointer data, gpointer handle) {
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

void emend_gtk_animations_init(EmendGtk *wt) {
    wt->animations = g_ptr_array_new();
    wt->arrivals = g_array_new(FALSE, TRUE, sizeof(Arrival));
}

/* Ends every animation and highlight still shown (the coordinator is gone). */
void emend_gtk_animations_dispose(EmendGtk *wt) {
    if (wt->tick) gtk_widget_remove_tick_callback(GTK_WIDGET(wt->view), wt->tick);
    wt->tick = 0;
    while (wt->animations->len > 0) emend_gtk_animation_end(wt, g_ptr_array_index(wt->animations, 0));
    while (wt->arrivals->len > 0) end_arrival(wt, 0);
    g_ptr_array_free(wt->animations, TRUE);
    g_array_free(wt->arrivals, TRUE);
}
