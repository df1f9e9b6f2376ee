/*
 * emend_prompts.h — the chat messages a model provider sends for each tool.
 *
 * Shared by the model providers (providers/llama, the OpenAI-compatible client): one short
 * system message, the same for every tool, and one user message with the instruction
 * followed by the text ("Summarize this text in one or two sentences:\n\n<text>"); a small
 * model follows an instruction next to the text better than one in the system message.
 * Prompts are kept short on purpose (they must work on a 135M model) and replace any default
 * system prompt of the model's own.
 */
#ifndef EMEND_PROMPTS_H
#define EMEND_PROMPTS_H

#include <stddef.h>

#include "emend_provider.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The messages of a request; all malloc'd, NUL-terminated UTF-8. When the style gives a
 * worked example, example_user and example_answer are an earlier user turn and the
 * assistant's answer to it, to be sent between the system and the user message; else both
 * are NULL. */
typedef struct emend_prompt {
    char *system;
    char *user;
    char *example_user;
    char *example_answer;
} emend_prompt;

/* How much help a prompt gives a small model to keep the facts of its text. Settable per
 * provider as prompt_style = "plain" | "keep-facts" | "example"; without the setting, the
 * default chooses per tool what measured best (benchmarks/facts, SmolLM2-135M, 50 notes:
 * faithful results applied, friendly rewrite 18 plain / 19 keep-facts / 25 example; key
 * points 26 / 20 / 15, where the model copied the example's facts): the worked example for
 * the tone rewrites, the plain prompt for the rest. */
typedef enum emend_prompt_style {
    EMEND_PROMPT_PLAIN = 0,      /* the instruction and the text */
    EMEND_PROMPT_KEEP_FACTS = 1, /* and "Keep every name, number, date and negation of the text."
                                    (a summary, list or table: "Use only names, numbers and dates
                                    from the text, and keep its negations.") */
    EMEND_PROMPT_EXAMPLE = 2,    /* and a worked example of the tool as an earlier chat turn (English) */
    EMEND_PROMPT_DEFAULT = 3     /* EXAMPLE for the tone rewrites, PLAIN for every other tool */
} emend_prompt_style;

/* The style emend_prompt_build and emend_prompt_build_for use. */
#define EMEND_PROMPT_DEFAULT_STYLE EMEND_PROMPT_DEFAULT

/* The shape of output a tool requires. */
enum {
    EMEND_SHAPE_TEXT = 0,    /* free text (Markdown) */
    EMEND_SHAPE_EDITS = 1,   /* proofreading: JSON {"edits":[...]}, see emend_edits.h */
    EMEND_SHAPE_BULLETS = 2, /* key points, list: "- item" lines */
    EMEND_SHAPE_TABLE = 3    /* a Markdown table: header, separator, rows */
};

/* The messages for `request` as a whole (its selection, or its Markdown when the host's
 * struct has it). 0 on success; -1 with a message in err (NUL-terminated, at most errlen
 * bytes) for a request it cannot serve (unknown tool, a required prompt missing). */
int emend_prompt_build(const emend_provider_request *request, emend_prompt *out, char *err, size_t errlen);

/* The same for a part of the input: `input` (length bytes) instead of the request's text,
 * for providers that split long inputs. For a follow-up, `input` replaces previous_result. */
int emend_prompt_build_for(const emend_provider_request *request, const char *input, size_t length,
                           emend_prompt *out, char *err, size_t errlen);

/* The same with a style of prompt. */
int emend_prompt_build_styled(const emend_provider_request *request, const char *input, size_t length,
                              emend_prompt_style style, emend_prompt *out, char *err, size_t errlen);

/* "plain", "keep-facts", "example" or "default" to its style: 0, or -1 for anything else. */
int emend_prompt_style_parse(const char *value, emend_prompt_style *out);

/* The text a tool works on: the Markdown when the host's struct has it (text tools), else the
 * selection of request->text (always the plain selection for proofreading, whose edits are
 * offsets into it). For a follow-up the Markdown is the previous result as it stands in the
 * document; without Markdown, previous_result when there is one. Not a copy. */
const char *emend_prompt_input(const emend_provider_request *request, size_t *length);

/* Whether the host's request struct carries the markdown fields. */
int emend_request_has_markdown(const emend_provider_request *request);

/* Frees the messages (the struct itself is the caller's); safe on a zeroed struct. */
void emend_prompt_free(emend_prompt *prompt);

/* EMEND_SHAPE_* for a tool. */
int emend_prompt_shape(emend_tool tool);

/* A short English name of the tool ("summary", "rewrite (friendly)"); never NULL. */
const char *emend_tool_label(emend_tool tool);

#ifdef __cplusplus
}
#endif

#endif /* EMEND_PROMPTS_H */
