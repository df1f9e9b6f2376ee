/* output.c — see output.h. */
#include "output.h"

#include <stdlib.h>
#include <string.h>

#include "emend_edits.h"

static int grow(char **data, size_t *capacity, size_t needed) {
    if (needed <= *capacity) return 0;
    size_t c = *capacity ? *capacity : 256;
    while (c < needed) c *= 2;
    char *d = realloc(*data, c);
    if (d == NULL) return -1;
    *data = d;
    *capacity = c;
    return 0;
}

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

void output_init(output *o, const emend_host *host, emend_run *run) {
    memset(o, 0, sizeof *o);
    o->host = host;
    o->run = run;
}

void output_free(output *o) {
    free(o->text);
    free(o->pending);
    memset(o, 0, sizeof *o);
}

void output_clear_text(output *o) {
    o->length = 0;
    if (o->text) o->text[0] = '\0';
}

void output_begin_piece(output *o, const char *separator) {
    o->pending_length = 0;
    o->piece_started = 0;
    o->separator = separator;
}

/* Sends text[0, n) (whole characters) to the host and the copy, after the separator. */
static int send(output *o, const char *text, size_t n) {
    if (n == 0) return 0;
    size_t sep = (o->separator != NULL && o->length > 0) ? strlen(o->separator) : 0;
    if (grow(&o->text, &o->capacity, o->length + sep + n + 1) != 0) {
        o->failed = 1;
        return -1;
    }
    char *start = o->text + o->length;
    if (sep) memcpy(start, o->separator, sep);
    memcpy(start + sep, text, n);
    o->length += sep + n;
    o->text[o->length] = '\0';
    o->separator = NULL;
    if (o->host != NULL) {
        emend_status status = o->host->emit_text(o->run, start, sep + n);
        if (status == EMEND_OK) {
            o->chunks++;
        } else if (status == EMEND_E_INVALID_UTF8) {
            o->host->log(o->run, EMEND_LOG_WARNING, "the model wrote text that is not valid UTF-8; dropped");
        } else {
            if (o->refused == EMEND_OK) o->refused = status;
            return -1;
        }
    }
    return 0;
}

int output_write(output *o, const char *bytes, size_t length) {
    if (grow(&o->pending, &o->pending_capacity, o->pending_length + length + 1) != 0) {
        o->failed = 1;
        return -1;
    }
    memcpy(o->pending + o->pending_length, bytes, length);
    o->pending_length += length;
    size_t whole = emend_utf8_complete_prefix(o->pending, o->pending_length);
    if (o->whole_lines) { /* up to the last line break; the line after it is not finished */
        while (whole > 0 && o->pending[whole - 1] != '\n') whole--;
        if (whole == 0) return 0;
    }
    size_t from = 0;
    if (!o->piece_started) {
        while (from < whole && is_space(o->pending[from])) from++;
        if (o->skip_intro && from < whole) { /* whole ends a line here: the first line is complete */
            size_t eol = from;
            while (o->pending[eol] != '\n') eol++;
            size_t last = eol;
            while (last > from && is_space(o->pending[last - 1])) last--;
            if (last > from && o->pending[last - 1] == ':') {
                from = eol;
                while (from < whole && is_space(o->pending[from])) from++;
            }
            o->skip_intro = 0;
        }
        if (from == whole) { /* only whitespace so far: forget it, keep an unfinished character */
            memmove(o->pending, o->pending + whole, o->pending_length - whole);
            o->pending_length -= whole;
            return 0;
        }
        o->piece_started = 1;
    }
    size_t end = whole;
    while (end > from && is_space(o->pending[end - 1])) end--; /* hold trailing whitespace back */
    int rc = send(o, o->pending + from, end - from);
    memmove(o->pending, o->pending + end, o->pending_length - end);
    o->pending_length -= end;
    return rc;
}

void output_end_piece(output *o) {
    o->pending_length = 0;
    o->separator = NULL;
}
