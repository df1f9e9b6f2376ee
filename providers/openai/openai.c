/*
 * openai.c — the Emend provider for OpenAI-compatible chat completion servers (llama-server,
 * OpenAI, vLLM, Ollama's /v1, ...): the descriptor and a run from request to finish.
 *
 *   settings.c  the settings and the API key (env or an owner-only file), redaction
 *   request.c   the JSON body (model, messages, stream, max_tokens, temperature, grammar)
 *   stream.c    HTTP with libcurl: server-sent events, retries with back-off, cancellation
 *   output.c    whole UTF-8 characters and the shape of each tool's answer
 *   ../sdk      settings, logging, request checks, the runs in progress, UTF-8
 *   ../common   the prompts, the GBNF grammars and the proofreading JSON -> edits
 *
 * Runs are independent (a curl multi handle each; the instance is read-only but for the list of
 * runs under its lock), so the provider is CONCURRENT. A run works inside descriptor.run and
 * finishes before returning; cancel only sets the run's flag and wakes its curl wait.
 */
#define _GNU_SOURCE
#include <curl/curl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emend_edits.h"
#include "emend_grammars.h"
#include "emend_plugin.h"
#include "emend_prompts.h"
#include "emend_provider.h"
#include "output.h"
#include "request.h"
#include "settings.h"
#include "stream.h"

#ifndef PLUGIN_ID
#define PLUGIN_ID "org.emend.openai"
#endif

#define TOOLS                                                                                                       \
    (EMEND_PROVIDES_REWRITES | EMEND_PROVIDES(EMEND_TOOL_PROOFREAD) | EMEND_PROVIDES(EMEND_TOOL_SUMMARY) |          \
     EMEND_PROVIDES(EMEND_TOOL_KEY_POINTS) | EMEND_PROVIDES(EMEND_TOOL_LIST) | EMEND_PROVIDES(EMEND_TOOL_TABLE) |   \
     EMEND_PROVIDES(EMEND_TOOL_COMPOSE))

typedef struct provider {
    emend_plugin_instance base; /* the host, the runs in progress (CONCURRENT), for cancel */
    openai_settings settings;
    char *url;
} provider;

/* One run's state, shared with the stream's callbacks. */
typedef struct job {
    provider *p;
    emend_run *run;
    emend_plugin_slot *slot; /* cancel wakes `multi`'s wait */
    CURLM *multi;
    openai_output output;
    size_t received; /* pieces of content from the server */
} job;

static void say(const provider *p, emend_run *run, emend_log_level level, const char *format, ...)
    __attribute__((format(printf, 4, 5)));
static void say(const provider *p, emend_run *run, emend_log_level level, const char *format, ...) {
    char clean[2048];
    va_list args;
    va_start(args, format);
    char *message = emend_plugin_vformat(format, args);
    va_end(args);
    /* The whole message is redacted, then cut to whole characters. */
    openai_redact(&p->settings, message ? message : "(a log line was lost: out of memory)", clean, sizeof clean);
    free(message);
    emend_utf8_tidy(clean);
    p->base.host->log(run, level, clean);
}

/* The failure message as the host may see it: redacted, then cut to whole characters. */
static void redact_message(const provider *p, char *message, size_t size) {
    char clean[EMEND_PLUGIN_MESSAGE_SIZE];
    openai_redact(&p->settings, message, clean, sizeof clean);
    snprintf(message, size, "%s", clean);
    emend_utf8_tidy(message);
}

/* ---- the stream's sink -------------------------------------------------------------------- */

static emend_status emit_to_host(void *context, const char *text, size_t length) {
    job *j = context;
    return j->p->base.host->emit_text(j->run, text, length);
}

static emend_status on_content(void *context, const char *text, size_t length) {
    job *j = context;
    j->received++;
    return openai_output_add(&j->output, text, length);
}

static int on_emitted(void *context) { return ((job *)context)->output.pieces > 0; }

static void on_restart(void *context) { openai_output_reset(&((job *)context)->output); }

static int on_cancelled(void *context) {
    job *j = context;
    return emend_plugin_slot_cancelled(j->slot, j->p->base.host);
}

static void on_log(void *context, emend_log_level level, const char *message) {
    job *j = context;
    say(j->p, j->run, level, "%s", message);
}

/* ---- a run -------------------------------------------------------------------------------- */

static int shape_of(emend_tool tool) {
    switch (emend_prompt_shape(tool)) {
    case EMEND_SHAPE_EDITS: return OPENAI_SHAPE_COLLECT;
    case EMEND_SHAPE_BULLETS: return OPENAI_SHAPE_BULLETS;
    case EMEND_SHAPE_TABLE: return OPENAI_SHAPE_TABLE;
    default: return OPENAI_SHAPE_TEXT;
    }
}

/* Cancel's wake-up for a run waiting in curl (emend_plugin_slot.wake). */
static void wake_multi(void *multi) { curl_multi_wakeup(multi); }

/* A line of emend_edits_parse about a dropped edit, through the redaction. */
static void log_edit(void *context, const char *message) {
    job *j = context;
    say(j->p, j->run, EMEND_LOG_INFO, "%s", message);
}

/* Parses and emits the edits (emend_edits_apply, with its lines redacted). emend_edits_parse
 * cuts its lines before they reach log_edit, so an answer that holds the key gets none. */
static long parse_and_emit(job *j, const emend_provider_request *request, const char *json, size_t length) {
    emend_edit_set set;
    int holds_key = openai_holds_key(&j->p->settings, json, length);
    emend_edits_log_fn log = holds_key ? NULL : log_edit;
    if (emend_edits_parse(request, request->selection, json, length, "OPENAI", &set, log, j) != 0) return -1;
    if (holds_key && set.dropped > 0)
        say(j->p, j->run, EMEND_LOG_INFO, "dropped %zu edit%s (not shown: the answer holds the API key)", set.dropped,
            set.dropped == 1 ? "" : "s");
    size_t emitted = emend_edits_emit(j->p->base.host, j->run, &set);
    emend_edits_free(&set);
    return (long)emitted;
}

/* The model's proofreading answer (from its first '{', past any preamble or code fence) as edits. */
static emend_status apply_edits(job *j, const emend_provider_request *request, char *err, size_t errlen) {
    const openai_text *answer = &j->output.collected;
    /* Redacted whole before the log line cuts it. */
    char *shown = openai_redact_copy(&j->p->settings, answer->bytes ? answer->bytes : "", answer->length, NULL);
    say(j->p, j->run, EMEND_LOG_DEBUG, "the model's proofreading answer: %.1500s", shown ? shown : "(out of memory)");
    free(shown);
    const char *json = answer->bytes ? memchr(answer->bytes, '{', answer->length) : NULL;
    if (json == NULL) {
        snprintf(err, errlen, "the model's answer is not the proofreading JSON asked for (%zu bytes, no '{')",
                 answer->length);
        return EMEND_E_PROVIDER;
    }
    long emitted = parse_and_emit(j, request, json, answer->length - (size_t)(json - answer->bytes));
    if (emitted < 0) {
        snprintf(err, errlen, "the model's answer is not the proofreading JSON asked for");
        return EMEND_E_PROVIDER;
    }
    say(j->p, j->run, EMEND_LOG_DEBUG, "%ld edit%s", emitted, emitted == 1 ? "" : "s");
    return EMEND_OK;
}

static emend_status perform(job *j, const emend_provider_request *request, char *err, size_t errlen) {
    provider *p = j->p;
    emend_prompt prompt = {0};
    if (emend_prompt_build(request, &prompt, err, errlen) != 0) return EMEND_E_INVALID_ARGUMENT;
    const char *grammar = emend_grammar_for(request->tool);
    char table[2048];
    if (request->tool == EMEND_TOOL_TABLE) { /* as many rows as the text has sentences */
        size_t length = 0;
        const char *input = emend_prompt_input(request, &length);
        const char *limited = emend_grammar_table_rows(emend_table_row_limit(input, length), table, sizeof table);
        if (limited != NULL) grammar = limited;
    }
    char *body = openai_request_body(&p->settings, &prompt, grammar);
    emend_prompt_free(&prompt);
    if (body == NULL) return snprintf(err, errlen, "out of memory"), EMEND_E_INTERNAL;

    openai_sink sink = {j, on_content, on_emitted, on_restart, on_cancelled, on_log};
    openai_transfer transfer = {&p->settings, p->url, body, j->multi};
    openai_stream_info info;
    emend_status status = openai_stream(&transfer, &sink, &info, err, errlen);
    free(body);
    if (status == EMEND_OK && on_cancelled(j)) status = EMEND_E_CANCELLED;
    if (status == EMEND_OK) {
        if (!info.saw_done)
            say(p, j->run, EMEND_LOG_WARNING, "the stream from %s ended without data: [DONE]", p->url);
        int cut_off = strcmp(info.finish_reason, "length") == 0;
        if (cut_off) say(p, j->run, EMEND_LOG_WARNING, "the answer was cut off at max_tokens = %ld", p->settings.max_tokens);
        status = openai_output_finish(&j->output, cut_off, err, errlen);
    }
    if (status == EMEND_OK && j->output.shape == OPENAI_SHAPE_COLLECT) status = apply_edits(j, request, err, errlen);
    if (status == EMEND_OK)
        say(p, j->run, EMEND_LOG_INFO, "%zu pieces from the server, %zu emitted, %d request%s", j->received,
            j->output.pieces, info.attempts, info.attempts == 1 ? "" : "s");
    if (status == EMEND_E_CANCELLED) snprintf(err, errlen, "cancelled");
    return status;
}

/* One run (emend_plugin_run_inside): a curl multi handle of its own, which cancel wakes. */
static emend_status serve(void *instance, const emend_provider_request *request, emend_run *run,
                          emend_plugin_slot *slot, char *err, size_t errlen) {
    provider *p = instance;
    job j = {0};
    j.p = p;
    j.run = run;
    j.slot = slot;
    openai_output_init(&j.output, shape_of(request->tool), emit_to_host, &j);
    emend_status status;
    j.multi = curl_multi_init();
    if (j.multi == NULL) {
        status = EMEND_E_INTERNAL;
        snprintf(err, errlen, "curl_multi_init failed");
    } else {
        emend_plugin_runs_set_wake(&p->base.runs, slot, wake_multi, j.multi);
        status = perform(&j, request, err, errlen);
        emend_plugin_runs_set_wake(&p->base.runs, slot, NULL, NULL); /* cancel no longer sees the multi handle */
        curl_multi_cleanup(j.multi);
    }
    openai_output_free(&j.output);
    if (status != EMEND_OK) redact_message(p, err, errlen);
    return status;
}

static emend_status openai_run(void *instance, const emend_provider_request *request, emend_run *run) {
    return emend_plugin_run_inside(instance, request, run, TOOLS, serve);
}

/* ---- create, destroy ---------------------------------------------------------------------- */

static pthread_once_t curl_once = PTHREAD_ONCE_INIT;
static CURLcode curl_ready = CURLE_FAILED_INIT;
static void init_curl(void) { curl_ready = curl_global_init(CURL_GLOBAL_DEFAULT); }

static void warn_at_create(void *context, const char *message) {
    say(context, NULL, EMEND_LOG_WARNING, "%s", message);
}

static void openai_destroy(void *instance);

static emend_status openai_create(const emend_host *host, const emend_provider_setting *settings, size_t count,
                                  void **instance) {
    emend_status status = emend_plugin_check_host(host, instance);
    if (status != EMEND_OK) return status;
    pthread_once(&curl_once, init_curl);
    if (curl_ready != CURLE_OK) {
        host->log(NULL, EMEND_LOG_ERROR, "curl_global_init failed");
        return EMEND_E_INTERNAL;
    }
    provider *p = emend_plugin_instance_new(host, instance, sizeof *p, &status);
    if (p == NULL) return status;
    char err[1024] = "";
    if (openai_settings_parse(&p->settings, settings, count, warn_at_create, p, &status, err, sizeof err) != 0) {
        say(p, NULL, EMEND_LOG_ERROR, "%s", err);
        openai_destroy(p);
        return status;
    }
    if ((p->url = openai_request_url(&p->settings)) == NULL) {
        openai_destroy(p);
        return EMEND_E_INTERNAL;
    }
    say(p, NULL, EMEND_LOG_DEBUG, "%s, model %s, %s", p->url, p->settings.model ? p->settings.model : "(the server's)",
        p->settings.api_key ? p->settings.api_key_source : "no API key");
    *instance = p;
    return EMEND_OK;
}

static void openai_destroy(void *instance) {
    provider *p = instance;
    if (p == NULL) return;
    openai_settings_free(&p->settings);
    free(p->url);
    emend_plugin_instance_free(p);
}

EMEND_PLUGIN_DESCRIPTOR(.id = PLUGIN_ID, .name = "OpenAI-compatible server", .version = "1.0.0", .tools = TOOLS,
                        .languages = "*", .outputs = EMEND_OUTPUT_MARKDOWN | EMEND_OUTPUT_EDITS,
                        .flags = EMEND_PROVIDER_USES_NETWORK | EMEND_PROVIDER_STREAMS | EMEND_PROVIDER_CONCURRENT,
                        .priority = 10, .create = openai_create, .run = openai_run, .cancel = emend_plugin_cancel,
                        .destroy = openai_destroy)
