/*
 * abi_fuzzer.c — a libFuzzer target over the C ABI of libemend (include/emend.h).
 *
 * The fuzz input is read as a program: a sequence of calls on one coordinator that uses the
 * built-in fixture provider (org.emend.fixture; discovery is pointed at an empty directory).
 * The harness is a small text engine: it keeps its own copy of up to three documents (the
 * contexts it gives), applies the replaces it answers and its own edits (update_range, often
 * at an edge of the change Emend delivered last), and
 * decides from the input how to answer each delegate callback: at once or later, correctly or
 * not (other text, refused, failed, the wrong kind of answer, a wrong request id, another
 * thread).
 *
 * It abort()s (so libFuzzer saves the input) when a documented promise is broken:
 *   - after emend_session_revert / emend_coordinator_stop / emend_answer_failed of a session
 *     with no engine edits, once the coordinator is INACTIVE, every document equals its
 *     original byte for byte ("NOTHING LOST" in emend.h);
 *   - a session whose only refused replaces were of review steps (undo, redo, show original,
 *     show rewritten) does not end with EMEND_E_REFUSED: such a step is taken back;
 *   - every prepare_for_text_animation is matched by one finish_text_animation (same
 *     animation, same context) by the time the session is inactive, and every preview handle
 *     the engine handed out comes back once through finish_text_animation;
 *   - ranges, texts and context pointers the runtime hands to callbacks are within the
 *     engine's document and valid UTF-8;
 *   - invalid UTF-8 given to the runtime is rejected; an answer of the wrong kind, to a
 *     request id never issued, or a mutating call inside a callback or on another thread
 *     does not return EMEND_OK;
 *   - no callback beyond the delegate's struct_size is called;
 *   - emend_markdown_protected_ranges on each text the engine sets gives sorted, disjoint
 *     ranges inside the text on character boundaries, or EMEND_E_INVALID_UTF8.
 * Crashes and sanitizer reports inside libemend are found by ASan/UBSan themselves.
 *
 * Build and run: bash scripts/fuzz.sh [SECONDS]   (see fuzz/README.md)
 */
#define _GNU_SOURCE
#include <emend.h>

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* ------------------------------------------------------------------------------------------
 * Limits and small helpers
 * ---------------------------------------------------------------------------------------- */

#define MAX_DOCS 3
#define MAX_PENDING 64
#define MAX_PREVIEWS 256
#define MAX_OPS 160
#define MAX_DOC_BYTES 4096
#define MAX_CTX_MAP 32
#define NUM_ANIMATIONS 5

static int verbose = 0; /* EMEND_FUZZ_VERBOSE=1: print every step (for diagnosing a crash) */

/* EMEND_FUZZ_ALLOW_OPEN: comma-separated tags of known, open violations not to abort on, so
 * that a run gets past them (fuzz/README.md lists them with their reproducers):
 *   anticipate  the ANTICIPATE animation of a session whose provider failed, timed out or
 *               was stopped is never finished (and its preview never handed back).
 *   failed-ignored  emend_answer_failed to will_change_to_state, select_ranges, rects,
 *               preview or the animation callbacks is taken as a plain answer: the session
 *               goes on instead of ending with the original put back.
 *   destroy-busy  emend_coordinator_destroy of a coordinator that is not idle leaks it (a
 *               replace owed an answer, or a provider run still in flight: retain cycles):
 *               allowed, the harness answers what it owes and waits for idle first.
 *   stale-animation-range  after an engine edit (update_range) the animation callbacks
 *               may carry the working region as it was before the edit, past the text. */
static const char *allow_open = "";

static int allowed(const char *tag) {
    size_t n = strlen(tag);
    for (const char *p = allow_open; (p = strstr(p, tag)) != NULL; p += n)
        if ((p == allow_open || p[-1] == ',') && (p[n] == 0 || p[n] == ',')) return 1;
    return 0;
}

static int64_t now_ms(void);

static void trace(const char *format, ...) {
    if (!verbose) return;
    va_list args;
    va_start(args, format);
    fprintf(stderr, "[fuzz] %6lld ", (long long)(now_ms() % 1000000));
    vfprintf(stderr, format, args);
    fprintf(stderr, "\n");
    va_end(args);
}

/* An oracle violation: libFuzzer saves the input when the process aborts. */
static void violation(const char *format, ...) {
    va_list args;
    va_start(args, format);
    fprintf(stderr, "\n==emend-fuzz== ORACLE VIOLATION: ");
    vfprintf(stderr, format, args);
    fprintf(stderr, "\n");
    va_end(args);
    abort();
}

static int64_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ------------------------------------------------------------------------------------------
 * UTF-8 and position encodings (the engine's own arithmetic, independent of libemend)
 * ---------------------------------------------------------------------------------------- */

/* Length of the valid UTF-8 sequence at s[0..n), or 0 if it is not valid. */
static size_t utf8_seq(const unsigned char *s, size_t n) {
    if (n == 0) return 0;
    unsigned char b = s[0];
    if (b < 0x80) return 1;
    size_t len;
    uint32_t cp;
    if (b >= 0xC2 && b <= 0xDF) { len = 2; cp = b & 0x1F; }
    else if (b >= 0xE0 && b <= 0xEF) { len = 3; cp = b & 0x0F; }
    else if (b >= 0xF0 && b <= 0xF4) { len = 4; cp = b & 0x07; }
    else return 0;
    if (n < len) return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (s[i] & 0x3F);
    }
    if (len == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) return 0;
    if (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) return 0;
    return len;
}

static int utf8_valid(const char *text, size_t n) {
    const unsigned char *s = (const unsigned char *)text;
    size_t i = 0;
    while (i < n) {
        size_t l = utf8_seq(s + i, n - i);
        if (l == 0) return 0;
        i += l;
    }
    return 1;
}

/* Units one character of `bytes` UTF-8 bytes counts in `enc` (an invalid byte counts 1). */
static uint64_t char_units(size_t bytes, emend_position_encoding enc) {
    switch (enc) {
    case EMEND_ENCODING_UTF16: return bytes == 4 ? 2 : 1;
    case EMEND_ENCODING_CODEPOINT: return 1;
    default: return bytes;
    }
}

static size_t char_len_at(const char *text, size_t n, size_t i) {
    size_t l = utf8_seq((const unsigned char *)text + i, n - i);
    return l ? l : 1;
}

static uint64_t units_of(const char *text, size_t n, emend_position_encoding enc) {
    uint64_t units = 0;
    for (size_t i = 0; i < n;) {
        size_t l = char_len_at(text, n, i);
        units += char_units(l, enc);
        i += l;
    }
    return units;
}

/* Byte offset of `units` in text; 0 (failure) when it is past the end or inside a character. */
static int units_to_bytes(const char *text, size_t n, uint64_t units, emend_position_encoding enc, size_t *out) {
    uint64_t u = 0;
    size_t i = 0;
    while (u < units) {
        if (i >= n) return 0;
        size_t l = char_len_at(text, n, i);
        u += char_units(l, enc);
        i += l;
    }
    if (u != units) return 0;
    *out = i;
    return 1;
}

/* A range in `enc` as bytes of text; 0 when out of bounds or splitting a character. */
static int range_to_bytes(const char *text, size_t n, emend_range r, emend_position_encoding enc, size_t *start, size_t *end) {
    if (r.location > (uint64_t)1 << 40 || r.length > (uint64_t)1 << 40) return 0;
    if (!units_to_bytes(text, n, r.location, enc, start)) return 0;
    if (!units_to_bytes(text, n, r.location + r.length, enc, end)) return 0;
    return 1;
}

/* ------------------------------------------------------------------------------------------
 * Reading the input
 * ---------------------------------------------------------------------------------------- */

/* The program's steps are read from the front of the input; what the engine does inside
 * callbacks (dispatch) is read from the back, so that a step after a dispatch stays a step
 * however many callbacks ran. Once the two meet every read gives 0: answer correctly. */
typedef struct input {
    const uint8_t *data;
    size_t size;
    size_t pos;  /* next byte from the front */
    size_t end;  /* one past the next byte from the back */
    int back;    /* reading for callbacks */
} input;

static uint8_t in_u8(input *in) {
    if (in->pos >= in->end) return 0;
    return in->back ? in->data[--in->end] : in->data[in->pos++];
}
static uint16_t in_u16(input *in) { return (uint16_t)(in_u8(in) | (in_u8(in) << 8)); }
static uint32_t in_u32(input *in) { return (uint32_t)in_u16(in) | ((uint32_t)in_u16(in) << 16); }
static int in_done(const input *in) { return in->pos >= in->end; }
/* 1 with probability about n/256 — and 0 once the input is used up, so that the end of
 * an input (and every zero byte) takes the ordinary path. */
static int in_chance(input *in, unsigned n) { return in_u8(in) >= 256 - n; }

/* Pieces random text is made of: the fixture's trigger words, sentence ends, Markdown,
 * multi-byte characters, attachments (U+FFFC), placeholders, and (rarely) broken UTF-8. */
static const char *const TOKENS[] = {
    "tomorow ", "they has ", "could of ", "a example. ", "teh ", "recieve ", "cannot ", "it is ",
    "gonna ", "really ", "very ", "in order to ", "thanks ", "do not ", "I am ", "the the ",
    "Hello world. ", "This is a sentence. ", "Another one! ", "Why? ", ". ", ", ", " ", "\n",
    "\n\n", "\t", "\r\n", "- ", "1. ", "# ", "**", "_", "`", "|", "\\", "[link](http://x) ",
    "\xC3\xA9", "\xE4\xB8\xAD\xE6\x96\x87", "\xF0\x9F\x98\x80", "\xEF\xBF\xBC", "e\xCC\x81",
    "\xE2\x9F\xA6\x31\xE2\x9F\xA7", "&#42;", "Dr. ", "e.g. ", "wich ", "alot ", "she dont ",
    "[fixture:fail]",
    /* invalid UTF-8, kept at the end (INVALID_TOKENS of them) */
    "\x80", "\xFF", "\xC0\x80", "\xED\xA0\x80", "\xE2\x82", "\xF4\x90\x80\x80",
};
#define NUM_TOKENS (sizeof TOKENS / sizeof TOKENS[0])
#define INVALID_TOKENS 6

typedef struct buf {
    char *p;
    size_t n;
} buf;

static void buf_set(buf *b, const char *p, size_t n) {
    char *next = malloc(n + 1);
    if (n) memcpy(next, p, n);
    next[n] = 0;
    free(b->p);
    b->p = next;
    b->n = n;
}

/* Random text from the input: tokens, occasionally a raw byte; `allow_invalid` lets broken
 * UTF-8 in. */
static void gen_text(input *in, buf *out, int allow_invalid, size_t max_tokens) {
    char tmp[MAX_DOC_BYTES];
    size_t n = 0;
    size_t count = in_u8(in) % (max_tokens + 1);
    for (size_t t = 0; t < count; t++) {
        uint8_t pick = in_u8(in);
        const char *piece;
        char raw[2] = {0, 0};
        size_t len;
        if (allow_invalid && pick == 255) {
            raw[0] = (char)in_u8(in);
            piece = raw;
            len = 1;
        } else {
            size_t limit = allow_invalid ? NUM_TOKENS : NUM_TOKENS - INVALID_TOKENS;
            piece = TOKENS[pick % limit];
            len = strlen(piece);
        }
        if (n + len >= sizeof tmp) break;
        memcpy(tmp + n, piece, len);
        n += len;
    }
    buf_set(out, tmp, n);
}

/* ------------------------------------------------------------------------------------------
 * The engine's state
 * ---------------------------------------------------------------------------------------- */

typedef struct doc {
    buf text;
    uint64_t version;         /* bumped on every change */
    emend_range selection;    /* in the coordinator's encoding, as the engine keeps it */
    /* the bytes the last replace the engine applied for Emend put in (edits at its edges) */
    int has_change;
    size_t change_start, change_end;
} doc;

enum pending_kind { P_CONTEXTS, P_REPLACE, P_RECTS, P_PREVIEW, P_PRESENTED, P_DONE };

typedef struct pending {
    emend_request_id id;
    int kind;
    /* replace */
    int doc;
    uint64_t version;
    size_t start, end;
    buf proposed;
    emend_change_kind change;
    int after_restore;        /* sent after revert/stop/failed was asked */
    uint64_t serial;          /* the session it belongs to */
} pending;

typedef struct fuzz {
    input in;
    emend_coordinator *c;
    emend_delegate delegate;
    size_t delegate_size;     /* what the delegate's struct_size says */
    emend_position_encoding enc;
    doc docs[MAX_DOCS];
    pending pend[MAX_PENDING];
    size_t npend;
    emend_request_id max_request;
    int in_callback;
    int finale;               /* the end of the input: answer everything at once, correctly */

    /* the session, as the engine sees it */
    int session_live;         /* start() returned OK and the session's end was not seen */
    int seen_active;          /* the state was seen other than INACTIVE since start() */
    int session_contexts;     /* a contexts answer was taken: originals below are set */
    size_t session_docs;
    buf original[MAX_DOCS];
    int no_engine_context;    /* contexts were given without engine_context (old struct) */
    int engine_edits;         /* update_range changed a document of this session */
    int tainted;              /* the engine's and the runtime's view may differ */
    int expect_original;      /* revert/stop/failed was asked: INACTIVE means the original */
    int restore_disturbed;    /* a replace after that was not applied as proposed */
    int accepted;
    int refused_review;       /* replaces of undo/redo/show original/show rewritten refused */
    int refused_other;        /* any other replace refused, or any answer failed */
    uint64_t serial;          /* bumped for every session */
    uint64_t ctx_ids[MAX_CTX_MAP];
    int ctx_docs[MAX_CTX_MAP];
    size_t nctx;

    /* animations: prepares not yet finished, per animation and document */
    int prepared[NUM_ANIMATIONS][MAX_DOCS];
    void *previews[MAX_PREVIEWS];
    uint64_t preview_serial[MAX_PREVIEWS];
    size_t npreviews;
} fuzz;

static fuzz F;

static int has_callback(size_t offset) { return F.delegate_size >= offset + sizeof(void *); }
#define HAS(field) (has_callback(offsetof(emend_delegate, field)) && F.delegate.field != NULL)
/* The runtime must not call a callback beyond the delegate's struct_size. */
#define CHECK_CALLABLE(field)                                                              \
    do {                                                                                   \
        if (!has_callback(offsetof(emend_delegate, field)))                                \
            violation(#field " called although delegate.struct_size %zu ends before it", \
                      F.delegate_size);                                                    \
    } while (0)

/* ------------------------------------------------------------------------------------------
 * Documents and the session model
 * ---------------------------------------------------------------------------------------- */

static int doc_index_of(void *engine_context, uint64_t context_id, const char *where) {
    int index = -1;
    if (engine_context) {
        for (int i = 0; i < MAX_DOCS; i++)
            if (engine_context == (void *)&F.docs[i]) index = i;
        if (index < 0) violation("%s: engine_context %p is none of the engine's", where, engine_context);
    } else if (F.no_engine_context) {
        index = 0;
    } else {
        violation("%s: engine_context is NULL but the engine gave one", where);
    }
    if ((size_t)index >= F.session_docs && F.session_contexts)
        violation("%s: context of document %d, but the session has %zu", where, index, F.session_docs);
    for (size_t i = 0; i < F.nctx; i++) {
        if (F.ctx_ids[i] == context_id) {
            if (F.ctx_docs[i] != index)
                violation("%s: context id %llu was document %d, now %d", where, (unsigned long long)context_id,
                          F.ctx_docs[i], index);
            return index;
        }
    }
    if (F.nctx < MAX_CTX_MAP) {
        F.ctx_ids[F.nctx] = context_id;
        F.ctx_docs[F.nctx] = index;
        F.nctx++;
    }
    return index;
}

/* A context id to use in calls: one the runtime told us about, or a guess. */
static uint64_t pick_context_id(int *doc_out) {
    uint8_t pick = in_u8(&F.in);
    *doc_out = -1;
    if (F.nctx > 0 && pick < 200) {
        size_t i = pick % F.nctx;
        *doc_out = F.ctx_docs[i];
        return F.ctx_ids[i];
    }
    switch (pick % 4) {
    case 0: return 0;
    case 1: return UINT64_MAX;
    default: return pick % 8;
    }
}

static void session_reset(void) {
    for (int i = 0; i < MAX_DOCS; i++) {
        free(F.original[i].p);
        F.original[i].p = NULL;
        F.original[i].n = 0;
    }
    F.session_live = 0;
    F.seen_active = 0;
    F.session_contexts = 0;
    F.session_docs = 0;
    F.no_engine_context = 0;
    F.engine_edits = 0;
    F.tainted = 0;
    F.expect_original = 0;
    F.restore_disturbed = 0;
    F.accepted = 0;
    F.refused_review = 0;
    F.refused_other = 0;
    F.nctx = 0;
    F.serial++;
    memset(F.prepared, 0, sizeof F.prepared);
}

static void print_doc_diff(int i) {
    fprintf(stderr, "  document %d now (%zu bytes): \"", i, F.docs[i].text.n);
    fwrite(F.docs[i].text.p, 1, F.docs[i].text.n, stderr);
    fprintf(stderr, "\"\n  original   (%zu bytes): \"", F.original[i].n);
    fwrite(F.original[i].p, 1, F.original[i].n, stderr);
    fprintf(stderr, "\"\n");
}

/* After every step: once the coordinator is INACTIVE, the session's promises are checked. */
static void observe(void) {
    if (!F.c || !F.session_live || F.in_callback) return;
    emend_state state = EMEND_STATE_INACTIVE;
    if (emend_coordinator_get_state(F.c, &state) != EMEND_OK)
        violation("get_state failed on the coordinator's thread: %s", emend_last_error_message());
    if (state != EMEND_STATE_INACTIVE) {
        F.seen_active = 1;
        return;
    }
    /* Right after start() the state is still INACTIVE: it changes once will_change_to_state
     * is answered, and contexts are asked for after that. */
    if (!F.seen_active && !F.session_contexts) return;
    /* A request of this session still owed when it ended was given up on (its time limit):
     * the runtime may then leave delivered edits in place ("NOTHING LOST"), so no check. */
    for (size_t i = 0; i < F.npend; i++)
        if (F.pend[i].serial == F.serial) {
            trace("request %llu (kind %d) was still owed when the session ended", (unsigned long long)F.pend[i].id,
                  F.pend[i].kind);
            F.restore_disturbed = 1;
        }
    /* A refused undo, redo, show original or show rewritten refuses that step only: the
     * session rests as before (emend.h), it never ends because of it. */
    emend_status ended = EMEND_OK;
    if (F.refused_review && !F.refused_other && emend_coordinator_last_session_status(F.c, &ended) == EMEND_OK &&
        ended == EMEND_E_REFUSED)
        violation("a refused review step (undo/redo/show original/rewritten) ended the session with EMEND_E_REFUSED");
    trace("session inactive (contexts %d, expect original %d, engine edits %d, tainted %d, disturbed %d, accepted %d)",
          F.session_contexts, F.expect_original, F.engine_edits, F.tainted, F.restore_disturbed, F.accepted);
    if (F.session_contexts && F.expect_original && !F.engine_edits && !F.tainted && !F.restore_disturbed &&
        !F.accepted) {
        for (size_t i = 0; i < F.session_docs; i++) {
            if (F.docs[i].text.n != F.original[i].n ||
                memcmp(F.docs[i].text.p, F.original[i].p, F.original[i].n) != 0) {
                print_doc_diff((int)i);
                violation("after revert/stop the session is inactive but document %zu is not the original", i);
            }
        }
    }
    if (HAS(prepare_for_text_animation) && HAS(finish_text_animation) && !F.tainted) {
        for (int a = 0; a < NUM_ANIMATIONS; a++)
            for (int d = 0; d < MAX_DOCS; d++)
                if (F.prepared[a][d] != 0 && !(a == EMEND_ANIMATION_ANTICIPATE && allowed("anticipate")))
                    violation("session inactive with %d prepare_for_text_animation(%d) of document %d not finished",
                              F.prepared[a][d], a, d);
    }
    /* Every preview handle given to the runtime comes back through finish_text_animation. */
    if (HAS(finish_text_animation) && !F.tainted && !allowed("anticipate")) {
        for (size_t i = 0; i < F.npreviews; i++)
            if (F.preview_serial[i] == F.serial)
                violation("session inactive but preview %p given to it never came back through finish_text_animation",
                          F.previews[i]);
    }
    session_reset();
}

/* ------------------------------------------------------------------------------------------
 * Pending requests and answers
 * ---------------------------------------------------------------------------------------- */

static void note_request(emend_request_id id) {
    if (id > F.max_request) F.max_request = id;
}

static pending *add_pending(emend_request_id id, int kind) {
    if (F.npend >= MAX_PENDING) return NULL;
    pending *p = &F.pend[F.npend++];
    memset(p, 0, sizeof *p);
    p->id = id;
    p->kind = kind;
    p->doc = -1;
    p->serial = F.serial;
    return p;
}

static void remove_pending(pending *p) {
    size_t i = (size_t)(p - F.pend);
    free(p->proposed.p);
    F.pend[i] = F.pend[F.npend - 1];
    F.npend--;
}

/* A request id that was never issued: an answer to it must fail. */
static emend_request_id never_issued_id(void) {
    switch (in_u8(&F.in) % 3) {
    case 0: return 0;
    case 1: return UINT64_MAX - in_u8(&F.in);
    default: return F.max_request + 1000 + in_u8(&F.in);
    }
}

/* A status for emend_answer_failed: mostly known ones, sometimes any 32-bit value. */
static emend_status any_status(void) {
    if (in_chance(&F.in, 24)) return (emend_status)in_u32(&F.in);
    return (emend_status)(in_u8(&F.in) % 20);
}

static void expect_failure(emend_status status, const char *what) {
    if (status == EMEND_OK) violation("%s returned EMEND_OK", what);
}

/* Answers of the wrong kind for a request of `kind`: they must fail. */
static void answer_wrong_kind(emend_request_id id, int kind) {
    emend_status s = EMEND_OK;
    static const int right[5] = {P_DONE, P_RECTS, P_PRESENTED, P_REPLACE, P_PREVIEW};
    uint8_t pick = in_u8(&F.in) % 5;
    if (right[pick] == kind) pick = (uint8_t)((pick + 1) % 5); /* only wrong kinds here */
    emend_rect rect = {1, 2, 3, 4};
    int wrong = 1;
    switch (pick) {
    case 0: s = emend_answer_done(F.c, id); wrong = kind != P_DONE; break;
    case 1: s = emend_answer_rects(F.c, id, &rect, 1); wrong = kind != P_RECTS; break;
    case 2: s = emend_answer_presented(F.c, id, EMEND_PRESENTED_DISMISS); wrong = kind != P_PRESENTED; break;
    case 3: s = emend_answer_replace(F.c, id, EMEND_REPLACE_REFUSED, NULL, 0); wrong = kind != P_REPLACE; break;
    default: s = emend_answer_preview(F.c, id, NULL); wrong = kind != P_PREVIEW; break;
    }
    trace("wrong-kind answer %d to request %llu (kind %d) -> %s", pick, (unsigned long long)id, kind, emend_status_name(s));
    if (wrong) expect_failure(s, "an answer of the wrong kind");
    else if (s == EMEND_OK) violation("harness: a right-kind answer slipped through answer_wrong_kind");
}

/* Random ranges for a context's text: mostly valid in the coordinator's encoding. */
static emend_range gen_range(const buf *text) {
    uint8_t mode = (uint8_t)(255 - in_u8(&F.in)); /* zero bytes: a valid range */
    uint64_t units = units_of(text->p, text->n, F.enc);
    if (mode < 8) return (emend_range){UINT64_MAX, in_u8(&F.in)};
    if (mode < 16) return (emend_range){in_u8(&F.in), UINT64_MAX};
    if (mode < 28) return (emend_range){units + (in_u8(&F.in) % 3), in_u8(&F.in) % 3};
    if (mode < 40) return (emend_range){in_u16(&F.in) % (units + 2), in_u16(&F.in) % (units + 2)};
    /* valid: two character boundaries */
    uint64_t a = units ? in_u16(&F.in) % (units + 1) : 0;
    uint64_t b = units ? in_u16(&F.in) % (units + 1) : 0;
    size_t ba, bb;
    if (!units_to_bytes(text->p, text->n, a, F.enc, &ba)) {
        /* snap to the character boundary before it */
        uint64_t u = 0;
        for (size_t i = 0; i < text->n;) {
            size_t l = char_len_at(text->p, text->n, i);
            if (u + char_units(l, F.enc) > a) break;
            u += char_units(l, F.enc);
            i += l;
        }
        a = u;
    }
    if (!units_to_bytes(text->p, text->n, b, F.enc, &bb)) b = a;
    if (b < a) { uint64_t t = a; a = b; b = t; }
    if (!units_to_bytes(text->p, text->n, a, F.enc, &ba) || !units_to_bytes(text->p, text->n, b, F.enc, &bb)) b = a;
    return (emend_range){a, b - a};
}

static const char *const ATTR_KEYS[] = {"bold", "italic", "link", "font", "code", "strong", "underline", "", "\xFF"};
static const char *const ATTR_VALUES[] = {"1", "https://example.com", "Serif 12", "", "\xC3\x28", "\xE2\x9F\xA6\x31\xE2\x9F\xA7"};

/* Answers requests_contexts with contexts from the documents. Returns the status. */
static emend_status answer_contexts(emend_request_id id) {
    size_t count = 1 + in_u8(&F.in) % MAX_DOCS;
    emend_context_desc descs[MAX_DOCS];
    emend_range protected_ranges[MAX_DOCS][4];
    emend_attribute_run runs[MAX_DOCS][4];
    emend_block_intent intents[MAX_DOCS][4];
    size_t stride = sizeof(emend_context_desc);
    uint8_t size_mode = in_u8(&F.in);
    if (size_mode >= 240) stride = EMEND_CONTEXT_DESC_MIN_SIZE;                 /* the first version */
    else if (size_mode >= 232) stride = sizeof(emend_context_desc) + 8 * (1 + size_mode % 4); /* newer */
    else if (size_mode >= 228) stride = in_u8(&F.in) % EMEND_CONTEXT_DESC_MIN_SIZE; /* too small */
    int old = stride < offsetof(emend_context_desc, engine_context) + sizeof(void *);
    if (old) count = 1; /* without engine_context the engine tells its documents apart by id */
    for (size_t i = 0; i < count; i++) {
        doc *d = &F.docs[i];
        emend_context_desc *desc = &descs[i];
        memset(desc, 0, sizeof *desc);
        desc->struct_size = stride;
        desc->text = d->text.p;
        desc->text_length = d->text.n;
        desc->selection = !in_chance(&F.in, 56) ? d->selection : gen_range(&d->text);
        desc->engine_context = d;
        size_t np = in_u8(&F.in) % 5, nr = in_u8(&F.in) % 5, nb = in_u8(&F.in) % 5;
        for (size_t k = 0; k < np; k++) protected_ranges[i][k] = gen_range(&d->text);
        for (size_t k = 0; k < nr; k++) {
            runs[i][k].range = gen_range(&d->text);
            runs[i][k].key = ATTR_KEYS[in_u8(&F.in) % (sizeof ATTR_KEYS / sizeof *ATTR_KEYS)];
            runs[i][k].value = ATTR_VALUES[in_u8(&F.in) % (sizeof ATTR_VALUES / sizeof *ATTR_VALUES)];
            if (in_chance(&F.in, 4)) runs[i][k].key = NULL;
            if (in_chance(&F.in, 8)) runs[i][k].value = NULL;
        }
        for (size_t k = 0; k < nb; k++) {
            intents[i][k].range = gen_range(&d->text);
            intents[i][k].kind = (emend_block_kind)(in_u8(&F.in) % 7);
            intents[i][k].level = (int8_t)in_u8(&F.in);
            intents[i][k].ordinal = (int8_t)in_u8(&F.in);
            intents[i][k].row = (int8_t)in_u8(&F.in);
            intents[i][k].column = (int8_t)in_u8(&F.in);
        }
        desc->protected_ranges = np ? protected_ranges[i] : NULL;
        desc->protected_range_count = np == 4 && in_chance(&F.in, 16) ? SIZE_MAX : np;
        desc->attribute_runs = nr ? runs[i] : NULL;
        desc->attribute_run_count = nr;
        desc->block_intents = nb ? intents[i] : NULL;
        desc->block_intent_count = nb;
        if (in_chance(&F.in, 6)) desc->text_length = SIZE_MAX;
        else if (in_chance(&F.in, 10) && d->text.n) desc->text_length = in_u16(&F.in) % d->text.n; /* a prefix */
        if (in_chance(&F.in, 3)) desc->text = NULL;
    }
    /* the array, laid out with contexts[0].struct_size as its stride */
    size_t real_stride = stride < EMEND_CONTEXT_DESC_MIN_SIZE ? EMEND_CONTEXT_DESC_MIN_SIZE : stride;
    size_t bytes = real_stride * count + sizeof(emend_context_desc);
    unsigned char *array = calloc(1, bytes);
    for (size_t i = 0; i < count; i++) {
        size_t copy = real_stride < sizeof(emend_context_desc) ? real_stride : sizeof(emend_context_desc);
        memcpy(array + i * real_stride, &descs[i], copy);
    }
    size_t given = count;
    if (in_chance(&F.in, 4)) given = 0;
    else if (in_chance(&F.in, 2)) given = SIZE_MAX;
    int null_array = in_chance(&F.in, 3);
    emend_status s = emend_answer_contexts(F.c, id, null_array ? NULL : (const emend_context_desc *)array, given);
    trace("answer_contexts(%llu, %zu contexts, stride %zu) -> %s %s", (unsigned long long)id, given, stride,
          emend_status_name(s), s ? emend_last_error_message() : "");
    if (s == EMEND_OK) {
        /* A valid answer: everything given was valid UTF-8. */
        for (size_t i = 0; i < count; i++) {
            size_t n = descs[i].text_length == SIZE_MAX ? 0 : descs[i].text_length;
            if (descs[i].text && !utf8_valid(descs[i].text, n))
                violation("emend_answer_contexts took invalid UTF-8 in contexts[%zu]", i);
            if (descs[i].text_length != F.docs[i].text.n || !descs[i].text) F.tainted = 1; /* a text the engine does not hold */
        }
        if (!F.session_contexts) {
            F.session_contexts = 1;
            F.session_docs = count;
            F.no_engine_context = old;
            for (size_t i = 0; i < count; i++) buf_set(&F.original[i], F.docs[i].text.p, F.docs[i].text.n);
        }
    }
    free(array);
    return s;
}

/* Applies `text` in place of [start, end) of document `d`, remembering the old text in `undo`. */
static void doc_replace(int d, size_t start, size_t end, const char *text, size_t length, buf *undo) {
    doc *x = &F.docs[d];
    if (undo) buf_set(undo, x->text.p, x->text.n);
    size_t n = x->text.n - (end - start) + length;
    char *next = malloc(n + 1);
    memcpy(next, x->text.p, start);
    if (length) memcpy(next + start, text, length);
    memcpy(next + start + length, x->text.p + end, x->text.n - end);
    next[n] = 0;
    free(x->text.p);
    x->text.p = next;
    x->text.n = n;
    x->version++;
}

/* Answers a replace. `how`: 0 applied as proposed, 1 applied with other text, 2 refused,
 * 3 failed. Returns 1 when the request is settled (answered or stale). */
static int answer_replace(pending *p, int how) {
    doc *d = &F.docs[p->doc];
    if (d->version != p->version && how < 2) how = 2; /* the text moved on: the engine refuses */
    if (how < 2 && d->text.n + p->proposed.n + 64 > 4 * MAX_DOC_BYTES) how = 2; /* too long for this engine */
    if (how == 0 || how == 1) {
        buf other = {0};
        const char *ins = NULL;
        size_t ins_len = 0, passed_len = 0;
        int lie_size_max = 0;
        if (how == 1) {
            gen_text(&F.in, &other, in_chance(&F.in, 40), 6);
            ins = other.p;
            ins_len = passed_len = other.n;
            if (in_chance(&F.in, 8)) { passed_len = SIZE_MAX; lie_size_max = 1; ins_len = 0; }
        } else {
            ins = p->proposed.p;
            ins_len = p->proposed.n;
        }
        int valid = lie_size_max || utf8_valid(ins, ins_len);
        buf undo = {0};
        if (valid && d->text.n + ins_len <= 4 * MAX_DOC_BYTES) doc_replace(p->doc, p->start, p->end, ins, ins_len, &undo);
        else valid = 0;
        emend_status s = emend_answer_replace(F.c, p->id, EMEND_REPLACE_APPLIED, how == 1 ? ins : NULL, passed_len);
        trace("answer_replace(%llu, applied%s, %zu bytes) -> %s", (unsigned long long)p->id, how == 1 ? " other" : "",
              ins_len, emend_status_name(s));
        if (s == EMEND_OK && how == 1 && !lie_size_max && !utf8_valid(ins, ins_len))
            violation("emend_answer_replace took invalid UTF-8 as inserted text");
        if (s == EMEND_OK && !valid) F.tainted = 1;
        if (s != EMEND_OK && undo.p) { /* not taken: the engine takes its edit back */
            buf_set(&d->text, undo.p, undo.n);
            d->version++;
        } else if (s == EMEND_OK && undo.p) {
            d->has_change = 1;
            d->change_start = p->start;
            d->change_end = p->start + ins_len;
        }
        if (s == EMEND_OK && lie_size_max) violation("emend_answer_replace took inserted_length SIZE_MAX (emend.h: EMEND_E_INVALID_ARGUMENT)");
        if (s == EMEND_OK && (how == 1 || lie_size_max) && p->after_restore) F.restore_disturbed = 1;
        free(undo.p);
        free(other.p);
        return s == EMEND_OK || s == EMEND_E_STALE;
    }
    emend_status s;
    if (how == 2) {
        s = emend_answer_replace(F.c, p->id, EMEND_REPLACE_REFUSED, in_chance(&F.in, 30) ? "ignored" : NULL, 7);
        int review = p->change == EMEND_CHANGE_UNDO || p->change == EMEND_CHANGE_REDO ||
                     p->change == EMEND_CHANGE_SHOW_ORIGINAL || p->change == EMEND_CHANGE_SHOW_REWRITTEN;
        if (s == EMEND_OK) { if (review) F.refused_review = 1; else F.refused_other = 1; }
    } else {
        s = emend_answer_failed(F.c, p->id, any_status(), in_chance(&F.in, 128) ? "engine failed" : NULL);
        if (s == EMEND_OK && F.session_live) F.expect_original = 1;
        if (s == EMEND_OK) F.refused_other = 1;
    }
    trace("answer_replace(%llu, %s) -> %s", (unsigned long long)p->id, how == 2 ? "refused" : "failed", emend_status_name(s));
    if (s == EMEND_OK && p->after_restore) F.restore_disturbed = 1;
    return s == EMEND_OK || s == EMEND_E_STALE;
}

static void *new_preview(void) {
    if (F.npreviews >= MAX_PREVIEWS) return NULL;
    void *h = malloc(16);
    memset(h, 0xAB, 16);
    F.preview_serial[F.npreviews] = F.serial;
    F.previews[F.npreviews++] = h;
    return h;
}

static int forget_preview(void *h) {
    for (size_t i = 0; i < F.npreviews; i++) {
        if (F.previews[i] == h) {
            free(h);
            F.npreviews--;
            F.previews[i] = F.previews[F.npreviews];
            F.preview_serial[i] = F.preview_serial[F.npreviews];
            return 1;
        }
    }
    return 0;
}

/* Answers a pending request correctly (or, for replaces and contexts, as `how` says).
 * Returns 1 when the request is settled. */
static int answer_properly(pending *p, int how) {
    emend_status s = EMEND_OK;
    switch (p->kind) {
    case P_CONTEXTS:
        s = answer_contexts(p->id);
        return s == EMEND_OK || s == EMEND_E_STALE;
    case P_REPLACE:
        return answer_replace(p, how);
    case P_RECTS: {
        emend_rect rects[4];
        size_t n = in_u8(&F.in) % 5;
        for (size_t i = 0; i < n; i++) {
            rects[i].x = (double)(int8_t)in_u8(&F.in);
            rects[i].y = (double)(int8_t)in_u8(&F.in);
            rects[i].width = in_chance(&F.in, 8) ? NAN : (double)in_u8(&F.in);
            rects[i].height = in_chance(&F.in, 8) ? INFINITY : (double)in_u8(&F.in);
        }
        size_t given = in_chance(&F.in, 6) ? SIZE_MAX : n;
        s = emend_answer_rects(F.c, p->id, n ? rects : NULL, given);
        break;
    }
    case P_PREVIEW: {
        void *h = !in_chance(&F.in, 56) ? new_preview() : NULL;
        s = emend_answer_preview(F.c, p->id, h);
        if (s != EMEND_OK && h) forget_preview(h);
        break;
    }
    case P_PRESENTED: {
        uint8_t action = in_u8(&F.in) % 4; /* 3 is not an action */
        s = emend_answer_presented(F.c, p->id, (emend_presented_action)action);
        if (action == 3) expect_failure(s, "emend_answer_presented with an unknown action");
        /* Applying a presented result accepts it: the session ends with the result in the
         * text, and a stop after that has nothing to put back. */
        if (s == EMEND_OK && action == EMEND_PRESENTED_APPLY) F.accepted = 1;
        break;
    }
    default:
        s = emend_answer_done(F.c, p->id);
        break;
    }
    trace("answer kind %d request %llu -> %s", p->kind, (unsigned long long)p->id, emend_status_name(s));
    return s == EMEND_OK || s == EMEND_E_STALE;
}

/* What the engine does with a request: answer now (right or wrong), or later. */
static void decide(pending *p) {
    if (F.finale) {
        if (answer_properly(p, 0)) {
            remove_pending(p);
            return;
        }
        /* the runtime refused that answer (random content): a plain one it must take */
        emend_status s;
        switch (p->kind) {
        case P_CONTEXTS: s = emend_answer_failed(F.c, p->id, EMEND_E_INVALID_ARGUMENT, "no context"); break;
        case P_REPLACE:
            s = emend_answer_replace(F.c, p->id, EMEND_REPLACE_REFUSED, NULL, 0);
            if (p->after_restore) F.restore_disturbed = 1;
            F.refused_other = 1;
            break;
        case P_RECTS: s = emend_answer_rects(F.c, p->id, NULL, 0); break;
        case P_PREVIEW: s = emend_answer_preview(F.c, p->id, NULL); break;
        case P_PRESENTED: s = emend_answer_presented(F.c, p->id, EMEND_PRESENTED_DISMISS); break;
        default: s = emend_answer_done(F.c, p->id); break;
        }
        if (s != EMEND_OK && s != EMEND_E_STALE)
            violation("a plain answer to request %llu (kind %d) was refused: %s", (unsigned long long)p->id, p->kind,
                      emend_last_error_message());
        remove_pending(p);
        return;
    }
    uint8_t pick = in_u8(&F.in);
    if (in_done(&F.in)) pick = 0;
    if (pick < 150) { /* at once, correctly */
        if (answer_properly(p, 0)) remove_pending(p);
    } else if (pick < 175) { /* later */
        trace("request %llu deferred", (unsigned long long)p->id);
    } else if (pick < 195) { /* other replace answers */
        if (answer_properly(p, 1 + in_u8(&F.in) % 3)) remove_pending(p);
    } else if (pick < 210) { /* the wrong kind of answer, then maybe the right one */
        answer_wrong_kind(p->id, p->kind);
        if (in_chance(&F.in, 128) && answer_properly(p, 0)) remove_pending(p);
    } else if (pick < 220) { /* an id never issued */
        expect_failure(emend_answer_done(F.c, never_issued_id()), "emend_answer_done to a request never issued");
        expect_failure(emend_answer_replace(F.c, never_issued_id(), EMEND_REPLACE_APPLIED, NULL, 0),
                       "emend_answer_replace to a request never issued");
        if (answer_properly(p, 0)) remove_pending(p);
    } else if (pick < 232) { /* failed */
        emend_status s = emend_answer_failed(F.c, p->id, any_status(), in_chance(&F.in, 3) ? "\xFF" : "the engine says no");
        trace("answer_failed(%llu) -> %s", (unsigned long long)p->id, emend_status_name(s));
        if (s == EMEND_OK) {
            F.refused_other = 1;
            int honoured = p->kind == P_CONTEXTS || p->kind == P_REPLACE || p->kind == P_PRESENTED;
            if (F.session_live && (honoured || !allowed("failed-ignored"))) F.expect_original = 1;
            if (p->kind == P_REPLACE && p->after_restore) F.restore_disturbed = 1;
            remove_pending(p);
        }
    } else if (pick < 244) { /* answered twice */
        if (answer_properly(p, 0)) {
            emend_request_id id = p->id;
            int kind = p->kind;
            remove_pending(p);
            emend_status s = kind == P_REPLACE ? emend_answer_replace(F.c, id, EMEND_REPLACE_REFUSED, NULL, 0)
                                               : emend_answer_failed(F.c, id, EMEND_E_INTERNAL, NULL);
            if (s == EMEND_OK) violation("a second answer to request %llu returned EMEND_OK", (unsigned long long)id);
        }
    } else if (!F.in_callback) { /* outside a callback: simply answer */
        if (answer_properly(p, 0)) remove_pending(p);
    } else { /* a mutating call inside the callback must be refused with EMEND_E_IN_CALLBACK */
        emend_status s;
        switch (in_u8(&F.in) % 8) {
        case 0: s = emend_coordinator_dispatch(F.c, NULL); break;
        case 1: s = emend_coordinator_stop(F.c); break;
        case 2: s = emend_session_accept(F.c); break;
        case 3: s = emend_session_revert(F.c); break;
        case 4: s = emend_session_undo(F.c); break;
        case 5: s = emend_coordinator_run_until_idle(F.c, 0); break;
        case 6: s = emend_coordinator_update_range(F.c, 1, (emend_range){0, 0}, "x", 1, EMEND_UPDATE_TYPING); break;
        default: {
            emend_tool_request r = {sizeof r, EMEND_TOOL_PROOFREAD, EMEND_SCOPE_FULL_DOCUMENT, NULL, "org.emend.fixture"};
            s = emend_coordinator_start(F.c, &r);
            break;
        }
        }
        if (s != EMEND_E_IN_CALLBACK) violation("a mutating call inside a callback returned %s, not EMEND_E_IN_CALLBACK", emend_status_name(s));
        /* getters are allowed */
        emend_state st;
        size_t count;
        emend_coordinator_get_state(F.c, &st);
        emend_session_suggestion_count(F.c, &count);
        if (answer_properly(p, 0)) remove_pending(p);
    }
}

/* ------------------------------------------------------------------------------------------
 * The delegate
 * ---------------------------------------------------------------------------------------- */

static void check_range_in_doc(int d, emend_range r, const char *where, size_t *start, size_t *end) {
    size_t s = 0, e = 0;
    if (!range_to_bytes(F.docs[d].text.p, F.docs[d].text.n, r, F.enc, &s, &e) || e < s) {
        int animation = strstr(where, "animation") != NULL || strstr(where, "preview") != NULL;
        if (!F.tainted && !(animation && F.engine_edits && allowed("stale-animation-range")))
            violation("%s: range (%llu, %llu) is not within document %d (%zu bytes, encoding %d)", where,
                      (unsigned long long)r.location, (unsigned long long)r.length, d, F.docs[d].text.n, F.enc);
        s = e = 0;
    }
    if (start) *start = s;
    if (end) *end = e;
}

static void check_styling(const char *where, const char *text, size_t length, uint32_t flags, const emend_attribute_run *runs,
                          size_t run_count, const emend_block_intent *intents, size_t intent_count) {
    if (!(flags & EMEND_REPLACE_STYLED)) return;
    if (run_count && !runs) violation("%s: %zu attribute runs but no pointer", where, run_count);
    if (intent_count && !intents) violation("%s: %zu block intents but no pointer", where, intent_count);
    for (size_t i = 0; i < run_count; i++) {
        size_t s, e;
        if (!range_to_bytes(text, length, runs[i].range, F.enc, &s, &e))
            violation("%s: attribute run %zu (%llu, %llu) is not within its text of %zu bytes", where, i,
                      (unsigned long long)runs[i].range.location, (unsigned long long)runs[i].range.length, length);
        if (!runs[i].key || !utf8_valid(runs[i].key, strlen(runs[i].key)))
            violation("%s: attribute run %zu has no valid key", where, i);
        if (!runs[i].value || !utf8_valid(runs[i].value, strlen(runs[i].value)))
            violation("%s: attribute run %zu has no valid value", where, i);
    }
    for (size_t i = 0; i < intent_count; i++) {
        size_t s, e;
        if (!range_to_bytes(text, length, intents[i].range, F.enc, &s, &e))
            violation("%s: block intent %zu is not within its text", where, i);
        if ((unsigned)intents[i].kind > EMEND_BLOCK_BLOCK_QUOTE) violation("%s: block intent %zu of unknown kind", where, i);
    }
}

static void cb_requests_contexts(void *user_data, emend_coordinator *c, emend_context_scope scope, emend_request_id request) {
    (void)scope;
    if (user_data != &F || c != F.c) violation("requests_contexts: wrong user_data or coordinator");
    note_request(request);
    trace("requests_contexts(scope %d) request %llu", scope, (unsigned long long)request);
    pending *p = add_pending(request, P_CONTEXTS);
    if (!p) { answer_contexts(request); return; }
    decide(p);
}

static void cb_replace(void *user_data, emend_coordinator *c, const emend_replace_request *r, emend_request_id request) {
    CHECK_CALLABLE(replace);
    if (user_data != &F || c != F.c) violation("replace: wrong user_data or coordinator");
    note_request(request);
    if (!r) violation("replace: NULL request");
    if (r->struct_size < offsetof(emend_replace_request, animation_duration)) violation("replace: struct_size %zu", r->struct_size);
    if (!r->text) violation("replace: text is NULL");
    if (!utf8_valid(r->text, r->text_length)) violation("replace: text is not valid UTF-8");
    if ((unsigned)r->kind > EMEND_CHANGE_CANCEL || (unsigned)r->reason > EMEND_REPLACE_NONINTERACTIVE)
        violation("replace: unknown kind %d or reason %d", r->kind, r->reason);
    int d = doc_index_of(r->engine_context, r->context_id, "replace");
    size_t start, end;
    check_range_in_doc(d, r->range, "replace", &start, &end);
    check_styling("replace", r->text, r->text_length, r->flags, r->attribute_runs, r->attribute_run_count, r->block_intents,
                  r->block_intent_count);
    trace("replace request %llu doc %d kind %d [%zu,%zu) <- %zu bytes", (unsigned long long)request, d, r->kind, start, end,
          r->text_length);
    pending *p = add_pending(request, P_REPLACE);
    if (!p) {
        emend_answer_replace(c, request, EMEND_REPLACE_REFUSED, NULL, 0);
        if (F.expect_original) F.restore_disturbed = 1;
        return;
    }
    p->doc = d;
    p->version = F.docs[d].version;
    p->start = start;
    p->end = end;
    p->change = r->kind;
    /* a replace that restores (revert, cancel) counts as after-restore whoever started it:
     * refused, failed or changed, the original cannot come back */
    p->after_restore = F.expect_original || r->kind == EMEND_CHANGE_REVERT || r->kind == EMEND_CHANGE_CANCEL;
    buf_set(&p->proposed, r->text, r->text_length);
    if (F.tainted) { /* the engine cannot place it: refuse */
        answer_replace(p, 2);
        remove_pending(p);
        return;
    }
    decide(p);
}

static void cb_select_ranges(void *user_data, emend_coordinator *c, uint64_t context_id, void *engine_context,
                             const emend_range *ranges, size_t count, emend_request_id request) {
    CHECK_CALLABLE(select_ranges);
    (void)user_data;
    note_request(request);
    int d = doc_index_of(engine_context, context_id, "select_ranges");
    if (count && !ranges) violation("select_ranges: %zu ranges but no pointer", count);
    for (size_t i = 0; i < count; i++) check_range_in_doc(d, ranges[i], "select_ranges", NULL, NULL);
    if (count) F.docs[d].selection = ranges[0];
    pending *p = add_pending(request, P_DONE);
    if (!p) { emend_answer_done(c, request); return; }
    decide(p);
}

static void rects_request(emend_coordinator *c, uint64_t context_id, void *engine_context, emend_range range,
                          emend_request_id request, const char *where) {
    note_request(request);
    int d = doc_index_of(engine_context, context_id, where);
    check_range_in_doc(d, range, where, NULL, NULL);
    pending *p = add_pending(request, P_RECTS);
    if (!p) { emend_answer_rects(c, request, NULL, 0); return; }
    decide(p);
}

static void cb_bounding_rects(void *user_data, emend_coordinator *c, uint64_t context_id, void *engine_context,
                              const emend_range *range, emend_request_id request) {
    CHECK_CALLABLE(requests_bounding_rects);
    (void)user_data;
    if (!range) { violation("requests_bounding_rects: NULL range"); return; }
    rects_request(c, context_id, engine_context, *range, request, "requests_bounding_rects");
}

static void cb_underline_rects(void *user_data, emend_coordinator *c, uint64_t context_id, void *engine_context,
                               const emend_range *range, emend_request_id request) {
    CHECK_CALLABLE(requests_underline_rects);
    (void)user_data;
    if (!range) { violation("requests_underline_rects: NULL range"); return; }
    rects_request(c, context_id, engine_context, *range, request, "requests_underline_rects");
}

static void cb_prepare(void *user_data, emend_coordinator *c, emend_text_animation animation, uint64_t context_id,
                       void *engine_context, const emend_range *range_pointer, emend_request_id request) {
    CHECK_CALLABLE(prepare_for_text_animation);
    (void)user_data;
    if (!range_pointer) { violation("prepare_for_text_animation: NULL range"); return; }
    emend_range range = *range_pointer;
    note_request(request);
    if ((unsigned)animation >= NUM_ANIMATIONS) violation("prepare_for_text_animation: unknown animation %d", animation);
    int d = doc_index_of(engine_context, context_id, "prepare_for_text_animation");
    check_range_in_doc(d, range, "prepare_for_text_animation", NULL, NULL);
    F.prepared[animation][d]++;
    trace("prepare animation %d doc %d request %llu", animation, d, (unsigned long long)request);
    pending *p = add_pending(request, P_DONE);
    if (!p) { emend_answer_done(c, request); return; }
    decide(p);
}

static void cb_preview(void *user_data, emend_coordinator *c, emend_text_animation animation, uint64_t context_id,
                       void *engine_context, const emend_range *range_pointer, emend_request_id request) {
    CHECK_CALLABLE(requests_preview);
    (void)user_data;
    if (!range_pointer) { violation("requests_preview: NULL range"); return; }
    emend_range range = *range_pointer;
    note_request(request);
    if ((unsigned)animation >= NUM_ANIMATIONS) violation("requests_preview: unknown animation %d", animation);
    int d = doc_index_of(engine_context, context_id, "requests_preview");
    check_range_in_doc(d, range, "requests_preview", NULL, NULL);
    pending *p = add_pending(request, P_PREVIEW);
    if (!p) { emend_answer_preview(c, request, NULL); return; }
    decide(p);
}

static void cb_finish(void *user_data, emend_coordinator *c, emend_text_animation animation, uint64_t context_id,
                      void *engine_context, const emend_range *range_pointer, void *preview, emend_request_id request) {
    CHECK_CALLABLE(finish_text_animation);
    (void)user_data;
    if (!range_pointer) { violation("finish_text_animation: NULL range"); return; }
    emend_range range = *range_pointer;
    note_request(request);
    if ((unsigned)animation >= NUM_ANIMATIONS) violation("finish_text_animation: unknown animation %d", animation);
    int d = doc_index_of(engine_context, context_id, "finish_text_animation");
    check_range_in_doc(d, range, "finish_text_animation", NULL, NULL);
    trace("finish animation %d doc %d preview %p request %llu", animation, d, preview, (unsigned long long)request);
    if (HAS(prepare_for_text_animation)) {
        if (F.prepared[animation][d] <= 0 && !F.tainted)
            violation("finish_text_animation(%d) of document %d without a prepare", animation, d);
        F.prepared[animation][d]--;
    }
    if (preview && !forget_preview(preview))
        violation("finish_text_animation hands back preview %p the engine does not own (twice, or never given)", preview);
    pending *p = add_pending(request, P_DONE);
    if (!p) { emend_answer_done(c, request); return; }
    decide(p);
}

static void cb_will_change(void *user_data, emend_coordinator *c, emend_state state, emend_request_id request) {
    CHECK_CALLABLE(will_change_to_state);
    (void)user_data;
    note_request(request);
    if ((unsigned)state > EMEND_STATE_INTERACTIVE_STREAMING) violation("will_change_to_state: unknown state %d", state);
    if (state != EMEND_STATE_INACTIVE) F.seen_active = 1;
    trace("will_change_to_state(%d) request %llu", state, (unsigned long long)request);
    pending *p = add_pending(request, P_DONE);
    if (!p) { emend_answer_done(c, request); return; }
    decide(p);
}

static void cb_present(void *user_data, emend_coordinator *c, const emend_presented_result *r, emend_request_id request) {
    CHECK_CALLABLE(present_result);
    (void)user_data;
    note_request(request);
    if (!r || !r->text) violation("present_result: NULL result or text");
    if (!utf8_valid(r->text, r->text_length)) violation("present_result: text is not valid UTF-8");
    int d = doc_index_of(r->engine_context, r->context_id, "present_result");
    check_range_in_doc(d, r->range, "present_result", NULL, NULL);
    if (r->struct_size >= offsetof(emend_presented_result, explanation) + sizeof(char *) && r->explanation &&
        !utf8_valid(r->explanation, strlen(r->explanation)))
        violation("present_result: explanation is not valid UTF-8");
    check_styling("present_result", r->text, r->text_length, r->flags, r->attribute_runs, r->attribute_run_count,
                  r->block_intents, r->block_intent_count);
    trace("present_result request %llu (%zu bytes)", (unsigned long long)request, r->text_length);
    pending *p = add_pending(request, P_PRESENTED);
    if (!p) { emend_answer_presented(c, request, EMEND_PRESENTED_DISMISS); return; }
    decide(p);
}

/* Callbacks run only inside dispatch: the harness marks that so observe() waits. */
static emend_status do_dispatch(void) {
    F.in_callback = 1;
    F.in.back = 1;
    size_t processed = 0;
    emend_status s = emend_coordinator_dispatch(F.c, in_chance(&F.in, 128) ? &processed : NULL);
    F.in_callback = 0;
    F.in.back = 0;
    return s;
}

static emend_status do_run_until_idle(int timeout) {
    F.in_callback = 1;
    F.in.back = 1;
    emend_status s = emend_coordinator_run_until_idle(F.c, timeout);
    F.in_callback = 0;
    F.in.back = 0;
    return s;
}

/* ------------------------------------------------------------------------------------------
 * Creating and destroying the coordinator
 * ---------------------------------------------------------------------------------------- */

static void settle_before_destroy(void);

static void drop_coordinator(void) {
    if (F.c && allowed("destroy-busy")) settle_before_destroy();
    if (F.c) {
        trace("destroy");
        emend_coordinator_destroy(F.c);
        F.c = NULL;
    }
    while (F.npend) remove_pending(&F.pend[F.npend - 1]);
    /* previews still held by the runtime are dropped with it: the engine frees them */
    for (size_t i = 0; i < F.npreviews; i++) free(F.previews[i]);
    F.npreviews = 0;
    F.max_request = 0;
    session_reset();
}

static const char *const LANGUAGES[] = {"en-US", "de", "", "en US", "\xFF", "x-fuzz_1"};

static void create_coordinator(void) {
    drop_coordinator();
    memset(&F.delegate, 0, sizeof F.delegate);
    uint16_t mask = (uint16_t)~in_u16(&F.in); /* zero bytes: every callback */
    if (in_chance(&F.in, 100)) mask = 0xFFFF;
    F.delegate.user_data = &F;
    F.delegate.requests_contexts = (mask & 1) || !in_chance(&F.in, 6) ? cb_requests_contexts : NULL;
    if (mask & 2) F.delegate.replace = cb_replace;
    if (mask & 4) F.delegate.select_ranges = cb_select_ranges;
    if (mask & 8) F.delegate.requests_bounding_rects = cb_bounding_rects;
    if (mask & 16) F.delegate.requests_underline_rects = cb_underline_rects;
    if (mask & 32) F.delegate.prepare_for_text_animation = cb_prepare;
    if (mask & 64) F.delegate.requests_preview = cb_preview;
    if (mask & 128) F.delegate.finish_text_animation = cb_finish;
    if (mask & 256) F.delegate.will_change_to_state = cb_will_change;
    if (mask & 512) F.delegate.present_result = cb_present;
    uint8_t size_mode = in_u8(&F.in);
    if (size_mode < 200) F.delegate_size = sizeof F.delegate;
    else if (size_mode < 215) F.delegate_size = EMEND_DELEGATE_MIN_SIZE;
    else if (size_mode < 235) F.delegate_size = EMEND_DELEGATE_MIN_SIZE + sizeof(void *) * (in_u8(&F.in) % 10);
    else if (size_mode < 245) F.delegate_size = sizeof F.delegate + 8 * (in_u8(&F.in) % 4); /* a newer header */
    else F.delegate_size = in_chance(&F.in, 128) ? SIZE_MAX : in_u8(&F.in) % EMEND_DELEGATE_MIN_SIZE;
    F.delegate.struct_size = F.delegate_size;
    /* a newer header's delegate is larger: keep the extra bytes readable */
    unsigned char delegate_copy[sizeof(emend_delegate) + 64];
    memset(delegate_copy, 0, sizeof delegate_copy);
    memcpy(delegate_copy, &F.delegate, sizeof F.delegate);

    emend_coordinator_options options;
    memset(&options, 0, sizeof options);
    uint8_t opt_mode = in_u8(&F.in);
    options.struct_size = opt_mode < 200 ? sizeof options
                        : opt_mode < 220 ? EMEND_COORDINATOR_OPTIONS_MIN_SIZE
                        : opt_mode < 235 ? sizeof options + 16
                        : opt_mode < 245 ? (size_t)(in_u8(&F.in) % EMEND_COORDINATOR_OPTIONS_MIN_SIZE)
                                         : SIZE_MAX;
    options.encoding = (emend_position_encoding)(in_u8(&F.in) % 4);
    options.preferred_behavior = (emend_behavior)((int)((in_u8(&F.in) + 1) % 5) - 1);
    options.preferred_result_options = in_chance(&F.in, 20) ? in_u32(&F.in) : (uint32_t)(in_u8(&F.in) & 31);
    /* time limits: the defaults (30 s, 60 s), or short ones so that they expire */
    uint8_t limit = in_u8(&F.in);
    options.completion_timeout_ms = limit < 128 ? 0 : limit < 136 ? limit - 128u : 20 + (limit - 136u) * 4;
    limit = in_u8(&F.in);
    options.provider_timeout_ms = limit < 128 ? 0 : limit < 136 ? limit - 128u : (limit - 136u) * 8;
    uint8_t chunk = in_u8(&F.in);
    options.stream_chunk_bytes = chunk < 60 ? 0 : chunk < 90 ? UINT32_MAX : chunk % 64;
    options.language = !in_chance(&F.in, 56) ? NULL : LANGUAGES[in_u8(&F.in) % (sizeof LANGUAGES / sizeof *LANGUAGES)];
    int null_options = in_chance(&F.in, 20);
    int null_delegate = in_chance(&F.in, 2);
    unsigned char options_copy[sizeof options + 32];
    memset(options_copy, 0, sizeof options_copy);
    memcpy(options_copy, &options, sizeof options);
    emend_coordinator *c = (emend_coordinator *)(uintptr_t)1;
    emend_status s = emend_coordinator_create(null_delegate ? NULL : (const emend_delegate *)delegate_copy,
                                              null_options ? NULL : (const emend_coordinator_options *)options_copy, &c);
    trace("create(delegate size %zu mask 0x%x, options size %zu enc %d behavior %d results 0x%x) -> %s %s", F.delegate_size,
          mask, options.struct_size, options.encoding, options.preferred_behavior, options.preferred_result_options,
          emend_status_name(s), s ? emend_last_error_message() : "");
    if (s != EMEND_OK) {
        if (c != NULL) violation("emend_coordinator_create failed but left *out = %p", (void *)c);
        return;
    }
    if (!c) violation("emend_coordinator_create returned OK and no coordinator");
    if (null_delegate) violation("emend_coordinator_create took a NULL delegate");
    if (F.delegate_size < EMEND_DELEGATE_MIN_SIZE || F.delegate_size == SIZE_MAX)
        violation("emend_coordinator_create took delegate.struct_size %zu", F.delegate_size);
    F.c = c;
    F.enc = null_options ? EMEND_ENCODING_UTF8 : options.encoding;
    if (!null_options && options.struct_size < offsetof(emend_coordinator_options, encoding) + sizeof(options.encoding))
        F.enc = EMEND_ENCODING_UTF8;
    /* the delegate as the runtime read it: callbacks past struct_size count as NULL */
    if (F.delegate_size < sizeof F.delegate)
        memset((char *)&F.delegate + F.delegate_size, 0, sizeof F.delegate - F.delegate_size);
}

/* ------------------------------------------------------------------------------------------
 * Operations
 * ---------------------------------------------------------------------------------------- */

static const char *const PROMPTS[] = {
    "make it upper case", "lower", "friendlier please", "more formal", "shorter", "something else", "",
    "\xC3\x28", "write a friendly note about tomorow",
};
static const char *const PROVIDERS[] = {"org.emend.fixture", NULL, "org.emend.nope", "", "\xFF\xFE", "org.emend.fixture "};

static void op_start(void) {
    observe();
    emend_tool_request r;
    memset(&r, 0, sizeof r);
    uint8_t tool = in_u8(&F.in);
    r.tool = (emend_tool)(tool < 240 ? tool % 11 : tool); /* tools past 10 are unknown */
    r.scope = (emend_context_scope)(in_u8(&F.in) % 4);
    r.prompt = in_chance(&F.in, 100) ? PROMPTS[in_u8(&F.in) % (sizeof PROMPTS / sizeof *PROMPTS)] : NULL;
    r.provider_id = !in_chance(&F.in, 36) ? "org.emend.fixture" : PROVIDERS[in_u8(&F.in) % (sizeof PROVIDERS / sizeof *PROVIDERS)];
    uint8_t size_mode = in_u8(&F.in);
    r.struct_size = size_mode < 220 ? sizeof r
                  : size_mode < 235 ? EMEND_TOOL_REQUEST_MIN_SIZE
                  : size_mode < 245 ? sizeof r + 8
                  : size_mode < 250 ? SIZE_MAX
                                    : (size_t)(in_u8(&F.in) % EMEND_TOOL_REQUEST_MIN_SIZE);
    unsigned char copy[sizeof r + 16];
    memset(copy, 0, sizeof copy);
    memcpy(copy, &r, sizeof r);
    emend_status s = emend_coordinator_start(F.c, in_chance(&F.in, 2) ? NULL : (const emend_tool_request *)copy);
    trace("start(tool %d scope %d prompt %s provider %s size %zu) -> %s %s", r.tool, r.scope, r.prompt ? r.prompt : "NULL",
          r.provider_id ? r.provider_id : "NULL", r.struct_size, emend_status_name(s), s ? emend_last_error_message() : "");
    if (s == EMEND_OK) {
        if (r.struct_size < EMEND_TOOL_REQUEST_MIN_SIZE || r.struct_size == SIZE_MAX)
            violation("emend_coordinator_start took struct_size %zu", r.struct_size);
        if ((unsigned)r.tool > EMEND_TOOL_FOLLOW_UP || (unsigned)r.scope > EMEND_SCOPE_VISIBLE_AREA)
            violation("emend_coordinator_start took tool %d scope %d", r.tool, r.scope);
        if (r.prompt && r.struct_size >= offsetof(emend_tool_request, provider_id) && !utf8_valid(r.prompt, strlen(r.prompt)))
            violation("emend_coordinator_start took a prompt that is not UTF-8");
        if (r.tool != EMEND_TOOL_FOLLOW_UP) { /* a new session (start needs INACTIVE for these) */
            session_reset();
            F.session_live = 1;
        }
    }
}

/* A range at an edge of the last change Emend delivered to `x` (an insertion just before or
 * after it, or an edit of its first or last character, or of the character beside it):
 * beside the change or in it, where the rules of emend.h's CHANGES meet. */
static emend_range edge_range(const doc *x) {
    if (!x->has_change || x->change_end > x->text.n || x->change_start > x->change_end) return gen_range(&x->text);
    size_t at = in_chance(&F.in, 128) ? x->change_end : x->change_start;
    size_t length = 0;
    switch (in_u8(&F.in) % 4) {
    case 0: break;                                                   /* insert at the edge */
    case 1: if (at < x->text.n) length = char_len_at(x->text.p, x->text.n, at); break; /* the character after */
    case 2: /* the character before */
        if (at > 0) {
            size_t before = at - 1;
            while (before > 0 && ((unsigned char)x->text.p[before] & 0xC0) == 0x80) before--;
            length = at - before;
            at = before;
        }
        break;
    default: if (x->change_end > x->change_start) { at = x->change_start; length = x->change_end - x->change_start; } break;
    }
    if (at + length > x->text.n) return gen_range(&x->text);
    uint64_t location = units_of(x->text.p, at, F.enc);
    return (emend_range){location, units_of(x->text.p + at, length, F.enc)};
}

static void op_update_range(void) {
    int d;
    uint64_t id = pick_context_id(&d);
    int guessed = d < 0; /* an id no callback named yet: which document it is, is a guess */
    if (d < 0) d = (int)(in_u8(&F.in) % MAX_DOCS);
    if (guessed && F.session_contexts && F.session_docs == 1) { d = 0; guessed = 0; }
    doc *x = &F.docs[d];
    /* The runtime must know the document as the engine holds it: answers given must be taken
     * by a dispatch first (one that runs nothing means none is queued). */
    int settled = 0;
    for (int round = 0; round < 4 && F.c; round++) {
        size_t processed = 1;
        F.in_callback = 1;
    F.in.back = 1;
        emend_status s = emend_coordinator_dispatch(F.c, &processed);
        F.in_callback = 0;
    F.in.back = 0;
        if (s == EMEND_OK && processed == 0) { settled = 1; break; }
    }
    emend_range range = in_chance(&F.in, 96) ? edge_range(x) : gen_range(&x->text);
    buf text = {0};
    gen_text(&F.in, &text, in_chance(&F.in, 30), 4);
    size_t passed = text.n;
    int lie = 0;
    if (in_chance(&F.in, 6)) { passed = SIZE_MAX; lie = 1; }
    emend_text_update_reason reason = (emend_text_update_reason)(in_u8(&F.in) % 3);
    const char *ptr = text.n || in_chance(&F.in, 128) ? text.p : NULL;
    emend_status s = emend_coordinator_update_range(F.c, id, range, ptr, passed, reason);
    trace("update_range(ctx %llu doc %d, (%llu,%llu), %zu bytes%s) -> %s %s", (unsigned long long)id, d,
          (unsigned long long)range.location, (unsigned long long)range.length, text.n, lie ? " SIZE_MAX" : "",
          emend_status_name(s), s ? emend_last_error_message() : "");
    if (s == EMEND_OK) {
        if (!lie && !utf8_valid(text.p, text.n)) violation("emend_coordinator_update_range took invalid UTF-8");
        if ((unsigned)reason > EMEND_UPDATE_UNDO_REDO) violation("emend_coordinator_update_range took reason %d", reason);
        size_t start, end;
        if (range_to_bytes(x->text.p, x->text.n, range, F.enc, &start, &end)) {
            size_t n = lie ? 0 : text.n;
            if (x->text.n + n <= 4 * MAX_DOC_BYTES) doc_replace(d, start, end, text.p, n, NULL);
            else F.tainted = 1;
        } else {
            F.tainted = 1; /* the runtime took a range the engine's text does not have */
        }
        F.engine_edits = 1;
        if (!settled || guessed) F.tainted = 1;
        if (lie) violation("emend_coordinator_update_range took text_length SIZE_MAX (emend.h: EMEND_E_INVALID_ARGUMENT)");
    }
    free(text.p);
}

static void op_suggestions(void) {
    size_t count = 0;
    emend_status s = emend_session_suggestion_count(F.c, in_chance(&F.in, 4) ? NULL : &count);
    if (s != EMEND_OK) count = 0;
    size_t index = count && !in_chance(&F.in, 36) ? in_u8(&F.in) % count : (in_chance(&F.in, 128) ? SIZE_MAX : count + in_u8(&F.in));
    switch (in_u8(&F.in) % 8) {
    case 0: {
        emend_suggestion sug[2];
        memset(sug, 0, sizeof sug);
        uint8_t m = in_u8(&F.in);
        sug[0].struct_size = m < 200 ? sizeof sug[0] : m < 220 ? EMEND_SUGGESTION_MIN_SIZE : m < 240 ? sizeof sug[0] + 8 : m % 24;
        s = emend_session_get_suggestion(F.c, index, &sug[0]);
        if (s == EMEND_OK && sug[0].struct_size >= sizeof sug[0]) {
            /* the strings must be readable, UTF-8, and the range within the document */
            const char *fields[] = {sug[0].original, sug[0].replacement, sug[0].explanation, sug[0].category, sug[0].rule_id};
            for (size_t i = 0; i < 5; i++)
                if (!fields[i] || !utf8_valid(fields[i], strlen(fields[i])))
                    violation("emend_session_get_suggestion: string field %zu is NULL or not UTF-8", i);
            if ((unsigned)sug[0].state > EMEND_SUGGESTION_INVALID) violation("suggestion state %d", sug[0].state);
        }
        break;
    }
    case 1: s = emend_session_accept_suggestion(F.c, index); break;
    case 2: s = emend_session_reject_suggestion(F.c, index); break;
    case 3: {
        int d;
        uint64_t id = pick_context_id(&d);
        uint64_t offset = in_chance(&F.in, 16) ? UINT64_MAX : in_u16(&F.in) % 300;
        size_t at = 0;
        s = emend_session_suggestion_at_offset(F.c, id, offset, in_chance(&F.in, 4) ? NULL : &at);
        break;
    }
    case 4: {
        size_t at = 0;
        double x = (double)(int8_t)in_u8(&F.in), y = (double)(int8_t)in_u8(&F.in);
        if (in_chance(&F.in, 10)) x = NAN;
        s = emend_session_suggestion_at_point(F.c, x, y, in_chance(&F.in, 4) ? NULL : &at);
        break;
    }
    case 5: {
        emend_rect rects[4];
        size_t n = 0;
        uint8_t m = in_u8(&F.in);
        size_t capacity = m < 200 ? m % 5 : SIZE_MAX;
        s = emend_session_get_suggestion_rects(F.c, index, capacity == SIZE_MAX || capacity ? rects : NULL, capacity,
                                               in_chance(&F.in, 4) ? NULL : &n);
        break;
    }
    case 6: {
        int d;
        uint64_t id = pick_context_id(&d);
        char buffer[64];
        size_t length = 0;
        uint8_t m = in_u8(&F.in);
        size_t capacity = m < 100 ? m % 65 : m < 200 ? 0 : SIZE_MAX;
        s = emend_session_copy_result(F.c, id, m < 230 ? buffer : NULL, capacity, &length);
        if (s == EMEND_OK && m < 230 && capacity != SIZE_MAX && !utf8_valid(buffer, length))
            violation("emend_session_copy_result gave text that is not UTF-8");
        break;
    }
    default: {
        int can = 0;
        emend_session_can_undo(F.c, &can);
        emend_session_can_redo(F.c, &can);
        s = emend_session_can_undo(F.c, NULL);
        break;
    }
    }
    trace("suggestion op (count %zu, index %zu) -> %s", count, index, emend_status_name(s));
}

static void op_settings(void) {
    emend_status s;
    switch (in_u8(&F.in) % 6) {
    case 0: s = emend_coordinator_set_preferred_behavior(F.c, (emend_behavior)((int)(in_u8(&F.in) % 6) - 2)); break;
    case 1: s = emend_coordinator_set_preferred_result_options(F.c, in_chance(&F.in, 40) ? in_u32(&F.in) : in_u8(&F.in) & 31); break;
    case 2: {
        emend_behavior p = EMEND_BEHAVIOR_NONE, r = EMEND_BEHAVIOR_NONE;
        int ask = !in_chance(&F.in, 20);
        s = emend_coordinator_get_behavior(F.c, &p, ask ? &r : NULL);
        if (s == EMEND_OK && ask && r == EMEND_BEHAVIOR_DEFAULT) violation("the resolved behavior is DEFAULT");
        break;
    }
    case 3: {
        emend_result_options p, r;
        s = emend_coordinator_get_result_options(F.c, &p, &r);
        break;
    }
    case 4: {
        size_t count = 0;
        s = emend_coordinator_provider_count(F.c, &count);
        emend_provider_info info[2];
        memset(info, 0, sizeof info);
        uint8_t m = in_u8(&F.in);
        info[0].struct_size = m < 200 ? sizeof info[0] : m < 230 ? EMEND_PROVIDER_INFO_MIN_SIZE : m % 40;
        s = emend_coordinator_get_provider(F.c, !in_chance(&F.in, 36) ? in_u8(&F.in) % (count + 1) : SIZE_MAX, &info[0]);
        if (s == EMEND_OK && info[0].struct_size == sizeof info[0] && (!info[0].id || !info[0].reason))
            violation("emend_coordinator_get_provider left a string NULL");
        break;
    }
    default:
        s = emend_coordinator_choose_provider(F.c, (emend_tool)(in_u8(&F.in) % 13),
                                              PROVIDERS[in_u8(&F.in) % (sizeof PROVIDERS / sizeof *PROVIDERS)]);
        break;
    }
    trace("settings op -> %s", emend_status_name(s));
}

/* Calls from a thread that does not own the coordinator. */
typedef struct thread_job {
    emend_coordinator *c;
    int what;
    emend_request_id id;
    emend_status status;
} thread_job;

static void *thread_main(void *arg) {
    thread_job *job = arg;
    emend_state state;
    switch (job->what) {
    case 0: job->status = emend_coordinator_get_state(job->c, &state); break;
    case 1: job->status = emend_coordinator_dispatch(job->c, NULL); break;
    case 2: job->status = emend_session_revert(job->c); break;
    case 3: job->status = emend_coordinator_stop(job->c); break;
    default: job->status = emend_answer_done(job->c, job->id); break; /* answers: any thread */
    }
    (void)emend_last_error_message();
    return NULL;
}

static void op_other_thread(void) {
    thread_job job = {F.c, in_u8(&F.in) % 5, 0, EMEND_OK};
    pending *p = NULL;
    if (job.what == 4) {
        for (size_t i = 0; i < F.npend; i++)
            if (F.pend[i].kind == P_DONE) p = &F.pend[i];
        if (!p) return;
        job.id = p->id;
    }
    pthread_t thread;
    if (pthread_create(&thread, NULL, thread_main, &job) != 0) return;
    pthread_join(thread, NULL);
    trace("other thread op %d -> %s", job.what, emend_status_name(job.status));
    if (job.what < 4 && job.status != EMEND_E_WRONG_THREAD)
        violation("a call from another thread returned %s, not EMEND_E_WRONG_THREAD", emend_status_name(job.status));
    if (p && (job.status == EMEND_OK || job.status == EMEND_E_STALE)) remove_pending(p);
}

static void op_null_calls(void) {
    /* Every entry point with a NULL coordinator: EMEND_E_INVALID_ARGUMENT, no crash. */
    emend_state st;
    size_t n;
    int flag;
    expect_failure(emend_coordinator_get_state(NULL, &st), "get_state(NULL)");
    expect_failure(emend_coordinator_dispatch(NULL, &n), "dispatch(NULL)");
    expect_failure(emend_coordinator_run_until_idle(NULL, 0), "run_until_idle(NULL)");
    expect_failure(emend_coordinator_stop(NULL), "stop(NULL)");
    expect_failure(emend_session_accept(NULL), "accept(NULL)");
    expect_failure(emend_session_revert(NULL), "revert(NULL)");
    expect_failure(emend_session_undo(NULL), "undo(NULL)");
    expect_failure(emend_session_can_redo(NULL, &flag), "can_redo(NULL)");
    expect_failure(emend_session_suggestion_count(NULL, &n), "suggestion_count(NULL)");
    expect_failure(emend_answer_done(NULL, 1), "answer_done(NULL)");
    expect_failure(emend_answer_contexts(NULL, 1, NULL, 1), "answer_contexts(NULL)");
    expect_failure(emend_coordinator_update_range(NULL, 1, (emend_range){0, 0}, NULL, 0, EMEND_UPDATE_TYPING), "update_range(NULL)");
    expect_failure(emend_markdown_protected_ranges(NULL, 1, EMEND_ENCODING_UTF8, NULL, &n), "markdown_protected_ranges(NULL)");
    emend_markdown_protected_ranges_free(NULL);
    if (emend_coordinator_fd(NULL) != -1) violation("emend_coordinator_fd(NULL) is not -1");
    emend_coordinator_destroy(NULL);
    emend_status any = in_chance(&F.in, 128) ? (emend_status)(int8_t)in_u8(&F.in) : (emend_status)in_u32(&F.in);
    const char *name = emend_status_name(any);
    if (!name) violation("emend_status_name returned NULL");
    trace("emend_status_name(%d) = %s", (int)any, name);
    (void)strlen(emend_last_error_message());
    if (emend_abi_version() != EMEND_ABI_VERSION) violation("emend_abi_version is %u", emend_abi_version());
    if (F.c && emend_coordinator_fd(F.c) < 0) violation("emend_coordinator_fd is negative");
    /* getters with NULL out pointers */
    if (F.c) {
        expect_failure(emend_coordinator_get_state(F.c, NULL), "get_state(c, NULL)");
        expect_failure(emend_session_copy_result(F.c, 1, NULL, 0, NULL), "copy_result(length NULL)");
        expect_failure(emend_coordinator_create(NULL, NULL, NULL), "create(NULL, NULL, NULL)");
    }
}

static void op_answer_pending(void) {
    if (!F.npend) return;
    pending *p = &F.pend[in_u8(&F.in) % F.npend];
    decide(p);
}

/* emend_markdown_protected_ranges on a document's text (consumes no input): EMEND_OK with
 * ranges sorted, disjoint, inside the text and on character boundaries, or
 * EMEND_E_INVALID_UTF8 for text that is not UTF-8. */
static void check_markdown_ranges(const buf *text) {
    emend_range *ranges = NULL;
    size_t count = 0;
    emend_status s = emend_markdown_protected_ranges(text->p, text->n, EMEND_ENCODING_UTF8, &ranges, &count);
    if (s != EMEND_OK) {
        if (s != EMEND_E_INVALID_UTF8 || ranges || count) violation("markdown ranges: %s, %zu ranges", emend_status_name(s), count);
        return;
    }
    uint64_t end = 0;
    for (size_t i = 0; i < count; i++) {
        uint64_t low = ranges[i].location, high = low + ranges[i].length;
        if (ranges[i].length == 0 || (i > 0 && low <= end) || high > text->n
            || (low < text->n && ((unsigned char)text->p[low] & 0xC0) == 0x80)
            || (high < text->n && ((unsigned char)text->p[high] & 0xC0) == 0x80)) {
            violation("markdown range %zu (%llu, %llu) of %zu bytes", i, (unsigned long long)low,
                      (unsigned long long)ranges[i].length, text->n);
        }
        end = high;
    }
    emend_markdown_protected_ranges_free(ranges);
}

static void op_set_text(void) {
    int d = in_u8(&F.in) % MAX_DOCS;
    if (F.session_live) return; /* the engine tells the runtime about its edits (update_range) */
    gen_text(&F.in, &F.docs[d].text, in_chance(&F.in, 40), 40);
    F.docs[d].version++;
    F.docs[d].selection = gen_range(&F.docs[d].text);
    trace("document %d set to %zu bytes", d, F.docs[d].text.n);
    check_markdown_ranges(&F.docs[d].text);
}

static void run_op(uint8_t op) {
    emend_status s;
    trace("op %d (input at %zu, callbacks at %zu, of %zu)", op % 24, F.in.pos, F.in.end, F.in.size);
    switch (op % 24) {
    case 0: case 1: case 2: op_start(); break;
    case 3: case 4: case 5: s = do_dispatch(); trace("dispatch -> %s", emend_status_name(s)); break;
    case 6: case 7: {
        /* mostly short, sometimes long enough for a provider's result to arrive */
        uint8_t t = in_u8(&F.in);
        int timeout = t < 200 ? t % 20 : (t - 200) * 10;
        /* in slices: it cannot become idle while the engine owes an answer, so stop then */
        int64_t deadline = now_ms() + timeout;
        for (;;) {
            int64_t left = deadline - now_ms();
            s = do_run_until_idle(left < 20 ? (int)(left > 0 ? left : 0) : 20);
            if (s != EMEND_E_TIMEOUT || !F.c || now_ms() >= deadline) break;
            int owed = 0;
            for (size_t i = 0; i < F.npend; i++) owed |= F.pend[i].serial == F.serial;
            if (owed) break;
        }
        trace("run_until_idle -> %s", emend_status_name(s));
        break;
    }
    case 8:
        s = emend_coordinator_stop(F.c);
        trace("stop -> %s", emend_status_name(s));
        if (s == EMEND_OK && F.session_live) F.expect_original = 1;
        break;
    case 9:
        s = emend_session_accept(F.c);
        trace("accept -> %s", emend_status_name(s));
        if (s == EMEND_OK) F.accepted = 1;
        break;
    case 10:
        s = emend_session_revert(F.c);
        trace("revert -> %s %s", emend_status_name(s), s ? emend_last_error_message() : "");
        if (s == EMEND_OK && F.session_live) F.expect_original = 1;
        break;
    case 11: s = emend_session_undo(F.c); trace("undo -> %s", emend_status_name(s)); break;
    case 12: s = emend_session_redo(F.c); trace("redo -> %s", emend_status_name(s)); break;
    case 13:
        s = emend_session_show_original(F.c, (int)(int8_t)in_u8(&F.in) % 3);
        trace("show_original -> %s", emend_status_name(s));
        break;
    case 14: case 15: op_suggestions(); break;
    case 16: case 17: op_answer_pending(); break;
    case 18: op_update_range(); break;
    case 19: op_set_text(); break;
    case 20: op_settings(); break;
    case 21: s = emend_coordinator_update_for_reflowed_text(F.c); trace("reflow -> %s", emend_status_name(s)); break;
    case 22: op_other_thread(); break;
    default:
        if (in_chance(&F.in, 40)) create_coordinator(); /* destroy at a random point, and a new one */
        else op_null_calls();
        break;
    }
}

/* Answers everything owed and runs until idle (bounded), so that destroying does not hit
 * the open leak "destroy-busy". */
static void settle_before_destroy(void) {
    int was_finale = F.finale;
    F.finale = 1;
    for (int round = 0; round < 50; round++) {
        while (F.npend) decide(&F.pend[F.npend - 1]);
        emend_status s = do_run_until_idle(20);
        if (s != EMEND_E_TIMEOUT && F.npend == 0) break;
    }
    F.finale = was_finale;
}

/* The end of the input: answer what is owed, end the session with revert or stop, and check. */
static void finale(void) {
    if (!F.c) return;
    F.finale = 1;
    while (F.npend) decide(&F.pend[F.npend - 1]);
    int64_t deadline = now_ms() + 3000;
    int asked = 0;
    trace("finale");
    for (;;) {
        do_run_until_idle(20);
        while (F.npend) decide(&F.pend[F.npend - 1]);
        emend_state state = EMEND_STATE_INACTIVE;
        emend_coordinator_get_state(F.c, &state);
        if (state == EMEND_STATE_INACTIVE) break;
        if (!asked || now_ms() > deadline - 2000) {
            emend_status s = emend_session_revert(F.c);
            if (s != EMEND_OK) s = emend_coordinator_stop(F.c);
            trace("finale: revert/stop -> %s", emend_status_name(s));
            if (s == EMEND_OK) F.expect_original = 1;
            asked = 1;
        }
        if (now_ms() > deadline) {
            if (!F.tainted) violation("the coordinator is still active (state %d) 3 s after revert/stop with every request answered", state);
            break;
        }
    }
    observe();
    F.finale = 0;
}

/* ------------------------------------------------------------------------------------------
 * libFuzzer entry points
 * ---------------------------------------------------------------------------------------- */

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    verbose = getenv("EMEND_FUZZ_VERBOSE") != NULL;
    if (getenv("EMEND_FUZZ_ALLOW_OPEN")) allow_open = getenv("EMEND_FUZZ_ALLOW_OPEN");
    /* No plugins: discovery finds an empty directory and private XDG directories. */
    char dir[] = "/tmp/emend-fuzz-XXXXXX";
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        abort();
    }
    static char paths[4][64];
    const char *names[4] = {"providers", "cache", "config", "data"};
    for (int i = 0; i < 4; i++) {
        snprintf(paths[i], sizeof paths[i], "%s/%s", dir, names[i]);
        if (mkdir(paths[i], 0755) != 0 && errno != EEXIST) {
            perror("mkdir");
            abort();
        }
    }
    setenv("EMEND_PROVIDER_PATH", paths[0], 1);
    setenv("XDG_CACHE_HOME", paths[1], 1);
    setenv("XDG_CONFIG_HOME", paths[2], 1);
    setenv("XDG_DATA_HOME", paths[3], 1);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    memset(&F.in, 0, sizeof F.in);
    F.in.data = data;
    F.in.size = size;
    F.in.end = size;
    for (int i = 0; i < MAX_DOCS; i++) {
        static const char *initial[MAX_DOCS] = {
            "Their going to the party tomorow, and they has brought snacks. I could of done it better.",
            "I cannot come today, it is raining. We are gonna stay home.",
            "\xEF\xBF\xBC caf\xC3\xA9 \xF0\x9F\x98\x80 a example.",
        };
        buf_set(&F.docs[i].text, initial[i], strlen(initial[i]));
        F.docs[i].version = 0;
        F.docs[i].selection = (emend_range){0, 0};
    }
    create_coordinator();
    if (!F.c) create_coordinator();
    for (int ops = 0; ops < MAX_OPS && !in_done(&F.in); ops++) {
        if (!F.c) {
            create_coordinator();
            continue;
        }
        uint8_t op = in_u8(&F.in);
        if (op == 0) break; /* the end of the program; the rest is for callbacks */
        run_op(op);
        observe();
    }
    finale();
    drop_coordinator();
    for (int i = 0; i < MAX_DOCS; i++) {
        free(F.docs[i].text.p);
        F.docs[i].text.p = NULL;
        F.docs[i].text.n = 0;
    }
    return 0;
}
