/*
 * drive.c — drives the example editor (examples/gtk/editor.c) from inside its own process,
 * as a user would through its actions, popovers and panel, and checks the buffer and its
 * tags after each step. Built as a shared object and loaded with LD_PRELOAD into the
 * unmodified editor under Xvfb (scripts/test-gtk.sh); a constructor adds a timer to the
 * main loop the editor runs. Screenshots (window plus open popovers) go to
 * $EMEND_GTK_ARTIFACTS. Exits the process: 0 when every check passed.
 *
 * Clicks on marks and the keys (F8, Shift+F8, Return, the popover's mnemonics) are real X
 * events, made with the XTEST extension of the X server (Xvfb): they come back to the editor
 * through GDK and GTK's own event path (the view's gestures and shortcut controllers, the
 * popover's focus and mnemonics), as a person's would.
 */
#include <emend-gtk.h>

#include <X11/extensions/XTest.h>
#include <X11/keysym.h>
#include <cairo.h>
#include <gdk/x11/gdkx.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;
#define CHECK(cond, ...)                                                 \
    do {                                                                 \
        if (!(cond)) {                                                   \
            fprintf(stderr, "FAIL drive.c:%d (step %d): ", __LINE__, step); \
            fprintf(stderr, __VA_ARGS__);                                \
            fprintf(stderr, "\n");                                       \
            failures++;                                                  \
        }                                                                \
    } while (0)

static int step = 0;
static int stable = 0;           /* ticks a wait condition has held */
static gint64 deadline = 0;
static GtkWindow *window;
static GtkTextView *view;
static GtkTextBuffer *buffer;
static EmendGtk *wt;
static emend_coordinator *coordinator;
static char *original;           /* the text before any tool ran */
static char *rewritten;
static char *presented;          /* the text the panel showed */
static GHashTable *applied;      /* tag name -> times applied (animations) */

/* ---- helpers -------------------------------------------------------------------------- */

static char *text(void) {
    GtkTextIter s, e;
    gtk_text_buffer_get_bounds(buffer, &s, &e);
    return gtk_text_buffer_get_slice(buffer, &s, &e, TRUE);
}

static gboolean text_is(const char *expected) {
    char *t = text();
    gboolean same = strcmp(t, expected) == 0;
    g_free(t);
    return same;
}

static gboolean text_has(const char *needle) {
    char *t = text();
    gboolean has = strstr(t, needle) != NULL;
    g_free(t);
    return has;
}

static int offset_of(const char *needle) {
    char *t = text();
    const char *at = strstr(t, needle);
    int offset = at ? (int)g_utf8_strlen(t, at - t) : -1;
    g_free(t);
    return offset;
}

static emend_state state(void) {
    emend_state s = EMEND_STATE_INACTIVE;
    emend_coordinator_get_state(coordinator, &s);
    return s;
}

/* A wait: TRUE once `condition` held for three ticks in a row (the idle work settled). */
static gboolean settled(gboolean condition) {
    stable = condition ? stable + 1 : 0;
    return stable >= 3;
}

/* ---- real input: X events through the X server (XTEST) --------------------------------- */

static Display *x_display(void) { return gdk_x11_display_get_xdisplay(gtk_widget_get_display(GTK_WIDGET(view))); }

/* The editor's window gets the keyboard focus, as a click on it would give it. */
static void x_focus(void) {
    Display *d = x_display();
    XSetInputFocus(d, gdk_x11_surface_get_xid(gtk_native_get_surface(GTK_NATIVE(window))), RevertToParent, CurrentTime);
    XFlush(d);
}

/* A click of the primary button on the middle of character `offset` of the view. */
static void x_click_offset(int offset) {
    GtkTextIter iter;
    gtk_text_buffer_get_iter_at_offset(buffer, &iter, offset);
    GdkRectangle where;
    gtk_text_view_get_iter_location(view, &iter, &where);
    int wx = 0, wy = 0;
    gtk_text_view_buffer_to_window_coords(view, GTK_TEXT_WINDOW_WIDGET, where.x + MAX(where.width, 2) / 2,
                                          where.y + where.height / 2, &wx, &wy);
    graphene_point_t in_window;
    CHECK(gtk_widget_compute_point(GTK_WIDGET(view), GTK_WIDGET(window), &GRAPHENE_POINT_INIT(wx, wy), &in_window),
          "the view is inside the window");
    double sx = 0, sy = 0;
    gtk_native_get_surface_transform(GTK_NATIVE(window), &sx, &sy);
    Display *d = x_display();
    Window child;
    int rx = 0, ry = 0;
    XTranslateCoordinates(d, gdk_x11_surface_get_xid(gtk_native_get_surface(GTK_NATIVE(window))), DefaultRootWindow(d),
                          (int)(in_window.x + sx), (int)(in_window.y + sy), &rx, &ry, &child);
    XTestFakeMotionEvent(d, -1, rx, ry, CurrentTime);
    XTestFakeButtonEvent(d, 1, True, CurrentTime);
    XTestFakeButtonEvent(d, 1, False, CurrentTime);
    XFlush(d);
}

/* A key press and release, with Shift and / or Alt held. */
static void x_key(KeySym key, gboolean shift, gboolean alt) {
    Display *d = x_display();
    KeyCode code = XKeysymToKeycode(d, key), shift_code = XKeysymToKeycode(d, XK_Shift_L), alt_code = XKeysymToKeycode(d, XK_Alt_L);
    CHECK(code != 0, "a key code for keysym %lu", (unsigned long)key);
    if (shift) XTestFakeKeyEvent(d, shift_code, True, CurrentTime);
    if (alt) XTestFakeKeyEvent(d, alt_code, True, CurrentTime);
    XTestFakeKeyEvent(d, code, True, CurrentTime);
    XTestFakeKeyEvent(d, code, False, CurrentTime);
    if (alt) XTestFakeKeyEvent(d, alt_code, False, CurrentTime);
    if (shift) XTestFakeKeyEvent(d, shift_code, False, CurrentTime);
    XFlush(d);
}

static gboolean activate(const char *name, GVariant *parameter) {
    gboolean ok = gtk_widget_activate_action_variant(GTK_WIDGET(view), name, parameter);
    CHECK(ok, "action %s could not be activated (missing or disabled)", name);
    return ok;
}

static void select_offsets(int start, int end) {
    GtkTextIter s, e;
    gtk_text_buffer_get_iter_at_offset(buffer, &s, start);
    gtk_text_buffer_get_iter_at_offset(buffer, &e, end);
    gtk_text_buffer_select_range(buffer, &s, &e);
}

static char *tag_ranges_from(const char *name, int from);

/* The ranges a tag covers, as "start-end " pairs. */
static char *tag_ranges(const char *name) { return tag_ranges_from(name, 0); }

/* Those that start at `from` or after. */
static char *tag_ranges_from(const char *name, int from) {
    GtkTextTag *tag = gtk_text_tag_table_lookup(gtk_text_buffer_get_tag_table(buffer), name);
    GString *out = g_string_new("");
    if (!tag) return g_string_free(out, FALSE);
    GtkTextIter iter;
    gtk_text_buffer_get_start_iter(buffer, &iter);
    int start = gtk_text_iter_has_tag(&iter, tag) ? 0 : -1;
    while (gtk_text_iter_forward_to_tag_toggle(&iter, tag)) {
        if (gtk_text_iter_starts_tag(&iter, tag)) start = gtk_text_iter_get_offset(&iter);
        else if (start >= from) {
            g_string_append_printf(out, "%d-%d ", start, gtk_text_iter_get_offset(&iter));
            start = -1;
        }
    }
    return g_string_free(out, FALSE);
}

/* The pending suggestions as the coordinator has them, in the same form (an empty range,
 * a deletion, counted but not listed: its mark, emend-suggestion-deletion, is on a
 * neighbouring character; pending_deletion and deletion_mark_at check it). */
static char *pending_ranges(const char *category, int *count) {
    GString *out = g_string_new("");
    size_t n = 0;
    *count = 0;
    if (emend_session_suggestion_count(coordinator, &n) != EMEND_OK) return g_string_free(out, FALSE);
    GArray *starts = g_array_new(FALSE, FALSE, sizeof(guint64) * 2);
    for (size_t i = 0; i < n; i++) {
        emend_suggestion s = {0};
        s.struct_size = sizeof s;
        if (emend_session_get_suggestion(coordinator, i, &s) != EMEND_OK || s.state != EMEND_SUGGESTION_PENDING) continue;
        if (category && strcmp(s.category, category)) continue;
        guint64 r[2] = {s.range.location, s.range.location + s.range.length};
        g_array_append_val(starts, r);
        (*count)++;
    }
    /* in text order, as tag_ranges gives them */
    for (guint i = 0; i < starts->len; i++)
        for (guint j = i + 1; j < starts->len; j++) {
            guint64 *a = (guint64 *)(void *)(starts->data + i * sizeof(guint64) * 2);
            guint64 *b = (guint64 *)(void *)(starts->data + j * sizeof(guint64) * 2);
            if (b[0] < a[0]) {
                guint64 t0 = a[0], t1 = a[1];
                a[0] = b[0], a[1] = b[1], b[0] = t0, b[1] = t1;
            }
        }
    for (guint i = 0; i < starts->len; i++) {
        guint64 *a = (guint64 *)(void *)(starts->data + i * sizeof(guint64) * 2);
        if (a[1] > a[0]) g_string_append_printf(out, "%d-%d ", (int)a[0], (int)a[1]);
    }
    g_array_free(starts, TRUE);
    return g_string_free(out, FALSE);
}

static GtkWidget *find_widget(GtkWidget *root, GType type, const char *label) {
    if (G_TYPE_CHECK_INSTANCE_TYPE(root, type)) {
        if (!label) return root;
        const char *l = GTK_IS_BUTTON(root) ? gtk_button_get_label(GTK_BUTTON(root))
                        : GTK_IS_LABEL(root) ? gtk_label_get_text(GTK_LABEL(root))
                                             : NULL;
        if (l && strstr(l, label)) return root;
    }
    for (GtkWidget *c = gtk_widget_get_first_child(root); c; c = gtk_widget_get_next_sibling(c)) {
        GtkWidget *found = find_widget(c, type, label);
        if (found) return found;
    }
    return NULL;
}

/* The open popover of the view holding a widget labelled `label`, or NULL. */
static GtkWidget *open_popover(const char *label) {
    for (GtkWidget *c = gtk_widget_get_first_child(GTK_WIDGET(view)); c; c = gtk_widget_get_next_sibling(c))
        if (GTK_IS_POPOVER(c) && gtk_widget_get_mapped(c) && (!label || find_widget(c, GTK_TYPE_WIDGET, label)))
            return c;
    return NULL;
}

static gboolean click(const char *label) {
    GtkWidget *popover = open_popover(label);
    GtkWidget *b = popover ? find_widget(popover, GTK_TYPE_BUTTON, label) : NULL;
    CHECK(b != NULL, "no open popover with a button %s", label);
    if (b) g_signal_emit_by_name(b, "clicked");
    return b != NULL;
}

static cairo_surface_t *render(GtkWidget *widget) {
    int width = gtk_widget_get_width(widget), height = gtk_widget_get_height(widget);
    GdkPaintable *paintable = gtk_widget_paintable_new(widget);
    GtkSnapshot *snapshot = gtk_snapshot_new();
    gdk_paintable_snapshot(paintable, snapshot, width, height);
    GskRenderNode *node = gtk_snapshot_free_to_node(snapshot);
    g_object_unref(paintable);
    if (!node) return NULL;
    GskRenderer *renderer = gtk_native_get_renderer(gtk_widget_get_native(widget));
    GdkTexture *texture = gsk_renderer_render_texture(renderer, node, &GRAPHENE_RECT_INIT(0, 0, width, height));
    gsk_render_node_unref(node);
    int w = gdk_texture_get_width(texture), h = gdk_texture_get_height(texture);
    cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h);
    cairo_surface_flush(surface);
    gdk_texture_download(texture, cairo_image_surface_get_data(surface), (gsize)cairo_image_surface_get_stride(surface));
    cairo_surface_mark_dirty(surface);
    g_object_unref(texture);
    return surface;
}

/* The window with its open popovers drawn where they are on screen (on a grey desktop
 * large enough for a popover that reaches past the window), as a PNG. */
static void screenshot(const char *name) {
    const char *dir = g_getenv("EMEND_GTK_ARTIFACTS");
    if (!dir) return;
    cairo_surface_t *shots[8] = {NULL};
    double xs[8] = {0}, ys[8] = {0};
    int n = 0;
    shots[n++] = render(GTK_WIDGET(window));
    CHECK(shots[0] != NULL, "the window rendered nothing");
    if (!shots[0]) return;
    double wx = 0, wy = 0;
    gtk_native_get_surface_transform(GTK_NATIVE(window), &wx, &wy);
    for (GtkWidget *c = gtk_widget_get_first_child(GTK_WIDGET(view)); c && n < 8; c = gtk_widget_get_next_sibling(c)) {
        if (!GTK_IS_POPOVER(c) || !gtk_widget_get_mapped(c)) continue;
        cairo_surface_t *pop = render(c);
        if (!pop) continue;
        GdkSurface *surface = gtk_native_get_surface(GTK_NATIVE(c));
        double px = 0, py = 0;
        gtk_native_get_surface_transform(GTK_NATIVE(c), &px, &py);
        /* popup positions are relative to the window's surface; each widget sits inside its
         * surface at its transform (shadows) */
        xs[n] = gdk_popup_get_position_x(GDK_POPUP(surface)) + px - wx;
        ys[n] = gdk_popup_get_position_y(GDK_POPUP(surface)) + py - wy;
        shots[n++] = pop;
    }
    double left = 0, top = 0, right = 0, bottom = 0;
    for (int i = 0; i < n; i++) {
        left = MIN(left, xs[i]), top = MIN(top, ys[i]);
        right = MAX(right, xs[i] + cairo_image_surface_get_width(shots[i]));
        bottom = MAX(bottom, ys[i] + cairo_image_surface_get_height(shots[i]));
    }
    cairo_surface_t *canvas = cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)(right - left), (int)(bottom - top));
    cairo_t *cr = cairo_create(canvas);
    cairo_set_source_rgb(cr, 0.6, 0.6, 0.6);
    cairo_paint(cr);
    for (int i = 0; i < n; i++) {
        cairo_set_source_surface(cr, shots[i], xs[i] - left, ys[i] - top);
        cairo_paint(cr);
        cairo_surface_destroy(shots[i]);
    }
    cairo_destroy(cr);
    char *path = g_build_filename(dir, name, NULL);
    CHECK(cairo_surface_write_to_png(canvas, path) == CAIRO_STATUS_SUCCESS, "could not write %s", path);
    printf("   screenshot: %s (%dx%d, %d popover(s))\n", path, cairo_image_surface_get_width(canvas),
           cairo_image_surface_get_height(canvas), n - 1);
    g_free(path);
    cairo_surface_destroy(canvas);
}

static void on_apply_tag(GtkTextBuffer *b, GtkTextTag *tag, GtkTextIter *s, GtkTextIter *e, gpointer data) {
    (void)b, (void)s, (void)e, (void)data;
    char *name = NULL;
    g_object_get(tag, "name", &name, NULL);
    if (!name) return;
    int n = GPOINTER_TO_INT(g_hash_table_lookup(applied, name));
    g_hash_table_insert(applied, name, GINT_TO_POINTER(n + 1));
}

static int times_applied(const char *name) { return GPOINTER_TO_INT(g_hash_table_lookup(applied, name)); }

static GtkTextView *find_view(void) {
    GListModel *toplevels = gtk_window_get_toplevels();
    for (guint i = 0; i < g_list_model_get_n_items(toplevels); i++) {
        GtkWidget *w = g_list_model_get_item(toplevels, i);
        g_object_unref(w);
        if (!GTK_IS_WINDOW(w) || !gtk_widget_get_mapped(w)) continue;
        GtkWidget *v = find_widget(w, GTK_TYPE_TEXT_VIEW, NULL);
        if (v && gtk_widget_get_mapped(v)) {
            window = GTK_WINDOW(w);
            return GTK_TEXT_VIEW(v);
        }
    }
    return NULL;
}

static gboolean menu_has_submenu(GMenuModel *menu, const char *label, int depth) {
    if (!menu || depth > 3) return FALSE;
    for (int i = 0; i < g_menu_model_get_n_items(menu); i++) {
        char *l = NULL;
        g_menu_model_get_item_attribute(menu, i, G_MENU_ATTRIBUTE_LABEL, "s", &l);
        GMenuModel *sub = g_menu_model_get_item_link(menu, i, G_MENU_LINK_SUBMENU);
        gboolean found = sub && l && !strcmp(l, label);
        GMenuModel *section = g_menu_model_get_item_link(menu, i, G_MENU_LINK_SECTION);
        if (!found && section) found = menu_has_submenu(section, label, depth + 1);
        g_free(l);
        g_clear_object(&sub);
        g_clear_object(&section);
        if (found) return TRUE;
    }
    return FALSE;
}

/* ---- the steps ------------------------------------------------------------------------- */

static gboolean find_editor(void) {
    view = find_view();
    if (!view) return FALSE;
    buffer = gtk_text_view_get_buffer(view);
    wt = emend_gtk_from_view(view);
    CHECK(wt != NULL, "the editor's view has no EmendGtk");
    if (!wt) return TRUE;
    coordinator = emend_gtk_get_coordinator(wt);
    /* The deterministic fixture for every tool, through the coordinator the library exposes. */
    for (int t = EMEND_TOOL_PROOFREAD; t <= EMEND_TOOL_FOLLOW_UP; t++)
        CHECK(emend_coordinator_choose_provider(coordinator, (emend_tool)t, "org.emend.fixture") == EMEND_OK,
              "choose the fixture for tool %d: %s", t, emend_last_error_message());
    original = text();
    /* A bold misspelling too: a correction keeps the styling of the word it replaces. */
    GtkTextIter bs, be;
    gtk_text_buffer_get_iter_at_offset(buffer, &bs, offset_of("tomorow"));
    gtk_text_buffer_get_iter_at_offset(buffer, &be, offset_of("tomorow") + 7);
    gtk_text_buffer_apply_tag_by_name(buffer, "bold", &bs, &be);
    applied = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    g_signal_connect(buffer, "apply-tag", G_CALLBACK(on_apply_tag), NULL);
    const char *actions[] = {"proofread", "rewrite-friendly", "rewrite-professional", "rewrite-concise",
                             "rewrite-described", "summary", "key-points", "list", "table", "compose", "done",
                             "revert", "stop", "show-original", "review-changes", "undo", "redo", "next-suggestion",
                             "previous-suggestion", "prompt"};
    GActionGroup *group = emend_gtk_get_action_group(wt);
    for (size_t i = 0; i < G_N_ELEMENTS(actions); i++)
        CHECK(g_action_group_has_action(group, actions[i]), "no action emend.%s", actions[i]);
    const GVariantType *state_type = g_action_group_get_action_state_type(group, "show-original");
    CHECK(state_type && g_variant_type_equal(state_type, G_VARIANT_TYPE_BOOLEAN), "show-original is a stateful boolean");
    CHECK(g_variant_type_equal(g_action_group_get_action_parameter_type(group, "compose"), G_VARIANT_TYPE_STRING),
          "compose takes a string");
    CHECK(menu_has_submenu(gtk_text_view_get_extra_menu(view), "Writing Tools", 0),
          "the view's extra menu has a Writing Tools submenu");
    CHECK(!g_action_group_get_action_enabled(group, "done"), "done is disabled without a session");
    CHECK(emend_gtk_attach(view) == NULL, "a second attach on the same view is refused");
    int xtest_event = 0, xtest_error = 0, xtest_major = 0, xtest_minor = 0;
    CHECK(XTestQueryExtension(x_display(), &xtest_event, &xtest_error, &xtest_major, &xtest_minor),
          "the X server has XTEST (real clicks and keys)");
    printf("   editor found: %d characters, actions and menu in place\n", gtk_text_buffer_get_char_count(buffer));
    select_offsets(0, 0);
    /* The view's context menu, as a right click opens it. */
    activate("menu.popup", NULL);
    return TRUE;
}

static gboolean context_menu(void) {
    GtkWidget *menu = open_popover("Writing Tools");
    if (!settled(menu != NULL)) return FALSE;
    printf("   context menu: “Writing Tools” is in it\n");
    /* Open the submenu as a click on its item does. */
    GtkWidget *item = find_widget(menu, GTK_TYPE_LABEL, "Writing Tools");
    while (item && strcmp(G_OBJECT_TYPE_NAME(item), "GtkModelButton")) item = gtk_widget_get_parent(item);
    CHECK(item != NULL, "the Writing Tools item is a menu button");
    if (item) g_signal_emit_by_name(item, "clicked");
    return TRUE;
}

static gboolean submenu(void) {
    GtkWidget *menu = open_popover("Describe Your Change");
    GtkWidget *item = menu ? find_widget(menu, GTK_TYPE_LABEL, "Describe Your Change") : NULL;
    if (!settled(item && gtk_widget_get_mapped(item))) return FALSE;
    CHECK(find_widget(menu, GTK_TYPE_LABEL, "Proofread") && find_widget(menu, GTK_TYPE_LABEL, "Key Points"),
          "the submenu lists the tools");
    printf("   Writing Tools submenu: Proofread, Rewrite…, Summary, Key Points, List, Table, Compose…\n");
    screenshot("menu.png");
    gtk_popover_popdown(GTK_POPOVER(menu));
    activate("emend.proofread", NULL);
    return TRUE;
}

static int pending_before = 0;

static gboolean proofread_rests(void) {
    int count = 0;
    char *pending = pending_ranges(NULL, &count);
    char *tagged = tag_ranges("emend-suggestion");
    gboolean ready = state() == EMEND_STATE_INTERACTIVE_RESTING && count > 0 && !strcmp(pending, tagged);
    g_free(pending);
    g_free(tagged);
    if (!settled(ready)) return FALSE;
    pending_before = count;
    CHECK(text_has("tomorrow") && text_has("they have") && text_has("could have") && text_has("an example"),
          "the proofread's corrections are in the buffer");
    int n = 0;
    char *spelling = pending_ranges("spelling", &n), *spelling_tags = tag_ranges("emend-suggestion-spelling");
    CHECK(n > 0 && !strcmp(spelling, spelling_tags), "spelling tags %s over the spelling suggestions %s", spelling_tags, spelling);
    char *grammar = pending_ranges("grammar", &n), *grammar_tags = tag_ranges("emend-suggestion-grammar");
    CHECK(n > 0 && !strcmp(grammar, grammar_tags), "grammar tags %s over the grammar suggestions %s", grammar_tags, grammar);
    char *bold = tag_ranges("bold"), *expected = g_strdup_printf("%d-%d %d-%d ", offset_of("tomorrow"), offset_of("tomorrow") + 8,
                                                                  offset_of("today"), offset_of("today") + 5);
    CHECK(!strcmp(bold, expected), "bold on the corrected “tomorrow” and on “today”: %s, expected %s", bold, expected);
    printf("   proofread: %d suggestions, each under emend-suggestion (%s) and its category's tag\n", count, grammar_tags);
    g_free(spelling), g_free(spelling_tags), g_free(grammar), g_free(grammar_tags), g_free(bold), g_free(expected);
    return TRUE;
}

/* The coordinator's own hit test, in the buffer coordinates the library answers rectangle
 * requests in: EMEND_E_AGAIN while the rectangles are asked for, then the suggestion. */
static gboolean hit_test(void) {
    static int agains = 0;
    GtkTextIter iter;
    gtk_text_buffer_get_iter_at_offset(buffer, &iter, offset_of("tomorrow") + 3);
    GdkRectangle where;
    gtk_text_view_get_iter_location(view, &iter, &where);
    size_t index = SIZE_MAX;
    emend_status status = emend_session_suggestion_at_point(coordinator, where.x + 1, where.y + where.height / 2.0, &index);
    if (status == EMEND_E_AGAIN) {
        agains++;
        return FALSE;
    }
    CHECK(status == EMEND_OK, "suggestion_at_point: %s: %s", emend_status_name(status), emend_last_error_message());
    emend_suggestion s = {0};
    s.struct_size = sizeof s;
    if (status == EMEND_OK) emend_session_get_suggestion(coordinator, index, &s);
    CHECK(status == EMEND_OK && !strcmp(s.replacement, "tomorrow"), "the point is on “tomorrow”");
    printf("   suggestion_at_point in buffer coordinates (%d,%d): “%s” after %d EMEND_E_AGAIN\n", where.x + 1,
           where.y + where.height / 2, status == EMEND_OK ? s.replacement : "?", agains);
    /* A real click on the underlined word opens its popover. */
    x_click_offset(offset_of("tomorrow") + 3);
    return TRUE;
}

static gboolean popover_on_tomorow(void) {
    if (!settled(open_popover("tomorow") != NULL)) return FALSE;
    printf("   a click (X event) on the underlined “tomorrow”: its popover\n");
    CHECK(open_popover("“tomorow” → “tomorrow”") != NULL, "the popover shows the change");
    CHECK(open_popover("may be misspelled") != NULL, "the popover shows the explanation");
    screenshot("proofread.png");
    click("Add to _Dictionary");
    return TRUE;
}

static gboolean word_added(void) {
    const char *config = g_getenv("XDG_CONFIG_HOME");
    char *path = g_build_filename(config ? config : "", "emend", "dictionary.txt", NULL);
    char *contents = NULL;
    gboolean added = g_file_get_contents(path, &contents, NULL, NULL) && strstr(contents, "tomorow\n");
    g_free(contents);
    char *tagged = tag_ranges("emend-suggestion");
    int count = 0;
    char *pending = pending_ranges(NULL, &count);
    gboolean ready = added && text_has("tomorow,") && count == pending_before - 1 && !strcmp(tagged, pending);
    g_free(tagged), g_free(pending);
    if (!settled(ready)) return FALSE;
    char *bold = tag_ranges("bold"), *expected = g_strdup_printf("%d-%d %d-%d ", offset_of("tomorow"), offset_of("tomorow") + 7,
                                                                  offset_of("today"), offset_of("today") + 5);
    CHECK(!strcmp(bold, expected), "bold on the word put back: %s, expected %s", bold, expected);
    g_free(bold), g_free(expected);
    printf("   add to dictionary: “tomorow” in %s, the word put back (still bold), its mark gone\n", path);
    g_free(path);
    /* F8, a key press through the view's shortcut controller: the next suggestion. */
    x_focus();
    x_key(XK_F8, FALSE, FALSE);
    return TRUE;
}

static gboolean accept_they_have(void) {
    if (!settled(open_popover("they has") != NULL)) return FALSE;
    printf("   F8 (X key event): the next suggestion's popover, “they has”\n");
    /* Return: the popover has the focus on Accept. */
    x_key(XK_Return, FALSE, FALSE);
    return TRUE;
}

static gboolean accepted(void) {
    int count = 0;
    char *pending = pending_ranges(NULL, &count), *tagged = tag_ranges("emend-suggestion");
    gboolean ready = count == pending_before - 2 && !strcmp(pending, tagged) && text_has("they have");
    g_free(pending), g_free(tagged);
    if (!settled(ready)) return FALSE;
    printf("   accept with Return (X key event): “they have” kept, its mark gone\n");
    /* Shift+F8 from the start of the next sentence: the suggestion before it. */
    select_offsets(offset_of("This is"), offset_of("This is"));
    x_focus();
    x_key(XK_F8, TRUE, FALSE);
    return TRUE;
}

static gboolean reject_could_have(void) {
    if (!settled(open_popover("could of") != NULL)) return FALSE;
    printf("   Shift+F8 (X key event): the previous suggestion's popover, “could of”\n");
    /* Alt+R, the mnemonic of _Reject. */
    x_key(XK_r, FALSE, TRUE);
    return TRUE;
}

static gboolean rejected(void) {
    if (!settled(text_has("could of done"))) return FALSE;
    printf("   reject with Alt+R (X key event): “could of” put back\n");
    activate("emend.undo", NULL);
    return TRUE;
}

static gboolean session_undone(void) {
    if (!settled(text_has("could have done"))) return FALSE;
    printf("   emend.undo: the reject undone (“could have” again)\n");
    activate("emend.redo", NULL);
    return TRUE;
}

static gboolean session_redone(void) {
    if (!settled(text_has("could of done"))) return FALSE;
    printf("   emend.redo: the reject again\n");
    activate("emend.done", NULL);
    return TRUE;
}

static gboolean proofread_done(void) {
    if (!settled(state() == EMEND_STATE_INACTIVE)) return FALSE;
    char *expected = g_strdup(original);
    char *t = text();
    GString *e = g_string_new(original);
    g_string_replace(e, "they has", "they have", 1);
    g_string_replace(e, "a example", "an example", 1);
    CHECK(!strcmp(t, e->str), "after Done: %s\nexpected: %s", t, e->str);
    char *tagged = tag_ranges("emend-suggestion");
    CHECK(tagged[0] == '\0', "no suggestion marks after Done: %s", tagged);
    /* The whole review is one step of the buffer's own undo history. */
    CHECK(gtk_text_buffer_get_can_undo(buffer), "the buffer can undo the proofread");
    gtk_text_buffer_undo(buffer);
    CHECK(text_is(original), "one undo gives the original back byte for byte");
    gtk_text_buffer_redo(buffer);
    CHECK(text_is(e->str), "redo gives the reviewed text again");
    gtk_text_buffer_undo(buffer);
    CHECK(text_is(original), "and undo the original again");
    printf("   done: the reviewed text; the buffer's undo gives the original back byte for byte, redo the review\n");
    g_free(expected), g_free(t), g_free(tagged);
    g_string_free(e, TRUE);
    /* a rewrite of the second paragraph (the selection taken now) */
    g_hash_table_remove_all(applied);
    select_offsets(offset_of("I can't"), offset_of("home.") + 5);
    activate("emend.rewrite-professional", NULL);
    /* The selection moves before the coordinator asks for it (a click, a popover): the
     * rewrite still works on the selection taken at activation. */
    select_offsets(0, offset_of(" and they"));
    return TRUE;
}

static gboolean rewrite_rests(void) {
    if (!settled(state() == EMEND_STATE_INTERACTIVE_RESTING)) return FALSE;
    rewritten = text();
    CHECK(text_has("I cannot come") && text_has("going to stay"), "the professional rewrite is in: %s", rewritten);
    CHECK(!strncmp(rewritten, original, (size_t)(strstr(original, "I can't") - original)), "the first paragraph is untouched");
    /* (paragraph two only: GtkTextBuffer's own undo, used above, gives text back without tags) */
    char *bold = tag_ranges_from("bold", offset_of("I cannot")), *expected = g_strdup_printf("%d-%d ", offset_of("today"), offset_of("today") + 5);
    CHECK(!strcmp(bold, expected), "bold exactly on “today” after the streamed rewrite (no smear): %s, expected %s", bold, expected);
    int animated = times_applied("emend-arrived") + times_applied("emend-anticipate") + times_applied("emend-insert");
    printf("   rewrite: %s   animation tags applied: arrived %d, anticipate %d, insert %d\n", strstr(rewritten, "I cannot"),
           times_applied("emend-arrived"), times_applied("emend-anticipate"), times_applied("emend-insert"));
    CHECK(animated > 0, "the rewrite was animated (a text animation tag was applied)");
    screenshot("rewrite.png");
    g_free(bold), g_free(expected);
    GActionGroup *group = emend_gtk_get_action_group(wt);
    CHECK(g_action_group_get_action_enabled(group, "show-original"), "show-original is enabled while a rewrite rests");
    g_action_group_change_action_state(group, "show-original", g_variant_new_boolean(TRUE));
    return TRUE;
}

static gboolean original_shown(void) {
    if (!settled(text_is(original))) return FALSE;
    printf("   show original: the original, byte for byte\n");
    g_action_group_change_action_state(emend_gtk_get_action_group(wt), "show-original", g_variant_new_boolean(FALSE));
    return TRUE;
}

static gboolean rewritten_shown(void) {
    if (!settled(text_is(rewritten))) return FALSE;
    printf("   show rewritten: the rewrite again\n");
    /* The user types at the start while the rewrite rests: reported with update_range, so
     * revert keeps it and restores everything else. */
    GtkTextIter start;
    gtk_text_buffer_get_start_iter(buffer, &start);
    gtk_text_buffer_insert_interactive(buffer, &start, "XYZ ", -1, TRUE);
    /* and a picture: one U+FFFC to the coordinator */
    GdkPaintable *picture = gdk_paintable_new_empty(8, 8);
    gtk_text_buffer_get_start_iter(buffer, &start);
    gtk_text_buffer_insert_paintable(buffer, &start, picture);
    g_object_unref(picture);
    activate("emend.revert", NULL);
    return TRUE;
}

static gboolean reverted(void) {
    char *expected = g_strconcat("\xEF\xBF\xBCXYZ ", original, NULL);
    gboolean ready = state() == EMEND_STATE_INACTIVE && text_is(expected);
    if (!settled(ready)) {
        g_free(expected);
        return FALSE;
    }
    char *bold = tag_ranges_from("bold", offset_of("I can't")), *b = g_strdup_printf("%d-%d ", offset_of("today"), offset_of("today") + 5);
    CHECK(!strcmp(bold, b), "bold on “today” after revert: %s, expected %s", bold, b);
    GtkTextIter s, e;
    gtk_text_buffer_get_iter_at_offset(buffer, &s, 0);
    gtk_text_buffer_get_iter_at_offset(buffer, &e, 5);
    gtk_text_buffer_delete(buffer, &s, &e);
    CHECK(text_is(original), "without the typed text, the original byte for byte");
    printf("   revert with the user's typing and picture kept: the original byte for byte around them\n");
    g_free(expected), g_free(bold), g_free(b);
    select_offsets(offset_of("I can't"), offset_of("home.") + 5);
    activate("emend.rewrite-professional", NULL);
    return TRUE;
}

static gboolean rewrite_again_rests(void) {
    if (!settled(state() == EMEND_STATE_INTERACTIVE_RESTING)) return FALSE;
    CHECK(text_is(rewritten), "the same rewrite again");
    activate("emend.done", NULL);
    return TRUE;
}

static gboolean rewrite_done(void) {
    if (!settled(state() == EMEND_STATE_INACTIVE)) return FALSE;
    CHECK(text_is(rewritten), "Done keeps the rewrite");
    gtk_text_buffer_undo(buffer);
    CHECK(text_is(original), "one undo of the buffer takes the whole rewrite back, byte for byte");
    gtk_text_buffer_redo(buffer);
    CHECK(text_is(rewritten), "redo brings it back");
    gtk_text_buffer_undo(buffer);
    printf("   rewrite + Done: one step of the buffer's undo history\n");
    /* The same rewrite again, this time reviewed change by change. */
    select_offsets(offset_of("I can't"), offset_of("home.") + 5);
    activate("emend.rewrite-professional", NULL);
    return TRUE;
}

/* ---- a rewrite reviewed change by change (emend.review-changes) ---------------------- */

/* A change of the rewrite under review, copied out of the coordinator. */
typedef struct {
    gboolean found;
    size_t index;
    guint64 start, length;
    char *original, *replacement;
} Change;

static void change_clear(Change *c) {
    g_free(c->original), g_free(c->replacement);
    *c = (Change){0};
}

/* The pending change that starts first at or after `from` (from < 0: the last one). */
static Change pending_change(gint64 from) {
    Change best = {0};
    size_t n = 0;
    if (emend_session_suggestion_count(coordinator, &n) != EMEND_OK) return best;
    for (size_t i = 0; i < n; i++) {
        emend_suggestion s = {0};
        s.struct_size = sizeof s;
        if (emend_session_get_suggestion(coordinator, i, &s) != EMEND_OK || s.state != EMEND_SUGGESTION_PENDING) continue;
        gboolean better = from < 0 ? !best.found || s.range.location > best.start
                                   : s.range.location >= (guint64)from && (!best.found || s.range.location < best.start);
        if (!better) continue;
        CHECK(!strcmp(s.category, "rewrite"), "a change under review has category “rewrite”, not “%s”", s.category);
        change_clear(&best);
        best = (Change){TRUE, i, s.range.location, s.range.length, g_strdup(s.original), g_strdup(s.replacement)};
    }
    return best;
}

/* The popover shows the change as original → replacement, with Keep and Undo This Change
 * and no Add to Dictionary. */
static gboolean popover_shows(const Change *c) {
    char *arrow = c->original[0] ? g_strdup_printf("“%s” → “%s”", c->original, c->replacement[0] ? c->replacement : "(removed)")
                                 : g_strdup_printf("Insert “%s”", c->replacement);
    gboolean shows = open_popover(arrow) && open_popover("_Keep") == open_popover(arrow) &&
                     open_popover("_Undo This Change") == open_popover(arrow);
    g_free(arrow);
    return shows;
}

/* `t` with code points [start, start + length) replaced by `with`. */
static char *replaced(const char *t, guint64 start, guint64 length, const char *with) {
    const char *a = g_utf8_offset_to_pointer(t, (glong)start), *b = g_utf8_offset_to_pointer(t, (glong)(start + length));
    GString *out = g_string_new_len(t, a - t);
    g_string_append(out, with);
    g_string_append(out, b);
    return g_string_free(out, FALSE);
}

static gboolean marks_match_changes(int *count) {
    char *pending = pending_ranges("rewrite", count), *tagged = tag_ranges("emend-suggestion-rewrite"),
         *underlined = tag_ranges("emend-suggestion");
    gboolean same = !strcmp(pending, tagged) && !strcmp(pending, underlined);
    g_free(pending), g_free(tagged), g_free(underlined);
    return same;
}

static int review_count = 0;
static Change kept, undone;
static char *reviewed;           /* the rewrite with the undone change's original */

static gboolean review_rests(void) {
    if (!settled(state() == EMEND_STATE_INTERACTIVE_RESTING)) return FALSE;
    CHECK(text_is(rewritten), "the same rewrite again");
    GActionGroup *group = emend_gtk_get_action_group(wt);
    CHECK(g_action_group_get_action_enabled(group, "review-changes"), "review-changes is enabled while a rewrite rests");
    activate("emend.review-changes", NULL);
    return TRUE;
}

static gboolean review_marked(void) {
    int count = 0;
    if (!settled(marks_match_changes(&count) && count > 1)) return FALSE;
    review_count = count;
    CHECK(text_is(rewritten), "reviewing changes nothing in the text");
    GActionGroup *group = emend_gtk_get_action_group(wt);
    CHECK(!g_action_group_get_action_enabled(group, "review-changes"), "review-changes is off while the review goes on");
    CHECK(!g_action_group_get_action_enabled(group, "show-original"), "show-original is off while the review goes on");
    CHECK(g_action_group_get_action_enabled(group, "done") && g_action_group_get_action_enabled(group, "revert"),
          "Done and Revert during the review");
    char *tagged = tag_ranges("emend-suggestion-rewrite");
    printf("   review changes: %d changes, each under emend-suggestion-rewrite (%s)\n", count, tagged);
    g_free(tagged);
    return TRUE;
}

/* The coordinator's hit test finds a change under review at a point of the library's
 * rectangles, as it finds a proofreading suggestion. */
static gboolean review_hit_test(void) {
    Change last = pending_change(-1);
    GtkTextIter iter;
    gtk_text_buffer_get_iter_at_offset(buffer, &iter, (int)last.start + 1);
    GdkRectangle where;
    gtk_text_view_get_iter_location(view, &iter, &where);
    size_t index = SIZE_MAX;
    emend_status status = emend_session_suggestion_at_point(coordinator, where.x + 1, where.y + where.height / 2.0, &index);
    if (status == EMEND_E_AGAIN) {
        change_clear(&last);
        return FALSE;
    }
    CHECK(status == EMEND_OK && index == last.index, "suggestion_at_point on the last change: %s, index %zu, expected %zu",
          emend_status_name(status), index, last.index);
    printf("   suggestion_at_point finds the change “%s” → “%s”\n", last.original, last.replacement);
    change_clear(&last);
    /* Shift+F8 from the start of the text wraps to the last change. */
    select_offsets(0, 0);
    activate("emend.previous-suggestion", NULL);
    return TRUE;
}

static gboolean review_last_shown(void) {
    Change last = pending_change(-1);
    gboolean shown = last.found && popover_shows(&last);
    if (!settled(shown)) {
        change_clear(&last);
        return FALSE;
    }
    printf("   previous suggestion from the start: the last change, “%s” → “%s”\n", last.original, last.replacement);
    change_clear(&last);
    gtk_popover_popdown(GTK_POPOVER(open_popover("_Keep")));
    select_offsets(0, 0);
    activate("emend.next-suggestion", NULL);
    return TRUE;
}

static gboolean review_first_shown(void) {
    Change first = pending_change(0);
    gboolean shown = first.found && popover_shows(&first);
    if (!settled(shown)) {
        change_clear(&first);
        return FALSE;
    }
    CHECK(!open_popover("Add to _Dictionary"), "no Add to Dictionary for a rewrite's change");
    CHECK(!open_popover("_Accept") && !open_popover("_Reject"), "Keep / Undo This Change, not Accept / Reject");
    printf("   next suggestion: the first change in the popover, “%s” → “%s” (Keep, Undo This Change)\n", first.original,
           first.replacement);
    screenshot("review.png");
    kept = first;
    click("_Keep");
    return TRUE;
}

static gboolean review_kept(void) {
    int count = 0;
    if (!settled(marks_match_changes(&count) && count == review_count - 1 && !open_popover("_Keep"))) return FALSE;
    CHECK(text_is(rewritten), "keeping a change leaves the text");
    printf("   keep: “%s” stays, its mark gone\n", kept.replacement);
    activate("emend.next-suggestion", NULL);
    return TRUE;
}

static gboolean review_second_shown(void) {
    Change next = pending_change((gint64)(kept.start + 1));
    gboolean shown = next.found && popover_shows(&next);
    if (!settled(shown)) {
        change_clear(&next);
        return FALSE;
    }
    undone = next;
    reviewed = replaced(rewritten, undone.start, undone.length, undone.original);
    click("_Undo This Change");
    return TRUE;
}

static gboolean review_rejected(void) {
    int count = 0;
    if (!settled(text_is(reviewed) && marks_match_changes(&count) && count == review_count - 2)) return FALSE;
    printf("   undo this change: “%s” back for “%s”, every other change as it was\n", undone.original, undone.replacement);
    CHECK(emend_gtk_get_action_group(wt) && g_action_group_get_action_enabled(emend_gtk_get_action_group(wt), "undo"),
          "the decision is a step of the session's undo");
    activate("emend.undo", NULL);
    return TRUE;
}

static gboolean review_undone(void) {
    int count = 0;
    if (!settled(text_is(rewritten) && marks_match_changes(&count) && count == review_count - 1)) return FALSE;
    printf("   emend.undo: the change back, pending again\n");
    activate("emend.redo", NULL);
    return TRUE;
}

static gboolean review_redone(void) {
    int count = 0;
    if (!settled(text_is(reviewed) && marks_match_changes(&count) && count == review_count - 2)) return FALSE;
    printf("   emend.redo: its original again\n");
    activate("emend.done", NULL);
    return TRUE;
}

static gboolean review_done(void) {
    if (!settled(state() == EMEND_STATE_INACTIVE)) return FALSE;
    char *t = text();
    CHECK(!strcmp(t, reviewed), "Done keeps every change not undone: %s\nexpected: %s", t, reviewed);
    char *marks = tag_ranges("emend-suggestion");
    CHECK(marks[0] == '\0', "no marks after Done: %s", marks);
    printf("   done: the rewrite with exactly “%s” put back: %s\n", undone.original, strstr(t, "\n\n") ? strstr(t, "\n\n") + 2 : t);
    g_free(t), g_free(marks);
    gtk_text_buffer_undo(buffer);
    CHECK(text_is(original), "one undo of the buffer takes the reviewed rewrite back, byte for byte");
    change_clear(&kept), change_clear(&undone);
    /* Again, and revert after a partial review. */
    select_offsets(offset_of("I can't"), offset_of("home.") + 5);
    activate("emend.rewrite-professional", NULL);
    return TRUE;
}

static gboolean review_again_rests(void) {
    if (!settled(state() == EMEND_STATE_INTERACTIVE_RESTING && text_is(rewritten))) return FALSE;
    activate("emend.review-changes", NULL);
    return TRUE;
}

static gboolean review_again_marked(void) {
    int count = 0;
    if (!settled(marks_match_changes(&count) && count == review_count)) return FALSE;
    select_offsets(0, 0);
    activate("emend.next-suggestion", NULL);
    return TRUE;
}

static gboolean review_again_popover(void) {
    if (!settled(open_popover("_Undo This Change") != NULL)) return FALSE;
    click("_Undo This Change");
    return TRUE;
}

static gboolean review_again_rejected(void) {
    int count = 0;
    if (!settled(!text_is(rewritten) && marks_match_changes(&count) && count == review_count - 1)) return FALSE;
    activate("emend.revert", NULL);
    return TRUE;
}

static gboolean review_reverted(void) {
    if (!settled(state() == EMEND_STATE_INACTIVE)) return FALSE;
    CHECK(text_is(original), "revert after a partial review: the original byte for byte");
    char *marks = tag_ranges("emend-suggestion");
    CHECK(marks[0] == '\0', "no marks after Revert: %s", marks);
    g_free(marks);
    printf("   review, undo one change, revert: the original byte for byte\n");
    select_offsets(offset_of("I can't"), offset_of("home.") + 5);
    activate("emend.rewrite-professional", NULL);
    return TRUE;
}

/* A described change during a review refines the text as it stands and ends the review. */
static gboolean review_follow_up_rests(void) {
    if (!settled(state() == EMEND_STATE_INTERACTIVE_RESTING && text_is(rewritten))) return FALSE;
    activate("emend.review-changes", NULL);
    return TRUE;
}

static gboolean review_follow_up_marked(void) {
    int count = 0;
    if (!settled(marks_match_changes(&count) && count == review_count)) return FALSE;
    activate("emend.rewrite-described", g_variant_new_string("make it upper case"));
    return TRUE;
}

static gboolean review_followed_up(void) {
    char *marks = tag_ranges("emend-suggestion");
    gboolean ready = state() == EMEND_STATE_INTERACTIVE_RESTING && text_has("I CANNOT COME TODAY, IT IS RAINING.") && !marks[0];
    g_free(marks);
    if (!settled(ready)) return FALSE;
    GActionGroup *group = emend_gtk_get_action_group(wt);
    CHECK(g_action_group_get_action_enabled(group, "review-changes") && g_action_group_get_action_enabled(group, "show-original"),
          "after a follow-up, its result can be reviewed again (and shown against the original)");
    printf("   a follow-up during the review: the review ends, its marks gone, the result reviewable again\n");
    activate("emend.revert", NULL);
    return TRUE;
}

static gboolean review_follow_up_reverted(void) {
    if (!settled(state() == EMEND_STATE_INACTIVE)) return FALSE;
    CHECK(text_is(original), "review, follow-up, revert: the original byte for byte");
    select_offsets(0, 0);
    activate("emend.summary", NULL);
    return TRUE;
}

static gboolean summary_presented(void) {
    if (!settled(open_popover("_Replace") != NULL)) return FALSE;
    GtkWidget *panel = open_popover("_Replace");
    GtkWidget *result = find_widget(panel, GTK_TYPE_TEXT_VIEW, NULL);
    CHECK(result != NULL, "the panel shows the result's text");
    if (result) {
        GtkTextBuffer *b = gtk_text_view_get_buffer(GTK_TEXT_VIEW(result));
        GtkTextIter s, e;
        gtk_text_buffer_get_bounds(b, &s, &e);
        presented = gtk_text_buffer_get_text(b, &s, &e, TRUE);
        printf("   summary in the panel: %s\n", presented);
    }
    CHECK(presented && presented[0], "a summary was presented");
    CHECK(text_is(original), "a presented result leaves the text alone");
    CHECK(open_popover("_Copy") && open_popover("_Dismiss"), "Replace, Copy and Dismiss");
    screenshot("summary.png");
    click("_Copy");
    return TRUE;
}

static gboolean summary_copied(void) {
    if (!settled(state() == EMEND_STATE_INACTIVE && !open_popover("_Replace"))) return FALSE;
    CHECK(text_is(original), "Copy leaves the text alone");
    GdkContentProvider *content = gdk_clipboard_get_content(gtk_widget_get_clipboard(GTK_WIDGET(view)));
    GValue value = G_VALUE_INIT;
    g_value_init(&value, G_TYPE_STRING);
    CHECK(content && gdk_content_provider_get_value(content, &value, NULL) && presented &&
              !g_strcmp0(g_value_get_string(&value), presented),
          "the clipboard holds the summary");
    g_value_unset(&value);
    printf("   copy: the summary on the clipboard, the text unchanged\n");
    select_offsets(0, 0);
    activate("emend.summary", NULL);
    return TRUE;
}

static gboolean summary_again(void) {
    if (!settled(open_popover("_Replace") != NULL)) return FALSE;
    click("_Replace");
    return TRUE;
}

static gboolean summary_replaced(void) {
    if (!settled(state() == EMEND_STATE_INACTIVE && text_has(presented) && !text_is(original))) return FALSE;
    char *t = text();
    printf("   replace: the text is now the summary (%zu bytes)\n", strlen(t));
    g_free(t);
    gtk_text_buffer_undo(buffer);
    CHECK(text_is(original), "undo after Replace: the original byte for byte");
    select_offsets(0, 0);
    activate("emend.compose", g_variant_new_string("a thank you note"));
    return TRUE;
}

static gboolean composed(void) {
    if (!settled(state() == EMEND_STATE_INTERACTIVE_RESTING)) return FALSE;
    CHECK(text_has("hank you note"), "the composed text is in");
    activate("emend.revert", NULL);
    return TRUE;
}

static gboolean compose_reverted(void) {
    if (!settled(state() == EMEND_STATE_INACTIVE)) return FALSE;
    CHECK(text_is(original), "compose + revert: the original byte for byte");
    printf("   compose + revert: the original byte for byte\n");
    select_offsets(offset_of("I can't"), offset_of("home.") + 5);
    activate("emend.prompt", g_variant_new_string("rewrite-described"));
    return TRUE;
}

static gboolean prompt_asked(void) {
    GtkWidget *popover = open_popover(NULL);
    GtkWidget *entry = popover ? find_widget(popover, GTK_TYPE_ENTRY, NULL) : NULL;
    if (!settled(entry != NULL)) return FALSE;
    gtk_editable_set_text(GTK_EDITABLE(entry), "make it upper case");
    g_signal_emit_by_name(entry, "activate");
    return TRUE;
}

static gboolean described_rests(void) {
    if (!settled(state() == EMEND_STATE_INTERACTIVE_RESTING && text_has("I CAN'T COME TODAY"))) return FALSE;
    printf("   Describe Your Change… “make it upper case” (the prompt popover): I CAN'T COME TODAY…\n");
    /* A described change while it rests refines it: a follow-up. */
    activate("emend.rewrite-described", g_variant_new_string("make it lower case"));
    return TRUE;
}

static gboolean follow_up_rests(void) {
    if (!settled(state() == EMEND_STATE_INTERACTIVE_RESTING && text_has("i can't come today"))) return FALSE;
    printf("   follow-up “make it lower case”: i can't come today…\n");
    activate("emend.revert", NULL);
    return TRUE;
}

static gboolean follow_up_reverted(void) {
    if (!settled(state() == EMEND_STATE_INACTIVE)) return FALSE;
    CHECK(text_is(original), "described change + follow-up + revert: the original byte for byte");
    printf("   revert after the follow-up: the original byte for byte\n");
    return TRUE;
}

/* A real plugin streaming word by word (EMEND_GTK_STREAMING_PROVIDER, the C example plugin
 * with a delay per word): the result arrives sentence by sentence while the user types
 * elsewhere; revert gives the original with the typing. */
static const char *STREAMED = "This is really a very long sentence that I just wrote. It really goes on and on for "
                              "a while. We just keep adding some words here. And we really add just a few more.";
static char *with_streamed;

static gboolean stream_start(void) {
    const char *provider = g_getenv("EMEND_GTK_STREAMING_PROVIDER");
    if (!provider) {
        printf("   streaming from a plugin: skipped (EMEND_GTK_STREAMING_PROVIDER not set)\n");
        step += 3; /* on to the running tool */
        return TRUE;
    }
    CHECK(emend_coordinator_choose_provider(coordinator, EMEND_TOOL_REWRITE_CONCISE, provider) == EMEND_OK,
          "choose %s for concise: %s", provider, emend_last_error_message());
    GtkTextIter end;
    gtk_text_buffer_get_end_iter(buffer, &end);
    gtk_text_buffer_insert(buffer, &end, STREAMED, -1);
    with_streamed = text();
    g_hash_table_remove_all(applied);
    select_offsets(offset_of("This is really"), gtk_text_buffer_get_char_count(buffer));
    activate("emend.rewrite-concise", NULL);
    return TRUE;
}

static gboolean streaming_seen(void) {
    /* the first sentence is in, the last not yet */
    if (!settled(state() == EMEND_STATE_INTERACTIVE_STREAMING && text_has("This is a long sentence that I wrote.") &&
                 text_has("really add just")))
        return FALSE;
    printf("   streaming: the first sentence in, the rest still coming (arrived %d, anticipate %d)\n",
           times_applied("emend-arrived"), times_applied("emend-anticipate"));
    screenshot("streaming.png");
    GtkTextIter start;
    gtk_text_buffer_get_start_iter(buffer, &start);
    gtk_text_buffer_insert_interactive(buffer, &start, "TYPED ", -1, TRUE);
    return TRUE;
}

static gboolean streamed_rests(void) {
    if (!settled(state() == EMEND_STATE_INTERACTIVE_RESTING)) return FALSE;
    CHECK(text_has("TYPED Their going") && text_has("We keep adding some words here. And we add a few more."),
          "the whole result arrived around the typing");
    CHECK(!text_has("really") && !text_has("just"), "no filler left in the concise result");
    printf("   streamed result rests, the typing kept\n");
    activate("emend.revert", NULL);
    return TRUE;
}

static gboolean streamed_reverted(void) {
    char *expected = g_strconcat("TYPED ", with_streamed, NULL);
    gboolean ready = state() == EMEND_STATE_INACTIVE && text_is(expected);
    g_free(expected);
    if (!settled(ready)) return FALSE;
    printf("   revert: the original byte for byte around the typing\n");
    GtkTextIter s, e;
    gtk_text_buffer_get_iter_at_offset(buffer, &s, 0);
    gtk_text_buffer_get_iter_at_offset(buffer, &e, 6);
    gtk_text_buffer_delete(buffer, &s, &e);
    gtk_text_buffer_get_iter_at_offset(buffer, &s, offset_of("This is really"));
    gtk_text_buffer_get_end_iter(buffer, &e);
    gtk_text_buffer_delete(buffer, &s, &e);
    CHECK(text_is(original), "the original again");
    return TRUE;
}

static gboolean hang_start(void) {
    /* A rewrite whose provider works until stopped: the text it works on is animated, the
     * user types meanwhile, Stop puts everything back but the typing. */
    GtkTextIter end;
    gtk_text_buffer_get_end_iter(buffer, &end);
    gtk_text_buffer_insert(buffer, &end, "Wait here [fixture:hang] please.", -1);
    g_hash_table_remove_all(applied);
    select_offsets(offset_of("Wait here"), gtk_text_buffer_get_char_count(buffer));
    activate("emend.rewrite-friendly", NULL);
    return TRUE;
}

static gboolean hanging(void) {
    if (!settled(state() != EMEND_STATE_INACTIVE && times_applied("emend-anticipate") > 0)) return FALSE;
    printf("   a running tool: state %d, emend-anticipate applied %d time(s)\n", (int)state(), times_applied("emend-anticipate"));
    screenshot("working.png");
    GtkTextIter start;
    gtk_text_buffer_get_start_iter(buffer, &start);
    gtk_text_buffer_insert_interactive(buffer, &start, "typed ", -1, TRUE);
    activate("emend.stop", NULL);
    return TRUE;
}

static gboolean stopped(void) {
    char *expected = g_strconcat("typed ", original, "Wait here [fixture:hang] please.", NULL);
    gboolean ready = state() == EMEND_STATE_INACTIVE && text_is(expected);
    g_free(expected);
    if (!settled(ready)) return FALSE;
    char *anticipated = tag_ranges("emend-anticipate");
    CHECK(anticipated[0] == '\0', "no anticipation left after the stop: %s", anticipated);
    g_free(anticipated);
    printf("   stop: the text as it was, with what the user typed meanwhile\n");
    /* A provider failure: the panel says why, the text stays. */
    select_offsets(offset_of("Wait here"), gtk_text_buffer_get_char_count(buffer));
    GtkTextIter s, e;
    gtk_text_buffer_get_selection_bounds(buffer, &s, &e);
    gtk_text_buffer_delete(buffer, &s, &e);
    gtk_text_buffer_get_end_iter(buffer, &e);
    gtk_text_buffer_insert(buffer, &e, "Fail here [fixture:fail] please.", -1);
    select_offsets(offset_of("Fail here"), gtk_text_buffer_get_char_count(buffer));
    activate("emend.rewrite-friendly", NULL);
    return TRUE;
}

static gboolean failed(void) {
    if (!settled(state() == EMEND_STATE_INACTIVE && open_popover("_OK") != NULL)) return FALSE;
    CHECK(open_popover("asked for a failure") != NULL, "the panel gives the provider's reason");
    CHECK(text_has("Fail here [fixture:fail] please."), "a failure leaves the text");
    printf("   failure: the panel says why, the text unchanged\n");
    screenshot("failure.png");
    click("_OK");
    /* Back to the original, then a rewrite that changes nothing: a poor result, presented
     * with its reason instead of being applied. */
    GtkTextIter s, e;
    gtk_text_buffer_get_iter_at_offset(buffer, &s, 0);
    gtk_text_buffer_get_iter_at_offset(buffer, &e, 6);
    gtk_text_buffer_delete(buffer, &s, &e);
    gtk_text_buffer_get_iter_at_offset(buffer, &s, offset_of("Fail here"));
    gtk_text_buffer_get_end_iter(buffer, &e);
    gtk_text_buffer_delete(buffer, &s, &e);
    CHECK(text_is(original), "the original again");
    select_offsets(0, offset_of(" and they"));
    activate("emend.rewrite-professional", NULL);
    return TRUE;
}

/* Appended before the deletion steps: "the the" is one deletion suggestion. */
static const char *DELETION = "We saw the the cat.\n";
/* The concise rewrite drops "really " (a change under review with an empty range) at the end
 * of the line: after the tab, no space is left to align the change with. */
static const char *LINE_END_DELETION = "We go\treally \n";

static gboolean poor_presented(void) {
    GtkWidget *panel = open_popover("_Dismiss");
    GtkWidget *reason = panel ? find_widget(panel, GTK_TYPE_LABEL, "may not be what you want") : NULL;
    if (!settled(reason != NULL)) return FALSE;
    printf("   poor result presented: %s\n", gtk_label_get_text(GTK_LABEL(reason)));
    CHECK(text_is(original), "a poor result is not applied while the person decides");
    screenshot("poor.png");
    click("_Dismiss");
    return TRUE;
}

static gboolean poor_dismissed(void) {
    if (!settled(state() == EMEND_STATE_INACTIVE && !open_popover("_Dismiss"))) return FALSE;
    CHECK(text_is(original), "dismissed: the original byte for byte");
    /* A sentence with a repeated word (a bold one): its suggestion removes text. The buffer's
     * undo history starts empty here (an irreversible action clears it). */
    gtk_text_buffer_begin_irreversible_action(buffer);
    GtkTextIter end;
    gtk_text_buffer_get_end_iter(buffer, &end);
    gtk_text_buffer_insert(buffer, &end, DELETION, -1);
    gtk_text_buffer_end_irreversible_action(buffer);
    GtkTextIter bs, be;
    gtk_text_buffer_get_iter_at_offset(buffer, &bs, offset_of("the the cat"));
    gtk_text_buffer_get_iter_at_offset(buffer, &be, offset_of("the the cat") + 11);
    gtk_text_buffer_apply_tag_by_name(buffer, "bold", &bs, &be);
    CHECK(!gtk_text_buffer_get_can_undo(buffer), "no undo step before the proofread");
    gtk_text_buffer_set_modified(buffer, FALSE); /* as just saved */
    select_offsets(offset_of("We saw"), gtk_text_buffer_get_char_count(buffer));
    activate("emend.proofread", NULL);
    return TRUE;
}

/* ---- a deletion: its mark, a click on it, Reject from the keyboard, revert -------------- */

/* The pending suggestion with an empty range (a deletion), or found == FALSE. */
static Change pending_deletion(void) {
    Change found = {0};
    size_t n = 0;
    if (emend_session_suggestion_count(coordinator, &n) != EMEND_OK) return found;
    for (size_t i = 0; i < n && !found.found; i++) {
        emend_suggestion s = {0};
        s.struct_size = sizeof s;
        if (emend_session_get_suggestion(coordinator, i, &s) != EMEND_OK || s.state != EMEND_SUGGESTION_PENDING ||
            s.range.length != 0)
            continue;
        found = (Change){TRUE, i, s.range.location, 0, g_strdup(s.original), g_strdup(s.replacement)};
    }
    return found;
}

static gboolean deletion_marked(void) {
    Change deletion = pending_deletion();
    char *marked = tag_ranges("emend-suggestion-deletion");
    char *expected = deletion.found ? g_strdup_printf("%d-%d ", (int)deletion.start, (int)deletion.start + 1) : g_strdup("?");
    gboolean ready = state() == EMEND_STATE_INTERACTIVE_RESTING && text_has("We saw the cat.") && !strcmp(marked, expected);
    g_free(marked), g_free(expected);
    if (!settled(ready)) {
        change_clear(&deletion);
        return FALSE;
    }
    /* The mark is a visible tag: it draws a line under the character after the removed text. */
    GtkTextTag *tag = gtk_text_tag_table_lookup(gtk_text_buffer_get_tag_table(buffer), "emend-suggestion-deletion");
    int underline = PANGO_UNDERLINE_NONE;
    g_object_get(tag, "underline", &underline, NULL);
    CHECK(underline != PANGO_UNDERLINE_NONE, "the deletion mark is underlined");
    printf("   a deletion (“%s” removed): marked on the character after it, %d-%d\n", deletion.original, (int)deletion.start,
           (int)deletion.start + 1);
    screenshot("deletion.png");
    x_click_offset((int)deletion.start);
    change_clear(&deletion);
    return TRUE;
}

static gboolean deletion_popover(void) {
    if (!settled(open_popover("(removed)") != NULL)) return FALSE;
    printf("   a click (X event) on the deletion's mark: its popover (“the ” → removed)\n");
    /* Alt+R, the mnemonic of _Reject: the word comes back. */
    x_key(XK_r, FALSE, TRUE);
    return TRUE;
}

static gboolean deletion_rejected(void) {
    char *marked = tag_ranges("emend-suggestion-deletion");
    gboolean ready = text_has("We saw the the cat.") && !marked[0] && !open_popover("(removed)");
    g_free(marked);
    if (!settled(ready)) return FALSE;
    printf("   reject with Alt+R: the word back, the deletion's mark gone\n");
    activate("emend.revert", NULL);
    return TRUE;
}

static gboolean deletion_reverted(void) {
    char *expected = g_strconcat(original, DELETION, NULL);
    gboolean ready = state() == EMEND_STATE_INACTIVE && text_is(expected);
    g_free(expected);
    if (!settled(ready)) return FALSE;
    /* The session's text ended as it began: no step in the buffer's undo history (nor redo). */
    CHECK(!gtk_text_buffer_get_can_undo(buffer), "a session that ends on its original text leaves no undo step");
    CHECK(!gtk_text_buffer_get_can_redo(buffer), "and no redo step");
    CHECK(!gtk_text_buffer_get_modified(buffer), "a buffer unmodified before the session is unmodified after it");
    char *bold = tag_ranges_from("bold", offset_of("We saw")),
         *b = g_strdup_printf("%d-%d ", offset_of("the the cat"), offset_of("the the cat") + 11);
    CHECK(!strcmp(bold, b), "bold on “the the cat” as before: %s, expected %s", bold, b);
    g_free(bold), g_free(b);
    printf("   revert: the original, bold kept, and no step in the buffer's undo history\n");
    GtkTextIter s, e;
    gtk_text_buffer_get_iter_at_offset(buffer, &s, offset_of("We saw"));
    gtk_text_buffer_get_end_iter(buffer, &e);
    gtk_text_buffer_delete(buffer, &s, &e);
    CHECK(text_is(original), "the original again");
    /* A rewrite that removes the last word of a line, reviewed: that change is marked on the
     * character before it, and a click there opens it. */
    gtk_text_buffer_begin_irreversible_action(buffer);
    gtk_text_buffer_get_end_iter(buffer, &e);
    gtk_text_buffer_insert(buffer, &e, LINE_END_DELETION, -1);
    gtk_text_buffer_end_irreversible_action(buffer);
    select_offsets(offset_of("We go"), gtk_text_buffer_get_char_count(buffer) - 1);
    activate("emend.rewrite-described", g_variant_new_string("make it concise"));
    return TRUE;
}

static gboolean line_end_rests(void) {
    if (!settled(state() == EMEND_STATE_INTERACTIVE_RESTING && text_has("We go\t\n"))) return FALSE;
    activate("emend.review-changes", NULL);
    return TRUE;
}

/* Where a deletion at `start` is marked: the character after it, or before it at the end of
 * a line. */
static int deletion_mark_at(guint64 start) {
    GtkTextIter at;
    gtk_text_buffer_get_iter_at_offset(buffer, &at, (int)start);
    return gtk_text_iter_ends_line(&at) ? (int)start - 1 : (int)start;
}

static gboolean line_end_marked(void) {
    Change deletion = pending_deletion();
    char *marked = tag_ranges("emend-suggestion-deletion");
    int at = deletion.found ? deletion_mark_at(deletion.start) : -1;
    char *expected = deletion.found ? g_strdup_printf("%d-%d ", at, at + 1) : g_strdup("?");
    gboolean ready = !strcmp(marked, expected);
    g_free(marked), g_free(expected);
    if (!settled(ready)) {
        change_clear(&deletion);
        return FALSE;
    }
    CHECK(at == (int)deletion.start - 1, "the removed words were at the end of the line: marked on the character before");
    printf("   a rewrite's change under review that removed “%s” at the end of a line: marked on the character before it\n",
           deletion.original);
    x_click_offset(at);
    change_clear(&deletion);
    return TRUE;
}

static gboolean line_end_popover(void) {
    if (!settled(open_popover("(removed)") != NULL && open_popover("(removed)") == open_popover("_Keep"))) return FALSE;
    printf("   a click (X event) on its mark: its popover (Keep, Undo This Change)\n");
    x_key(XK_Return, FALSE, FALSE); /* Keep has the focus */
    return TRUE;
}

static gboolean line_end_kept(void) {
    Change deletion = pending_deletion();
    char *marked = tag_ranges("emend-suggestion-deletion");
    gboolean ready = !deletion.found && !marked[0] && text_has("We go\t\n") && !open_popover("_Keep");
    g_free(marked);
    change_clear(&deletion);
    if (!settled(ready)) return FALSE;
    printf("   Keep with Return (X key event): the words stay removed, the mark gone\n");
    activate("emend.revert", NULL);
    return TRUE;
}

static gboolean line_end_reverted(void) {
    char *expected = g_strconcat(original, LINE_END_DELETION, NULL);
    gboolean ready = state() == EMEND_STATE_INACTIVE && text_is(expected);
    g_free(expected);
    if (!settled(ready)) return FALSE;
    CHECK(!gtk_text_buffer_get_can_undo(buffer) && !gtk_text_buffer_get_can_redo(buffer),
          "a reverted rewrite leaves no undo (or redo) step");
    printf("   revert: the original, no step in the buffer's undo history\n");
    GtkTextIter s, e;
    gtk_text_buffer_get_iter_at_offset(buffer, &s, offset_of("We go"));
    gtk_text_buffer_get_end_iter(buffer, &e);
    gtk_text_buffer_delete(buffer, &s, &e);
    CHECK(text_is(original), "the original again");
    /* A view the user cannot edit: the rewrite is presented, with Copy but no Replace. */
    gtk_text_view_set_editable(view, FALSE);
    select_offsets(offset_of("I can't"), offset_of("home.") + 5);
    activate("emend.rewrite-professional", NULL);
    return TRUE;
}

static gboolean read_only_presented(void) {
    GtkWidget *panel = open_popover("_Dismiss");
    if (!settled(panel && find_widget(panel, GTK_TYPE_TEXT_VIEW, NULL))) return FALSE;
    CHECK(!open_popover("_Replace") && open_popover("_Copy"), "a read-only view's panel has Copy, not Replace");
    CHECK(text_is(original), "a read-only view's text is not changed");
    printf("   read-only view: the rewrite presented (Copy, Dismiss), the text untouched\n");
    click("_Dismiss");
    return TRUE;
}

static gboolean read_only_dismissed(void) {
    if (!settled(state() == EMEND_STATE_INACTIVE && !open_popover("_Dismiss"))) return FALSE;
    gtk_text_view_set_editable(view, TRUE);
    CHECK(text_is(original), "dismissed: the original byte for byte");
    GActionGroup *group = g_object_ref(emend_gtk_get_action_group(wt));
    emend_gtk_detach(wt);
    wt = NULL;
    CHECK(emend_gtk_from_view(view) == NULL, "the view has no attachment after detach");
    /* The editor still holds the group on its window (header bar): inert, every action off. */
    CHECK(!g_action_group_get_action_enabled(group, "proofread") && !g_action_group_get_action_enabled(group, "done"),
          "the actions are disabled after detach");
    gtk_widget_activate_action(GTK_WIDGET(view), "emend.proofread", NULL);
    g_object_unref(group);
    CHECK(!menu_has_submenu(gtk_text_view_get_extra_menu(view), "Writing Tools", 0), "no Writing Tools menu after detach");
    CHECK(text_is(original), "detach leaves the text alone");
    printf("   detach: actions off, menu gone, text untouched\n");
    return TRUE;
}

typedef gboolean (*Step)(void);
static const Step STEPS[] = {find_editor,     context_menu,    submenu,         proofread_rests, hit_test, popover_on_tomorow, word_added,        accept_they_have,
                             accepted,        reject_could_have, rejected,         session_undone,    session_redone,
                             proofread_done,  rewrite_rests,
                             original_shown,  rewritten_shown, reverted,           rewrite_again_rests, rewrite_done,
                             review_rests,    review_marked,   review_hit_test,    review_last_shown,  review_first_shown, review_kept,
                             review_second_shown, review_rejected, review_undone,  review_redone,     review_done,
                             review_again_rests, review_again_marked, review_again_popover, review_again_rejected,
                             review_reverted, review_follow_up_rests, review_follow_up_marked, review_followed_up,
                             review_follow_up_reverted,
                             summary_presented, summary_copied, summary_again,     summary_replaced,  composed,
                             compose_reverted, prompt_asked, described_rests,    follow_up_rests,   follow_up_reverted,
                             stream_start,    streaming_seen,  streamed_rests,     streamed_reverted, hang_start,
                             hanging,       stopped,            failed,            poor_presented,
                             poor_dismissed, deletion_marked, deletion_popover, deletion_rejected, deletion_reverted,
                             line_end_rests, line_end_marked, line_end_popover, line_end_kept, line_end_reverted,
                             read_only_presented, read_only_dismissed};

static gboolean on_tick(gpointer data) {
    (void)data;
    gint64 now = g_get_monotonic_time();
    if (deadline == 0) deadline = now + 30 * G_USEC_PER_SEC;
    if (STEPS[step]()) {
        step++;
        stable = 0;
        deadline = now + 20 * G_USEC_PER_SEC;
        if (step == (int)G_N_ELEMENTS(STEPS)) {
            printf(failures ? "drive: %d check(s) failed\n" : "drive: all checks passed\n", failures);
            fflush(stdout);
            exit(failures ? 1 : 0);
        }
    } else if (now > deadline) {
        char *t = buffer ? text() : g_strdup("(no buffer)");
        fprintf(stderr, "FAIL drive.c: step %d did not finish in time (state %d); text:\n%s\n", step,
                coordinator ? (int)state() : -1, t);
        g_free(t);
        if (window) screenshot("timeout.png");
        exit(2);
    }
    return G_SOURCE_CONTINUE;
}

__attribute__((constructor)) static void drive_init(void) {
    g_timeout_add(50, on_tick, NULL);
}
