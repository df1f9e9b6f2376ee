/*
 * settings.h — the openai provider's settings (the keys of [providers."org.emend.openai"] in
 * config.toml) and its API key.
 *
 * The key comes from the environment variable named by `api_key_env` or from the file named by
 * `api_key_file`, which must be a regular file owned by the user with no access for group or
 * others. It lives only in `openai_settings.api_key`, is wiped when the settings are freed, and
 * every message the plugin writes goes through openai_redact first.
 */
#ifndef EMEND_OPENAI_SETTINGS_H
#define EMEND_OPENAI_SETTINGS_H

#include <stddef.h>

#include "emend_provider.h"

#define OPENAI_DEFAULT_BASE_URL "http://127.0.0.1:8080/v1"

typedef struct openai_settings {
    char *base_url;              /* without a trailing '/' */
    char *model;                 /* NULL: no "model" field (llama-server serves the one it loaded) */
    char *api_key;               /* NULL: no Authorization header */
    char *api_key_source;        /* "environment variable X" or "file Y", for messages */
    long timeout_ms;             /* the longest one attempt may take */
    long connect_timeout_ms;
    long retries;                /* further attempts after the first */
    long retry_delay_ms;         /* the first back-off; doubled for each further retry */
    long max_tokens;
    double temperature;          /* < 0: not sent */
    int send_grammar;            /* send the tool's GBNF as "grammar" (llama-server) */
} openai_settings;

/* Reads the settings and the key. 0, or -1 with a message (never containing the key) in `err`
 * and *status the failure status. Unknown keys are reported through `warn`. */
int openai_settings_parse(openai_settings *out, const emend_provider_setting *settings, size_t count,
                          void (*warn)(void *context, const char *message), void *context, emend_status *status,
                          char *err, size_t errlen);

/* Frees everything and wipes the key. */
void openai_settings_free(openai_settings *settings);

/* Copies `message` into `out` (NUL-terminated, at most outlen bytes) with every occurrence of
 * the key replaced by "[redacted]". The whole message is redacted before it is cut, so a cut
 * never leaves part of the key. */
void openai_redact(const openai_settings *settings, const char *message, char *out, size_t outlen);

/* A malloc'd copy of text[0..length) (NUL-terminated, its length in *out_length when not NULL)
 * with every occurrence of the key replaced by "[redacted]"; NULL when out of memory. For text
 * from the server, before it is cut for a message. */
char *openai_redact_copy(const openai_settings *settings, const char *text, size_t length, size_t *out_length);

/* 1 if text[0..length) holds the key. */
int openai_holds_key(const openai_settings *settings, const char *text, size_t length);

/* 1 if the base URL talks to this machine: its host is localhost, an IPv4 address in
 * 127.0.0.0/8 or [::1]. */
int openai_url_is_local(const char *url);

#endif
