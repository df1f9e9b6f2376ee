/* request.c — the JSON body and URL of a chat completions request (see request.h). */
#define _GNU_SOURCE
#include "request.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>

static int add_message(cJSON *messages, const char *role, const char *content) {
    cJSON *message = cJSON_CreateObject();
    if (message == NULL) return -1;
    cJSON_AddItemToArray(messages, message);
    return cJSON_AddStringToObject(message, "role", role) != NULL &&
                   cJSON_AddStringToObject(message, "content", content) != NULL
               ? 0
               : -1;
}

char *openai_request_body(const openai_settings *settings, const emend_prompt *prompt, const char *grammar) {
    const char *system = prompt->system, *user = prompt->user;
    int example = prompt->example_user != NULL && prompt->example_answer != NULL;
    cJSON *body = cJSON_CreateObject();
    char *text = NULL;
    if (body == NULL) return NULL;
    cJSON *messages = NULL;
    int ok = (settings->model == NULL || cJSON_AddStringToObject(body, "model", settings->model) != NULL) &&
             (messages = cJSON_AddArrayToObject(body, "messages")) != NULL &&
             (system == NULL || system[0] == '\0' || add_message(messages, "system", system) == 0) &&
             (!example || (add_message(messages, "user", prompt->example_user) == 0 &&
                           add_message(messages, "assistant", prompt->example_answer) == 0)) &&
             add_message(messages, "user", user != NULL ? user : "") == 0 &&
             cJSON_AddTrueToObject(body, "stream") != NULL &&
             cJSON_AddNumberToObject(body, "max_tokens", (double)settings->max_tokens) != NULL &&
             (settings->temperature < 0 || cJSON_AddNumberToObject(body, "temperature", settings->temperature) != NULL) &&
             (!settings->send_grammar || grammar == NULL || cJSON_AddStringToObject(body, "grammar", grammar) != NULL);
    if (ok) text = cJSON_PrintUnformatted(body);
    cJSON_Delete(body);
    return text;
}

char *openai_request_url(const openai_settings *settings) {
    char *url = NULL;
    if (asprintf(&url, "%s/chat/completions", settings->base_url) < 0) return NULL;
    return url;
}
