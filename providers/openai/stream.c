/* stream.c — one streamed chat completion with retries (see stream.h). */
#define _GNU_SOURCE
#include "stream.h"

#include <cjson/cJSON.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "emend_plugin.h"
#include "output.h"

#define MAX_BODY_BYTES (1u << 20)    /* an error or whole-JSON body kept for its message */
#define MAX_EVENT_BYTES (8u << 20)   /* one server-sent event */
#define MAX_BACKOFF_MS 30000L
#define MAX_RETRY_AFTER_MS 60000L
#define POLL_MS 20

typedef struct buffer {
    char *bytes;
    size_t length, capacity;
} buffer;

static int buffer_add(buffer *b, const char *bytes, size_t length) {
    if (b->length + length + 1 > b->capacity) {
        size_t capacity = b->capacity ? b->capacity : 256;
        while (capacity < b->length + length + 1) capacity *= 2;
        char *grown = realloc(b->bytes, capacity);
        if (grown == NULL) return -1;
        b->bytes = grown;
        b->capacity = capacity;
    }
    memcpy(b->bytes + b->length, bytes, length);
    b->length += length;
    b->bytes[b->length] = '\0';
    return 0;
}

static void buffer_free(buffer *b) {
    free(b->bytes);
    memset(b, 0, sizeof *b);
}

enum { MODE_UNDECIDED, MODE_EVENTS, MODE_JSON, MODE_ERROR };

/* One HTTP request and what came back. */
typedef struct attempt {
    CURL *easy;
    const openai_settings *settings;
    const openai_sink *sink;
    int mode;
    long http;
    long retry_after_ms;        /* -1: none given */
    buffer line, data, body;
    int after_cr;               /* the last read ended with a '\r': a '\n' next belongs to it */
    char event[32];             /* the "event:" field of the event being read */
    int saw_done;
    int got_content;
    emend_status stop;          /* set when reading stopped the transfer: content refused, an error event */
    char stop_message[600];
    char finish_reason[32];
    int timed_out;              /* the transfer failed with CURLE_OPERATION_TIMEDOUT */
} attempt;

/* Up to `limit` bytes of the server's `text` on one line: the key redacted before the cut (so no
 * part of it is left), control characters as spaces, bytes that are not UTF-8 as '?'. */
static void excerpt(const openai_settings *s, const char *text, size_t length, char *out, size_t outlen,
                    size_t limit) {
    size_t n = 0, i = 0, clean_length = 0;
    char *clean = openai_redact_copy(s, text, length, &clean_length);
    if (clean == NULL) clean_length = 0; /* out of memory: nothing shown */
    while (i < clean_length) {
        int k = emend_utf8_char(clean + i, clean_length - i);
        size_t size = k > 0 ? (size_t)k : 1;
        if (i + size > limit || n + size + 4 > outlen) break; /* whole characters only */
        unsigned char c = (unsigned char)clean[i];
        if (k <= 0)
            out[n++] = '?';
        else if (c < 0x20 || c == 0x7f)
            out[n++] = ' ';
        else
            memcpy(out + n, clean + i, size), n += size;
        i += size;
    }
    if (i < clean_length) memcpy(out + n, "...", 3), n += 3;
    out[n] = '\0';
    free(clean);
}

/* The message of an OpenAI-style error object: {"error": {"message": ...}}, {"error": "..."}
 * or {"message": ...}; NULL if there is none. */
static const char *error_message(const cJSON *json) {
    const cJSON *error = cJSON_GetObjectItemCaseSensitive(json, "error");
    if (cJSON_IsString(error)) return error->valuestring;
    const cJSON *message = cJSON_GetObjectItemCaseSensitive(cJSON_IsObject(error) ? error : json, "message");
    return cJSON_IsString(message) ? message->valuestring : NULL;
}

static int stop(attempt *a, emend_status status, const char *format, ...) __attribute__((format(printf, 3, 4)));
static int stop(attempt *a, emend_status status, const char *format, ...) {
    if (a->stop == EMEND_OK) {
        a->stop = status;
        va_list args;
        va_start(args, format);
        vsnprintf(a->stop_message, sizeof a->stop_message, format, args);
        va_end(args);
    }
    return -1;
}

/* The content of one chunk (delta, or message for a whole answer) goes to the sink. */
static int take_choice(attempt *a, const cJSON *json) {
    const cJSON *choices = cJSON_GetObjectItemCaseSensitive(json, "choices");
    const cJSON *choice = cJSON_IsArray(choices) ? cJSON_GetArrayItem(choices, 0) : NULL;
    if (choice == NULL) return 0; /* e.g. a usage-only chunk */
    const cJSON *reason = cJSON_GetObjectItemCaseSensitive(choice, "finish_reason");
    if (cJSON_IsString(reason)) snprintf(a->finish_reason, sizeof a->finish_reason, "%s", reason->valuestring);
    const cJSON *delta = cJSON_GetObjectItemCaseSensitive(choice, "delta");
    if (!cJSON_IsObject(delta)) delta = cJSON_GetObjectItemCaseSensitive(choice, "message");
    const cJSON *content = cJSON_GetObjectItemCaseSensitive(delta, "content");
    if (!cJSON_IsString(content) || content->valuestring[0] == '\0') return 0;
    a->got_content = 1;
    emend_status status = a->sink->content(a->sink->context, content->valuestring, strlen(content->valuestring));
    return status == EMEND_OK ? 0 : stop(a, status, "%s", status == EMEND_E_CANCELLED ? "cancelled" : "the answer was refused");
}

/* One whole JSON document: an event's data, or a non-streamed answer. */
static int take_json(attempt *a, const char *text, size_t length, int is_error_event) {
    cJSON *json = cJSON_ParseWithLength(text, length);
    if (json == NULL) {
        char shown[160];
        excerpt(a->settings, text, length, shown, sizeof shown, 120);
        return stop(a, EMEND_E_PROVIDER, "the server sent something that is not JSON: \"%s\"", shown);
    }
    int result = 0;
    const char *message = error_message(json);
    const cJSON *error = cJSON_GetObjectItemCaseSensitive(json, "error");
    if (is_error_event || (error != NULL && !cJSON_IsNull(error))) { /* "error": null is no error */
        char shown[400];
        excerpt(a->settings, message ? message : text, message ? strlen(message) : length, shown, sizeof shown, 300);
        result = stop(a, EMEND_E_PROVIDER, "the server reported an error: %s", shown);
    } else {
        result = take_choice(a, json);
    }
    cJSON_Delete(json);
    return result;
}

static int dispatch_event(attempt *a) {
    int result = 0;
    int is_error = strcmp(a->event, "error") == 0;
    if (a->data.length > 0) {
        if (!is_error && strcmp(a->data.bytes, "[DONE]") == 0)
            a->saw_done = 1;
        else
            result = take_json(a, a->data.bytes, a->data.length, is_error);
    }
    a->data.length = 0;
    a->event[0] = '\0';
    return result;
}

/* One line of the event stream, without its line end. */
static int event_line(attempt *a, char *line, size_t length) {
    if (length == 0) return dispatch_event(a);
    if (line[0] == ':') return 0; /* a comment, e.g. a keep-alive */
    char *colon = memchr(line, ':', length);
    size_t name = colon ? (size_t)(colon - line) : length;
    const char *value = colon ? colon + 1 : line + length;
    size_t value_length = length - (colon ? name + 1 : name);
    if (value_length > 0 && *value == ' ') value++, value_length--;
    if (name == 4 && memcmp(line, "data", 4) == 0) {
        if (a->data.length + value_length > MAX_EVENT_BYTES)
            return stop(a, EMEND_E_PROVIDER, "the server sent an event larger than %u bytes", MAX_EVENT_BYTES);
        if ((a->data.length > 0 && buffer_add(&a->data, "\n", 1) != 0) || buffer_add(&a->data, value, value_length) != 0)
            return stop(a, EMEND_E_INTERNAL, "out of memory");
    } else if (name == 5 && memcmp(line, "event", 5) == 0) {
        snprintf(a->event, sizeof a->event, "%.*s", (int)(value_length < 31 ? value_length : 31), value);
    } else if (name == 5 && memcmp(line, "error", 5) == 0) {
        /* llama-server writes "error: {json}" for an error inside a stream. */
        return take_json(a, value, value_length, 1);
    }
    return 0;
}

/* The bytes before the first '\r' or '\n'. */
static size_t line_length(const char *bytes, size_t length) {
    size_t n = 0;
    while (n < length && bytes[n] != '\r' && bytes[n] != '\n') n++;
    return n;
}

/* Splits the stream into lines ending at "\r\n", "\n" or "\r" (as server-sent events allow);
 * the "\r\n" may be split between two reads. */
static int events(attempt *a, const char *bytes, size_t length) {
    if (a->after_cr && length > 0) {
        a->after_cr = 0;
        if (bytes[0] == '\n') bytes++, length--;
    }
    while (length > 0) {
        size_t n = line_length(bytes, length);
        if (a->line.length + n > MAX_EVENT_BYTES)
            return stop(a, EMEND_E_PROVIDER, "the server sent a line longer than %u bytes", MAX_EVENT_BYTES);
        if (buffer_add(&a->line, bytes, n) != 0) return stop(a, EMEND_E_INTERNAL, "out of memory");
        if (n == length) break;
        size_t end = 1;
        if (bytes[n] == '\r' && n + 1 < length && bytes[n + 1] == '\n') end = 2;
        else if (bytes[n] == '\r' && n + 1 == length) a->after_cr = 1;
        int result = event_line(a, a->line.bytes, a->line.length);
        a->line.length = 0;
        if (result != 0) return result;
        bytes += n + end;
        length -= n + end;
    }
    return 0;
}

static size_t on_body(char *bytes, size_t size, size_t count, void *user) {
    attempt *a = user;
    size_t length = size * count;
    if (a->mode == MODE_UNDECIDED) {
        char *type = NULL;
        curl_easy_getinfo(a->easy, CURLINFO_RESPONSE_CODE, &a->http);
        curl_easy_getinfo(a->easy, CURLINFO_CONTENT_TYPE, &type);
        if (a->http != 200)
            a->mode = MODE_ERROR;
        else if (type != NULL && strncasecmp(type, "application/json", 16) == 0)
            a->mode = MODE_JSON; /* a server that does not stream: one answer at the end */
        else
            a->mode = MODE_EVENTS;
    }
    if (a->mode == MODE_EVENTS) return events(a, bytes, length) == 0 ? length : 0;
    if (a->body.length + length <= MAX_BODY_BYTES && buffer_add(&a->body, bytes, length) != 0) return 0;
    return length;
}

static size_t on_header(char *bytes, size_t size, size_t count, void *user) {
    attempt *a = user;
    size_t length = size * count;
    if (length >= 5 && memcmp(bytes, "HTTP/", 5) == 0) a->retry_after_ms = -1; /* a new response */
    if (length > 12 && strncasecmp(bytes, "retry-after:", 12) == 0) {
        char value[64];
        size_t n = length - 12;
        const char *v = bytes + 12;
        while (n > 0 && (*v == ' ' || *v == '\t')) v++, n--;
        while (n > 0 && (v[n - 1] == '\r' || v[n - 1] == '\n' || v[n - 1] == ' ')) n--;
        snprintf(value, sizeof value, "%.*s", (int)(n < 63 ? n : 63), v);
        char *end = NULL;
        double seconds = strtod(value, &end);
        if (end != value && *end == '\0' && seconds >= 0) {
            a->retry_after_ms = seconds > 1e6 ? 1000000000L : (long)(seconds * 1000);
        } else {
            time_t when = curl_getdate(value, NULL);
            if (when != (time_t)-1) {
                double ms = difftime(when, time(NULL)) * 1000;
                a->retry_after_ms = ms < 0 ? 0 : ms > 1e9 ? 1000000000L : (long)ms;
            }
        }
    }
    return length;
}

static int on_progress(void *user, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal, curl_off_t ulnow) {
    (void)dltotal, (void)dlnow, (void)ultotal, (void)ulnow;
    const attempt *a = user;
    return a->sink->cancelled(a->sink->context) ? 1 : 0;
}

enum { DONE, RETRYABLE, FAILED, CANCELLED };

/* Waits `ms`, or until cancelled (woken at once by curl_multi_wakeup). 1 if cancelled. */
static int wait_ms(const openai_transfer *t, const openai_sink *sink, long ms) {
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (;;) {
        if (sink->cancelled(sink->context)) return 1;
        clock_gettime(CLOCK_MONOTONIC, &now);
        long elapsed = (long)((now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000);
        if (elapsed >= ms) return 0;
        long left = ms - elapsed;
        curl_multi_poll(t->multi, NULL, 0, (int)(left < POLL_MS ? left : POLL_MS), NULL);
    }
}

static void wipe_headers(struct curl_slist *headers) {
    for (struct curl_slist *h = headers; h != NULL; h = h->next)
        if (h->data != NULL) explicit_bzero(h->data, strlen(h->data));
    curl_slist_free_all(headers);
}

/* One request. DONE, CANCELLED, RETRYABLE or FAILED (message in err). */
static int one_attempt(const openai_transfer *t, const openai_sink *sink, attempt *a, char *err, size_t errlen) {
    const openai_settings *s = t->settings;
    char curl_error[CURL_ERROR_SIZE] = "", url[301];
    openai_redact(s, t->url, url, sizeof url); /* for messages: redacted whole, then cut */
    struct curl_slist *headers = NULL, *added;
    int outcome = FAILED;
    a->easy = curl_easy_init();
    if (a->easy == NULL) return emend_plugin_fail(err, errlen, "curl_easy_init failed"), FAILED;

    char *authorization = NULL;
    if (s->api_key != NULL && asprintf(&authorization, "Authorization: Bearer %s", s->api_key) < 0) authorization = NULL;
    const char *fixed[] = {"Content-Type: application/json", "Accept: text/event-stream", "Expect:"};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        if ((added = curl_slist_append(headers, fixed[i])) != NULL) headers = added;
    if (authorization != NULL) {
        if ((added = curl_slist_append(headers, authorization)) != NULL) headers = added;
        explicit_bzero(authorization, strlen(authorization));
        free(authorization);
    } else if (s->api_key != NULL) {
        curl_easy_cleanup(a->easy);
        wipe_headers(headers);
        return emend_plugin_fail(err, errlen, "out of memory"), FAILED;
    }

    CURL *e = a->easy;
    curl_easy_setopt(e, CURLOPT_URL, t->url);
    curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, 0L); /* the key must not follow a redirect elsewhere */
    curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(e, CURLOPT_VERBOSE, 0L);        /* verbose output would show the Authorization header */
    curl_easy_setopt(e, CURLOPT_POST, 1L);
    curl_easy_setopt(e, CURLOPT_POSTFIELDS, t->body);
    curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)strlen(t->body));
    curl_easy_setopt(e, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(e, CURLOPT_USERAGENT, "emend-openai/1.0");
    curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, s->timeout_ms);
    curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, s->connect_timeout_ms);
    curl_easy_setopt(e, CURLOPT_TCP_KEEPALIVE, 1L);
    curl_easy_setopt(e, CURLOPT_ERRORBUFFER, curl_error);
    curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(e, CURLOPT_WRITEDATA, a);
    curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(e, CURLOPT_HEADERDATA, a);
    curl_easy_setopt(e, CURLOPT_XFERINFOFUNCTION, on_progress);
    curl_easy_setopt(e, CURLOPT_XFERINFODATA, a);
    curl_easy_setopt(e, CURLOPT_NOPROGRESS, 0L);

    CURLcode result = CURLE_OK;
    CURLMcode multi_result = CURLM_OK;
    int cancelled = 0, running = 1;
    if (curl_multi_add_handle(t->multi, e) != CURLM_OK) {
        emend_plugin_fail(err, errlen, "curl_multi_add_handle failed");
        running = -1;
    }
    while (running > 0) {
        if ((multi_result = curl_multi_perform(t->multi, &running)) != CURLM_OK) break;
        int queued;
        CURLMsg *message;
        while ((message = curl_multi_info_read(t->multi, &queued)) != NULL)
            if (message->msg == CURLMSG_DONE && message->easy_handle == e) result = message->data.result;
        if (running == 0) break;
        if (sink->cancelled(sink->context)) {
            cancelled = 1;
            break;
        }
        curl_multi_poll(t->multi, NULL, 0, POLL_MS, NULL);
    }
    if (running >= 0) curl_multi_remove_handle(t->multi, e);
    if (a->http == 0) curl_easy_getinfo(e, CURLINFO_RESPONSE_CODE, &a->http);
    if (running < 0) goto done;

    if (cancelled || result == CURLE_ABORTED_BY_CALLBACK || a->stop == EMEND_E_CANCELLED) {
        outcome = CANCELLED;
    } else if (a->stop != EMEND_OK) {
        emend_plugin_fail(err, errlen, "%s", a->stop_message);
        outcome = FAILED;
    } else if (multi_result != CURLM_OK) {
        /* The transfer was left unfinished: what came so far is not the whole answer. */
        emend_plugin_fail(err, errlen, "curl_multi_perform failed: %s", curl_multi_strerror(multi_result));
        outcome = FAILED;
    } else if (result != CURLE_OK && a->http == 0) {
        /* No answer at all: not reachable, reset, timed out. */
        curl_off_t connected = 0;
        curl_easy_getinfo(e, CURLINFO_CONNECT_TIME_T, &connected);
        emend_plugin_fail(err, errlen, "%s %s: %s", connected > 0 ? "no answer from" : "cannot reach", url,
            curl_error[0] ? curl_error : curl_easy_strerror(result));
        a->timed_out = result == CURLE_OPERATION_TIMEDOUT;
        switch (result) {
        case CURLE_COULDNT_RESOLVE_HOST:
        case CURLE_COULDNT_RESOLVE_PROXY:
        case CURLE_COULDNT_CONNECT:
        case CURLE_OPERATION_TIMEDOUT:
        case CURLE_SEND_ERROR:
        case CURLE_RECV_ERROR:
        case CURLE_GOT_NOTHING:
        case CURLE_PARTIAL_FILE:
        case CURLE_SSL_CONNECT_ERROR:
            outcome = RETRYABLE;
            break;
        default:
            outcome = FAILED;
        }
    } else if (a->http != 200) {
        char shown[400] = "";
        cJSON *json = a->body.length > 0 ? cJSON_ParseWithLength(a->body.bytes, a->body.length) : NULL;
        const char *message = json ? error_message(json) : NULL;
        if (message != NULL)
            excerpt(s, message, strlen(message), shown, sizeof shown, 300);
        else if (a->body.length > 0)
            excerpt(s, a->body.bytes, a->body.length, shown, sizeof shown, 200);
        cJSON_Delete(json);
        emend_plugin_fail(err, errlen, "HTTP %ld from %s%s%s%s", a->http, url, shown[0] ? ": " : "", shown,
            a->http == 401 || a->http == 403 ? " (check the API key)" : "");
        outcome = a->http == 429 || a->http >= 500 ? RETRYABLE : FAILED;
    } else if (result != CURLE_OK) {
        /* The answer broke off (or timed out) part way. */
        emend_plugin_fail(err, errlen, "the answer from %s broke off: %s", url,
            curl_error[0] ? curl_error : curl_easy_strerror(result));
        a->timed_out = result == CURLE_OPERATION_TIMEDOUT;
        outcome = RETRYABLE;
    } else if (a->mode == MODE_JSON) {
        a->saw_done = 1; /* a whole answer needs no [DONE] */
        outcome = take_json(a, a->body.bytes ? a->body.bytes : "", a->body.length, 0) == 0 ? DONE : FAILED;
        if (outcome == FAILED) {
            if (a->stop == EMEND_E_CANCELLED) outcome = CANCELLED;
            emend_plugin_fail(err, errlen, "%s", a->stop_message);
        }
    } else {
        /* The stream ended; an event without its closing blank line still counts. */
        if (a->line.length > 0 && event_line(a, a->line.bytes, a->line.length) != 0) goto stopped;
        if (a->data.length > 0 && dispatch_event(a) != 0) goto stopped;
        outcome = DONE;
        goto done;
    stopped:
        outcome = a->stop == EMEND_E_CANCELLED ? CANCELLED : FAILED;
        emend_plugin_fail(err, errlen, "%s", a->stop_message);
    }
done:
    curl_easy_cleanup(e);
    a->easy = NULL;
    wipe_headers(headers);
    return outcome;
}

emend_status openai_stream(const openai_transfer *t, const openai_sink *sink, openai_stream_info *info, char *err,
                           size_t errlen) {
    const openai_settings *s = t->settings;
    memset(info, 0, sizeof *info);
    for (int number = 0;; number++) {
        attempt a = {0};
        a.settings = s;
        a.sink = sink;
        a.retry_after_ms = -1;
        int outcome = one_attempt(t, sink, &a, err, errlen);
        info->attempts = number + 1;
        info->saw_done = a.saw_done;
        snprintf(info->finish_reason, sizeof info->finish_reason, "%s", a.finish_reason);
        long retry_after = a.retry_after_ms;
        emend_status stopped = a.stop;
        emend_status failed = a.timed_out ? EMEND_E_TIMEOUT : EMEND_E_PROVIDER; /* when not retried */
        buffer_free(&a.line);
        buffer_free(&a.data);
        buffer_free(&a.body);
        if (outcome == DONE) return EMEND_OK;
        if (outcome == CANCELLED) return emend_plugin_fail(err, errlen, "cancelled"), EMEND_E_CANCELLED;
        if (outcome == FAILED) return stopped != EMEND_OK ? stopped : EMEND_E_PROVIDER;

        size_t used = strlen(err);
        if (sink->emitted(sink->context)) {
            snprintf(err + used, errlen - used, " (after part of the answer was shown: not retried)");
            return failed;
        }
        if (number >= s->retries) {
            snprintf(err + used, errlen - used, " (%d attempt%s)", number + 1, number == 0 ? "" : "s");
            return failed;
        }
        long delay = s->retry_delay_ms;
        for (int i = 0; i < number && delay < MAX_BACKOFF_MS; i++) delay *= 2;
        if (delay > MAX_BACKOFF_MS) delay = MAX_BACKOFF_MS;
        if (retry_after >= 0) {
            if (retry_after > MAX_RETRY_AFTER_MS) {
                snprintf(err + used, errlen - used, " (the server asks to wait %ld s before retrying: given up)",
                         retry_after / 1000);
                return EMEND_E_PROVIDER;
            }
            delay = retry_after;
        }
        char line[900];
        snprintf(line, sizeof line, "%s; retry %d of %ld in %ld ms%s", err, number + 1, s->retries, delay,
                 retry_after >= 0 ? " (Retry-After)" : "");
        sink->log(sink->context, EMEND_LOG_INFO, line);
        sink->restart(sink->context);
        if (wait_ms(t, sink, delay)) return emend_plugin_fail(err, errlen, "cancelled"), EMEND_E_CANCELLED;
        err[0] = '\0';
    }
}
