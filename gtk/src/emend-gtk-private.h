/*
 * emend-gtk-private.h — what the widget files of libemend-gtk4 share.
 */
#ifndef EMEND_GTK_PRIVATE_H
#define EMEND_GTK_PRIVATE_H

#include "emend-gtk.h"
#include "emend-glue.h"

#define EMEND_GTK_API __attribute__((visibility("default")))

/* A result the panel shows, kept until the person answers (Replace / Copy / Dismiss). */
typedef struct {
    char *text;
    GtkTextMark *start;          /* what Replace replaces, moving with edits */
    GtkTextMark *end;
} Presented;

struct _EmendGtk {
    GtkTextView *view;
    GtkTextBuffer *buffer;
    EmendGlue *glue;
    GSimpleActionGroup *actions;
    GMenu *menu;                  /* the "Writing Tools" submenu */
    GMenu *section;               /* the section added to the view's extra menu */
    GMenuModel *previous_extra_menu;
    GtkEventController *click;
    GtkEventController *release;   /* sees the button's release (see emend-gtk.c) */
    GtkEventController *shortcuts;
    gulong insert_handler;
    gulong delete_handler;
    gulong paintable_handler;
    gulong anchor_handler;
    gulong destroy_handler;
    int applying;                 /* > 0 while Emend's own replace edits the buffer */
    gboolean user_action_open;    /* the session's edits are one undo step */
    char *text_before_session;    /* the text when that step began: a session that ends on it leaves no step */
    gboolean session_edited;      /* Emend's replaces put something in that step */
    guint retag_idle;
    gsize retag_first;            /* the suggestions to mark again: [first, end) */
    gsize retag_end;
    gboolean retag_all;           /* every mark comes off first */
    guint tick;                   /* animation tick callback, 0 when none */
    GPtrArray *animations;        /* Animation handles in progress */
    GArray *arrivals;             /* text a result just streamed in (Arrival) */
    GtkWidget *suggestion_popover;
    gssize popover_suggestion;    /* position in the glue's suggestions, or -1 */
    GtkWidget *panel;
    Presented presented;
    GtkWidget *prompt_popover;
    gint64 pending_click;         /* offset of a click to look at, or -1 */
    guint click_idle;
};

/* emend-gtk-buffer.c: the buffer as the glue's host */
char *emend_gtk_copy_text(gpointer wt, gsize *length);
void emend_gtk_collect_runs(gpointer wt, GArray *runs);
gboolean emend_gtk_replace(gpointer wt, const emend_replace_request *request);
void emend_gtk_select(gpointer wt, guint64 start, guint64 length);
void emend_gtk_range_rects(gpointer wt, guint64 start, guint64 length, GArray *rects);
void emend_gtk_open_user_action(EmendGtk *wt);
void emend_gtk_close_user_action(EmendGtk *wt);

/* emend-gtk-animation.c */
gpointer emend_gtk_animation_begin(gpointer wt, emend_text_animation animation, guint64 start, guint64 length);
void emend_gtk_animation_end(gpointer wt, gpointer handle);
void emend_gtk_mark_arrival(EmendGtk *wt, gint start, gint end, double seconds);
void emend_gtk_animations_init(EmendGtk *wt);
void emend_gtk_animations_dispose(EmendGtk *wt);

/* emend-gtk-marks.c */
void emend_gtk_marks_init(EmendGtk *wt);
void emend_gtk_suggestions_changed(gpointer wt, gsize first, gsize count);
void emend_gtk_marks_clear(EmendGtk *wt);
gboolean emend_gtk_mark_range(EmendGtk *wt, guint64 start, guint64 length, GtkTextIter *a, GtkTextIter *b);
gssize emend_gtk_suggestion_at_click(EmendGtk *wt, guint64 offset);

/* emend-gtk-actions.c */
void emend_gtk_actions_init(EmendGtk *wt);
void emend_gtk_actions_dispose(EmendGtk *wt);
void emend_gtk_phase_changed(gpointer wt);
/* Shows a failed call in the panel (nothing for EMEND_OK and EMEND_E_AGAIN). */
void emend_gtk_report(EmendGtk *wt, const char *what, emend_status status);

/* emend-gtk-popovers.c */
void emend_gtk_popovers_init(EmendGtk *wt);
void emend_gtk_popovers_dispose(EmendGtk *wt);
void emend_gtk_show_suggestion(EmendGtk *wt, gsize position);
void emend_gtk_hide_suggestion(EmendGtk *wt);
void emend_gtk_show_presented(EmendGtk *wt, const emend_presented_result *result);
void emend_gtk_show_failure(EmendGtk *wt, emend_status status, const char *message);
void emend_gtk_ask_prompt(EmendGtk *wt, const char *tool_name);
/* The popover's pointing rectangle for code points [start, start + length), in the view's
 * widget coordinates. */
void emend_gtk_range_pointing_rect(EmendGtk *wt, guint64 start, guint64 length, GdkRectangle *rect);

#endif
