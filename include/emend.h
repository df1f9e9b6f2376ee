/*
 * emend.h — the engine-facing C ABI of Emend (libemend.so).
 *
 * Emend brings Writing Tools (proofread, rewrite, summary, key points, list, table, compose,
 * follow-up) to any text engine. This header mirrors Apple's Writing Tools coordinator and
 * its delegate, in C spelling:
 *
 *   engine                                   libemend
 *   ------                                   --------
 *   emend_coordinator_create(delegate) --->  coordinator (one per text view)
 *   emend_coordinator_start(tool)      --->  asks the delegate for contexts,
 *                                            runs a provider on a runtime thread,
 *   delegate->replace(...)             <---  delivers each distinct change,
 *   emend_answer_replace(...)          --->  the engine says what it really inserted.
 *   emend_session_accept / _revert     --->  Done, or the original back byte for byte.
 *
 * Conventions (read these once; every function below follows them):
 *
 * STATUS   Every function returns an emend_status (EMEND_OK = 0) unless it says otherwise.
 *          On failure, emend_last_error_message() describes the problem on the calling
 *          thread. A failed call changes nothing: no document edit, no state change.
 *
 * THREADS  A coordinator belongs to the thread that created it (the engine's thread). All
 *          emend_coordinator_* and emend_session_* functions must be called on that thread
 *          and return EMEND_E_WRONG_THREAD elsewhere. Delegate callbacks run only inside
 *          emend_coordinator_dispatch() (or emend_coordinator_run_until_idle()) on that thread,
 *          never two at once. The emend_answer_* functions and emend_request_is_pending may be
 *          called from any thread.
 *          Provider work runs on threads owned by the runtime.
 *
 * STRINGS  Text is UTF-8, passed as pointer + length in bytes (not NUL-terminated unless a
 *          field says so). Invalid UTF-8 is rejected with EMEND_E_INVALID_UTF8. Text Emend hands
 *          the engine (a replace's text, a result, a suggestion's replacement) never holds a
 *          NUL byte: a provider's result or replacement with one is refused whole (the session
 *          ends with EMEND_E_PROVIDER saying so), so an engine may keep its text NUL-terminated.
 *
 * LENGTHS  Every length or count passed with a pointer (text lengths, array counts) must be
 *          one the engine really holds: above PTRDIFF_MAX (SIZE_MAX, a negative number cast
 *          to size_t) or above 1 GiB of data (2^30 bytes; count times the element size for
 *          arrays) it is EMEND_E_INVALID_ARGUMENT naming the parameter, even with a NULL
 *          pointer; it never reads as "empty" or "as proposed". Output capacities
 *          (emend_session_copy_result, emend_session_get_suggestion_rects) are refused only
 *          above PTRDIFF_MAX bytes.
 *
 * OFFSETS  Every emend_range counts in the coordinator's position encoding: UTF-8 bytes by
 *          default, or UTF-16 code units, or Unicode code points (emend_coordinator_options).
 *          A range outside its text, or one that splits a character's encoding, is rejected
 *          with EMEND_E_RANGE. Ranges are relative to the context's text as it is now.
 *
 * UNITS    Two units meet in one call, and they differ unless the encoding is UTF-8:
 *          - the position encoding: every emend_range and offset — emend_context_desc's
 *            selection, protected ranges, attribute runs and block intents; the `range` of
 *            emend_replace_request, emend_presented_result, emend_suggestion, select_ranges
 *            and the five range callbacks; emend_coordinator_update_range's `range`;
 *            emend_session_suggestion_at_offset's `offset`; the runs and intents of a replace
 *            or presented result (relative to its `text`, in the position encoding too);
 *          - UTF-8 bytes, always: every length that goes with a `const char *` —
 *            emend_context_desc.text_length, emend_replace_request.text_length,
 *            emend_presented_result.text_length, update_range's text_length,
 *            emend_answer_replace's inserted_length, emend_session_copy_result's capacity
 *            and *length — and the NUL-terminated strings.
 *          So with EMEND_ENCODING_CODEPOINT (which maps 1:1 to GtkTextIter offsets) a replace
 *          removes range.length characters at range.location and inserts the text_length
 *          bytes of `text` (gtk_text_buffer_insert(buffer, &iter, text, text_length)), which
 *          may be more or fewer characters than that. Array counts count elements.
 *
 * MEMORY   The caller owns what it passes in; the runtime copies it before returning.
 *          Pointers the runtime hands out (in callbacks or getters) are owned by the runtime
 *          and stay valid only as long as each function says; copy what you keep.
 *
 * STRUCTS  Every struct passed in starts with `struct_size`, set to sizeof(the struct) as
 *          the caller's header declares it. Structs only grow at the end: the runtime reads
 *          the fields struct_size covers whole and treats the others as zero, so an engine
 *          built against an older or a newer header keeps working. A struct_size that ends
 *          inside a field (say half way into a pointer) leaves that field out: it reads as
 *          zero, never as a value made of part of it. Structs the runtime fills
 *          (emend_suggestion, emend_provider_info) get the fields struct_size covers whole and
 *          not one byte more. A struct_size smaller than the first version of the struct (its
 *          EMEND_*_MIN_SIZE below) is rejected with EMEND_E_STRUCT_SIZE. In an array of such
 *          structs, contexts[0].struct_size is the stride of the array: any value from the
 *          first version up, a multiple of the pointer size or not. Structs are copied byte by
 *          byte, so neither they nor the array need be aligned; each element's own
 *          struct_size says which of its fields are there.
 *
 * CALLBACKS Inside a delegate callback the engine may answer (emend_answer_*) and use the
 *          getters; calls that change the coordinator or the session (start, stop, accept,
 *          dispatch, ...) return EMEND_E_IN_CALLBACK there: make them after the callback returns.
 *
 * NOTHING LOST  At every moment the engine's text is the original, the original plus the
 *          edits delivered and not undone, or the accepted result — always with the engine's
 *          own edits (emend_coordinator_update_range) kept. Cancel, provider failure, an
 *          external edit, or a refused replace all leave such a document, and
 *          emend_session_revert() (and a stop) restores the original byte for byte around the
 *          engine's edits: the runtime keeps Emend's changes apart from the engine's (a ledger
 *          of net changes) and rebases the engine's edits, like an editor's undo across other
 *          changes. An engine edit in a change Emend made (see CHANGES) makes that change the
 *          engine's: revert leaves it as the engine left it and restores everything else.
 *          Showing the original, undo, redo and follow-ups keep the engine's edits too.
 *
 * CHANGES  A change is what Emend reported as one: a proofreading suggestion (its range, as
 *          emend_session_get_suggestion gives it) or a phrase a rewrite changed (the words it
 *          replaced, and those one space apart, without the spaces at their ends, up to 1024
 *          bytes of its original and of its new text: a run of changes one space apart that
 *          is longer is several phrases, each within that bound, so that putting one back is
 *          one bounded replace; where a
 *          styled result restyles a whole paragraph, a list item or a table, the bytes it
 *          changed there, as in a result still being written). An engine edit is in a
 *          change when it overlaps the change's text, inserts strictly inside it, or deletes
 *          across the point where an empty change (a deletion) is; an insertion at either
 *          edge ("It's|XYZ") is beside it, never in it. An edit in a change makes the whole
 *          change the engine's, not only the bytes Emend changed in it: the suggestion
 *          becomes INVALID, and revert, stop, show original, undo, redo and a failed
 *          follow-up leave all of it as the engine left it (never half a phrase). While the
 *          original is shown, an engine edit of a change's original text is the engine's:
 *          show rewritten (and redo) apply the change around it, the bytes the change
 *          replaces if the edit left them, else nothing of that change. Every other change
 *          stays Emend's, however near the edit.
 */
#ifndef EMEND_H
#define EMEND_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* 2: the five delegate callbacks that name a range (requests_bounding_rects,
 * requests_underline_rects, prepare_for_text_animation, requests_preview,
 * finish_text_animation) take `const emend_range *` instead of an emend_range by value.
 * An engine built for version 1 must be rebuilt; check emend_abi_version() at load time. */
#define EMEND_ABI_VERSION 2

/* ------------------------------------------------------------------------------------------
 * Status codes and errors
 * ---------------------------------------------------------------------------------------- */

typedef enum emend_status {
    EMEND_OK = 0,
    EMEND_E_INVALID_ARGUMENT = 1, /* a NULL handle or pointer, or an unknown enum value */
    EMEND_E_STRUCT_SIZE = 2,      /* struct_size smaller than the struct's first version */
    EMEND_E_INVALID_UTF8 = 3,     /* text is not valid UTF-8 */
    EMEND_E_RANGE = 4,            /* a range out of bounds or splitting a character */
    EMEND_E_NOT_FOUND = 5,        /* no context, suggestion or request with that id */
    EMEND_E_STATE = 6,            /* the call is not allowed in the current state (no
                                     session, no finished result, a session running, ...).
                                     Changed: "inside a callback" is now IN_CALLBACK and
                                     "not known yet, ask again" is AGAIN */
    EMEND_E_WRONG_THREAD = 7,     /* called on a thread that does not own the coordinator */
    EMEND_E_TIMEOUT = 8,          /* the session failed: the engine did not answer a
                                     callback within completion_timeout_ms (never
                                     present_result, which waits for a person), or the
                                     provider did not finish within provider_timeout_ms.
                                     Changed: run_until_idle's own limit is now BUSY */
    EMEND_E_REFUSED = 9,          /* the engine refused a replace */
    EMEND_E_STALE = 10,           /* a completion answered twice, or after its session ended */
    EMEND_E_PROVIDER = 11,        /* the provider failed; the message says why */
    EMEND_E_UNSUPPORTED = 12,     /* behavior none, or a tool the options do not allow */
    EMEND_E_CANCELLED = 13,       /* the session was stopped */
    EMEND_E_PROTECTED = 14,       /* an edit would change a protected range */
    EMEND_E_INTERNAL = 15,        /* a bug in Emend; please report it */
    EMEND_E_POOR_RESULT = 16,     /* the result is poor (e.g. a rewrite identical to the text,
                                     a summary longer than it) and the engine cannot present it
                                     with its explanation; the message gives the reason */
    /* Added later, splitting TIMEOUT and STATE where the engine must act differently (a
     * library older than this header returns TIMEOUT / STATE instead; codes are only ever
     * appended, never renumbered): */
    EMEND_E_BUSY = 17,            /* emend_coordinator_run_until_idle's timeout_ms passed with
                                     work still going on. Nothing failed and the session goes
                                     on: dispatch or call run_until_idle again. (Was TIMEOUT.) */
    EMEND_E_IN_CALLBACK = 18,     /* a call that changes the coordinator or the session
                                     (start, stop, accept, dispatch, ...) was made inside a
                                     delegate callback; nothing happened: make it after the
                                     callback returns. (Was STATE.) */
    EMEND_E_AGAIN = 19            /* the answer is not known yet and the runtime has asked the
                                     engine for what it needs (a suggestion's rectangles), or
                                     a review step is in flight (see STEP IN FLIGHT below):
                                     nothing happened; dispatch, then call again. (Was STATE.) */
} emend_status;

/* The detail of the last failed call on the calling thread, NUL-terminated UTF-8, or "" if
 * no call failed yet. Owned by the runtime; valid until the next failing emend_* call on
 * this thread. Thread: any (the message is thread-local). */
const char *emend_last_error_message(void);

/* A short constant name for a status, e.g. "EMEND_E_RANGE"; "EMEND_E_UNKNOWN" for any value
 * this header does not define (negative ones too). Never NULL; static storage.
 * Thread: any. */
const char *emend_status_name(emend_status status);

/* The ABI version this library implements (EMEND_ABI_VERSION when it was built).
 * Thread: any. */
uint32_t emend_abi_version(void);

/* ------------------------------------------------------------------------------------------
 * Coordinator vocabulary (Apple's names in C spelling)
 * ---------------------------------------------------------------------------------------- */

/* Writing Tools behavior. DEFAULT is a request: the resolved behavior is never DEFAULT. */
typedef enum emend_behavior {
    EMEND_BEHAVIOR_NONE = -1,     /* Writing Tools off for this text */
    EMEND_BEHAVIOR_DEFAULT = 0,   /* let the runtime choose from the delegate's abilities */
    EMEND_BEHAVIOR_COMPLETE = 1,  /* results replace text inline, proofreading marks inline */
    EMEND_BEHAVIOR_LIMITED = 2    /* results are presented; the engine applies or copies them */
} emend_behavior;

/* Result options: bit flags naming the shapes of text the engine can show. 0 = default. */
enum {
    EMEND_RESULT_PLAIN_TEXT = 1,
    EMEND_RESULT_RICH_TEXT = 2,
    EMEND_RESULT_LIST = 4,
    EMEND_RESULT_TABLE = 8,
    EMEND_RESULT_PRESENTATION_INTENT = 16 /* implies rich text; strong/emphasis/code instead
                                           * of bold/italic/monospace: see EMEND_ATTR_STRONG */
};
typedef uint32_t emend_result_options;

/* Coordinator state, as Writing Tools reports it to will_change_to_state. */
typedef enum emend_state {
    EMEND_STATE_INACTIVE = 0,               /* no session */
    EMEND_STATE_NONINTERACTIVE = 1,         /* working on a result to present (limited, summary) */
    EMEND_STATE_INTERACTIVE_RESTING = 2,    /* a result is in the text, waiting for the user */
    EMEND_STATE_INTERACTIVE_STREAMING = 3   /* a result is arriving into the text */
} emend_state;

/* Position encoding of every offset the coordinator takes or gives. */
typedef enum emend_position_encoding {
    EMEND_ENCODING_UTF8 = 0,      /* bytes of UTF-8 (the default) */
    EMEND_ENCODING_UTF16 = 1,     /* UTF-16 code units (an emoji outside the BMP counts 2) */
    EMEND_ENCODING_CODEPOINT = 2  /* Unicode scalar values */
} emend_position_encoding;

/* Which text the coordinator asks contexts for: the scope tells the engine what to give in
 * requests_contexts, nothing more. Whatever the scope, the tool works on the first context's
 * `selection` as the engine gives it, widened to whole sentences, and on the whole context
 * only when that selection is empty (a caret). So with FULL_DOCUMENT an engine that gives its
 * whole text with the user's non-empty selection gets only that selection (widened to
 * sentences) worked on: to work on the whole document, give selection {0, 0}, as
 * examples/c/engine.c does. */
typedef enum emend_context_scope {
    EMEND_SCOPE_USER_SELECTION = 0,
    EMEND_SCOPE_FULL_DOCUMENT = 1,
    EMEND_SCOPE_VISIBLE_AREA = 2
} emend_context_scope;

/* The Writing Tools a session runs. */
typedef enum emend_tool {
    EMEND_TOOL_PROOFREAD = 0,
    EMEND_TOOL_REWRITE_FRIENDLY = 1,
    EMEND_TOOL_REWRITE_PROFESSIONAL = 2,
    EMEND_TOOL_REWRITE_CONCISE = 3,
    EMEND_TOOL_REWRITE_DESCRIBED = 4, /* "describe your change": prompt required */
    EMEND_TOOL_SUMMARY = 5,
    EMEND_TOOL_KEY_POINTS = 6,
    EMEND_TOOL_LIST = 7,
    EMEND_TOOL_TABLE = 8,
    EMEND_TOOL_COMPOSE = 9,           /* generate from a prompt: prompt required */
    EMEND_TOOL_FOLLOW_UP = 10         /* refine the finished rewrite: prompt required */
} emend_tool;

/* The label of a tool for a menu or a button, as Apple's Writing Tools panel words it:
 * "Proofread", "Friendly", "Professional", "Concise", "Describe Your Change", "Summary",
 * "Key Points", "List", "Table", "Compose", "Follow-Up" (English; a translating engine
 * looks the label up in its own catalog). The four REWRITE_* tools go under a "Rewrite"
 * heading or submenu, as in Apple's panel ("Friendly" alone does not say what it does); the
 * tools that need a prompt (REWRITE_DESCRIBED, COMPOSE, FOLLOW_UP) open a text field, so
 * their menu item usually gets an ellipsis. NUL-terminated UTF-8 in static storage (never
 * freed, never changes); NULL for a value this header does not define. Thread: any. */
const char *emend_tool_label(emend_tool tool);

/* A stable lower-case ASCII name of a tool, for action names, configuration and logs:
 * "proofread", "rewrite-friendly", "rewrite-professional", "rewrite-concise",
 * "rewrite-described", "summary", "key-points", "list", "table", "compose", "follow-up" (the
 * names `emend lsp` settings use for tools). Static storage; NULL for an unknown value.
 * Thread: any. */
const char *emend_tool_name(emend_tool tool);

/* Why the engine's text changed, for emend_coordinator_update_range(). */
typedef enum emend_text_update_reason {
    EMEND_UPDATE_TYPING = 0,
    EMEND_UPDATE_UNDO_REDO = 1
} emend_text_update_reason;

/* Why a replace is delivered (Apple's TextReplacementReason). */
typedef enum emend_replace_reason {
    EMEND_REPLACE_INTERACTIVE = 0,    /* part of an inline session the user watches */
    EMEND_REPLACE_NONINTERACTIVE = 1  /* applying a presented result, or a whole-text update */
} emend_replace_reason;

/* What a replace does within the session, so an engine can group its own undo. */
typedef enum emend_change_kind {
    EMEND_CHANGE_RESULT = 0,            /* the tool's result arriving */
    EMEND_CHANGE_SUGGESTION_REJECT = 1, /* one proofreading suggestion, or one change of a
                                           rewrite under review, put back */
    EMEND_CHANGE_REVERT = 2,            /* the original restored */
    EMEND_CHANGE_SHOW_ORIGINAL = 3,     /* toggled to the original text */
    EMEND_CHANGE_SHOW_REWRITTEN = 4,    /* toggled back to the result */
    EMEND_CHANGE_UNDO = 5,              /* a Writing Tools change undone */
    EMEND_CHANGE_REDO = 6,              /* a Writing Tools change redone */
    EMEND_CHANGE_CANCEL = 7             /* a stopped session putting back what it delivered */
} emend_change_kind;

/* The text animations of Apple's coordinator. Emend draws nothing: the engine animates or
 * simply hides and shows text between prepare and finish.
 * WHEN EACH IS REQUESTED (see the delegate's animation callbacks for the order):
 *   ANTICIPATE  once per provider run in complete behavior (every tool that changes the text
 *               inline, proofread included, and each follow-up): from the moment the
 *               contexts arrived until the provider has finished: finish comes before the
 *               replaces of the whole result (or of the suggestions), while the sentences
 *               of a rewrite streamed during the run arrive between prepare and finish.
 *               The range is the working region (the selection widened to sentences) as it
 *               is when each callback runs. Never for a result that is presented (limited
 *               behavior, summary, key points): nothing changes in the text then.
 *   REMOVE, INSERT, TRANSLATE, ANTICIPATE_INACTIVE  never, in this version. Each replace
 *               carries the animation instead: emend_replace_request.animation_duration
 *               (0.25 s for a replace the user watches, INTERACTIVE; 0 otherwise) is the time
 *               the engine may take to fade `range` out and `text` in (what Apple's REMOVE
 *               and INSERT show), and the engine's own layout moves the text after it (what
 *               TRANSLATE shows). Why: Emend delivers a rewrite as many small replaces (each
 *               distinct change, sentences while they stream); a preview, prepare and finish
 *               around each would triple the round trips of the engine's loop and say
 *               nothing the replace does not. The values stay so that a later runtime may
 *               request them: an engine answers every kind, known or not, the same way
 *               (a preview or NULL, hide the range at prepare, show it at finish). */
typedef enum emend_text_animation {
    EMEND_ANIMATION_ANTICIPATE = 0,          /* text is being worked on */
    EMEND_ANIMATION_REMOVE = 1,              /* text is about to go */
    EMEND_ANIMATION_INSERT = 2,              /* text just arrived */
    EMEND_ANIMATION_ANTICIPATE_INACTIVE = 3, /* work paused */
    EMEND_ANIMATION_TRANSLATE = 4            /* text moved because of an edit before it */
} emend_text_animation;

/* The engine's answer to a replace. */
typedef enum emend_replace_answer {
    EMEND_REPLACE_APPLIED = 0,  /* applied; inserted text given (or NULL: exactly as proposed) */
    EMEND_REPLACE_REFUSED = 1   /* not applied; the document is unchanged */
} emend_replace_answer;

/* What the engine did with a presented result (limited behavior, summary, key points). */
typedef enum emend_presented_action {
    EMEND_PRESENTED_APPLY = 0,   /* put it in the text: the runtime delivers replaces */
    EMEND_PRESENTED_COPY = 1,    /* the engine copied it; the document is unchanged */
    EMEND_PRESENTED_DISMISS = 2  /* nothing; the document is unchanged */
} emend_presented_action;

/* State of one proofreading suggestion (or one change of a rewrite under review, see
 * emend_session_review_changes). */
typedef enum emend_suggestion_state {
    EMEND_SUGGESTION_PENDING = 0,   /* in the text, underlined, awaiting the user */
    EMEND_SUGGESTION_ACCEPTED = 1,  /* kept */
    EMEND_SUGGESTION_REJECTED = 2,  /* the original text put back */
    EMEND_SUGGESTION_INVALID = 3    /* an engine edit inside it (see CHANGES: an insertion at
                                       its edge is beside it, not in it); it is gone, and its
                                       range says where it was (see emend_suggestion) */
} emend_suggestion_state;

/* Kinds of block intent (Apple's presentation intents). */
typedef enum emend_block_kind {
    EMEND_BLOCK_PARAGRAPH = 0,
    EMEND_BLOCK_HEADING = 1,       /* level: 1..6 */
    EMEND_BLOCK_LIST_ITEM = 2,     /* level: nesting depth from 1; ordinal: 0 bullet, n>0
                                    * numbered (a list numbered from 0 comes as from 1) */
    EMEND_BLOCK_TABLE_CELL = 3,    /* row, column from 0; row 0 is the header row */
    EMEND_BLOCK_CODE_BLOCK = 4,
    EMEND_BLOCK_BLOCK_QUOTE = 5
} emend_block_kind;

/* A span of text: location and length, in the coordinator's position encoding. */
typedef struct emend_range {
    uint64_t location;
    uint64_t length;
} emend_range;

/* A rectangle in the engine's own coordinate space (whatever unit it draws in). The runtime
 * never converts or interprets it: it keeps what the engine answers to requests_bounding_rects
 * and requests_underline_rects (emend_answer_rects) and tests the points the engine passes
 * to emend_session_suggestion_at_point against exactly those numbers (x <= px < x + width,
 * y <= py < y + height). So the engine picks ONE space for both — e.g. GtkTextView buffer
 * coordinates (gtk_text_view_get_iter_location, and gtk_text_view_window_to_buffer_coords
 * for a click) — and keeps it. Buffer (document) coordinates survive scrolling; a space that
 * moves when the view scrolls (widget or window coordinates) needs
 * emend_coordinator_update_for_reflowed_text after every scroll, as after a resize. */
typedef struct emend_rect {
    double x;
    double y;
    double width;
    double height;
} emend_rect;

/* One attribute on a span of text: key and value are NUL-terminated UTF-8, e.g.
 * ("bold","1"), ("link","https://..."), ("font","Serif 12"). Keys are the engine's own;
 * Emend carries them: where words of the original survive a rewrite, their runs (any key)
 * come along. Values are carried, never rewritten: a run on surviving words keeps the
 * engine's value byte for byte, even where the provider's Markdown gave the same key another
 * value there; a link whose destination the provider wrote back equal to an original URL up
 * to case (a model upper-casing everything) gets the original URL; a destination the
 * provider invents comes as a new link run. The keys below are the ones Emend itself reads
 * (as Markdown for providers) and writes (from a provider's Markdown); their value is "1"
 * unless said otherwise.
 *
 * Display attributes, for engines whose result options include EMEND_RESULT_RICH_TEXT: */
#define EMEND_ATTR_BOLD          "bold"
#define EMEND_ATTR_ITALIC        "italic"
#define EMEND_ATTR_UNDERLINE     "underline"      /* never from Markdown; carried only */
#define EMEND_ATTR_STRIKETHROUGH "strikethrough"
#define EMEND_ATTR_MONOSPACE     "monospace"      /* inline code, code blocks */
#define EMEND_ATTR_SUPERSCRIPT   "superscript"    /* never from Markdown; carried only */
#define EMEND_ATTR_SUBSCRIPT     "subscript"      /* never from Markdown; carried only */
#define EMEND_ATTR_LINK          "link"           /* value: the URL */
/* Inline presentation intents, given instead of bold/italic/monospace to engines whose
 * result options include EMEND_RESULT_PRESENTATION_INTENT (strikethrough and link stay).
 * Runs carried from the engine's text take the same form: with presentation intents an
 * original "bold" run on a word that survives arrives as "strong" (italic as emphasis,
 * monospace as code), without them an original "strong" arrives as "bold", each with the
 * engine's value; no text of a result carries both forms of one style. A revert gives back
 * the engine's own runs as they were. */
#define EMEND_ATTR_STRONG        "strong"
#define EMEND_ATTR_EMPHASIS      "emphasis"
#define EMEND_ATTR_CODE          "code"

typedef struct emend_attribute_run {
    emend_range range;
    const char *key;
    const char *value;
} emend_attribute_run;

/* A block intent (heading, list item, table cell, code block, block quote) on a span. */
typedef struct emend_block_intent {
    emend_range range;
    emend_block_kind kind;
    int32_t level;
    int32_t ordinal;
    int32_t row;
    int32_t column;
} emend_block_intent;

/* ------------------------------------------------------------------------------------------
 * Contexts: the text Writing Tools works on
 * ---------------------------------------------------------------------------------------- */

/* A context the engine gives in answer to requests_contexts. Attachments are U+FFFC
 * characters in the text; Emend never changes them. Protected ranges (code, quotes) are
 * never changed either. All ranges are relative to `text`, in the coordinator's encoding.
 * The runtime copies everything before emend_answer_contexts returns. */
typedef struct emend_context_desc {
    size_t struct_size;            /* sizeof(emend_context_desc) */
    const char *text;              /* UTF-8 */
    size_t text_length;            /* bytes */
    emend_range selection;         /* what is selected; length 0 = a caret: whole text */
    void *engine_context;          /* the engine's own pointer, handed back in callbacks */
    const emend_range *protected_ranges;
    size_t protected_range_count;
    const emend_attribute_run *attribute_runs;
    size_t attribute_run_count;
    const emend_block_intent *block_intents;
    size_t block_intent_count;
} emend_context_desc;
/* The first version of emend_context_desc ends before `engine_context`. */
#define EMEND_CONTEXT_DESC_MIN_SIZE offsetof(emend_context_desc, engine_context)

/* ------------------------------------------------------------------------------------------
 * The delegate: what the engine implements (Apple's WritingToolsCoordinator.Delegate)
 *
 * Every callback runs inside emend_coordinator_dispatch() on the engine's thread and carries
 * a `request` id. The engine answers with the matching emend_answer_* function, at once
 * inside the callback or later (from any thread). Until it answers, the session waits; an
 * answer that never comes ends the session after `completion_timeout_ms` with
 * EMEND_E_TIMEOUT — except present_result's: a person answers it, at a person's pace, so
 * it has no time limit (see present_result). A callback left NULL means "not supported" and the runtime copes
 * (e.g. no rectangles: no hit testing by point; no present_result: limited behavior is not
 * available). Pointers passed into a callback are valid until the callback returns.
 * session_ended, the last member, is the exception: a notification with no request id and
 * nothing to answer. Before answering late, emend_request_is_pending says whether the answer
 * would still be taken.
 * ---------------------------------------------------------------------------------------- */

typedef uint64_t emend_request_id;
typedef struct emend_coordinator emend_coordinator;

/* A replace: put `text` in place of `range` of the context. */
typedef struct emend_replace_request {
    size_t struct_size;
    uint64_t context_id;
    void *engine_context;          /* from the emend_context_desc */
    emend_range range;             /* in the context's current text */
    const char *text;              /* proposed UTF-8 text, `text_length` bytes; never NULL */
    size_t text_length;
    emend_replace_reason reason;
    emend_change_kind kind;
    double animation_duration;     /* seconds the engine may animate for; 0 = none */
    double animation_delay;        /* seconds before the animation starts */
    /* The styling of `text`. Only with EMEND_REPLACE_STYLED in `flags` (sent to engines whose
     * result options include rich text, lists, tables or presentation intents, for a result
     * arriving, a revert, show original/rewritten, undo and redo): the runs and intents below
     * are then the whole styling of the new text — text they do not cover has none. Without
     * the flag the text is plain and takes the styling around it (proofreading suggestions,
     * sentences streamed in). Ranges are relative to `text`, in the coordinator's encoding.
     * What the runtime gives is reduced to the engine's result options: see
     * emend_presented_result. No replace ever covers protected text or an attachment: a
     * styled change around one arrives as the replaces on either side of it, and a block
     * intent spanning it arrives in two pieces with equal fields. Valid until the callback
     * returns. */
    uint32_t flags;
    const emend_attribute_run *attribute_runs;
    size_t attribute_run_count;
    const emend_block_intent *block_intents;
    size_t block_intent_count;
} emend_replace_request;
/* emend_replace_request.flags */
#define EMEND_REPLACE_STYLED 1u

/* A result handed to the engine instead of being replaced inline (limited behavior, or a
 * summary / key points in complete behavior). */
typedef struct emend_presented_result {
    size_t struct_size;
    uint64_t context_id;
    void *engine_context;
    emend_tool tool;
    emend_range range;             /* what APPLY would replace */
    const char *text;              /* the result, UTF-8, `text_length` bytes; never NULL */
    size_t text_length;
    /* The styling of `text`, as in emend_replace_request (EMEND_REPLACE_STYLED in flags when
     * the engine takes rich results). A provider's Markdown is reduced to the engine's result
     * options: plain text gets "- " / "1. " lines for lists and tab-separated lines for
     * tables, and no markup characters; EMEND_RESULT_LIST gets list items as
     * EMEND_BLOCK_LIST_ITEM intents (no markers in the text); EMEND_RESULT_TABLE gets
     * EMEND_BLOCK_TABLE_CELL intents (cells still split by tabs, rows by newlines), else
     * tables as lines; EMEND_RESULT_PRESENTATION_INTENT gets headings, code blocks and block
     * quotes as intents and strong/emphasis/code instead of bold/italic/monospace. */
    uint32_t flags;
    const emend_attribute_run *attribute_runs;
    size_t attribute_run_count;
    const emend_block_intent *block_intents;
    size_t block_intent_count;
    /* NULL for a good result. Otherwise why the result is poor, for the user to see (the
     * model returned the text unchanged, a summary longer than its source, a list repeating
     * itself): such a result is presented, never applied inline by itself, even in complete
     * behavior. NUL-terminated UTF-8, valid until the callback returns. Plain text, never
     * markup (as emend_suggestion.explanation: escape it for a markup label).
     * A POOR RESULT IS NEVER LEFT IN THE TEXT while the person decides: a result is judged
     * once it is whole, and a rewrite's sentences stream into the text while the provider
     * writes, so what streamed in is put back first (replaces of kind REVERT), then the state
     * changes to NONINTERACTIVE (will_change_to_state), then present_result comes: the text
     * holds the original and the state never says INTERACTIVE_STREAMING while the person is
     * asked. A result that changes facts of the text (a name, number, date or negation) is
     * asked for once more from a provider that can answer differently (a model): what the
     * first answer streamed goes back first (kind CANCEL), and the second request is about
     * the same text as the first and is never streamed, so it arrives whole (kind RESULT,
     * around whatever the engine typed meanwhile) or is presented as poor with nothing to
     * put back. */
    const char *explanation;
} emend_presented_result;

/* What the rectangles of requests_rects are for. */
typedef enum emend_rect_purpose {
    EMEND_RECTS_UNDERLINE = 0,  /* proofreading marks (as requests_underline_rects) */
    EMEND_RECTS_BOUNDING = 1    /* hit testing clicks (as requests_bounding_rects) */
} emend_rect_purpose;

/* The most ranges one requests_rects names; more suggestions come in further requests. */
#define EMEND_RECT_BATCH_MAX 4096

/* Which suggestions changed (suggestions_changed). Filled by the runtime; struct_size is
 * sizeof(emend_suggestion_span) of the library, which only ever grows at the end. */
typedef struct emend_suggestion_span {
    size_t struct_size;
    size_t first;                  /* the first index that changed */
    size_t count;                  /* how many indices from `first` (>= 1) */
    size_t total;                  /* emend_session_suggestion_count now */
} emend_suggestion_span;

typedef struct emend_delegate {
    size_t struct_size;            /* sizeof(emend_delegate) */
    void *user_data;               /* passed back as the first argument of every callback */

    /* Give the contexts for `scope`: answer with emend_answer_contexts. Required. It comes a
     * dispatch (or more) after emend_coordinator_start, never inside it: give the selection
     * the engine recorded when it called start, not the one of this moment (see
     * emend_coordinator_start, SELECTION SNAPSHOT). */
    void (*requests_contexts)(void *user_data, emend_coordinator *coordinator,
                              emend_context_scope scope, emend_request_id request);

    /* Replace a range of a context: answer with emend_answer_replace (applied, with the text
     * actually inserted, or refused). Needed for complete behavior. Refusing a result's
     * replace ends the session with EMEND_E_REFUSED and puts back what was delivered;
     * refusing the replace of a suggestion reject leaves the suggestion pending, and refusing
     * one of an undo, redo, show original or show rewritten refuses that step only (the
     * session rests as before). A replace whose text the engine changed itself
     * (emend_coordinator_update_range) before it was sent is withdrawn, not sent: what it
     * would have changed is the engine's now, and the rest goes on (a revert plans what is
     * left again). */
    void (*replace)(void *user_data, emend_coordinator *coordinator,
                    const emend_replace_request *replace, emend_request_id request);

    /* Select ranges of a context (e.g. the result after a rewrite): emend_answer_done. */
    void (*select_ranges)(void *user_data, emend_coordinator *coordinator, uint64_t context_id,
                          void *engine_context, const emend_range *ranges, size_t range_count,
                          emend_request_id request);

    /* The five callbacks below name a range of the context through `range`, a pointer to an
     * emend_range owned by the runtime, never NULL, valid until the callback returns (copy
     * the two numbers to keep them). A pointer rather than a struct by value (ABI version 1
     * passed it by value), so that every FFI can implement them: LuaJIT's ffi.cast callbacks
     * and others cannot receive a struct by value. */

    /* Rectangles covering a range, for hit testing: emend_answer_rects. The rectangles are
     * in whatever coordinate space the engine chooses (see emend_rect): the same one the
     * engine later passes points in to emend_session_suggestion_at_point. */
    void (*requests_bounding_rects)(void *user_data, emend_coordinator *coordinator,
                                    uint64_t context_id, void *engine_context,
                                    const emend_range *range, emend_request_id request);

    /* Rectangles to underline a range (proofreading marks): emend_answer_rects, in the
     * engine's coordinate space as above. */
    void (*requests_underline_rects)(void *user_data, emend_coordinator *coordinator,
                                     uint64_t context_id, void *engine_context,
                                     const emend_range *range, emend_request_id request);

    /* ORDER of the three animation callbacks, for one animation: requests_preview first,
     * then prepare_for_text_animation, then (when the work is done, however the session
     * ends) finish_text_animation; each is answered before the next is sent. The preview
     * comes first because it is a picture of the text as it is shown (Apple: render the
     * range on a clear background), which the engine can take only before prepare hides
     * it. The members are listed in the struct in another order, which cannot change (ABI).
     * Which animations are requested, and when: see emend_text_animation. */

    /* Before an animation, after requests_preview was answered: hide or mark the range.
     * emend_answer_done. */
    void (*prepare_for_text_animation)(void *user_data, emend_coordinator *coordinator,
                                       emend_text_animation animation, uint64_t context_id,
                                       void *engine_context, const emend_range *range,
                                       emend_request_id request);

    /* A preview of the range for the animation, the first of the three calls (the text is
     * still shown): emend_answer_preview with an engine-owned handle (or NULL), which
     * finish_text_animation hands back for the engine to free. */
    void (*requests_preview)(void *user_data, emend_coordinator *coordinator,
                             emend_text_animation animation, uint64_t context_id,
                             void *engine_context, const emend_range *range,
                             emend_request_id request);

    /* After an animation: show the range again. emend_answer_done. Every
     * prepare_for_text_animation is followed by exactly one finish_text_animation with the
     * handle its requests_preview answered, however the session ends (result, accept, revert,
     * stop, a provider failure, a failed follow-up); only emend_coordinator_destroy skips it. */
    void (*finish_text_animation)(void *user_data, emend_coordinator *coordinator,
                                  emend_text_animation animation, uint64_t context_id,
                                  void *engine_context, const emend_range *range,
                                  void *preview, emend_request_id request);

    /* The coordinator is about to change state: emend_answer_done. Answering with
     * emend_answer_failed fails the session (nothing more is delivered; what was is put
     * back), except for the change to INACTIVE, which cannot be refused. */
    void (*will_change_to_state)(void *user_data, emend_coordinator *coordinator,
                                 emend_state new_state, emend_request_id request);

    /* Show a result (limited behavior; summary and key points; a poor result):
     * emend_answer_presented. HUMAN-PACED: the answer is the person's choice (Replace, Copy,
     * Dismiss), so no machine timeout applies to it: completion_timeout_ms does not count
     * while the result is presented (minutes or hours later the answer is still taken,
     * emend_request_is_pending stays 1), and provider_timeout_ms counted only the
     * provider's work, which is over by then. The session waits for the answer, or for
     * emend_coordinator_stop / emend_coordinator_destroy; emend_coordinator_run_until_idle
     * is not idle meanwhile (give it a timeout_ms: EMEND_E_BUSY). */
    void (*present_result)(void *user_data, emend_coordinator *coordinator,
                           const emend_presented_result *result, emend_request_id request);

    /* (Added after the first version: the runtime calls it only when struct_size covers it.)
     * The session ended: a notification, not a request — there is no request id and nothing
     * to answer. Called exactly once per session, inside emend_coordinator_dispatch() (or
     * emend_coordinator_run_until_idle()) on the engine's thread, after the state became
     * INACTIVE (after will_change_to_state(INACTIVE) was answered). `status` is EMEND_OK
     * when the session ended normally: accepted (Done), reverted, stopped, or ended by the
     * engine's own edit of all the text it worked on; `message` is then "" for a whole
     * result, or (added after the first version) says what its result lacked, as
     * emend_coordinator_get_completeness gives it: "partial result: ORG.ID did not finish
     * within N ms and was left out (raise ...)", or which providers did not take part.
     * Otherwise `status` is why
     * it failed (EMEND_E_REFUSED, EMEND_E_TIMEOUT, EMEND_E_PROVIDER, the status the engine
     * gave emend_answer_failed, ...) and `message` says why, in the coordinator's position
     * encoding where it names offsets. `message` is NUL-terminated UTF-8, never NULL, owned
     * by the runtime and valid only during the call: copy it to keep it.
     * This is how an engine that drives the coordinator from its event loop (poll
     * emend_coordinator_fd(), then emend_coordinator_dispatch(), which returns EMEND_OK even
     * when a session failed) learns why a session ended; emend_coordinator_run_until_idle()
     * returns the same status, and emend_coordinator_last_session_status() gives it on
     * request. A failed FOLLOW_UP does not end the session (it goes back to the result it
     * refined), so it does not call this. Like every callback it may answer and use getters;
     * start the next session after the dispatch returns (EMEND_E_IN_CALLBACK inside).
     * Optional (NULL: not told). */
    void (*session_ended)(void *user_data, emend_coordinator *coordinator, emend_status status,
                          const char *message);

    /* (Added after the first version: the runtime calls it only when struct_size covers it;
     * an older engine's struct_size ends before it and the engine is never called.)
     * Which proofreading suggestions changed, so a GUI re-reads those and not all of them:
     * a notification, not a request (no request id, nothing to answer). `changed` (owned by
     * the runtime, never NULL, valid during the call) names the indices first ..
     * first + count - 1 of emend_session_get_suggestion; `total` is
     * emend_session_suggestion_count now. A suggestion counts as changed when it was added
     * (the result arriving: the count grows), removed (the session ended or a new one
     * began: total shrinks, the indices at or past total are gone), its state changed
     * (accepted, rejected, INVALID, by an undo or redo too), its own text was replaced (its
     * replacement delivered, its original put back: its range's length changed) or its
     * underline rectangles arrived (emend_session_get_suggestion_rects). A suggestion that
     * only moved because text before it changed is NOT reported: the engine's marks move with
     * its own text (a GtkTextTag, an extmark) and every range read afterwards is current.
     * Coalesced: at most one call per emend_coordinator_dispatch(), at its end, spanning
     * every index that changed during it (and, for changes the engine made between
     * dispatches, such as emend_session_accept_suggestion or an update_range that made a
     * suggestion INVALID, the next dispatch: such a change makes the descriptor readable).
     * The span may hold indices that did not change (those between two that did); a span
     * with count 0 does not come. Runs on the engine's thread inside dispatch, like every
     * callback: it may use the getters (emend_session_get_suggestion of each index of the
     * span: constant time each); calls that change the session return EMEND_E_IN_CALLBACK.
     * Optional (NULL: not told). */
    void (*suggestions_changed)(void *user_data, emend_coordinator *coordinator,
                                const emend_suggestion_span *changed);

    /* (Added after the first version, like suggestions_changed.) Rectangles for MANY ranges
     * in one request: answer with emend_answer_rects_batch, one list of rectangles per range,
     * in the order of `ranges`. When the engine has it, the runtime asks through it
     * instead of requests_underline_rects and requests_bounding_rects (which are then never
     * called and may be NULL): the underlines of all pending suggestions after the result
     * arrived and after each emend_coordinator_update_for_reflowed_text, and the bounds of
     * every suggestion that is not INVALID at the first emend_session_suggestion_at_point
     * of a layout, each in one request per EMEND_RECT_BATCH_MAX ranges (3,200 suggestions:
     * one request, answered in one call, instead of 3,200 event-loop round trips). `purpose` says which. `ranges` (range_count
     * >= 1, in the coordinator's encoding, ascending, of context `context_id`) is owned by
     * the runtime and valid until the callback returns. Every range is asked for, visible
     * or not: buffer coordinates (see emend_rect) exist for the whole text; an engine that
     * cannot lay out a range now gives 0 rectangles for it. Rectangles are in the engine's
     * coordinate space, as for the one-range callbacks. Like them it may be answered late
     * (any thread); emend_session_suggestion_at_point answers EMEND_E_AGAIN meanwhile.
     * Optional (NULL: the one-range callbacks are used, one request per suggestion). */
    void (*requests_rects)(void *user_data, emend_coordinator *coordinator,
                           emend_rect_purpose purpose, uint64_t context_id, void *engine_context,
                           const emend_range *ranges, size_t range_count,
                           emend_request_id request);
} emend_delegate;
/* The first version of emend_delegate ends before `replace`. */
#define EMEND_DELEGATE_MIN_SIZE offsetof(emend_delegate, replace)

/* ------------------------------------------------------------------------------------------
 * Answers to delegate callbacks (Apple's completion handlers)
 *
 * Thread: any. Each request is answered once; a second answer, or one after the session
 * ended, returns EMEND_E_STALE and changes nothing. The answer is acted on in the next
 * emend_coordinator_dispatch().
 * ---------------------------------------------------------------------------------------- */

/* Answer requests_contexts. `contexts` (count >= 1) is copied before returning; each is
 * validated (UTF-8, ranges, struct_size) and a bad one fails the whole answer, which the
 * engine may then give again. The array's stride is contexts[0].struct_size (see STRUCTS:
 * it need not be aligned); count times the stride is at most 1 GiB (see LENGTHS).
 * Thread: any. */
emend_status emend_answer_contexts(emend_coordinator *coordinator, emend_request_id request,
                                   const emend_context_desc *contexts, size_t count);

/* Answer replace. APPLIED with `inserted_text` NULL means the proposed text went in exactly as
 * proposed; a non-NULL `inserted_text` (`inserted_length` bytes, UTF-8) is what the engine
 * really put in place of the range — a non-NULL pointer with length 0 means it inserted
 * nothing (bindings: pass NULL, not an empty slice, for "as proposed"; or better, use
 * emend_answer_replace_as_proposed, which cannot be mistaken). REFUSED means the
 * text is unchanged; the inserted text is ignored. Thread: any. */
emend_status emend_answer_replace(emend_coordinator *coordinator, emend_request_id request,
                                  emend_replace_answer answer, const char *inserted_text,
                                  size_t inserted_length);

/* Answer replace: APPLIED, with exactly the proposed text — the same as emend_answer_replace
 * with APPLIED and a NULL `inserted_text`, without depending on a NULL pointer. Why: a binding
 * whose empty buffer is not NULL (a Rust empty slice, a Python b"") would turn "as proposed"
 * into "inserted nothing" with emend_answer_replace. Thread: any. */
emend_status emend_answer_replace_as_proposed(emend_coordinator *coordinator,
                                              emend_request_id request);

/* Answer requests_bounding_rects / requests_underline_rects. `rects` is copied. Thread: any. */
emend_status emend_answer_rects(emend_coordinator *coordinator, emend_request_id request,
                                const emend_rect *rects, size_t count);

/* Answer requests_rects: range i of the request gets rect_counts[i] rectangles, taken in
 * turn from `rects` (range 0's first, then range 1's, ...). `range_count` must be the
 * request's range_count, and `rect_count` the sum of rect_counts (0 is allowed: no range
 * has rectangles now); else EMEND_E_INVALID_ARGUMENT and the request still awaits its
 * answer. `rects` may be NULL when rect_count is 0. Both arrays are copied before
 * returning. Thread: any. */
emend_status emend_answer_rects_batch(emend_coordinator *coordinator, emend_request_id request,
                                      const size_t *rect_counts, size_t range_count,
                                      const emend_rect *rects, size_t rect_count);

/* Answer requests_preview with an engine-owned handle (may be NULL). Thread: any. */
emend_status emend_answer_preview(emend_coordinator *coordinator, emend_request_id request,
                                  void *preview);

/* Answer present_result. Thread: any. */
emend_status emend_answer_presented(emend_coordinator *coordinator, emend_request_id request,
                                    emend_presented_action action);

/* Answer any callback that returns nothing (select, prepare, finish, will_change_to_state). Thread: any. */
emend_status emend_answer_done(emend_coordinator *coordinator, emend_request_id request);

/* Whether `request` still awaits its answer: *out_pending is 1 when an answer would be
 * taken, 0 when it would be refused as EMEND_E_STALE (answered already, withdrawn by a stop,
 * timed out after completion_timeout_ms, its session or coordinator gone, or never issued).
 * For an engine answering late (from a worker, after a dialog) to know whether acting on the
 * answer still matters before it changes its document. The answer can still become stale
 * between this call and the answer (a timeout on the engine's thread): the answer's own
 * status stays the final word. A destroyed coordinator gives 0, not an error. Thread: any. */
emend_status emend_request_is_pending(const emend_coordinator *coordinator, emend_request_id request,
                                      int *out_pending);

/* Answer any callback with a failure: the session ends (state inactive) with `status`
 * (EMEND_OK or an unknown status becomes EMEND_E_INTERNAL) and `message` (may be NULL);
 * whatever was delivered is put back (replaces of kind CANCEL), as by a stop. A failed
 * follow-up instead goes back to the result it refined and the session stays. Thread: any. */
emend_status emend_answer_failed(emend_coordinator *coordinator, emend_request_id request,
                                 emend_status status, const char *message);

/* ------------------------------------------------------------------------------------------
 * Coordinator
 * ---------------------------------------------------------------------------------------- */

/* Where a coordinator's provider hosts run: the processes that load the provider plugins
 * (a discovered plugin runs in one unless config.toml sets `isolation = "none"` for it; the
 * built-in fixture runs in the engine's process and needs no host). A host is a process per plugin; a checker with a model or a Python
 * runtime takes seconds to start and tens to hundreds of MB to hold, so an engine that
 * makes a coordinator per view (a buffer, a tab) pays that for every view with own
 * processes, and once for all views and front ends with the service.
 *
 * Who decides, strongest first:
 *   1. EMEND_SERVICE in the environment: "on"/"1" = the service, "off"/"0" = own processes
 *      (for tests and debugging; it overrides the engine and the user);
 *   2. with SERVICE or DEFAULT, the user's config.toml `[service] hosts = "service"` or
 *      `"process"` (the user's choice wins over the engine's preference); OWN ignores it;
 *   3. the engine's preference here: SERVICE = the service, DEFAULT and OWN = own processes.
 * The service is the per-user checker service (`emend service status`), started on first
 * use (`emend-provider-host --service`, detached: it outlives the engine and exits after
 * `[service] idle_timeout_ms`, default 10 minutes, without front ends). Its socket is in
 * $XDG_RUNTIME_DIR/emend (else /tmp/emend-UID); when that directory is not safe (not a
 * directory, not the user's own, open to others and cannot be closed), or the service
 * cannot be started or reached, the coordinator uses own processes instead and says why on
 * standard error with EMEND_LOG=1 — a proofread is never refused for it. The route is fixed
 * at emend_coordinator_create (config.toml and the environment are read then). A value the
 * header does not define is EMEND_E_INVALID_ARGUMENT at create. */
typedef enum emend_provider_hosts {
    EMEND_PROVIDER_HOSTS_DEFAULT = 0, /* config.toml `[service] hosts`, else own processes
                                         (what every engine got before this field) */
    EMEND_PROVIDER_HOSTS_SERVICE = 1, /* the per-user checker service, unless config.toml or
                                         EMEND_SERVICE say otherwise: for an engine with a
                                         coordinator per view, or several engines of a user */
    EMEND_PROVIDER_HOSTS_OWN = 2      /* own processes, children of the engine, whatever
                                         config.toml says (EMEND_SERVICE=on still overrides):
                                         for an engine whose providers must live and die
                                         with it, or run in its own sandbox */
} emend_provider_hosts;

typedef struct emend_coordinator_options {
    size_t struct_size;                     /* sizeof(emend_coordinator_options) */
    emend_position_encoding encoding;       /* default UTF-8 */
    emend_behavior preferred_behavior;      /* default DEFAULT */
    emend_result_options preferred_result_options; /* default 0 (plain text) */
    uint32_t completion_timeout_ms;         /* an unanswered callback ends the session;
                                               0 = 30000 ms. Machine time only: it never
                                               applies to present_result, which a person
                                               answers */
    uint32_t provider_timeout_ms;           /* a provider that does not finish; 0 = 60000 ms.
                                               A combined proofread ends its slower checkers
                                               before it and answers with a partial result
                                               (emend_coordinator_get_completeness); the
                                               limit is one instant for both, and such a
                                               run fails (EMEND_E_TIMEOUT) only when that
                                               answer has not come 5 s after it, so a
                                               loaded machine does not turn the partial
                                               result into a failure */
    uint32_t stream_chunk_bytes;            /* while a provider writes a rewrite, its finished
                                               sentences replace the original's sentences one
                                               for one once at least this many new bytes
                                               arrived; 0 = the default: every sentence as
                                               soon as the next one begins; UINT32_MAX = only
                                               the whole result */
    const char *language;                   /* BCP 47 tag of the text, NUL-terminated, copied;
                                               providers use it (a speller's dictionary);
                                               NULL = "en-US", and proofread checks each
                                               paragraph in the language it is written in
                                               when that is confidently another (with
                                               libexttextcat installed), as the emend
                                               command does without --language; a tag
                                               given here applies to every paragraph */
    emend_provider_hosts provider_hosts;    /* where the provider hosts of this coordinator
                                               run; default DEFAULT (see
                                               emend_provider_hosts). An older engine's
                                               struct_size that ends before this field
                                               means DEFAULT */
} emend_coordinator_options;
/* The first version of emend_coordinator_options ends before `preferred_result_options`. */
#define EMEND_COORDINATOR_OPTIONS_MIN_SIZE offsetof(emend_coordinator_options, preferred_result_options)

/* Create a coordinator for one text view. `delegate` and `options` (NULL = defaults) are
 * copied. The calling thread becomes the coordinator's thread. On success *out receives
 * the handle, which the engine frees with emend_coordinator_destroy. */
emend_status emend_coordinator_create(const emend_delegate *delegate,
                                      const emend_coordinator_options *options,
                                      emend_coordinator **out);

/* Free the coordinator: running providers are cancelled and no callback runs any more (the
 * document stays as it is: nothing delivered is put back). Destroy returns once no provider
 * code of this coordinator executes any more: each cancelled run, a plugin's run function
 * included, gets up to 5 seconds after its cancel to return; one that ignores cancellation
 * longer is abandoned (logged), and what it can reach is kept alive for the process, never
 * freed under it. A plugin run in a provider host (the default isolation) executes none of
 * its code in this process: its run returns at once, and a reaper thread kills the host if
 * it has not stopped within cancel_grace_ms, so destroy does not wait for it. Its
 * descriptor is closed and its memory freed before destroy returns. Requests still unanswered are dropped: answering one later, from any thread and even
 * with this now destroyed handle, returns EMEND_E_STALE and does nothing (a concurrent
 * answer is safe too). Preview handles the engine gave (emend_answer_preview) whose
 * finish_text_animation has not come are not handed back: the engine frees them itself.
 * NULL, or a coordinator already destroyed, is ignored. Not from inside a callback.
 * Thread: the coordinator's. Returns nothing; the handle is invalid afterwards. */
void emend_coordinator_destroy(emend_coordinator *coordinator);

/* A file descriptor for the engine's event loop: an epoll instance (holding the runtime's
 * eventfd for posted work and timerfd for deadlines), so it is readable while there is work
 * for emend_coordinator_dispatch(), or a deadline (a callback's completion timeout, the
 * provider's) has come. Watch it for readability (POLLIN / EPOLLIN / G_IO_IN / UV_READABLE)
 * and call emend_coordinator_dispatch() each time it is readable. It is level-triggered:
 * it stays readable until a dispatch has run the work, so not dispatching makes the loop
 * spin, and a wake-up that finds nothing to do (dispatch processes 0 items) is harmless.
 * An edge-triggered watcher (EPOLLET) must dispatch on every wake-up. Never read from it,
 * write to it or close it: it is owned by the coordinator and closed by
 * emend_coordinator_destroy() (remove it from the loop first). The same number for the
 * coordinator's lifetime. Returns -1 for NULL. Thread: any. */
int emend_coordinator_fd(const emend_coordinator *coordinator);

/* Run pending work, including delegate callbacks, without blocking. One dispatch returns
 * after about 3 ms of work even when more is pending (a provider streaming thousands of
 * pieces, a proofread with thousands of replaces answered at once), so the engine's thread
 * is never held longer than a few milliseconds; the rest stays queued and the descriptor
 * of emend_coordinator_fd() stays readable, so the event loop calls dispatch again. If
 * `processed` is not NULL it receives the number of work items run. Thread: the
 * coordinator's. Must not be called from inside a callback (EMEND_E_IN_CALLBACK). */
emend_status emend_coordinator_dispatch(emend_coordinator *coordinator, size_t *processed);

/* Dispatch until the coordinator is idle (no provider running, no work pending, no
 * callback awaiting an answer) or `timeout_ms` passes (EMEND_E_BUSY: nothing failed, the work
 * goes on; call again. Negative = no limit).
 * Idle also means that no provider code of this coordinator still executes: after a stop or
 * a failure, a cancelled run (a plugin still inside its run function) is waited for, at most
 * 5 seconds after its cancel (see emend_coordinator_destroy).
 * Returns the status the last session failed with, if it failed during this call.
 * For simple programs and tests. Thread: the coordinator's. */
emend_status emend_coordinator_run_until_idle(emend_coordinator *coordinator, int timeout_ms);

/* How the last session that ended ended, for engines that prefer asking to the
 * session_ended notification (event-loop engines: use session_ended, which tells at the
 * moment it happens; emend_coordinator_dispatch() itself returns EMEND_OK when a session
 * fails). *out_status receives EMEND_OK when that session was accepted, reverted or stopped
 * (and before any session ended), else the status it failed with; then the calling thread's
 * emend_last_error_message() is set to why (offsets in the coordinator's position encoding),
 * although the call itself returns EMEND_OK. The value stays until the next session ends;
 * a session still running is not "ended". Allowed inside callbacks (a getter).
 * Thread: the coordinator's. */
emend_status emend_coordinator_last_session_status(const emend_coordinator *coordinator,
                                                   emend_status *out_status);

/* (Added after the first version.) Whether a result is whole or lacks what a provider should
 * have given: proofreading combines several checkers, each with its own time limit. */
typedef enum emend_completeness {
    EMEND_COMPLETENESS_UNKNOWN = 0,  /* no provider run reported it yet: no session has run a
                                        tool, or the run was one provider's (whole or failed);
                                        and for a session that failed (it has no result: its
                                        status and message say why, naming each checker that
                                        gave nothing), from before its change to INACTIVE */
    EMEND_COMPLETENESS_COMPLETE = 1, /* every provider that took part answered */
    EMEND_COMPLETENESS_PARTIAL = 2   /* a provider that took part timed out or failed and was
                                        left out: its suggestions are missing */
} emend_completeness;

/* (Added after the first version.) How complete the latest result is: that of the current
 * session's provider run once it finished (while the user reviews a proofread), else that of
 * the last session that ended; UNKNOWN until a run reported it, again while a new run is
 * working, and for a session that failed (never PARTIAL beside a failure). *out_completeness receives it. The message says, per provider that did not give
 * its part, why and what to do, e.g. "partial result: org.emend.harper did not finish within
 * 42000 ms and was left out (raise [providers."org.emend.harper"] timeout_ms in config.toml,
 * or the command's time limit)"; it also names providers that did not take part (a language
 * they do not serve, proofreading turned off: "org.emend.llama did not take part: ..."),
 * which leaves the result COMPLETE. "" when there is nothing to say. Each checker's time
 * limit counts from its own start, grows with the text's size, is set per provider with
 * timeout_ms in its [providers."ID"] table of config.toml and never passes the coordinator's
 * provider_timeout_ms (the combination answers with what it has before that).
 * The message is copied into `buffer` of `capacity` bytes with a NUL (UTF-8, no offsets in
 * it); *length (required) receives its byte length without the NUL. With buffer NULL only
 * *length and *out_completeness are set; EMEND_E_RANGE if capacity is too small (nothing is
 * copied then, *length and *out_completeness are still set). `out_completeness` may be NULL.
 * Constant time. Allowed inside callbacks (a getter). Thread: the coordinator's. */
emend_status emend_coordinator_get_completeness(const emend_coordinator *coordinator,
                                                emend_completeness *out_completeness,
                                                char *buffer, size_t capacity, size_t *length);

/* Preferred behavior (a request) and the resolved one (never DEFAULT): complete when the
 * delegate has replace, limited when it has only present_result, none otherwise.
 * Changing the preference during a session is EMEND_E_STATE. Thread: the coordinator's. */
emend_status emend_coordinator_set_preferred_behavior(emend_coordinator *coordinator,
                                                      emend_behavior behavior);
emend_status emend_coordinator_get_behavior(const emend_coordinator *coordinator,
                                            emend_behavior *preferred, emend_behavior *resolved);

/* Preferred result options and the resolved ones: plain text is always included; 0 resolves
 * to plain text; presentation intent implies rich text. Unknown bits are
 * EMEND_E_INVALID_ARGUMENT. Thread: the coordinator's. */
emend_status emend_coordinator_set_preferred_result_options(emend_coordinator *coordinator,
                                                            emend_result_options options);
emend_status emend_coordinator_get_result_options(const emend_coordinator *coordinator,
                                                  emend_result_options *preferred,
                                                  emend_result_options *resolved);

/* The current state. Thread: the coordinator's. */
emend_status emend_coordinator_get_state(const emend_coordinator *coordinator,
                                         emend_state *state);

/* What a session starts with. `prompt` is NUL-terminated UTF-8: the described change, the
 * compose prompt or the follow-up request; NULL for tools that take none. `provider_id`
 * (NUL-terminated) names a provider, NULL for the default. */
typedef struct emend_tool_request {
    size_t struct_size;            /* sizeof(emend_tool_request) */
    emend_tool tool;
    emend_context_scope scope;
    const char *prompt;
    const char *provider_id;
} emend_tool_request;
/* The first version of emend_tool_request ends before `prompt`. */
#define EMEND_TOOL_REQUEST_MIN_SIZE offsetof(emend_tool_request, prompt)

/* Start a tool: the coordinator asks the delegate for contexts, runs the provider on a
 * runtime thread, and delivers the result through the delegate during dispatch.
 * SELECTION SNAPSHOT: requests_contexts never runs inside this call; it comes in a later
 * dispatch (after will_change_to_state, when the engine has it, was answered). By then the
 * selection may have moved (the click that opened the menu, a popover taking focus, typing).
 * So the engine records the selection when it calls start (in GTK: two GtkTextMarks, which
 * move with edits) and answers requests_contexts with that snapshot and its text as it is,
 * not with the selection of that moment. The tool
 * works on the first context the engine gives: its selection widened to whole sentences (a
 * caret: the whole context), with the surrounding paragraphs as the provider's context.
 * Compose inserts at the selection. In complete behavior results replace text inline (each
 * distinct change its own replace); summary and key points, and every tool in limited
 * behavior, arrive through present_result. FOLLOW_UP needs a finished rewrite in the current
 * session and refines it; every other tool needs state INACTIVE (EMEND_E_STATE otherwise).
 * A failure later in the session ends it: the delegate's session_ended tells (event-loop
 * engines), emend_coordinator_run_until_idle returns it, and
 * emend_coordinator_last_session_status gives it afterwards. Thread: the coordinator's. */
emend_status emend_coordinator_start(emend_coordinator *coordinator,
                                     const emend_tool_request *request);

/* Stop the session (Apple's stopWritingTools): cancel the provider and put back whatever the
 * session delivered, so the document becomes the original. The restoring replaces (kind
 * CANCEL) run in the following dispatches; a replace the engine still owes an answer for is
 * awaited first. The state becomes INACTIVE once the restore is done. OK when there is no
 * session. From the stop until then, accept, revert, undo, redo, show original, the
 * suggestion calls and a follow-up return EMEND_E_STATE: the session is ending.
 * Thread: the coordinator's. */
emend_status emend_coordinator_stop(emend_coordinator *coordinator);

/* The ids of the current session's contexts, in the order the engine gave them in its
 * emend_answer_contexts (the working context, the first, first): the ids that
 * emend_coordinator_update_range, emend_session_suggestion_at_offset and
 * emend_session_copy_result take. They exist from the dispatch that takes the contexts
 * answer until the session ends (then *out_count is 0). Up to `capacity` ids are copied to
 * `out_ids` (which may be NULL when `capacity` is 0); *out_count receives how many there are,
 * so a call with capacity 0 asks for the count. Thread: the coordinator's; allowed inside
 * callbacks. */
emend_status emend_coordinator_context_ids(const emend_coordinator *coordinator, uint64_t *out_ids,
                                           size_t capacity, size_t *out_count);

/* The engine changed text of a context itself (typing, its own undo): `range` of the
 * context's text as the runtime last knew it now reads `text` (`text_length` bytes). Ranges
 * after it move. The edit is the engine's and is kept whatever the session does next (see
 * NOTHING LOST): the session goes on; an edit in a proofreading suggestion (see CHANGES) makes
 * that suggestion INVALID (and drops its undo steps); a change inside a rewrite's region is
 * kept when the original is shown, on undo, redo, revert and in a result still being
 * written (streaming stops; the whole result arrives around the edit), also when that result
 * is asked for again (a retry, see emend_presented_result.explanation: it asks about the text
 * as the first request read it, so it never writes over the engine's edit). Only an edit that
 * replaces all the text a running tool works on ends that session: nothing is left to work
 * on. An update that changes nothing (an empty range and no text, or the same text) is
 * ignored. EMEND_E_NOT_FOUND for a context id that is not part of the current session.
 * Thread: the coordinator's. */
emend_status emend_coordinator_update_range(emend_coordinator *coordinator, uint64_t context_id,
                                            emend_range range, const char *text,
                                            size_t text_length, emend_text_update_reason reason);

/* Layout changed (resize, font): the runtime forgets rectangles and asks again for the
 * underline rects of pending suggestions. Thread: the coordinator's. */
emend_status emend_coordinator_update_for_reflowed_text(emend_coordinator *coordinator);

/* ------------------------------------------------------------------------------------------
 * Providers: who does the work (plugins found at run time, and the built-in fixture)
 *
 * emend_coordinator_create discovers providers (see emend_provider.h: EMEND_PROVIDER_PATH,
 * $XDG_DATA_HOME/emend/providers, <libdir>/emend/providers; new or changed files are probed
 * in a child process, the results cached in $XDG_CACHE_HOME/emend/) and reads the user's
 * $XDG_CONFIG_HOME/emend/config.toml. Nothing is loaded until a provider is used.
 * ---------------------------------------------------------------------------------------- */

/* Provider flags in emend_provider_info. */
enum {
    EMEND_PROVIDER_INFO_STREAMS = 1,       /* emits its result in pieces */
    EMEND_PROVIDER_INFO_USES_NETWORK = 2,  /* sends text over the network */
    EMEND_PROVIDER_INFO_BUILT_IN = 4,      /* part of libemend (the deterministic fixture) */
    EMEND_PROVIDER_INFO_SIMPLE_FORM = 8    /* a C function bound through a manifest and libffi */
};

/* One provider as discovery sees it, usable or not. Strings are NUL-terminated UTF-8 owned by
 * the coordinator, valid until the next emend_coordinator_* or emend_session_* call on it
 * that is not a getter. */
typedef struct emend_provider_info {
    size_t struct_size;            /* set by the caller: sizeof(emend_provider_info) */
    const char *id;                /* reverse DNS; "" for a file that could not be read */
    const char *name;
    const char *version;
    const char *path;              /* the plugin or manifest file; "" for built-in providers */
    uint32_t tools;                /* bit (1 << t) for each emend_tool t it serves */
    const char *languages;         /* comma separated BCP 47 tags, "*" for any */
    uint32_t flags;                /* EMEND_PROVIDER_INFO_* */
    int32_t priority;              /* higher is preferred when config.toml names none */
    int32_t enabled;               /* 1: usable; 0: see reason */
    const char *reason;            /* why it is not usable (broken, network, disabled); "" */
} emend_provider_info;
/* The first version of emend_provider_info ends before `tools`. */
#define EMEND_PROVIDER_INFO_MIN_SIZE offsetof(emend_provider_info, tools)

/* How many providers the coordinator knows (usable or not). Thread: the coordinator's. */
emend_status emend_coordinator_provider_count(const emend_coordinator *coordinator, size_t *count);

/* Fill `out` (out->struct_size set) with provider `index`. EMEND_E_NOT_FOUND past the end.
 * Thread: the coordinator's. */
emend_status emend_coordinator_get_provider(const emend_coordinator *coordinator, size_t index,
                                            emend_provider_info *out);

/* Use provider `provider_id` (NUL-terminated) for `tool` on this coordinator; NULL goes back
 * to the preferred one (config.toml's order, then priority). EMEND_E_NOT_FOUND for an
 * unknown id, EMEND_E_UNSUPPORTED when it does not serve the tool, EMEND_E_REFUSED when it is
 * off (broken, disabled, or using the network without permission; the message says why).
 * A request's own provider_id still wins. Without a chosen provider, proofread combines
 * every usable plugin that serves it (spelling and grammar), or those config.toml lists. A
 * chosen (or requested) proofreading checker runs as that combination would with it alone:
 * the same filter, time limit and completeness report, and each paragraph checked in its
 * detected language when the options set none.
 * Thread: the coordinator's. */
emend_status emend_coordinator_choose_provider(emend_coordinator *coordinator, emend_tool tool,
                                               const char *provider_id);

/* ------------------------------------------------------------------------------------------
 * The user's dictionary and ignored rules ("Add to dictionary", "Ignore rule")
 *
 * Two plain files in $XDG_CONFIG_HOME/emend/ (default ~/.config/emend/), shared with the
 * `emend` command (its interactive review's "add") and `emend lsp` (its emend.addToDictionary
 * and emend.ignoreRule commands), and read by every proofreading provider:
 *   dictionary.txt     one word a line; a word in lower case also accepts its Capitalised
 *                      and UPPER-CASE forms, a word with capitals itself and its upper case;
 *   ignored-rules.txt  one rule id (emend_suggestion.rule_id) a line.
 * The directory is the one of the environment at emend_coordinator_create (XDG_CONFIG_HOME,
 * else HOME). Every proofread reads both files again when it starts, so an addition counts
 * from the next emend_coordinator_start on, in this coordinator and in every other one and
 * every process. The session running now is left as it is: its suggestions stay (an engine
 * that wants the mark gone at once rejects the suggestion, emend_session_reject_suggestion,
 * which puts the user's word back, and the other pending suggestions with the same
 * `original` or `rule_id` if it likes).
 * ---------------------------------------------------------------------------------------- */

/* Add `word` (NUL-terminated UTF-8; for a suggestion, its `original`) to dictionary.txt.
 * White space around it is trimmed; a word already there changes nothing (EMEND_OK). The
 * line is appended with one write (two processes adding at once each get theirs).
 * EMEND_E_INVALID_ARGUMENT: `word` NULL, empty, starting with '#', or holding white space or
 * control characters inside (one word a line); EMEND_E_INVALID_UTF8; EMEND_E_REFUSED: the
 * file cannot be written (no XDG_CONFIG_HOME or HOME, a directory that cannot be created,
 * permissions; the message names the path). On failure nothing is written.
 * Not a call that changes the session: allowed during a session and inside callbacks, and
 * the strings emend_session_get_suggestion lent stay valid (pass s.original directly). It
 * does a short blocking append to a local file. Thread: the coordinator's. */
emend_status emend_coordinator_add_word(emend_coordinator *coordinator, const char *word);

/* Add `rule_id` (NUL-terminated UTF-8; a suggestion's `rule_id`) to ignored-rules.txt: the
 * next proofreads drop that rule's suggestions. Same rules, statuses and thread as
 * emend_coordinator_add_word. */
emend_status emend_coordinator_ignore_rule(emend_coordinator *coordinator, const char *rule_id);

/* ------------------------------------------------------------------------------------------
 * The session after a result
 *
 * STEP IN FLIGHT: from a call that delivers a change (emend_session_reject_suggestion, undo,
 * redo, show original; the result itself arriving) until the dispatch that delivers it,
 * emend_session_accept, emend_session_revert, emend_session_show_original,
 * emend_session_accept_suggestion, emend_session_reject_suggestion, emend_session_undo,
 * emend_session_redo, emend_session_review_changes and emend_session_suggestion_at_point
 * answer EMEND_E_AGAIN and change nothing: keep the key press or click, dispatch, then call
 * again. (Before, all but the last answered EMEND_E_STATE, which reads as "no result".)
 * EMEND_E_STATE stays for "there is no result to review": no session, a tool still running,
 * a session stopping.
 * ---------------------------------------------------------------------------------------- */

/* Done: keep the result, end the session (state INACTIVE). EMEND_E_STATE without a finished
 * result. Thread: the coordinator's. */
emend_status emend_session_accept(emend_coordinator *coordinator);

/* Put the original back byte for byte (with the engine's own edits kept, see NOTHING LOST)
 * and end the session. Thread: the coordinator's. */
emend_status emend_session_revert(emend_coordinator *coordinator);

/* Toggle between the original (show_original != 0) and the result, as Apple's
 * "show original" / "show rewritten", through replaces of kind SHOW_ORIGINAL/SHOW_REWRITTEN.
 * For rewrites (proofreading is reviewed per suggestion: EMEND_E_UNSUPPORTED; a rewrite
 * whose changes are under review, emend_session_review_changes, is too: EMEND_E_STATE, reject
 * a change to see its original). An engine
 * that refuses one of these replaces refuses the step: what it delivered is put back (as
 * replaces of the same kind) and the session rests as before; it does not end.
 * Thread: the coordinator's. */
emend_status emend_session_show_original(emend_coordinator *coordinator, int show_original);

/* One proofreading suggestion, or one change of a rewrite under review (see
 * emend_session_review_changes; its category is "rewrite"). Pointers stay valid until the next emend_coordinator_* or
 * emend_session_* call on this coordinator that is not a getter. */
typedef struct emend_suggestion {
    size_t struct_size;            /* set by the caller: sizeof(emend_suggestion) */
    uint64_t context_id;
    emend_range range;             /* where the suggestion's text is now. INVALID: where it
                                      was, so a UI can clear its mark there: the span the
                                      engine's edit that invalidated it left, i.e. its range
                                      joined with the edit's new text (the suggestion "teh"
                                      at {4,3} and an edit putting "xyz" in place of {5,1}
                                      give {4,5}; an edit deleting all of it gives the empty
                                      range where it was). Later edits move it like any
                                      range, and one that edits it again joins it the same
                                      way. (Before, an INVALID suggestion said {0,0}.) */
    const char *original;          /* the text it replaced; NUL-terminated UTF-8 */
    const char *replacement;       /* the suggested text; NUL-terminated UTF-8 */
    const char *explanation;       /* why; NUL-terminated, may be "". Plain text for people,
                                      never markup: show it as text (escape it before putting
                                      it into markup: g_markup_escape_text, HTML escaping).
                                      Every provider's message is cleaned on its way here,
                                      whatever the provider wrote: LanguageTool's
                                      <suggestion>could have</suggestion> and Harper's
                                      `could have` become “could have” (curly quotes), other
                                      tags are removed. Every further replacement the
                                      provider proposes is listed at the end as
                                      Other suggestions: “a”, “b”. (each in curly quotes,
                                      separated by ", ", ending with "."), so an engine can
                                      offer them beside `replacement` */
    const char *category;          /* one of "spelling" (a word not in the dictionary or
                                      written for another), "grammar", "punctuation",
                                      "style" (wordiness, repetition, matters of taste; off
                                      unless [proofreading] style = true), "typography" (off
                                      unless [proofreading] typography = true); "" only from
                                      a provider outside the proofreading filter;
                                      "rewrite" for a rewrite's change under review, whose
                                      explanation and rule_id are "" */
    const char *rule_id;           /* the provider's rule, may be "" */
    emend_suggestion_state state;
} emend_suggestion;
/* The first version of emend_suggestion ends before `original`. */
#define EMEND_SUGGESTION_MIN_SIZE offsetof(emend_suggestion, original)

/* Number of proofreading suggestions of the session (any state), or of the changes of a
 * rewrite under review (see emend_session_review_changes); 0 for a rewrite not under review.
 * Constant time.
 * Thread: the coordinator's. */
emend_status emend_session_suggestion_count(const emend_coordinator *coordinator,
                                            size_t *count);

/* Fill `out` (with out->struct_size set) with suggestion `index`. Constant time: its cost
 * does not grow with the number of suggestions or the length of the text, so reading all n
 * costs n calls' worth (the delegate's suggestions_changed says which to read again).
 * EMEND_E_NOT_FOUND past the end. Thread: the coordinator's. */
emend_status emend_session_get_suggestion(const emend_coordinator *coordinator, size_t index,
                                          emend_suggestion *out);

/* Keep suggestion `index` (its mark goes away). EMEND_E_STATE unless it is PENDING. Thread: the coordinator's. */
emend_status emend_session_accept_suggestion(emend_coordinator *coordinator, size_t index);

/* Put back the original text of suggestion `index` (a replace during the next dispatch).
 * EMEND_E_STATE unless it is PENDING. An engine that refuses the replace leaves the
 * suggestion PENDING (not a step to undo). Thread: the coordinator's. */
emend_status emend_session_reject_suggestion(emend_coordinator *coordinator, size_t index);

/* The pending suggestion whose range contains `offset` of a context (or whose empty range, a
 * deletion, is at it); EMEND_E_NOT_FOUND if none. Its cost grows with the logarithm of the
 * number of suggestions, never with the session: suggestions never overlap and keep their
 * text order through every edit, so it searches their current ranges by halving (INVALID
 * ones are out of the search). Thread: the coordinator's. */
emend_status emend_session_suggestion_at_offset(const emend_coordinator *coordinator,
                                                uint64_t context_id, uint64_t offset,
                                                size_t *index);

/* The pending suggestion whose bounding rectangles (asked from the engine once per layout,
 * for every suggestion that is not INVALID: one an undo makes pending again is found too)
 * contain the point; EMEND_E_NOT_FOUND if none, EMEND_E_UNSUPPORTED without
 * requests_bounding_rects and requests_rects. Cost: the first call after the rectangles
 * arrived sorts them by their top (once per layout, until the next
 * emend_coordinator_update_for_reflowed_text); every call then searches by halving and
 * tests only the rectangles whose top lies at most the tallest rectangle's height above the
 * point (on a page of text: the suggestions of a line or two), never every suggestion. The point is in the coordinate space of the engine's own
 * emend_answer_rects answers (see emend_rect). Rectangles not known yet are requested, and
 * the call answers EMEND_E_AGAIN — never EMEND_E_STATE — for as long as they are outstanding
 * (the engine has not answered a requests_bounding_rects yet, or its answer waits for the
 * next dispatch) and while the session is delivering a change with suggestions pending
 * (the proofread result arriving, a rejected suggestion's replace): keep the click,
 * dispatch, then ask again. EMEND_E_STATE only when there is no proofreading result or
 * rewrite under review to hit test (no session, a rewrite whose changes are not under review,
 * a session stopping). Thread: the coordinator's. */
emend_status emend_session_suggestion_at_point(emend_coordinator *coordinator, double x,
                                               double y, size_t *index);

/* The underline rectangles the engine gave for suggestion `index` (asked after the result
 * arrived and after each reflow). Up to `capacity` are copied to `rects`; *count receives how
 * many there are (0 when unknown or the engine has no requests_underline_rects).
 * Thread: the coordinator's. */
emend_status emend_session_get_suggestion_rects(const emend_coordinator *coordinator, size_t index,
                                                emend_rect *rects, size_t capacity, size_t *count);

/* Review a rewrite change by change, like track changes (beyond Apple's coordinator, which
 * shows a rewrite only as a whole). Once a rewrite's result rests in the text (state
 * INTERACTIVE_RESTING after a rewrite, a follow-up or compose, with the result shown), this
 * splits it into its changes and puts their number in *out_count; from then on the
 * session's suggestion calls work on those changes exactly as on proofreading suggestions:
 *
 *   - A change is the words a rewrite changed, never part of a word (when "cat" became
 *     "cats" the change is "cat" -> "cats", not an inserted "s"); changes that touch or lie
 *     one space apart are one change ("We are" -> "We're"), and spaces both texts share at
 *     a change's ends are not part of it; unchanged text between changes belongs to none.
 *     A deletion is a change with an empty range (at the point where its words were).
 *     Changes are numbered in text order, from 0.
 *   - emend_session_suggestion_count gives their number; emend_session_get_suggestion gives
 *     each one: `range` is where the change's text is now, in the coordinator's position
 *     encoding like every emend_range (UTF-8 bytes, UTF-16 code units or code points: a
 *     change never splits a character in any of them), `original` the text it replaced,
 *     `replacement` the new text, `category` "rewrite", `state` PENDING.
 *   - emend_session_accept_suggestion keeps one (ACCEPTED: its mark goes, the text stays).
 *   - emend_session_reject_suggestion puts that change's original back through a replace of
 *     kind EMEND_CHANGE_SUGGESTION_REJECT over exactly that change's range (REJECTED); every
 *     other change stays as it is. An engine that refuses the replace leaves it PENDING.
 *   - emend_session_suggestion_at_offset and emend_session_suggestion_at_point find the
 *     pending change at an offset or a point; the underline rectangles of every change are
 *     asked for (requests_underline_rects) during the next dispatch, and
 *     emend_session_get_suggestion_rects gives them.
 *   - emend_session_undo / emend_session_redo step back and forth through the decisions (an
 *     undone reject brings the change's replacement back, with kind UNDO; redone, REDO).
 *     The review starts the session's history afresh: steps before it (the result arriving,
 *     show original and back) are no longer undone, and emend_session_show_original answers
 *     EMEND_E_STATE while the review goes on (reject a change to see its original).
 *   - emend_session_accept (Done) keeps every change not rejected: the text as it stands.
 *     emend_session_revert puts the whole original back byte for byte, rejected and kept
 *     changes alike (with the engine's own edits kept, see NOTHING LOST).
 *   - An engine edit in a change (see CHANGES: overlapping its text, or inserting strictly
 *     inside it; an insertion at its edge is beside it) makes that change INVALID and the
 *     engine's: its undo steps are dropped, revert leaves it as the engine left it.
 *   - A follow-up (emend_coordinator_start with EMEND_TOOL_FOLLOW_UP) after a partial
 *     review refines the text as it stands, rejected changes' originals included; the
 *     review ends (emend_session_suggestion_count gives 0; the decisions are no longer undo
 *     steps) and the follow-up's result can be reviewed again, its changes counted from the
 *     original.
 *
 * A second call during the same review changes nothing and gives the same count. 0 changes
 * when the result changed nothing. EMEND_E_STATE when no rewrite's result rests in the text:
 * no session, a tool still running or stopping, proofreading (already reviewed per
 * suggestion), a summary or other presented result, or the original shown
 * (emend_session_show_original). EMEND_E_IN_CALLBACK inside a callback. Thread: the
 * coordinator's. */
emend_status emend_session_review_changes(emend_coordinator *coordinator, size_t *out_count);

/* Undo / redo the last Writing Tools change of the session: a rewrite's result, a
 * follow-up, an accepted or rejected suggestion (or change of a rewrite under review). The text changes through replace callbacks
 * with kind UNDO/REDO. A proofreading result as a whole is not an undo step (its suggestions
 * are reviewed one by one; emend_session_revert takes them all back). The step of a
 * suggestion the engine edited over is dropped. EMEND_E_STATE when there is nothing to
 * undo / redo. An engine that refuses one of the step's replaces refuses the step: what it
 * delivered is put back (as replaces of the same kind), the step stays where it was (to
 * undo or to redo) and the session rests; it does not end. Thread: the coordinator's. */
emend_status emend_session_undo(emend_coordinator *coordinator);
emend_status emend_session_redo(emend_coordinator *coordinator);

/* Whether undo / redo would do something (1) or not (0), in *out. Thread: the coordinator's. */
emend_status emend_session_can_undo(const emend_coordinator *coordinator, int *out);
emend_status emend_session_can_redo(const emend_coordinator *coordinator, int *out);

/* The session's result text for a context as it stands (after the tool finished), copied
 * into `buffer` of `capacity` bytes with a NUL; *length receives the byte length without
 * the NUL. With buffer NULL only *length is set. EMEND_E_RANGE if capacity is too small. Thread: the coordinator's. */
emend_status emend_session_copy_result(const emend_coordinator *coordinator,
                                       uint64_t context_id, char *buffer, size_t capacity,
                                       size_t *length);

/* ------------------------------------------------------------------------------------------
 * Markdown
 * ---------------------------------------------------------------------------------------- */

/* The parts of a Markdown text no Writing Tool should change, for an engine to pass as its
 * context's protected_ranges: the same rule set the emend command, the language server and
 * the Neovim plugin use, from a CommonMark parse with the GitHub extensions (cmark-gfm).
 *
 * Protected: YAML (---) or TOML (+++) front matter opening the text; fenced and indented
 * code blocks, whole; HTML blocks, whole (comments included); block quotes, whole (a
 * quotation is given as it was written); code spans with their backticks; inline HTML tags
 * and comments (the text between two tags stays prose); autolinks (<https://...>,
 * <a@b.c>) and the bare URLs, www. links and e-mail addresses GFM links; the destination of
 * a link or image (what its parentheses hold, or its [label]), and the whole link when its
 * text is its label ([label], [label][]); link reference definitions, whole; table delimiter
 * rows. Everything else (paragraphs, headings, list items, table cells, link text, image
 * descriptions) is prose. A paragraph, heading or table cell whose parse cannot be placed
 * exactly on the text is protected whole.
 *
 * text / text_length: the Markdown, UTF-8 (NULL only with length 0; an empty text gives no
 * ranges). encoding: the units of the ranges returned (use the coordinator's). On EMEND_OK,
 * *ranges receives a new array of *count ranges, sorted, disjoint, never touching, never
 * splitting a character; *ranges is NULL when *count is 0. The caller owns the array and
 * frees it with emend_markdown_protected_ranges_free (not free(): the runtime's allocator
 * may differ). On failure *ranges is NULL and *count 0 (when they are not NULL themselves).
 *
 * Statuses: EMEND_E_INVALID_ARGUMENT for a NULL ranges or count, a NULL text with a length,
 * a length above the limits of LENGTHS, or an unknown encoding; EMEND_E_INVALID_UTF8 (the
 * message names the byte offset). Any text that is valid UTF-8 gives EMEND_OK.
 *
 * Thread: any; it touches no coordinator, so it may also be called inside a delegate
 * callback (requests_contexts). Its cost grows with the text (about a CommonMark parse). */
emend_status emend_markdown_protected_ranges(const char *text, size_t text_length,
                                             emend_position_encoding encoding,
                                             emend_range **ranges, size_t *count);

/* Frees an array from emend_markdown_protected_ranges. NULL is allowed and does nothing. */
void emend_markdown_protected_ranges_free(emend_range *ranges);

#ifdef __cplusplus
}
#endif

#endif /* EMEND_H */
