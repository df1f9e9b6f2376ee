/* emend_prompts.c — see emend_prompts.h. */
#include "emend_prompts.h"

#include "emend_plugin.h"

#include <stddef.h>

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

/* The worked example of a tool: a short input with names, numbers and a negation, and an
 * answer that keeps every one of them. Shown to the model as an earlier turn of the chat (a
 * small model copies the shape of an answer it has seen more reliably than it follows an
 * instruction). NULL for tools whose instruction comes from the user (described rewrite,
 * follow-up, compose) and for proofreading (its JSON shape is held by a grammar). */
typedef struct worked_example {
    const char *input, *answer;
} worked_example;

/* The input of the summary's and the key points' examples. */
#define CHAIRS_TEXT                                                                                   \
    "The 40 chairs we ordered arrived on Monday, but 6 of them were damaged. The supplier will not " \
    "replace them until we send photos, so Mia is taking pictures today."

static const worked_example *example_for(emend_tool tool) {
    static const worked_example friendly = {
        "Send me the report by Friday. I can't review it after 5 pm.",
        "Could you send me the report by Friday? I won't be able to review it after 5 pm. Thanks!"};
    static const worked_example professional = {
        "hey, the server is down again and Ana says she cant fix it before 3.",
        "The server is down again. Ana says she cannot fix it before 3."};
    static const worked_example concise = {
        "I just wanted to let you know that the meeting with Lee, which was going to be on Tuesday, "
        "has now been moved to Thursday at 10, and it will not be recorded.",
        "The meeting with Lee moved from Tuesday to Thursday at 10. It will not be recorded."};
    static const worked_example summary = {
        CHAIRS_TEXT,
        "6 of the 40 chairs that arrived on Monday were damaged; the supplier will not replace them "
        "until Mia sends photos."};
    static const worked_example key_points = {
        CHAIRS_TEXT,
        "- 40 chairs arrived on Monday\n- 6 were damaged\n- The supplier will not replace them without photos\n"
        "- Mia is taking pictures today"};
    static const worked_example list = {
        "Bring your passport, two photos and the signed form. Do not bring a bag.",
        "- your passport\n- two photos\n- the signed form\n- no bag"};
    static const worked_example table = {
        "Anna works on Monday and Tuesday. Ben works on Wednesday. Chris does not work this week.",
        "| Name | Days |\n| --- | --- |\n| Anna | Monday, Tuesday |\n| Ben | Wednesday |\n| Chris | not this week |"};
    switch (tool) {
    case EMEND_TOOL_REWRITE_FRIENDLY: return &friendly;
    case EMEND_TOOL_REWRITE_PROFESSIONAL: return &professional;
    case EMEND_TOOL_REWRITE_CONCISE: return &concise;
    case EMEND_TOOL_SUMMARY: return &summary;
    case EMEND_TOOL_KEY_POINTS: return &key_points;
    case EMEND_TOOL_LIST: return &list;
    case EMEND_TOOL_TABLE: return &table;
    default: return NULL;
    }
}

/* The user message: the tool's instruction, the rules, the host's guidance when asked
 * (`with_guidance`; never for the worked example's turn), then the text. */
static int build_user(const emend_provider_request *request, const char *input, size_t length, emend_prompt_style style,
                      int with_guidance, buffer *user, char *err, size_t errlen) {
    const char *prompt = request->prompt;
    const char *text_label = ":\n\n";

    switch (request->tool) {
    case EMEND_TOOL_PROOFREAD:
        append_str(user,
                   "Find the spelling and grammar mistakes in this text. Answer with JSON: "
                   "{\"edits\":[{\"original\":\"wrong words\",\"replacement\":\"corrected words\","
                   "\"explanation\":\"short reason\"}]}");
        text_label = "\n\nText: ";
        break;
    case EMEND_TOOL_REWRITE_FRIENDLY:
        append_str(user, "Rewrite this text in a friendly, warm tone.");
        break;
    case EMEND_TOOL_REWRITE_PROFESSIONAL:
        append_str(user, "Rewrite this text in a professional tone.");
        break;
    case EMEND_TOOL_REWRITE_CONCISE:
        append_str(user, "Rewrite this text to be shorter.");
        break;
    case EMEND_TOOL_REWRITE_DESCRIBED:
        if (!has_text(prompt)) return emend_plugin_fail(err, errlen, "rewrite (described) needs a prompt describing the change");
        append_str(user, "Rewrite this text as follows: ");
        append_str(user, prompt);
        break;
    case EMEND_TOOL_FOLLOW_UP:
        if (!has_text(prompt)) return emend_plugin_fail(err, errlen, "a follow-up needs a prompt saying what to change");
        append_str(user, "Revise this text as follows: ");
        append_str(user, prompt);
        break;
    case EMEND_TOOL_SUMMARY:
        append_str(user, "Summarize this text in one or two sentences.");
        break;
    case EMEND_TOOL_KEY_POINTS:
        append_str(user, "List the key points of this text as short bullet points.");
        break;
    case EMEND_TOOL_LIST:
        append_str(user, "Turn this text into a bulleted list.");
        break;
    case EMEND_TOOL_TABLE:
        append_str(user, "Turn this text into a Markdown table.");
        break;
    case EMEND_TOOL_COMPOSE:
        if (!has_text(prompt)) return emend_plugin_fail(err, errlen, "compose needs a prompt saying what to write");
        append_str(user, prompt);
        if (length > 0) text_label = "\n\nUse this text";
        break;
    default:
        return emend_plugin_fail(err, errlen, "unknown tool %d", (int)request->tool);
    }
    if (request->tool != EMEND_TOOL_PROOFREAD) {
        /* A rewrite keeps every fact; a summary, list or table may leave some out, but must
           not bring in new ones (the fact guard checks both). */
        if (style != EMEND_PROMPT_PLAIN && request->tool != EMEND_TOOL_COMPOSE)
            append_str(user, emend_prompt_shape(request->tool) == EMEND_SHAPE_TEXT && request->tool != EMEND_TOOL_SUMMARY
                                 ? " Keep every name, number, date and negation of the text."
                                 : " Use only names, numbers and dates from the text, and keep its negations.");
        text_rules(user, request, input, length);
    }
    /* Asked again because the last answer changed facts: the host says which to keep. */
    if (with_guidance && request->struct_size >= offsetof(emend_provider_request, guidance) + sizeof request->guidance
        && has_text(request->guidance)) {
        append_str(user, " ");
        append_str(user, request->guidance);
    }
    if (request->tool != EMEND_TOOL_COMPOSE || length > 0) {
        /* Instructions end with '.', the label starts with ':' or a blank line. */
        if (user->length > 0 && user->data[user->length - 1] == '.' && text_label[0] == ':') user->length--;
        append_str(user, text_label);
        if (request->tool == EMEND_TOOL_COMPOSE) append_str(user, ":\n\n");
        append(user, input, length);
    }
    return 0;
}

static char *copy_string(const char *text) {
    size_t n = strlen(text) + 1;
    char *copy = malloc(n);
    if (copy != NULL) memcpy(copy, text, n);
    return copy;
}

int emend_prompt_build_styled(const emend_provider_request *request, const char *input, size_t length,
                              emend_prompt_style style, emend_prompt *out, char *err, size_t errlen) {
    memset(out, 0, sizeof *out);
    if (style == EMEND_PROMPT_DEFAULT)
        style = request->tool == EMEND_TOOL_REWRITE_FRIENDLY || request->tool == EMEND_TOOL_REWRITE_PROFESSIONAL ||
                        request->tool == EMEND_TOOL_REWRITE_CONCISE
                    ? EMEND_PROMPT_EXAMPLE
                    : EMEND_PROMPT_PLAIN;
    buffer system = {0}, user = {0}, example = {0};
    if (build_user(request, input, length, style, 1, &user, err, errlen) != 0) {
        free(user.data);
        return -1;
    }
    const worked_example *worked = style == EMEND_PROMPT_EXAMPLE ? example_for(request->tool) : NULL;
    if (worked != NULL) {
        /* The same instruction over the example's input, so the model sees the answer to the
           very request it is about to get; the example is English, so only for English. */
        const char *language = request->language;
        int english = language == NULL || *language == '\0' ||
                      (language[0] == 'e' && language[1] == 'n' && (language[2] == '\0' || language[2] == '-' || language[2] == '_'));
        if (english && build_user(request, worked->input, strlen(worked->input), style, 0, &example, err, errlen) != 0) {
            free(user.data);
            free(example.data);
            return -1;
        }
        if (!english) worked = NULL;
    }
    append_str(&system, system_message);
    if (system.failed || user.failed || example.failed || user.data == NULL) {
        free(system.data);
        free(user.data);
        free(example.data);
        return emend_plugin_fail(err, errlen, "out of memory");
    }
    out->system = system.data;
    out->user = user.data;
    if (worked != NULL && example.data != NULL) {
        out->example_user = example.data;
        out->example_answer = copy_string(worked->answer);
        if (out->example_answer == NULL) {
            emend_prompt_free(out);
            return emend_plugin_fail(err, errlen, "out of memory");
        }
    } else {
        free(example.data);
    }
    return 0;
}

int emend_prompt_build_for(const emend_provider_request *request, const char *input, size_t length,
                           emend_prompt *out, char *err, size_t errlen) {
    return emend_prompt_build_styled(request, input, length, EMEND_PROMPT_DEFAULT_STYLE, out, err, errlen);
}

int emend_prompt_style_parse(const char *value, emend_prompt_style *out) {
    if (value == NULL) return -1;
    if (strcmp(value, "plain") == 0) *out = EMEND_PROMPT_PLAIN;
    else if (strcmp(value, "keep-facts") == 0) *out = EMEND_PROMPT_KEEP_FACTS;
    else if (strcmp(value, "example") == 0) *out = EMEND_PROMPT_EXAMPLE;
    else if (strcmp(value, "default") == 0) *out = EMEND_PROMPT_DEFAULT;
    else return -1;
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
    free(prompt->example_user);
    free(prompt->example_answer);
    memset(prompt, 0, sizeof *prompt);
}
