/*
 * emend-gtk.h — Writing Tools for any GtkTextView (and GtkSourceView): libemend-gtk4.
 *
 * Build with `pkg-config --cflags --libs emend-gtk4`. See emend-gtk(3).
 */
#ifndef EMEND_GTK_H
#define EMEND_GTK_H

#include <emend.h>
#include <gtk/gtk.h>

G_BEGIN_DECLS

/**
 * EmendGtk:
 *
 * Writing Tools attached to one #GtkTextView: a coordinator of libemend, the actions of the
 * group `emend` on the view, a "Writing Tools" section in the view's extra menu, suggestion
 * marks, the suggestion popover and the result panel. Made by emend_gtk_attach(); it lives
 * as long as the view unless emend_gtk_detach() ends it first.
 *
 * Actions (activate them with gtk_widget_activate_action() or from any menu or button inside
 * the view's hierarchy; each is enabled only when it can act):
 *
 * - `emend.proofread`, `emend.rewrite-friendly`, `emend.rewrite-professional`,
 *   `emend.rewrite-concise`, `emend.summary`, `emend.key-points`, `emend.list`,
 *   `emend.table`: start that tool on the selection taken at activation (a caret: the whole
 *   text);
 * - `emend.rewrite-described` and `emend.compose` (parameter: a string, the description or
 *   the prompt); a rewrite-described while a rewrite rests refines it (a follow-up);
 * - `emend.prompt` (parameter: "rewrite-described" or "compose"): asks for that string in
 *   a popover, then activates the tool;
 * - `emend.done`, `emend.revert`, `emend.stop`, `emend.show-original` (stateful boolean),
 *   `emend.undo`, `emend.redo` (the session's own undo; <kbd>Ctrl+Z</kbd> and
 *   <kbd>Ctrl+Shift+Z</kbd> / <kbd>Ctrl+Y</kbd> reach them while a result rests);
 * - `emend.review-changes`: while a rewrite's result rests (a rewrite, a described change,
 *   a follow-up, compose; not while the original is shown), splits it into its changes
 *   (emend_session_review_changes()) and marks each one as a proofreading suggestion, of
 *   category "rewrite": its popover shows original → replacement with Keep (accept) and
 *   Undo This Change (reject: that change's original back, every other change as it is).
 *   `emend.undo` / `emend.redo` step through those decisions, `emend.done` keeps every
 *   change not undone, `emend.revert` gives the original byte for byte;
 *   `emend.show-original` is off while the review goes on;
 * - `emend.next-suggestion` (<kbd>F8</kbd>) and `emend.previous-suggestion`
 *   (<kbd>Shift+F8</kbd>): select a proofreading suggestion (or a change under review) and
 *   open its popover.
 *
 * Text tags (in the buffer's tag table): `emend-suggestion` over each pending suggestion
 * plus `emend-suggestion-spelling`, `-grammar`, `-punctuation`, `-style`, `-typography`,
 * and `emend-suggestion-rewrite` over each change of a rewrite under review; a deletion (a
 * suggestion or change that removed text: its range is empty) is under
 * `emend-suggestion-deletion` on the character after it (before it at the end of a line or
 * of the text), where a click opens its popover;
 * `emend-anticipate`, `emend-remove`, `emend-insert` while the coordinator animates text,
 * and `emend-arrived` briefly over text a result just streamed in. Styling travels as
 * attribute runs: a tag named `bold`, `italic`, `underline`, `strikethrough`, `monospace`,
 * `superscript` or `subscript` is that attribute (made on demand with the usual look), a
 * link a result brings is a tag per URL ("emend-link URL") that goes back out as ("link",
 * URL), any other named tag is carried under its own name; tags whose name holds a ':'
 * (GtkSourceView's own), anonymous tags and a URL-less tag named `link` are not sent.
 *
 * A view that is not editable (gtk_text_view_set_editable) gets every result in the panel
 * (Copy, Dismiss), never in its text. Attach after the view has its buffer: a view given
 * another buffer later needs emend_gtk_detach() and emend_gtk_attach() again. Two views on
 * one buffer cannot both have Writing Tools (their marks share the buffer's tags).
 *
 * Undo: each session's edits (the result, and what the user typed meanwhile) are one step
 * of the #GtkTextBuffer's own undo history once the session ends (the buffer's undo waits
 * while the session is open: Ctrl+Z is the session's). A session whose text ends as it
 * began (reverted, stopped, every suggestion rejected) leaves no step: GtkTextBuffer's
 * history cannot drop a group, so the library undoes that step (it changes nothing) and
 * clears the redo it leaves, keeping the buffer's tags and selection (the undo gives the
 * modified flag back as it was before the session).
 */
typedef struct _EmendGtk EmendGtk;

/**
 * emend_gtk_attach:
 * @view: a #GtkTextView (or #GtkSourceView) that has no #EmendGtk yet
 *
 * Gives @view Writing Tools. Call on the thread that runs GTK (the coordinator belongs to
 * it). Providers are found and chosen as for any libemend coordinator (config.toml,
 * EMEND_PROVIDER_PATH); use emend_gtk_get_coordinator() to choose one.
 *
 * Returns: (transfer none) (nullable): the attachment, owned by @view; %NULL when libemend
 * could not make a coordinator (a g_warning() says why) or @view already has one.
 */
EmendGtk *emend_gtk_attach(GtkTextView *view);

/**
 * emend_gtk_detach:
 * @wt: (nullable): an attachment from emend_gtk_attach()
 *
 * Takes Writing Tools off the view: the session is stopped (what it delivered is put back
 * only if the coordinator still could; call `emend.done` or `emend.revert` first to decide),
 * the actions, menu section, tags' marks and popovers go, the coordinator is destroyed.
 * @wt is invalid afterwards. Only while the view is alive; a view finalized with its
 * attachment frees it itself.
 */
void emend_gtk_detach(EmendGtk *wt);

/**
 * emend_gtk_get_coordinator:
 * @wt: an attachment
 *
 * Returns: (transfer none): the libemend coordinator of @wt, for what the actions do not
 * cover (emend_coordinator_choose_provider(), emend_coordinator_get_completeness(), the
 * session's state). Do not destroy it, and do not install another delegate's answers on it.
 */
emend_coordinator *emend_gtk_get_coordinator(EmendGtk *wt);

/**
 * emend_gtk_get_menu_model:
 * @wt: an attachment
 *
 * Returns: (transfer none): the "Writing Tools" menu (the section added to the view's extra
 * menu), for a menu button or an application menu inside the view's hierarchy.
 */
GMenuModel *emend_gtk_get_menu_model(EmendGtk *wt);

/**
 * emend_gtk_get_action_group:
 * @wt: an attachment
 *
 * The actions of the group `emend` (inserted on the view). Widgets outside the view's
 * hierarchy (a header bar's buttons) reach them when the application inserts this group
 * on a common ancestor too: gtk_widget_insert_action_group (window, "emend", group).
 *
 * Returns: (transfer none): the action group.
 */
GActionGroup *emend_gtk_get_action_group(EmendGtk *wt);

/**
 * emend_gtk_from_view:
 * @view: a #GtkTextView
 *
 * Returns: (transfer none) (nullable): the attachment of @view, or %NULL.
 */
EmendGtk *emend_gtk_from_view(GtkTextView *view);

G_END_DECLS

#endif /* EMEND_GTK_H */
