/*
 * request.h — the JSON body of a chat completions request:
 *
 *   {"model": ..., "messages": [{"role": "system", ...}, (a worked example: user, assistant,)
 *                                {"role": "user", ...}],
 *    "stream": true, "max_tokens": N, "temperature": T, "grammar": "..."}
 *
 * "model" only when the settings name one, "temperature" unless it is -1, "grammar" (a
 * llama.cpp extension other servers ignore) only when send_grammar is on and the tool has one.
 */
#ifndef EMEND_OPENAI_REQUEST_H
#define EMEND_OPENAI_REQUEST_H

#include "emend_prompts.h"
#include "settings.h"

/* The body as a malloc'd NUL-terminated string, or NULL when out of memory. */
char *openai_request_body(const openai_settings *settings, const emend_prompt *prompt, const char *grammar);

/* "{base_url}/chat/completions", malloc'd. */
char *openai_request_url(const openai_settings *settings);

#endif
