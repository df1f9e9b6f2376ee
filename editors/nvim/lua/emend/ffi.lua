-- emend.ffi: the C ABI of libemend (include/emend.h) declared for LuaJIT's FFI, and the
-- loading of the library.
--
-- The declarations follow include/emend.h (ABI version 2) with one deliberate difference:
--
--  * Enums are declared as their C names for readability, but every enum parameter and
--    field is an int in C, which is how LuaJIT passes them anyway.
--
-- Every delegate callback takes pointers and scalars only (ABI version 2 passes the range of
-- the rects and animation callbacks as `const emend_range *`), so each one is a plain
-- ffi.cast of a Lua function to its typedef below.
--
-- Only functions the plugin calls are declared; cdef is idempotent per process because the
-- module is loaded once (require caches it).
local ffi = require("ffi")

local M = {}

ffi.cdef([[
typedef int emend_status;
typedef int emend_behavior;
typedef uint32_t emend_result_options;
typedef int emend_state;
typedef int emend_position_encoding;
typedef int emend_provider_hosts;
typedef int emend_context_scope;
typedef int emend_tool;
typedef int emend_text_update_reason;
typedef int emend_replace_reason;
typedef int emend_change_kind;
typedef int emend_text_animation;
typedef int emend_replace_answer;
typedef int emend_presented_action;
typedef int emend_suggestion_state;
typedef int emend_block_kind;
typedef uint64_t emend_request_id;
typedef struct emend_coordinator emend_coordinator;

typedef struct emend_range { uint64_t location; uint64_t length; } emend_range;
typedef struct emend_rect { double x, y, width, height; } emend_rect;

typedef struct emend_attribute_run {
    emend_range range; const char *key; const char *value;
} emend_attribute_run;

typedef struct emend_block_intent {
    emend_range range; emend_block_kind kind; int32_t level; int32_t ordinal; int32_t row; int32_t column;
} emend_block_intent;

typedef struct emend_context_desc {
    size_t struct_size;
    const char *text;
    size_t text_length;
    emend_range selection;
    void *engine_context;
    const emend_range *protected_ranges;
    size_t protected_range_count;
    const emend_attribute_run *attribute_runs;
    size_t attribute_run_count;
    const emend_block_intent *block_intents;
    size_t block_intent_count;
} emend_context_desc;

typedef struct emend_replace_request {
    size_t struct_size;
    uint64_t context_id;
    void *engine_context;
    emend_range range;
    const char *text;
    size_t text_length;
    emend_replace_reason reason;
    emend_change_kind kind;
    double animation_duration;
    double animation_delay;
    uint32_t flags;
    const emend_attribute_run *attribute_runs;
    size_t attribute_run_count;
    const emend_block_intent *block_intents;
    size_t block_intent_count;
} emend_replace_request;

typedef struct emend_presented_result {
    size_t struct_size;
    uint64_t context_id;
    void *engine_context;
    emend_tool tool;
    emend_range range;
    const char *text;
    size_t text_length;
    uint32_t flags;
    const emend_attribute_run *attribute_runs;
    size_t attribute_run_count;
    const emend_block_intent *block_intents;
    size_t block_intent_count;
    const char *explanation;
} emend_presented_result;

typedef void (*emend_requests_contexts_fn)(void *user_data, emend_coordinator *coordinator,
    emend_context_scope scope, emend_request_id request);
typedef void (*emend_replace_fn)(void *user_data, emend_coordinator *coordinator,
    const emend_replace_request *replace, emend_request_id request);
typedef void (*emend_select_ranges_fn)(void *user_data, emend_coordinator *coordinator,
    uint64_t context_id, void *engine_context, const emend_range *ranges, size_t range_count,
    emend_request_id request);
typedef void (*emend_rects_fn)(void *user_data, emend_coordinator *coordinator,
    uint64_t context_id, void *engine_context, const emend_range *range, emend_request_id request);
typedef void (*emend_animation_fn)(void *user_data, emend_coordinator *coordinator,
    emend_text_animation animation, uint64_t context_id, void *engine_context,
    const emend_range *range, emend_request_id request);
typedef void (*emend_finish_animation_fn)(void *user_data, emend_coordinator *coordinator,
    emend_text_animation animation, uint64_t context_id, void *engine_context,
    const emend_range *range, void *preview, emend_request_id request);
typedef void (*emend_will_change_to_state_fn)(void *user_data, emend_coordinator *coordinator,
    emend_state new_state, emend_request_id request);
typedef void (*emend_present_result_fn)(void *user_data, emend_coordinator *coordinator,
    const emend_presented_result *result, emend_request_id request);
typedef void (*emend_session_ended_fn)(void *user_data, emend_coordinator *coordinator,
    emend_status status, const char *message);

typedef struct emend_suggestion_span {
    size_t struct_size;
    size_t first;
    size_t count;
    size_t total;
} emend_suggestion_span;
typedef void (*emend_suggestions_changed_fn)(void *user_data, emend_coordinator *coordinator,
    const emend_suggestion_span *changed);
typedef int emend_rect_purpose;
typedef void (*emend_requests_rects_fn)(void *user_data, emend_coordinator *coordinator,
    emend_rect_purpose purpose, uint64_t context_id, void *engine_context,
    const emend_range *ranges, size_t range_count, emend_request_id request);

typedef struct emend_delegate {
    size_t struct_size;
    void *user_data;
    emend_requests_contexts_fn requests_contexts;
    emend_replace_fn replace;
    emend_select_ranges_fn select_ranges;
    emend_rects_fn requests_bounding_rects;
    emend_rects_fn requests_underline_rects;
    emend_animation_fn prepare_for_text_animation;
    emend_animation_fn requests_preview;
    emend_finish_animation_fn finish_text_animation;
    emend_will_change_to_state_fn will_change_to_state;
    emend_present_result_fn present_result;
    emend_session_ended_fn session_ended;
    emend_suggestions_changed_fn suggestions_changed;
    emend_requests_rects_fn requests_rects;
} emend_delegate;

typedef struct emend_coordinator_options {
    size_t struct_size;
    emend_position_encoding encoding;
    emend_behavior preferred_behavior;
    emend_result_options preferred_result_options;
    uint32_t completion_timeout_ms;
    uint32_t provider_timeout_ms;
    uint32_t stream_chunk_bytes;
    const char *language;
    emend_provider_hosts provider_hosts;
} emend_coordinator_options;

typedef struct emend_tool_request {
    size_t struct_size;
    emend_tool tool;
    emend_context_scope scope;
    const char *prompt;
    const char *provider_id;
} emend_tool_request;

typedef struct emend_provider_info {
    size_t struct_size;
    const char *id;
    const char *name;
    const char *version;
    const char *path;
    uint32_t tools;
    const char *languages;
    uint32_t flags;
    int32_t priority;
    int32_t enabled;
    const char *reason;
} emend_provider_info;

typedef struct emend_suggestion {
    size_t struct_size;
    uint64_t context_id;
    emend_range range;
    const char *original;
    const char *replacement;
    const char *explanation;
    const char *category;
    const char *rule_id;
    emend_suggestion_state state;
} emend_suggestion;

const char *emend_last_error_message(void);
const char *emend_status_name(emend_status status);
uint32_t emend_abi_version(void);

emend_status emend_answer_contexts(emend_coordinator *coordinator, emend_request_id request,
                                   const emend_context_desc *contexts, size_t count);
emend_status emend_answer_replace(emend_coordinator *coordinator, emend_request_id request,
                                  emend_replace_answer answer, const char *inserted_text,
                                  size_t inserted_length);
emend_status emend_answer_replace_as_proposed(emend_coordinator *coordinator, emend_request_id request);
emend_status emend_answer_presented(emend_coordinator *coordinator, emend_request_id request,
                                    emend_presented_action action);
emend_status emend_answer_done(emend_coordinator *coordinator, emend_request_id request);
emend_status emend_answer_preview(emend_coordinator *coordinator, emend_request_id request, void *preview);
emend_status emend_answer_failed(emend_coordinator *coordinator, emend_request_id request,
                                 emend_status status, const char *message);
emend_status emend_request_is_pending(const emend_coordinator *coordinator, emend_request_id request,
                                      int *out_pending);

emend_status emend_coordinator_create(const emend_delegate *delegate,
                                      const emend_coordinator_options *options,
                                      emend_coordinator **out);
void emend_coordinator_destroy(emend_coordinator *coordinator);
int emend_coordinator_fd(const emend_coordinator *coordinator);
emend_status emend_coordinator_dispatch(emend_coordinator *coordinator, size_t *processed);
emend_status emend_coordinator_run_until_idle(emend_coordinator *coordinator, int timeout_ms);
emend_status emend_coordinator_last_session_status(const emend_coordinator *coordinator,
                                                   emend_status *out_status);
emend_status emend_coordinator_get_state(const emend_coordinator *coordinator, emend_state *state);
emend_status emend_coordinator_get_completeness(const emend_coordinator *coordinator, int *out_completeness,
                                                char *buffer, size_t capacity, size_t *length);
emend_status emend_coordinator_start(emend_coordinator *coordinator, const emend_tool_request *request);
emend_status emend_coordinator_stop(emend_coordinator *coordinator);
emend_status emend_coordinator_context_ids(const emend_coordinator *coordinator, uint64_t *out_ids,
                                           size_t capacity, size_t *out_count);
emend_status emend_coordinator_update_range(emend_coordinator *coordinator, uint64_t context_id,
                                            emend_range range, const char *text,
                                            size_t text_length, emend_text_update_reason reason);
emend_status emend_coordinator_set_preferred_behavior(emend_coordinator *coordinator,
                                                      emend_behavior behavior);
emend_status emend_coordinator_provider_count(const emend_coordinator *coordinator, size_t *count);
emend_status emend_coordinator_get_provider(const emend_coordinator *coordinator, size_t index,
                                            emend_provider_info *out);
emend_status emend_coordinator_choose_provider(emend_coordinator *coordinator, emend_tool tool,
                                               const char *provider_id);

emend_status emend_coordinator_add_word(emend_coordinator *coordinator, const char *word);

emend_status emend_session_accept(emend_coordinator *coordinator);
emend_status emend_session_revert(emend_coordinator *coordinator);
emend_status emend_session_show_original(emend_coordinator *coordinator, int show_original);
emend_status emend_session_suggestion_count(const emend_coordinator *coordinator, size_t *count);
emend_status emend_session_get_suggestion(const emend_coordinator *coordinator, size_t index,
                                          emend_suggestion *out);
emend_status emend_session_accept_suggestion(emend_coordinator *coordinator, size_t index);
emend_status emend_session_reject_suggestion(emend_coordinator *coordinator, size_t index);
emend_status emend_session_suggestion_at_offset(const emend_coordinator *coordinator,
                                                uint64_t context_id, uint64_t offset, size_t *index);
emend_status emend_session_review_changes(emend_coordinator *coordinator, size_t *out_count);
emend_status emend_session_undo(emend_coordinator *coordinator);
emend_status emend_session_redo(emend_coordinator *coordinator);

emend_status emend_markdown_protected_ranges(const char *text, size_t text_length,
                                             emend_position_encoding encoding,
                                             emend_range **ranges, size_t *count);
void emend_markdown_protected_ranges_free(emend_range *ranges);
]])

-- Constants of emend.h (enums and flags) by their C names without the prefix.
M.ABI_VERSION = 2 -- EMEND_ABI_VERSION: the declarations above are this version's
M.OK = 0
M.E = {
  INVALID_ARGUMENT = 1, STRUCT_SIZE = 2, INVALID_UTF8 = 3, RANGE = 4, NOT_FOUND = 5, STATE = 6,
  WRONG_THREAD = 7, TIMEOUT = 8, REFUSED = 9, STALE = 10, PROVIDER = 11, UNSUPPORTED = 12,
  CANCELLED = 13, PROTECTED = 14, INTERNAL = 15, POOR_RESULT = 16, BUSY = 17, IN_CALLBACK = 18,
  AGAIN = 19,
}
M.STATE = { INACTIVE = 0, NONINTERACTIVE = 1, RESTING = 2, STREAMING = 3 }
M.STATE_NAME = { [0] = "inactive", [1] = "noninteractive", [2] = "resting", [3] = "streaming" }
M.COMPLETENESS = { UNKNOWN = 0, COMPLETE = 1, PARTIAL = 2 }
M.BEHAVIOR = { NONE = -1, DEFAULT = 0, COMPLETE = 1, LIMITED = 2 }
-- emend_provider_hosts, by the name the `hosts` option uses.
M.PROVIDER_HOSTS = { default = 0, service = 1, own = 2 }
M.SCOPE = { USER_SELECTION = 0, FULL_DOCUMENT = 1, VISIBLE_AREA = 2 }
M.TOOL = {
  proofread = 0, friendly = 1, professional = 2, concise = 3, describe = 4, summary = 5,
  keypoints = 6, list = 7, table = 8, compose = 9, followup = 10,
}
M.TOOL_NAME = {}
for name, value in pairs(M.TOOL) do M.TOOL_NAME[value] = name end
M.UPDATE = { TYPING = 0, UNDO_REDO = 1 }
M.REPLACE = { APPLIED = 0, REFUSED = 1 }
M.PRESENTED = { APPLY = 0, COPY = 1, DISMISS = 2 }
M.SUGGESTION = { PENDING = 0, ACCEPTED = 1, REJECTED = 2, INVALID = 3 }
M.CHANGE = {
  RESULT = 0, SUGGESTION_REJECT = 1, REVERT = 2, SHOW_ORIGINAL = 3, SHOW_REWRITTEN = 4,
  UNDO = 5, REDO = 6, CANCEL = 7,
}
M.PROVIDER_FLAG = { STREAMS = 1, USES_NETWORK = 2, BUILT_IN = 4, SIMPLE_FORM = 8 }

local function plugin_root()
  -- .../emend/lua/emend/ffi.lua -> .../emend
  local source = debug.getinfo(1, "S").source:gsub("^@", "")
  return vim.fn.fnamemodify(source, ":p:h:h:h")
end
M.plugin_root = plugin_root

-- Where to look for the library, in order:
--   1. opts.library (setup) or $EMEND_LIBRARY
--   2. the installation the plugin belongs to: scripts/install.sh puts the plugin in
--      PREFIX/share/nvim/site/pack/emend/start/emend and the library in PREFIX/lib
--   3. a checkout: editors/nvim is two levels below the repository, whose
--      .build/release holds the library after scripts/build-release.sh
--   4. "libemend.so.0" on the dynamic loader's path (ldconfig, LD_LIBRARY_PATH)
function M.candidates(explicit)
  local list = {}
  if explicit and explicit ~= "" then table.insert(list, explicit) end
  local env = os.getenv("EMEND_LIBRARY")
  if env and env ~= "" then table.insert(list, env) end
  local root = plugin_root()
  local prefix = root:match("^(.*)/share/nvim/site/pack/[^/]+/start/[^/]+$")
    or root:match("^(.*)/share/nvim/site/pack/[^/]+/opt/[^/]+$")
  if prefix then table.insert(list, prefix .. "/lib/libemend.so.0") end
  local repo = root:match("^(.*)/editors/nvim$")
  if repo then
    table.insert(list, repo .. "/.build/release/libemend.so.0")
    table.insert(list, repo .. "/.build/release/libemend.so")
  end
  table.insert(list, "libemend.so.0")
  return list
end

local loaded, load_errors, loaded_path = nil, {}, nil

-- Loads libemend once per Neovim process (a second setup with another path is ignored: a
-- process cannot unload the Swift runtime safely). Returns the clib or nil and an error.
function M.load(explicit)
  if loaded then return loaded, nil, loaded_path end
  load_errors = {}
  for _, path in ipairs(M.candidates(explicit)) do
    local is_file = path:find("/") ~= nil
    if not is_file or (vim.uv or vim.loop).fs_stat(path) then
      local ok, lib = pcall(ffi.load, path)
      if ok then
        local abi_ok, abi = pcall(function() return lib.emend_abi_version() end)
        if abi_ok and abi == M.ABI_VERSION then
          loaded, loaded_path = lib, path
          return lib, nil, path
        end
        table.insert(load_errors, path .. ": ABI version " .. tostring(abi) .. ", expected " .. M.ABI_VERSION)
      else
        table.insert(load_errors, path .. ": " .. tostring(lib))
      end
    else
      table.insert(load_errors, path .. ": not found")
    end
  end
  return nil, "libemend not found:\n  " .. table.concat(load_errors, "\n  ")
end

function M.loaded_path() return loaded_path end

-- The last error of the calling thread, copied.
function M.last_error()
  if not loaded then return "" end
  return ffi.string(loaded.emend_last_error_message())
end

-- The parts of Markdown `text` no tool may change, from libemend's one rule set (the emend
-- command and `emend lsp` use it too; emend.h, "Markdown"): {start, end} byte offsets, sorted
-- and disjoint. nil and the error when the library refuses the text (invalid UTF-8).
function M.markdown_protected_ranges(text)
  if not loaded then return nil, "libemend is not loaded" end
  local out = ffi.new("emend_range *[1]")
  local count = ffi.new("size_t[1]")
  local status = loaded.emend_markdown_protected_ranges(text, #text, 0 --[[ UTF-8 ]], out, count)
  if status ~= M.OK then return nil, M.status_name(status) .. ": " .. M.last_error() end
  local ranges = {}
  for i = 0, tonumber(count[0]) - 1 do
    local start = tonumber(out[0][i].location)
    ranges[i + 1] = { start, start + tonumber(out[0][i].length) }
  end
  loaded.emend_markdown_protected_ranges_free(out[0])
  return ranges
end

function M.status_name(status)
  if not loaded then return tostring(status) end
  return ffi.string(loaded.emend_status_name(status))
end

return M
