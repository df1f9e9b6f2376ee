/*
 * descriptor_verdict.h — the rules a provider's descriptor must meet, part of emend-scan.c's
 * translation unit (so every build line of the scanner stays one file).
 *
 * The Swift host checks the same rules, in the same order and with the same reasons, when it
 * loads a plugin (Sources/EmendProviders/Plugin/PluginDescriptorCheck.swift): a plugin the
 * scanner lists as usable must not fail to load for its descriptor, and the other way round.
 * Tests/Fixtures/descriptors/ holds a plugin per rule; PluginDescriptorVerdictTests runs each
 * through both and expects the verdict written in the fixture.
 *
 *   struct_size  reaches abi_version, then the whole version-1 struct
 *   abi_version  EMEND_PROVIDER_ABI_VERSION
 *   id           1 to 128 ASCII letters, digits, '.', '-', '_' (a config.toml table key and a
 *                cache key; the rule of simple-form manifests too)
 *   name         1 to 256 bytes of UTF-8 (shown to people; the report escapes what it must)
 *   version      1 to 64 bytes of UTF-8
 *   languages    NULL for any, else at most 1024 bytes of UTF-8: tags separated by commas,
 *                spaces around a tag and empty items ignored; a tag is "*" or at most 64
 *                ASCII letters, digits and '-' starting with a letter (BCP 47's alphabet:
 *                requests name their language in BCP 47, so "en_US" would never match)
 *   tools        at least one bit, and only bits of tools emend.h defines
 *   create, run, destroy  not NULL (cancel may be)
 * outputs and flags are not checked: a bit this host does not know only asks for something
 * it does not do, so a plugin built for a later header still loads.
 */
#ifndef EMEND_SCAN_DESCRIPTOR_VERDICT_H
#define EMEND_SCAN_DESCRIPTOR_VERDICT_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "emend_provider.h"

#define VERDICT_ID_MAX 128
#define VERDICT_NAME_MAX 256
#define VERDICT_VERSION_MAX 64
#define VERDICT_LANGUAGES_MAX 1024
#define VERDICT_TAG_MAX 64
/* The tools emend.h defines: emend_tool counts up from 0 to EMEND_TOOL_FOLLOW_UP, its last
 * member (the Swift tests check that WritingTool agrees). */
#define VERDICT_TOOL_COUNT ((unsigned)EMEND_TOOL_FOLLOW_UP + 1u)

/* 1 if `s` is well-formed UTF-8 (no overlongs, surrogates or values past U+10FFFF). */
static int verdict_utf8(const char *s) {
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        unsigned c = *p;
        size_t n;
        uint32_t min, v;
        if (c < 0x80) { p++; continue; }
        if ((c & 0xe0) == 0xc0) { n = 1; min = 0x80; v = c & 0x1f; }
        else if ((c & 0xf0) == 0xe0) { n = 2; min = 0x800; v = c & 0x0f; }
        else if ((c & 0xf8) == 0xf0) { n = 3; min = 0x10000; v = c & 0x07; }
        else return 0;
        for (size_t i = 1; i <= n; i++) {
            if ((p[i] & 0xc0) != 0x80) return 0;
            v = (v << 6) | (p[i] & 0x3f);
        }
        if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff)) return 0;
        p += n + 1;
    }
    return 1;
}

static int verdict_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static int verdict_digit(char c) { return c >= '0' && c <= '9'; }

/* A required string: present, not empty (but for the id, whose own rule says why), UTF-8,
 * not longer than `max`. 0, or -1 with the reason. */
static int verdict_string(const char *field, const char *value, size_t max, int may_be_empty, char *reason,
                          size_t size) {
    if (value == NULL || (value[0] == '\0' && !may_be_empty)) return snprintf(reason, size, "descriptor has no %s", field), -1;
    if (!verdict_utf8(value)) return snprintf(reason, size, "descriptor %s is not valid UTF-8", field), -1;
    if (strlen(value) > max) return snprintf(reason, size, "descriptor %s is longer than %zu bytes", field, max), -1;
    return 0;
}

static int verdict_id(const char *id, char *reason, size_t size) {
    if (verdict_string("id", id, VERDICT_ID_MAX, 1, reason, size) != 0) return -1;
    int ok = id[0] != '\0';
    for (const char *p = id; *p && ok; p++)
        ok = verdict_letter(*p) || verdict_digit(*p) || *p == '.' || *p == '-' || *p == '_';
    if (!ok) return snprintf(reason, size, "id \"%s\" is not a reverse-DNS name (letters, digits, '.', '-', '_')", id), -1;
    return 0;
}

/* One item of `languages`: [start, end) with the spaces around it already off. */
static int verdict_tag(const char *start, size_t length, char *reason, size_t size) {
    if (length > VERDICT_TAG_MAX)
        return snprintf(reason, size, "descriptor languages has a tag longer than %d bytes", VERDICT_TAG_MAX), -1;
    int ok = (length == 1 && start[0] == '*') || verdict_letter(start[0]);
    for (size_t i = 1; i < length && ok; i++) ok = verdict_letter(start[i]) || verdict_digit(start[i]) || start[i] == '-';
    if (!ok)
        return snprintf(reason, size, "descriptor languages has a tag \"%.*s\" that is not \"*\" or BCP 47 (letters, digits, '-')",
                        (int)length, start),
               -1;
    return 0;
}

static int verdict_languages(const char *languages, char *reason, size_t size) {
    if (languages == NULL) return 0;
    if (verdict_string("languages", languages, VERDICT_LANGUAGES_MAX, 1, reason, size) != 0) return -1;
    for (const char *item = languages;;) {
        const char *comma = strchr(item, ',');
        const char *end = comma ? comma : item + strlen(item);
        const char *start = item;
        while (start < end && *start == ' ') start++;
        while (end > start && end[-1] == ' ') end--;
        if (end > start && verdict_tag(start, (size_t)(end - start), reason, size) != 0) return -1;
        if (comma == NULL) return 0;
        item = comma + 1;
    }
}

/* 0 when `d` meets every rule above; else -1 with the reason (one line, for the report). */
static int descriptor_verdict(const emend_provider_descriptor *d, char *reason, size_t size) {
    size_t version_end = offsetof(emend_provider_descriptor, abi_version) + sizeof d->abi_version;
    if (d->struct_size < version_end || (d->abi_version == EMEND_PROVIDER_ABI_VERSION &&
                                         d->struct_size < EMEND_PROVIDER_DESCRIPTOR_MIN_SIZE))
        return snprintf(reason, size, "descriptor struct_size %zu is smaller than the first version (%zu)", d->struct_size,
                        (size_t)EMEND_PROVIDER_DESCRIPTOR_MIN_SIZE),
               -1;
    if (d->abi_version != EMEND_PROVIDER_ABI_VERSION)
        return snprintf(reason, size, "ABI version %u, this host speaks %u", (unsigned)d->abi_version,
                        (unsigned)EMEND_PROVIDER_ABI_VERSION),
               -1;
    if (verdict_id(d->id, reason, size) != 0) return -1;
    if (verdict_string("name", d->name, VERDICT_NAME_MAX, 0, reason, size) != 0) return -1;
    if (verdict_string("version", d->version, VERDICT_VERSION_MAX, 0, reason, size) != 0) return -1;
    if (verdict_languages(d->languages, reason, size) != 0) return -1;
    if (d->tools == 0) return snprintf(reason, size, "descriptor serves no tools"), -1;
    if (d->tools >> VERDICT_TOOL_COUNT)
        return snprintf(reason, size, "descriptor tools 0x%x has bits for unknown tools", (unsigned)d->tools), -1;
    if (d->create == NULL) return snprintf(reason, size, "descriptor has no create function"), -1;
    if (d->run == NULL) return snprintf(reason, size, "descriptor has no run function"), -1;
    if (d->destroy == NULL) return snprintf(reason, size, "descriptor has no destroy function"), -1;
    return 0;
}

#endif /* EMEND_SCAN_DESCRIPTOR_VERDICT_H */
