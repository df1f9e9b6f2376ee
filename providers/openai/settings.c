/* settings.c — the openai provider's settings and API key (see settings.h). */
#define _GNU_SOURCE
#include "settings.h"

#include "emend_plugin.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_KEY_FILE_BYTES 65536

/* A decimal number in TOML's spelling ("0.3", "1", "-1", "2.0"), whatever the locale. */
static int parse_decimal(const char *value, double min, double max, double *out) {
    const char *s = value;
    int negative = 0;
    if (*s == '-' || *s == '+') negative = *s++ == '-';
    double n = 0;
    int digits = 0;
    for (; *s >= '0' && *s <= '9'; s++, digits++) n = n * 10 + (*s - '0');
    if (*s == '.') {
        double scale = 0.1;
        for (s++; *s >= '0' && *s <= '9'; s++, digits++, scale /= 10) n += (*s - '0') * scale;
    }
    if (digits == 0 || *s != '\0') return -1;
    if (negative) n = -n;
    if (n < min || n > max) return -1;
    *out = n;
    return 0;
}

/* Leading and trailing whitespace off; 0 if what is left is a usable header value. */
static int tidy_key(char *key) {
    size_t start = 0, end = strlen(key);
    while (start < end && (key[start] == ' ' || key[start] == '\t' || key[start] == '\n' || key[start] == '\r')) start++;
    while (end > start && (key[end - 1] == ' ' || key[end - 1] == '\t' || key[end - 1] == '\n' || key[end - 1] == '\r'))
        end--;
    memmove(key, key + start, end - start);
    memset(key + (end - start), 0, start + 1);
    if (end == start) return -1;
    for (size_t i = 0; key[i] != '\0'; i++)
        if ((unsigned char)key[i] < 0x20 || key[i] == 0x7f) return -1;
    return 0;
}

static void wipe_free(char *secret) {
    if (secret == NULL) return;
    explicit_bzero(secret, strlen(secret));
    free(secret);
}

/* Reads the key from `path`: a regular file of the user's own that no one else may access. */
static int read_key_file(openai_settings *s, const char *setting, emend_status *status, char *err, size_t errlen) {
    char *path = emend_plugin_expand_home(setting);
    if (path == NULL) return *status = EMEND_E_INTERNAL, emend_plugin_fail(err, errlen, "out of memory"), -1;
    /* O_NONBLOCK: a named pipe must not block the open; it is refused below as not a regular file. */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    struct stat st;
    int result = -1;
    char *key = NULL;
    *status = EMEND_E_INVALID_ARGUMENT;
    if (fd < 0) {
        emend_plugin_fail(err, errlen, "api_key_file \"%.300s\" cannot be opened: %s", path, strerror(errno));
    } else if (fstat(fd, &st) != 0) {
        emend_plugin_fail(err, errlen, "api_key_file \"%.300s\" cannot be examined: %s", path, strerror(errno));
    } else if (!S_ISREG(st.st_mode)) {
        emend_plugin_fail(err, errlen, "api_key_file \"%.300s\" is not a regular file", path);
    } else if (st.st_uid != geteuid()) {
        emend_plugin_fail(err, errlen, "api_key_file \"%.300s\" is refused: it is owned by uid %u, not by you (uid %u)", path,
            (unsigned)st.st_uid, (unsigned)geteuid());
    } else if ((st.st_mode & 077) != 0) {
        emend_plugin_fail(err, errlen,
            "api_key_file \"%.300s\" is refused: its mode %04o lets group or others access it; "
            "make it readable only by you (chmod 600)",
            path, (unsigned)(st.st_mode & 07777));
    } else if (st.st_size > MAX_KEY_FILE_BYTES) {
        emend_plugin_fail(err, errlen, "api_key_file \"%.300s\" is larger than %d bytes: not a key", path, MAX_KEY_FILE_BYTES);
    } else if ((key = calloc(1, (size_t)st.st_size + 1)) == NULL) {
        *status = EMEND_E_INTERNAL;
        emend_plugin_fail(err, errlen, "out of memory");
    } else {
        size_t got = 0;
        ssize_t n = 0;
        while (got < (size_t)st.st_size && (n = read(fd, key + got, (size_t)st.st_size - got)) > 0) got += (size_t)n;
        if (n < 0) {
            emend_plugin_fail(err, errlen, "api_key_file \"%.300s\" cannot be read: %s", path, strerror(errno));
        } else if (tidy_key(key) != 0) {
            emend_plugin_fail(err, errlen, "api_key_file \"%.300s\" holds no key (empty, or control characters inside)", path);
        } else {
            s->api_key = key;
            key = NULL;
            if (asprintf(&s->api_key_source, "api_key_file \"%.300s\"", path) < 0) s->api_key_source = NULL;
            result = 0;
        }
    }
    wipe_free(key);
    if (fd >= 0) close(fd);
    free(path);
    return result;
}

static int read_key_env(openai_settings *s, const char *name, emend_status *status, char *err, size_t errlen) {
    const char *value = getenv(name);
    *status = EMEND_E_INVALID_ARGUMENT;
    if (value == NULL || value[0] == '\0') {
        emend_plugin_fail(err, errlen, "api_key_env names the environment variable %.100s, which is not set", name);
        return -1;
    }
    char *key = strdup(value);
    if (key == NULL) return *status = EMEND_E_INTERNAL, emend_plugin_fail(err, errlen, "out of memory"), -1;
    if (tidy_key(key) != 0) {
        wipe_free(key);
        emend_plugin_fail(err, errlen, "the environment variable %.100s (api_key_env) holds no key (control characters inside)", name);
        return -1;
    }
    s->api_key = key;
    if (asprintf(&s->api_key_source, "environment variable %.100s", name) < 0) s->api_key_source = NULL;
    return 0;
}

int openai_settings_parse(openai_settings *s, const emend_provider_setting *settings, size_t count,
                          void (*warn)(void *context, const char *message), void *context, emend_status *status,
                          char *err, size_t errlen) {
    memset(s, 0, sizeof *s);
    s->timeout_ms = 300000;
    s->connect_timeout_ms = 10000;
    s->retries = 3;
    s->retry_delay_ms = 500;
    s->max_tokens = 1024;
    s->temperature = 0.3;
    s->send_grammar = 1;
    const char *base_url = OPENAI_DEFAULT_BASE_URL, *key_env = NULL, *key_file = NULL;
    *status = EMEND_E_INVALID_ARGUMENT;

#define NUMBER(name, field, min, max)                                                                      \
    else if (strcmp(key, name) == 0) {                                                                     \
        if (emend_plugin_parse_number(value, min, max, &s->field) != 0)                                                   \
            return emend_plugin_fail(err, errlen, name " must be a number from %ld to %ld, not \"%.80s\"", (long)(min),  \
                       (long)(max), value),                                                                \
                   -1;                                                                                     \
    }
    for (size_t i = 0; i < count; i++) {
        const char *key = settings[i].key, *value = settings[i].value;
        if (key == NULL || value == NULL) continue;
        if (strcmp(key, "base_url") == 0) {
            base_url = value;
        } else if (strcmp(key, "model") == 0) {
            free(s->model);
            s->model = value[0] != '\0' ? strdup(value) : NULL;
        } else if (strcmp(key, "api_key_env") == 0) {
            key_env = value[0] != '\0' ? value : NULL;
        } else if (strcmp(key, "api_key_file") == 0) {
            key_file = value[0] != '\0' ? value : NULL;
        }
        NUMBER("timeout_ms", timeout_ms, 1, 86400000)
        NUMBER("connect_timeout_ms", connect_timeout_ms, 1, 600000)
        NUMBER("retries", retries, 0, 10)
        NUMBER("retry_delay_ms", retry_delay_ms, 0, 60000)
        NUMBER("max_tokens", max_tokens, 1, 1000000)
        else if (strcmp(key, "temperature") == 0) {
            if (parse_decimal(value, -1, 2, &s->temperature) != 0 || (s->temperature < 0 && s->temperature != -1))
                return emend_plugin_fail(err, errlen, "temperature must be a number from 0 to 2 (or -1: the server's default), not \"%.80s\"",
                           value),
                       -1;
        } else if (strcmp(key, "send_grammar") == 0) {
            if (emend_plugin_parse_bool(value, &s->send_grammar) != 0)
                return emend_plugin_fail(err, errlen, "send_grammar must be true or false, not \"%.80s\"", value), -1;
        } else if (warn != NULL && strcmp(key, "timeout_ms") != 0) {   /* Emend's own, handed to every plugin */
            char line[160];
            snprintf(line, sizeof line, "unknown setting \"%.80s\" ignored", key);
            warn(context, line);
        }
    }
#undef NUMBER

    if (strncmp(base_url, "http://", 7) != 0 && strncmp(base_url, "https://", 8) != 0)
        return emend_plugin_fail(err, errlen, "base_url must start with http:// or https://, not \"%.200s\"", base_url), -1;
    s->base_url = strdup(base_url);
    if (s->base_url == NULL) return *status = EMEND_E_INTERNAL, emend_plugin_fail(err, errlen, "out of memory"), -1;
    for (size_t n = strlen(s->base_url); n > 0 && s->base_url[n - 1] == '/'; n--) s->base_url[n - 1] = '\0';

    if (key_env != NULL && key_file != NULL)
        return emend_plugin_fail(err, errlen, "api_key_env and api_key_file are both set: choose one"), -1;
    if (key_file != NULL && read_key_file(s, key_file, status, err, errlen) != 0) return -1;
    if (key_env != NULL && read_key_env(s, key_env, status, err, errlen) != 0) return -1;
    if (s->api_key != NULL && strncmp(s->base_url, "http://", 7) == 0 && !openai_url_is_local(s->base_url) &&
        warn != NULL) {
        char url[301], line[400];
        openai_redact(s, s->base_url, url, sizeof url); /* redacted whole, then cut */
        snprintf(line, sizeof line, "the API key is sent unencrypted to %s (plain http to another machine)", url);
        warn(context, line);
    }
    *status = EMEND_OK;
    return 0;
}

void openai_settings_free(openai_settings *s) {
    if (s == NULL) return;
    free(s->base_url);
    free(s->model);
    wipe_free(s->api_key);
    free(s->api_key_source);
    memset(s, 0, sizeof *s);
}

void openai_redact(const openai_settings *s, const char *message, char *out, size_t outlen) {
    static const char mark[] = "[redacted]";
    if (outlen == 0) return;
    const char *key = s != NULL ? s->api_key : NULL;
    size_t key_length = key != NULL ? strlen(key) : 0, used = 0;
    for (const char *p = message; *p != '\0' && used + 1 < outlen;) {
        if (key_length > 0 && strncmp(p, key, key_length) == 0) {
            size_t n = sizeof mark - 1 < outlen - 1 - used ? sizeof mark - 1 : outlen - 1 - used;
            memcpy(out + used, mark, n);
            used += n;
            p += key_length;
        } else {
            out[used++] = *p++;
        }
    }
    out[used] = '\0';
}

char *openai_redact_copy(const openai_settings *s, const char *text, size_t length, size_t *out_length) {
    static const char mark[] = "[redacted]";
    const char *key = s != NULL ? s->api_key : NULL;
    size_t key_length = key != NULL ? strlen(key) : 0, count = 0, used = 0;
    for (const char *p = text; key_length > 0 && (p = memmem(p, length - (size_t)(p - text), key, key_length)) != NULL;)
        count++, p += key_length;
    char *out = malloc(length + count * (sizeof mark - 1) + 1);
    if (out == NULL) return NULL;
    for (size_t i = 0; i < length;) {
        if (count > 0 && length - i >= key_length && memcmp(text + i, key, key_length) == 0) {
            memcpy(out + used, mark, sizeof mark - 1);
            used += sizeof mark - 1;
            i += key_length;
        } else {
            out[used++] = text[i++];
        }
    }
    out[used] = '\0';
    if (out_length != NULL) *out_length = used;
    return out;
}

int openai_holds_key(const openai_settings *s, const char *text, size_t length) {
    const char *key = s != NULL ? s->api_key : NULL;
    return key != NULL && key[0] != '\0' && memmem(text, length, key, strlen(key)) != NULL;
}

/* 1 if host[0..length) (no port) is localhost, an IPv4 address in 127.0.0.0/8 or [::1]. */
static int host_is_local(const char *host, size_t length) {
    char name[64];
    if (length == 0 || length >= sizeof name) return 0;
    memcpy(name, host, length);
    name[length] = '\0';
    if (strcasecmp(name, "localhost") == 0) return 1;
    struct in_addr v4;
    if (inet_pton(AF_INET, name, &v4) == 1) return ntohl(v4.s_addr) >> 24 == 127;
    struct in6_addr v6;
    if (length > 2 && name[0] == '[' && name[length - 1] == ']') {
        name[length - 1] = '\0';
        return inet_pton(AF_INET6, name + 1, &v6) == 1 && memcmp(&v6, &in6addr_loopback, sizeof v6) == 0;
    }
    return 0;
}

int openai_url_is_local(const char *url) {
    const char *host = strstr(url, "://");
    if (host == NULL) return 0;
    host += 3;
    size_t authority = strcspn(host, "/?#");
    const char *at = memrchr(host, '@', authority); /* user info ends at the last '@' */
    if (at != NULL) authority -= (size_t)(at + 1 - host), host = at + 1;
    /* The host ends at the port's ':' (after the ']' of an IPv6 address). */
    const char *close = host[0] == '[' ? memchr(host, ']', authority) : NULL;
    const char *port_from = close != NULL ? close + 1 : host;
    const char *colon = memchr(port_from, ':', authority - (size_t)(port_from - host));
    size_t length = colon != NULL ? (size_t)(colon - host) : authority;
    return host_is_local(host, length);
}
