/* Prints the user prompt the model providers build for a rewrite, first without guidance,
 * then with it, and for a request struct of the first version (no guidance field at all). */
#include "emend_prompts.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

static void show(const emend_provider_request *request) {
    emend_prompt prompt;
    char err[256];
    if (emend_prompt_build(request, &prompt, err, sizeof err) != 0) {
        printf("error: %s\n", err);
        return;
    }
    printf("%s\n---\n", prompt.user);
    emend_prompt_free(&prompt);
}

int main(void) {
    const char *text = "We meet on Friday.";
    emend_provider_request request;
    memset(&request, 0, sizeof request);
    request.struct_size = sizeof request;
    request.tool = EMEND_TOOL_REWRITE_FRIENDLY;
    request.text = text;
    request.text_length = strlen(text);
    request.selection.end = strlen(text);
    request.language = "en-US";
    show(&request);
    request.guidance = "Keep these facts exactly as the text states them: 'Friday'.";
    show(&request);
    request.struct_size = offsetof(emend_provider_request, guidance);
    show(&request);
    return 0;
}
