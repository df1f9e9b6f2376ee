/* Prints, for each prompt style and tool, the user message and the worked example's turns
 * the model providers build, as "STYLE TOOL LANGUAGE" blocks separated by "\n===\n". */
#include "emend_prompts.h"

#include <stdio.h>
#include <string.h>

static void show(emend_prompt_style style, emend_tool tool, const char *language, const char *guidance) {
    const char *text = "We meet on Friday at 10. Do not be late.";
    emend_provider_request request;
    memset(&request, 0, sizeof request);
    request.struct_size = sizeof request;
    request.tool = tool;
    request.text = text;
    request.text_length = strlen(text);
    request.selection.end = strlen(text);
    request.language = language;
    request.prompt = "make it rhyme";
    request.guidance = guidance;
    emend_prompt prompt;
    char err[256];
    printf("%d %d %s\n", (int)style, (int)tool, language);
    if (emend_prompt_build_styled(&request, text, strlen(text), style, &prompt, err, sizeof err) != 0) {
        printf("error: %s\n===\n", err);
        return;
    }
    printf("user: %s\nexample user: %s\nexample answer: %s\n===\n", prompt.user,
           prompt.example_user ? prompt.example_user : "(none)", prompt.example_answer ? prompt.example_answer : "(none)");
    emend_prompt_free(&prompt);
}

int main(int argc, char **argv) {
    (void)argc;
    (void)argv;
    for (int style = EMEND_PROMPT_PLAIN; style <= EMEND_PROMPT_DEFAULT; style++)
        for (int tool = EMEND_TOOL_PROOFREAD; tool <= EMEND_TOOL_FOLLOW_UP; tool++)
            show((emend_prompt_style)style, (emend_tool)tool, "en-US", NULL);
    show(EMEND_PROMPT_EXAMPLE, EMEND_TOOL_REWRITE_FRIENDLY, "de-DE", NULL);
    show(EMEND_PROMPT_EXAMPLE, EMEND_TOOL_SUMMARY, "en-GB", "Keep these facts: 'Friday'.");
    emend_prompt_style parsed;
    printf("parse: %d %d %d %d\n===\n", emend_prompt_style_parse("plain", &parsed) == 0 && parsed == EMEND_PROMPT_PLAIN,
           emend_prompt_style_parse("keep-facts", &parsed) == 0 && parsed == EMEND_PROMPT_KEEP_FACTS,
           emend_prompt_style_parse("example", &parsed) == 0 && parsed == EMEND_PROMPT_EXAMPLE,
           emend_prompt_style_parse("Example", &parsed));
    return 0;
}
