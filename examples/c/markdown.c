/*
 * Markdown protection for a C engine: emend_markdown_protected_ranges finds the parts of a
 * Markdown text no Writing Tool may change (the rule set the emend command, `emend lsp` and
 * the Neovim plugin use), in the engine's position encoding, for its contexts'
 * protected_ranges. Prints each protected part, checks them, and checks that bad input is a
 * status with a message.
 *
 * Build: cc -std=c11 -Wall -Wextra -Werror -I include examples/c/markdown.c \
 *           -L .build/release -lemend -Wl,-rpath,$PWD/.build/release -o markdown
 */
#include <emend.h>

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const char *DOCUMENT =
    "---\n"
    "title: Notes\n"
    "---\n"
    "# Plans for tomorow\n"
    "\n"
    "We meet tomorow, run `emend --check` and read [the guide](https://example.com/teh).\n"
    "\n"
    "> I beleive it, she said.\n"
    "\n"
    "```sh\n"
    "echo teh\n"
    "```\n";

/* What must be protected, in order; the prose ("Plans for tomorow", "We meet tomorow",
 * "the guide") must not be. */
static const char *EXPECTED[] = {
    "---\ntitle: Notes\n---", "`emend --check`", "https://example.com/teh",
    "> I beleive it, she said.", "```sh\necho teh\n```",
};

static int failures = 0;

static void check(int ok, const char *what) {
    if (!ok) {
        fprintf(stderr, "FAIL: %s\n", what);
        failures++;
    }
}

int main(void) {
    emend_range *ranges = NULL;
    size_t count = 0;
    emend_status status = emend_markdown_protected_ranges(DOCUMENT, strlen(DOCUMENT), EMEND_ENCODING_UTF8, &ranges, &count);
    check(status == EMEND_OK, emend_last_error_message());
    check(count == sizeof EXPECTED / sizeof EXPECTED[0], "one range per protected part");
    for (size_t i = 0; i < count; i++) {
        const char *start = DOCUMENT + ranges[i].location;
        int length = (int)ranges[i].length;
        printf("protected [%llu, +%llu): %.*s\n", (unsigned long long)ranges[i].location,
               (unsigned long long)ranges[i].length, length, start);
        if (i < sizeof EXPECTED / sizeof EXPECTED[0]) {
            check(strlen(EXPECTED[i]) == ranges[i].length && memcmp(start, EXPECTED[i], ranges[i].length) == 0, EXPECTED[i]);
        }
        check(strstr(start, "We meet") != start, "prose is not protected");
    }
    emend_markdown_protected_ranges_free(ranges);

    /* An engine that counts in UTF-16 gets UTF-16 ranges: "😀 " is 3 units (5 bytes). */
    const char *emoji = "\xF0\x9F\x98\x80 `x`";
    status = emend_markdown_protected_ranges(emoji, strlen(emoji), EMEND_ENCODING_UTF16, &ranges, &count);
    check(status == EMEND_OK && count == 1 && ranges[0].location == 3 && ranges[0].length == 3, "UTF-16 units");
    emend_markdown_protected_ranges_free(ranges);

    /* Bad input: a status and a message, outputs emptied, never a crash. */
    status = emend_markdown_protected_ranges("a \xFF", 3, EMEND_ENCODING_UTF8, &ranges, &count);
    check(status == EMEND_E_INVALID_UTF8 && ranges == NULL && count == 0, "invalid UTF-8 is refused");
    printf("invalid UTF-8: %s: %s\n", emend_status_name(status), emend_last_error_message());
    status = emend_markdown_protected_ranges(NULL, SIZE_MAX, EMEND_ENCODING_UTF8, &ranges, &count);
    check(status == EMEND_E_INVALID_ARGUMENT, "an impossible length is refused");
    status = emend_markdown_protected_ranges(DOCUMENT, strlen(DOCUMENT), EMEND_ENCODING_UTF8, NULL, &count);
    check(status == EMEND_E_INVALID_ARGUMENT, "NULL ranges is refused");
    emend_markdown_protected_ranges_free(NULL);

    if (failures) return 1;
    printf("markdown: %zu-byte document, protected parts as expected\n", strlen(DOCUMENT));
    return 0;
}
