/*
 * A plugin that crashes cannot take the engine down: the test plugin
 * Tests/Fixtures/plugins/hostile.c, set up (config.toml, scenario = "crash-once") to
 * dereference NULL on its first run, runs in emend-provider-host like every plugin. The
 * first proofread fails with EMEND_E_PROVIDER and a message naming the plugin and the
 * signal, and the document is untouched; the second starts a new host and proofreads;
 * revert gives the original back. This process is still here to say so.
 *
 * Build: cc -std=c11 -Wall -Wextra -Werror -I include examples/c/isolation.c \
 *           -L LIBDIR -lemend -Wl,-rpath,LIBDIR -o isolation
 * Run:   EMEND_PROVIDER_PATH=DIR_WITH_hostile.so XDG_CONFIG_HOME=... ./isolation
 *        (scripts/run-examples.sh isolation LIBDIR sets it all up)
 */
#include <emend.h>

#include <stdio.h>
#include <string.h>

#include "common.h" /* CHECK, and the toy engine: its text and its two callbacks */

static emend_status proofread(emend_coordinator *coordinator) {
    emend_tool_request request = {sizeof request, EMEND_TOOL_PROOFREAD, EMEND_SCOPE_FULL_DOCUMENT, NULL,
                                  "org.emend.test.hostile"};
    emend_status status = emend_coordinator_start(coordinator, &request);
    if (status == EMEND_OK) status = emend_coordinator_run_until_idle(coordinator, 30000);
    return status;
}

int main(void) {
    static const char original[] = "Helo world, from an engine that survives its plugins.";
    toy_document doc = {0};
    snprintf(doc.text, sizeof doc.text, "%s", original);
    emend_delegate delegate = toy_delegate(&doc);

    emend_coordinator *coordinator = NULL;
    if (emend_coordinator_create(&delegate, NULL, &coordinator) != EMEND_OK) {
        fprintf(stderr, "create: %s\n", emend_last_error_message());
        return 1;
    }

    emend_status first = proofread(coordinator);
    printf("first run:  %s: %s\n", emend_status_name(first), emend_last_error_message());
    CHECK(first == EMEND_E_PROVIDER, "the first run fails with EMEND_E_PROVIDER");
    CHECK(strstr(emend_last_error_message(), "crashed (SIGSEGV)") != NULL, "the message names the signal");
    CHECK(strcmp(doc.text, original) == 0, "the document is untouched after the crash");

    emend_status second = proofread(coordinator);
    size_t count = 0;
    emend_session_suggestion_count(coordinator, &count);
    printf("second run: %s, %zu suggestion(s); text now \"%s\"\n", emend_status_name(second), count, doc.text);
    CHECK(second == EMEND_OK, "the second run (a new host) succeeds");
    CHECK(count == 1 && strncmp(doc.text, "Fine world", 10) == 0, "its suggestion is applied");

    emend_session_revert(coordinator);
    emend_coordinator_run_until_idle(coordinator, 10000);
    CHECK(strcmp(doc.text, original) == 0, "revert gives the original back");
    emend_coordinator_destroy(coordinator);
    return checks_result("c isolation (a plugin crashing in its own host)");
}
