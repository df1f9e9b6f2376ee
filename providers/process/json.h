/*
 * json.h — a small JSON reader and writer for the process provider (C11).
 *
 * Reading: json_parse turns one JSON text into a tree of json_value. Strings are decoded
 * (escapes, \uXXXX, surrogate pairs into UTF-8) and kept with their length, NUL-terminated
 * as well. Bytes >= 0x80 are copied as they are, not validated: the host validates the text a
 * plugin emits. A lone surrogate escape becomes its 3-byte encoding, which is not valid UTF-8
 * either, so the host refuses it the same way. Nesting is limited to JSON_MAX_DEPTH.
 *
 * Writing: a json_buffer grows as text is appended; json_write_string escapes '"', '\\'
 * and control characters and copies everything else byte for byte.
 */
#ifndef EMEND_PROCESS_JSON_H
#define EMEND_PROCESS_JSON_H

#include <stddef.h>

#define JSON_MAX_DEPTH 64

typedef enum json_type { JSON_NULL, JSON_FALSE, JSON_TRUE, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT } json_type;

typedef struct json_value {
    json_type type;
    double number;            /* JSON_NUMBER */
    int is_integer;           /* JSON_NUMBER written without fraction or exponent, fits long long */
    long long integer;        /* its exact value when is_integer */
    char *string;             /* JSON_STRING: decoded bytes, NUL-terminated */
    size_t length;            /* JSON_STRING: bytes, without the NUL */
    size_t count;             /* JSON_ARRAY elements, JSON_OBJECT members */
    struct json_value *items; /* elements, or member values */
    char **keys;              /* JSON_OBJECT: member names (NUL-terminated; NULL for arrays) */
} json_value;

/* Parses `length` bytes holding exactly one JSON value (whitespace around it is allowed).
 * NULL on failure, with a reason in `error` (may be NULL). Free with json_free. */
json_value *json_parse(const char *text, size_t length, char *error, size_t error_size);
void json_free(json_value *value);

/* The value of member `key` of an object; NULL if absent or `object` is no object. */
const json_value *json_get(const json_value *object, const char *key);
/* The member as a string / an integer; NULL / 0 when absent or of another type. */
const json_value *json_get_string(const json_value *object, const char *key);
int json_get_integer(const json_value *object, const char *key, long long *out);

typedef struct json_buffer {
    char *data;               /* NUL-terminated while not failed */
    size_t length;
    size_t capacity;
    int failed;               /* an allocation failed: the text is incomplete */
} json_buffer;

void json_write_raw(json_buffer *buffer, const char *text, size_t length);
void json_write_text(json_buffer *buffer, const char *text); /* NUL-terminated, raw */
void json_write_string(json_buffer *buffer, const char *text, size_t length); /* quoted, escaped */
void json_write_unsigned(json_buffer *buffer, unsigned long long value);
void json_buffer_free(json_buffer *buffer);

#endif
