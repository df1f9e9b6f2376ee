/*
 * server.c — llama-server's own streaming /v1/chat/completions, measured from a client
 * (benchmarks/llama/run.sh; see benchmarks/README.md, "llama").
 *
 *   server PORT RUNS MAX_TOKENS TEXT_FILE
 *
 * Sends the messages the llama plugin sends for EMEND_TOOL_REWRITE_FRIENDLY of TEXT_FILE (built
 * by the same providers/common/emend_prompts.c), greedy (temperature 0), with "cache_prompt":
 * false so that every request evaluates its whole prompt as the plugin does. One warm-up request
 * first. Per request: the time to the first content event, the time of the last one, the
 * number of events, and the server's own "timings" (predicted_n, predicted_per_second) from its
 * final chunk. Prints per-run lines and one "RESULT key=value ..." line of medians.
 */
#define _GNU_SOURCE
#include <cjson/cJSON.h>
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "emend_prompts.h"

typedef struct stream {
    char line[1 << 16];
    size_t length;
    long long first_ns, last_ns;
    int events;
    int predicted_n, prompt_n;
    double predicted_per_second, prompt_ms;
} stream;

static long long now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void event(stream *s, const char *data) {
    if (strcmp(data, "[DONE]") == 0) return;
    cJSON *json = cJSON_Parse(data);
    if (json == NULL) return;
    const cJSON *choices = cJSON_GetObjectItemCaseSensitive(json, "choices");
    const cJSON *delta = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(choices, 0), "delta");
    const cJSON *content = cJSON_GetObjectItemCaseSensitive(delta, "content");
    if (cJSON_IsString(content) && content->valuestring[0] != '\0') {
        long long now = now_ns();
        if (s->first_ns == 0) s->first_ns = now;
        s->last_ns = now;
        s->events++;
    }
    const cJSON *timings = cJSON_GetObjectItemCaseSensitive(json, "timings");
    if (cJSON_IsObject(timings)) {
        const cJSON *v;
        if (cJSON_IsNumber(v = cJSON_GetObjectItemCaseSensitive(timings, "predicted_n"))) s->predicted_n = v->valueint;
        if (cJSON_IsNumber(v = cJSON_GetObjectItemCaseSensitive(timings, "prompt_n"))) s->prompt_n = v->valueint;
        if (cJSON_IsNumber(v = cJSON_GetObjectItemCaseSensitive(timings, "predicted_per_second")))
            s->predicted_per_second = v->valuedouble;
        if (cJSON_IsNumber(v = cJSON_GetObjectItemCaseSensitive(timings, "prompt_ms"))) s->prompt_ms = v->valuedouble;
    }
    cJSON_Delete(json);
}

static size_t on_body(char *bytes, size_t size, size_t count, void *user) {
    stream *s = user;
    size_t n = size * count;
    for (size_t i = 0; i < n; i++) {
        if (bytes[i] != '\n') {
            if (s->length + 1 < sizeof s->line) s->line[s->length++] = bytes[i];
            continue;
        }
        s->line[s->length] = '\0';
        if (strncmp(s->line, "data: ", 6) == 0) event(s, s->line + 6);
        s->length = 0;
    }
    return n;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *values, int n) {
    if (n == 0) return -1;
    qsort(values, (size_t)n, sizeof *values, compare);
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: server PORT RUNS MAX_TOKENS TEXT_FILE\n");
        return 2;
    }
    int runs = atoi(argv[2]);
    if (runs < 1) runs = 1;
    if (runs > 64) runs = 64;
    FILE *f = fopen(argv[4], "rb");
    if (f == NULL) return perror(argv[4]), 1;
    static char text[65536];
    size_t length = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    while (length > 0 && (text[length - 1] == '\n' || text[length - 1] == ' ')) length--;
    text[length] = '\0';

    /* The request the plugin gets for a rewrite of the whole text (plain text: its Markdown is
     * the text itself). */
    emend_provider_request request = {0};
    request.struct_size = sizeof request;
    request.tool = EMEND_TOOL_REWRITE_FRIENDLY;
    request.text = text;
    request.text_length = length;
    request.selection = (emend_byte_range){0, length};
    request.language = "en-US";
    request.markdown = text;
    request.markdown_length = length;
    emend_prompt prompt = {0};
    char err[256];
    if (emend_prompt_build(&request, &prompt, err, sizeof err) != 0) return fprintf(stderr, "%s\n", err), 1;

    cJSON *body = cJSON_CreateObject();
    cJSON *messages = cJSON_AddArrayToObject(body, "messages");
    cJSON *system = cJSON_CreateObject(), *user = cJSON_CreateObject();
    cJSON_AddStringToObject(system, "role", "system");
    cJSON_AddStringToObject(system, "content", prompt.system);
    cJSON_AddStringToObject(user, "role", "user");
    cJSON_AddStringToObject(user, "content", prompt.user);
    cJSON_AddItemToArray(messages, system);
    if (prompt.example_user != NULL && prompt.example_answer != NULL) { /* the worked example's turns */
        cJSON *asked = cJSON_CreateObject(), *answered = cJSON_CreateObject();
        cJSON_AddStringToObject(asked, "role", "user");
        cJSON_AddStringToObject(asked, "content", prompt.example_user);
        cJSON_AddStringToObject(answered, "role", "assistant");
        cJSON_AddStringToObject(answered, "content", prompt.example_answer);
        cJSON_AddItemToArray(messages, asked);
        cJSON_AddItemToArray(messages, answered);
    }
    cJSON_AddItemToArray(messages, user);
    cJSON_AddTrueToObject(body, "stream");
    cJSON_AddNumberToObject(body, "max_tokens", atoi(argv[3]));
    cJSON_AddNumberToObject(body, "temperature", 0);
    cJSON_AddFalseToObject(body, "cache_prompt");
    char *json = cJSON_PrintUnformatted(body);
    cJSON_Delete(body);
    emend_prompt_free(&prompt);

    char url[128];
    snprintf(url, sizeof url, "http://127.0.0.1:%s/v1/chat/completions", argv[1]);
    curl_global_init(CURL_GLOBAL_DEFAULT);
    CURL *curl = curl_easy_init();
    struct curl_slist *headers = curl_slist_append(NULL, "Content-Type: application/json");
    curl_easy_setopt(curl, CURLOPT_URL, url);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, json);
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(curl, CURLOPT_TCP_NODELAY, 1L);

    double ttft[64], rate[64], server_rate[64], tokens[64];
    int count = 0;
    static stream s;
    for (int run = -1; run < runs; run++) {
        memset(&s, 0, sizeof s);
        curl_easy_setopt(curl, CURLOPT_WRITEDATA, &s);
        long long start = now_ns();
        CURLcode result = curl_easy_perform(curl);
        long status = 0;
        curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
        if (result != CURLE_OK || status != 200 || s.events == 0) {
            printf("server: FAIL: %s, HTTP %ld, %d events\n", curl_easy_strerror(result), status, s.events);
            return 1;
        }
        if (run < 0) continue;
        int i = count++;
        int n = s.predicted_n > 0 ? s.predicted_n : s.events;
        ttft[i] = (double)(s.first_ns - start) * 1e-6;
        rate[i] = n > 1 && s.last_ns > s.first_ns ? (n - 1) / ((double)(s.last_ns - s.first_ns) * 1e-9) : -1;
        server_rate[i] = s.predicted_per_second > 0 ? s.predicted_per_second : -1;
        tokens[i] = n;
        printf("  run %d: %d prompt tokens, %d tokens (%d events); first token %.1f ms; %.1f tokens/s (server's own: %.1f)\n",
               run + 1, s.prompt_n, n, s.events, ttft[i], rate[i], server_rate[i]);
    }
    printf("RESULT ttft_ms=%.1f rate=%.1f server_rate=%.1f tokens=%.0f\n", median(ttft, count), median(rate, count),
           median(server_rate, count), median(tokens, count));
    curl_slist_free_all(headers);
    curl_easy_cleanup(curl);
    free(json);
    return 0;
}
