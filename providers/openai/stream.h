/*
 * stream.h — one streamed chat completion over HTTP: POST the body, read the server-sent events
 * (`data: {...}` lines with choices[0].delta.content, up to `data: [DONE]`), hand each piece of
 * content to the sink.
 *
 * Retries: HTTP 429 and 5xx and failures to connect or to get an answer are tried again, up to
 * `retries` more times, after `retry_delay_ms` doubled for each retry (at most 30 s) or the
 * server's Retry-After (at most 60 s) — but only while nothing has reached the host. Other
 * statuses fail at once with the server's own message. Lines of the event stream may end with
 * "\r\n", "\n" or "\r". Server text in messages is redacted before it is cut.
 *
 * Cancellation: the transfer runs on the run's own curl multi handle; while it runs (and while it
 * waits before a retry) the sink's `cancelled` is asked every few ms and by curl's XFERINFO
 * callback, and curl_multi_wakeup on that handle (from the plugin's cancel) interrupts a wait at
 * once. A cancelled transfer is dropped and the result is EMEND_E_CANCELLED.
 */
#ifndef EMEND_OPENAI_STREAM_H
#define EMEND_OPENAI_STREAM_H

#include <curl/curl.h>

#include "settings.h"

typedef struct openai_sink {
    void *context;
    /* A piece of the answer as the server sent it (not necessarily whole UTF-8 characters).
     * EMEND_OK to go on; anything else stops the transfer with that status. */
    emend_status (*content)(void *context, const char *text, size_t length);
    /* 1 once anything reached the host: from then on nothing is retried. */
    int (*emitted)(void *context);
    /* An attempt failed before anything reached the host and is tried again: forget what
     * `content` collected. */
    void (*restart)(void *context);
    /* 1 when the run should stop. */
    int (*cancelled)(void *context);
    /* A line for the log; never given the key. */
    void (*log)(void *context, emend_log_level level, const char *message);
} openai_sink;

typedef struct openai_transfer {
    const openai_settings *settings;
    const char *url;
    const char *body;
    CURLM *multi;          /* the run's multi handle; curl_multi_wakeup on it interrupts waits */
} openai_transfer;

/* What the finished stream said besides its content. */
typedef struct openai_stream_info {
    int attempts;          /* requests made */
    int saw_done;          /* the stream ended with data: [DONE] */
    char finish_reason[32]; /* "stop", "length", ... or "" */
} openai_stream_info;

/* Runs the request with its retries. EMEND_OK; EMEND_E_CANCELLED; or a failure with a message
 * naming the URL and the server's answer in `err`: EMEND_E_TIMEOUT when the last attempt timed
 * out (timeout_ms or connect_timeout_ms), EMEND_E_PROVIDER for other failures of the server or
 * the transfer, or the status that stopped it (EMEND_E_INTERNAL, the sink's refusal). */
emend_status openai_stream(const openai_transfer *transfer, const openai_sink *sink, openai_stream_info *info,
                           char *err, size_t errlen);

#endif
