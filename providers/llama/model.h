/*
 * model.h — one GGUF model and its llama.cpp context, and greedy generation from a chat
 * prompt: the model's own chat template, an optional GBNF grammar, a light repetition
 * penalty, cancellation checked after every token (and inside prompt processing).
 */
#ifndef EMEND_LLAMA_MODEL_H
#define EMEND_LLAMA_MODEL_H

#include <stddef.h>

typedef struct llm llm;

typedef struct llm_options {
    const char *path; /* the GGUF file */
    int threads;      /* for generation and prompt processing: the most a run may use */
    int poll;         /* ggml's polling for work between graphs, 0 (sleep) to 100 (spin) */
    int context;      /* n_ctx in tokens */
} llm_options;

/* Called with the raw bytes of each generated token (may end inside a UTF-8 character).
 * Return nonzero to stop generating. */
typedef int (*llm_emit_fn)(void *context, const char *bytes, size_t length);
/* Return nonzero once the run is cancelled; called after every token and while the prompt
 * is processed (from llama.cpp's compute thread). */
typedef int (*llm_cancelled_fn)(void *context);

typedef struct llm_request {
    const char *system;      /* NUL-terminated; may be NULL */
    const char *user;        /* NUL-terminated */
    const char *example_user;   /* a worked example as an earlier turn: both NUL-terminated, */
    const char *example_answer; /* or both NULL */
    const char *grammar;     /* GBNF with a rule "root", or NULL for free text */
    int max_tokens;          /* at most this many generated tokens */
    llm_emit_fn emit;
    llm_cancelled_fn cancelled;
    void *context;           /* for emit and cancelled */
} llm_request;

typedef enum llm_result {
    LLM_DONE = 0,      /* end of generation, grammar complete, or max_tokens/context reached */
    LLM_STOPPED = 1,   /* emit asked to stop */
    LLM_CANCELLED = 2,
    LLM_FAILED = 3     /* message in err */
} llm_result;

typedef struct llm_stats {
    int prompt_tokens;
    int generated_tokens;
    int grammar_resamples;   /* tokens the grammar refused, sampled again on the full set */
    int hit_limit;           /* stopped at max_tokens or the end of the context */
    double prompt_seconds;
    double generate_seconds;
} llm_stats;

/* Loads the model and makes its context. 0, or -1 with a message in err. */
int llm_open(const llm_options *options, llm **out, char *err, size_t errlen);
void llm_close(llm *model);

/* The threads the next generations use, 1 to the `threads` it was opened with. */
void llm_set_threads(llm *model, int threads);

/* The context size in tokens. */
int llm_context_size(const llm *model);
/* Tokens of `text` as plain text (no special tokens); one per byte (+1) when llama.cpp cannot
 * tokenize it, an overestimate. */
int llm_count_tokens(llm *model, const char *text, size_t length);
/* Tokens of the whole prompt (chat template applied; the user's text without control tokens)
 * for the request's messages (its other fields are not read); -1 on failure. */
int llm_prompt_tokens(llm *model, const llm_request *request);

/* Runs one request to the end. `stats` may be NULL. */
llm_result llm_generate(llm *model, const llm_request *request, llm_stats *stats, char *err, size_t errlen);

/* A short description of the model for logs ("SmolLM2-135M-Instruct.Q4_1.gguf, 135M params, ..."). */
const char *llm_description(const llm *model);

/* Routes llama.cpp's own log lines (errors only) to `log`; call before llm_open. */
void llm_set_log(void (*log)(void *context, const char *line), void *context);
/* Stops routing them to `context` (if it is the current one). */
void llm_clear_log(void *context);

#endif /* EMEND_LLAMA_MODEL_H */
