/* emend_prompts.c — see emend_prompts.h. */
#include "emend_prompts.h"

#include <stddef.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int emend_request_has_markdown(const emend_provider_request *request) {
    return request->struct_size >= offsetof(emend_provider_request, markdown_length) + sizeof(size_t) &&
           request->markdown != NULL;
}

const char *emend_prompt_input(const emend_provider_request *request, size_t *length) {
    /* The Markdown is the selection as it stands; for a follow-up that is the previous result,
       with protected text already replaced by placeholders, so it comes first. */
    if (request->tool != EMEND_TOOL_PROOFREAD && emend_request_has_markdown(request)) {
        *length = request->markdown_length;
        return request->markdown;
    }
    if (request->tool == EMEND_TOOL_FOLLOW_UP && request->previous_result != NULL) {
        *length = strlen(request->previous_result);
        return request->previous_result;
    }
    size_t start = request->selection.start, end = request->selection.end;
    if (start > end || end > request->text_length) {
        *length = 0;
        return "";
    }
    *length = end - start;
    return request->text + start;
}

const char *emend_tool_label(emend_tool tool) {
    switch (tool) {
    case EMEND_TOOL_PROOFREAD: return "proofread";
    case EMEND_TOOL_REWRITE_FRIENDLY: return "rewrite (friendly)";
    case EMEND_TOOL_REWRITE_PROFESSIONAL: return "rewrite (professional)";
    case EMEND_TOOL_REWRITE_CONCISE: return "rewrite (concise)";
    case EMEND_TOOL_REWRITE_DESCRIBED: return "rewrite (described)";
    case EMEND_TOOL_SUMMARY: return "summary";
    case EMEND_TOOL_KEY_POINTS: return "key points";
    case EMEND_TOOL_LIST: return "list";
    case EMEND_TOOL_TABLE: return "table";
    case EMEND_TOOL_COMPOSE: return "compose";
    case EMEND_TOOL_FOLLOW_UP: return "follow-up";
    }
    return "unknown tool";
}

int emend_prompt_shape(emend_tool tool) {
    switch (tool) {
    case EMEND_TOOL_PROOFREAD: return EMEND_SHAPE_EDITS;
    case EMEND_TOOL_KEY_POINTS:
    case EMEND_TOOL_LIST: return EMEND_SHAPE_BULLETS;
    case EMEND_TOOL_TABLE: return EMEND_SHAPE_TABLE;
    default: return EMEND_SHAPE_TEXT;
    }
}

/* A growing NUL-terminated string; on allocation failure `failed` is set and appends stop. */
typedef struct buffer {
    char *data;
    size_t length, capacity;
    int failed;
} buffer;

static void append(buffer *b, const char *text, size_t length) {
    if (b->failed) return;
    if (b->length + length + 1 > b->capacity) {
        size_t capacity = b->capacity ? b->capacity : 256;
        while (capacity < b->length + length + 1) capacity *= 2;
        char *grown = realloc(b->data, capacity);
        if (grown == NULL) {
            b->failed = 1;
            return;
        }
        b->data = grown;
        b->capacity = capacity;
    }
    memcpy(b->data + b->length, text, length);
    b->length += length;
    b->data[b->length] = '\0';
}

static void append_str(buffer *b, const char *text) { append(b, text, strlen(text)); }

static int contains(const char *text, size_t length, const char *needle) {
    size_t n = strlen(needle);
    for (size_t i = 0; i + n <= length; i++)
        if (memcmp(text + i, needle, n) == 0) return 1;
    return 0;
}

static int has_text(const char *s) {
    if (s == NULL) return 0;
    for (; *s; s++)
        if (*s != ' ' && *s != '\t' && *s != '\n' && *s != '\r') return 1;
    return 0;
}

static int fail(char *err, size_t errlen, const char *format, ...) {
    if (err != NULL && errlen > 0) {
        va_list args;
        va_start(args, format);
        vsnprintf(err, errlen, format, args);
        va_end(args);
    }
    return -1;
}

/* What every text tool adds to its instruction: keep the placeholders, keep the language. */
static void text_rules(buffer *b, const emend_provider_request *request, const char *input, size_t length) {
    if (contains(input, length, "\xE2\x9F\xA6")) /* ⟦ */
        append_str(b, " Keep tokens like \xE2\x9F\xA6" "1\xE2\x9F\xA7 exactly as they are.");
    const char *language = request->language;
    if (language != NULL && *language && !(language[0] == 'e' && language[1] == 'n' && (language[2] == '\0' || language[2] == '-' || language[2] == '_')))
        append_str(b, " Write in the language of the text.");
}

/* The system message: short and the same for every tool (small models follow an instruction
 * next to the text better than one in the system message). */
static const char system_message[] = "You are a writing assistant. Answer with the result only.";

int emend_prompt_build_for(const emend_provider_request *request, const char *input, size_t length,
                           emend_prompt *out, char *err, size_t errlen) {
    out->system = NULL;
    out->user = NULL;
    buffer system = {0}, user = {0};
    const char *prompt = request->prompt;
    const char *text_label = ":\n\n";

    switch (request->tool) {
    case EMEND_TOOL_PROOFREAD:
        append_str(&user,
                   "Find the spelling and grammar mistakes in this text. Answer with JSON: "
                   "{\"edits\":[{\"original\":\"wrong words\",\"replacement\":\"corrected words\","
                   "\"explanation\":\"short reason\"}]}");
        text_label = "\n\nText: ";
        break;
    case EMEND_TOOL_REWRITE_FRIENDLY:
        append_str(&user, "Rewrite this text in a friendly, warm tone.");
        break;
    case EMEND_TOOL_REWRITE_PROFESSIONAL:
        append_str(&user, "Rewrite this text in a professional tone.");
        break;
    case EMEND_TOOL_REWRITE_CONCISE:
        append_str(&user, "Rewrite this text to be shorter.");
        break;
    case EMEND_TOOL_REWRITE_DESCRIBED:
        if (!has_text(prompt)) return fail(err, errlen, "rewrite (described) needs a prompt describing the change");
        append_str(&user, "Rewrite this text as follows: ");
        append_str(&user, prompt);
        break;
    case EMEND_TOOL_FOLLOW_UP:
        if (!has_text(prompt)) return fail(err, errlen, "a follow-up needs a prompt saying what to change");
        append_str(&user, "Revise this text as follows: ");
        append_str(&user, prompt);
        break;
    case EMEND_TOOL_SUMMARY:
        append_str(&user, "Summarize this text in one or two sentences.");
        break;
    case EMEND_TOOL_KEY_POINTS:
        append_str(&user, "List the key points of this text as short bullet points.");
        break;
    case EMEND_TOOL_LIST:
        append_str(&user, "Turn this text into a bulleted list.");
        break;
    case EMEND_TOOL_TABLE:
        append_str(&user, "Turn this text into a Markdown table.");
        break;
    case EMEND_TOOL_COMPOSE:
        if (!has_text(prompt)) return fail(err, errlen, "compose needs a prompt saying what to write");
        append_str(&user, prompt);
        if (length > 0) text_label = "\n\nUse this text";
        break;
    default:
        return fail(err, errlen, "unknown tool %d", (int)request->tool);
    }
    if (request->tool != EMEND_TOOL_PROOFREAD) text_rules(&user, request, input, length);
    /* Asked again because the last answer changed facts: the host says which to keep. */
    if (request->struct_size >= offsetof(emend_provider_request, guidance) + sizeof request->guidance
        && has_text(request->guidance)) {
        append_str(&user, " ");
        append_str(&user, request->guidance);
    }
    if (request->tool != EMEND_TOOL_COMPOSE || length > 0) {
        /* Instructions end with '.', the label starts with ':' or a blank line. */
        if (user.length > 0 && user.data[user.length - 1] == '.' && text_label[0] == ':') user.length--;
        append_str(&user, text_label);
        if (request->tool == EMEND_TOOL_COMPOSE) append_str(&user, ":\n\n");
        append(&user, input, length);
    }
    append_str(&system, system_message);
    if (system.failed || user.failed || user.data == NULL) {
        free(system.data);
        free(user.data);
        return fail(err, errlen, "out of memory");
    }
    out->system = system.data;
    out->user = user.data;
    return 0;
}

int emend_prompt_build(const emend_provider_request *request, emend_prompt *out, char *err, size_t errlen) {
    size_t length = 0;
    const char *input = emend_prompt_input(request, &length);
    return emend_prompt_build_for(request, input, length, out, err, errlen);
}

void emend_prompt_free(emend_prompt *prompt) {
    if (prompt == NULL) return;
    free(prompt->system);
    free(prompt->user);
    prompt->system = NULL;
    prompt->user = NULL;
}
