-- emend.session: one coordinator per buffer, the delegate written in Lua, and the event loop.
--
-- LuaJIT notes (the rules every FFI binding of a callback-based C library has to follow):
--
--  * Callbacks are created ONCE, when this module loads, with ffi.cast, and anchored in the
--    module-level table `anchors`: a callback whose cdata is garbage collected leaves a
--    dangling function pointer in the runtime's copy of the delegate. All coordinators share
--    the same callbacks; `user_data` carries a small integer id that maps back to the buffer's
--    state in `by_id`, so no Lua object is ever handed to C.
--  * jit.off() on every function C calls back into and on the functions that call C entry
--    points which run callbacks (dispatch). A callback entered from JIT-compiled code aborts
--    with "bad callback"; turning the JIT off for these few functions costs nothing
--    measurable (they run once per event, not in hot loops).
--  * Every string the runtime hands to a callback (replace text, presented results, messages)
--    is copied with ffi.string before the callback returns: the pointers are valid only
--    during the call.
--  * No Lua error may unwind through the Swift frames of the runtime: every callback body runs
--    under xpcall, and a failure answers the request with emend_answer_failed.
--  * The coordinator pointer carries an ffi.gc finalizer that calls emend_coordinator_destroy,
--    so a coordinator the plugin forgets is still freed; the explicit destroy (BufUnload,
--    :e!, VimLeavePre) removes the finalizer first so destroy runs exactly once.
--
-- Encoding: the coordinator keeps the runtime's default position encoding, UTF-8 bytes. A
-- Neovim buffer is UTF-8 internally whatever 'fileencoding' says, and every position API the
-- plugin uses (extmarks, nvim_buf_set_text, nvim_buf_get_offset, on_bytes, diagnostics' col)
-- counts bytes, so offsets go from the runtime to the buffer with no conversion except
-- splitting a byte offset into (row, byte column). UTF-16 (LSP's unit) or code points would
-- need a conversion on every mark and replace.
--
-- The context is the whole buffer as the runtime sees it: each line followed by "\n" (the
-- model on_bytes and nvim_buf_get_offset count in), so a byte offset in the context is a byte
-- offset in the buffer, and edits reported by on_bytes need no translation.
local ffi = require("ffi")
local E = require("emend.ffi")

local uv = vim.uv or vim.loop
local api = vim.api

local M = {}

M.ns = api.nvim_create_namespace("emend")
M.ns_work = api.nvim_create_namespace("emend_working")

M.config = {
  provider = nil,            -- provider id for every tool, or a table tool name -> id
  language = nil,            -- BCP 47 tag; nil: from 'spelllang', else the runtime's default
  protect_markdown = true,
  completion_timeout_ms = 3600000, -- a presented result waits for the user this long
  -- How long a provider may take for one request (a model rewriting a long paragraph on a
  -- CPU takes tens of seconds): the same as `emend lsp`'s, so both front ends agree.
  provider_timeout_ms = 120000,
  stream_chunk_bytes = 0,
  diagnostics = true,
  -- Tools whose result is presented in a float (apply / copy / dismiss) instead of replacing
  -- the text inline. Summary and key points are always presented by the runtime; the others
  -- listed here run in limited behavior.
  present = { summary = true, keypoints = true, list = true, table = true },
  -- Proofreading: "marks" (the buffer keeps its text; suggestions are marks and diagnostics,
  -- applied one by one with :Emend accept, as harper-ls, ltex and `emend lsp` show them) or
  -- "inline" (Apple's review: every suggestion applied at once, rejected one by one).
  proofread = "marks",
  float = { border = "rounded" },
  -- A spinner in the command line while a tool runs (false: only the statusline component
  -- require("emend").progress() and the User EmendProgress event).
  progress = true,
  -- Where the provider hosts (the checkers' processes) run: "service" (the per-user checker
  -- service: every buffer, Neovim instance, `emend lsp` and the emend command share one set,
  -- started once), "own" (each buffer's coordinator starts its own, children of Neovim) or
  -- "default" (config.toml's `[service] hosts`, else own). With "service" and "default"
  -- config.toml's `[service] hosts` wins; EMEND_SERVICE=on|off overrides all. :help emend-service
  hosts = "service",
}

local lib -- the clib, set by M.init

local MARKDOWN_FILETYPES = { markdown = true, ["markdown.pandoc"] = true, pandoc = true, rmd = true, quarto = true, vimwiki = true }

-- What no tool may change in buffer `buf` whose context text is `text`: for Markdown
-- filetypes libemend's one Markdown rule set (code, quotes, links, HTML, front matter: the
-- same as the emend command and `emend lsp`), as {start, end} byte offsets; {} otherwise.
function M.protected_ranges(buf, text)
  local ft = vim.bo[buf].filetype or ""
  if not (MARKDOWN_FILETYPES[ft] or ft:match("^markdown")) then return {} end
  local ranges, err = E.markdown_protected_ranges(text)
  if not ranges then error("Markdown protection failed: " .. err) end
  return ranges
end
local sessions = {} -- bufnr -> state
local by_id = {} -- user_data id -> state
local next_id = 0
local anchors = {} -- ffi callbacks, kept alive for the life of the process

M.sessions = sessions
M.stats = { dispatches = 0, max_dispatch_ms = 0, dispatch_ms = {} }

local function now_ms() return uv.hrtime() / 1e6 end

local function state_of(ud)
  return by_id[tonumber(ffi.cast("uintptr_t", ud))]
end

local function err_text(status)
  local msg = E.last_error()
  return E.status_name(status) .. (msg ~= "" and (": " .. msg) or "")
end

-- Work queued by callbacks to run after the dispatch returns: autocmds, notifications and
-- floats may run user code, which may call back into Emend (start, stop), which the runtime
-- refuses inside a callback (EMEND_E_IN_CALLBACK).
local function later(s, fn) table.insert(s.after, fn) end

-- ---------------------------------------------------------------------------------------
-- Buffer text and positions
-- ---------------------------------------------------------------------------------------

local function buffer_text(buf)
  local lines = api.nvim_buf_get_lines(buf, 0, -1, false)
  return table.concat(lines, "\n") .. "\n", lines
end
M.buffer_text = buffer_text

-- A function mapping a byte offset of the context to (row, byte col), built from one read of
-- the buffer: marks for many suggestions need one binary search each, no API call.
local function position_index(buf)
  local lines = api.nvim_buf_get_lines(buf, 0, -1, false)
  local starts, off = {}, 0
  for i, line in ipairs(lines) do
    starts[i] = off
    off = off + #line + 1
  end
  local n = #lines
  return function(o)
    if o >= off then return n - 1, #lines[n] end -- the final "\n": end of the last line
    local lo, hi = 1, n
    while lo < hi do
      local mid = math.floor((lo + hi + 1) / 2)
      if starts[mid] <= o then lo = mid else hi = mid - 1 end
    end
    return lo - 1, math.min(o - starts[lo], #lines[lo])
  end, off
end
M.position_index = position_index

-- Byte offset of (row, col) in the context.
local function offset_of(buf, row, col)
  return api.nvim_buf_get_offset(buf, row) + col
end
M.offset_of = offset_of

-- (row, col) of byte offset `o` with O(log n) calls of nvim_buf_get_offset (no copy of the
-- buffer: a proofread of a long file applies thousands of replaces).
local function position_of(buf, o)
  local n = api.nvim_buf_line_count(buf)
  local last_start = api.nvim_buf_get_offset(buf, n - 1)
  local last_len = #(api.nvim_buf_get_lines(buf, n - 1, n, false)[1] or "")
  local total = last_start + last_len + 1
  if o >= last_start then return n - 1, math.min(o - last_start, last_len), total end
  local lo, hi = 0, n - 1
  while lo < hi do
    local mid = math.floor((lo + hi + 1) / 2)
    if api.nvim_buf_get_offset(buf, mid) <= o then lo = mid else hi = mid - 1 end
  end
  return lo, o - api.nvim_buf_get_offset(buf, lo), total
end
M.position_of = position_of

-- Replace bytes [s, e) of the context with `text`; returns the text really inserted (which
-- differs from `text` only when the range ends after the buffer's last "\n", which a buffer
-- cannot delete: the plugin keeps it and says so in its answer).
local function apply_bytes(buf, s, e, text)
  local actual = text
  local srow, scol, total = position_of(buf, s)
  local erow, ecol = position_of(buf, e)
  if e >= total then
    -- The range takes the final newline: keep it, insert text without its own final newline.
    if text:sub(-1) == "\n" then
      text = text:sub(1, -2)
    else
      actual = text .. "\n"
    end
    if s >= total then
      -- Insertion after the final newline: after the last line, on a new line.
      text = "\n" .. text
    end
  end
  local replacement = vim.split(text, "\n", { plain = true })
  api.nvim_buf_set_text(buf, srow, scol, erow, ecol, replacement)
  return actual
end

-- ---------------------------------------------------------------------------------------
-- Undo grouping
-- ---------------------------------------------------------------------------------------

-- The replaces of one step (a tool's streamed result, a revert, a cancel) form one undo
-- block: the first closes the block before it (:let &ul = &ul is Vim's documented undo break)
-- and every later one is joined to it with :undojoin. So `u` after Done takes a whole
-- rewrite back, however many sentences streamed in.
--
-- One Writing Tools result is one undo step whatever happened during the session: the
-- result, toggling `:Emend original` back and forth, and the session's own undo and redo all
-- join the same block, so `u` after Done gives back the original, never a half-way text.
local function group_of(s, kind)
  if kind == E.CHANGE.RESULT or kind == E.CHANGE.SHOW_ORIGINAL or kind == E.CHANGE.SHOW_REWRITTEN
    or kind == E.CHANGE.UNDO or kind == E.CHANGE.REDO then
    return "result:" .. s.seq
  end
  if kind == E.CHANGE.CANCEL or kind == E.CHANGE.REVERT then
    -- A result the runtime takes back itself (a poor result refused after it streamed in, a
    -- stopped or failed run) joins the result's own block, so `u` never brings back text the
    -- session refused or left half-way. The user's `:Emend revert` is a step of its own.
    if s.revert_seq ~= s.seq then return "result:" .. s.seq end
    return "revert:" .. s.seq
  end
  s.step = (s.step or 0) + 1
  return "step:" .. s.step
end

local function edit_buffer(s, kind, fn)
  local group = group_of(s, kind)
  local join = s.undo_group == group and s.undo_tick == api.nvim_buf_get_changedtick(s.buf)
  local result
  api.nvim_buf_call(s.buf, function()
    if join then
      pcall(vim.cmd, "silent! undojoin")
    else
      vim.cmd("let &undolevels = &undolevels")
    end
    s.applying = true
    local ok, r = pcall(fn)
    s.applying = false
    if not ok then error(r, 0) end
    result = r
  end)
  s.undo_group = group
  s.undo_tick = api.nvim_buf_get_changedtick(s.buf)
  return result
end

-- ---------------------------------------------------------------------------------------
-- The delegate callbacks
-- ---------------------------------------------------------------------------------------

local function fail(coord, request, err)
  local msg = "emend.nvim: " .. tostring(err)
  pcall(function() lib.emend_answer_failed(coord, request, E.E.INTERNAL, msg) end)
  vim.schedule(function() vim.notify(msg, vim.log.levels.ERROR) end)
end

local function cb_requests_contexts(ud, coord, scope, request)
  local s = state_of(ud)
  local ok, err = xpcall(function()
    local text = buffer_text(s.buf)
    local sel = s.selection or { 0, 0 }
    local a = math.max(0, math.min(sel[1], #text))
    local b = math.max(a, math.min(sel[2], #text))
    local desc = ffi.new("emend_context_desc[1]")
    desc[0].struct_size = ffi.sizeof("emend_context_desc")
    desc[0].text = text -- a Lua string: valid while `text` is referenced; the runtime copies it
    desc[0].text_length = #text
    desc[0].selection.location = a
    desc[0].selection.length = b - a
    local protected = {}
    if M.config.protect_markdown then protected = M.protected_ranges(s.buf, text) end
    local ranges
    if #protected > 0 then
      ranges = ffi.new("emend_range[?]", #protected)
      for i, r in ipairs(protected) do
        ranges[i - 1].location = r[1]
        ranges[i - 1].length = r[2] - r[1]
      end
      desc[0].protected_ranges = ranges
      desc[0].protected_range_count = #protected
    end
    s.protected = protected
    local st = lib.emend_answer_contexts(coord, request, desc, 1)
    if st ~= E.OK then error("contexts refused: " .. err_text(st)) end
  end, debug.traceback)
  if not ok then fail(coord, request, err) end
end

local function cb_replace(ud, coord, req, request)
  local s = state_of(ud)
  local ok, err = xpcall(function()
    -- Copy everything out of the request now: it is valid only during this call.
    local loc = tonumber(req.range.location)
    local len = tonumber(req.range.length)
    local text = ffi.string(req.text, req.text_length)
    local kind = tonumber(req.kind)
    if not vim.bo[s.buf].modifiable then
      lib.emend_answer_replace(coord, request, E.REPLACE.REFUSED, nil, 0)
      later(s, function() vim.notify("Emend: the buffer is not modifiable", vim.log.levels.WARN) end)
      return
    end
    local actual = edit_buffer(s, kind, function() return apply_bytes(s.buf, loc, loc + len, text) end)
    s.replaces = (s.replaces or 0) + 1
    if kind == E.CHANGE.RESULT and not s.first_text_ms then s.first_text_ms = now_ms() end
    local st
    if actual == text then
      st = lib.emend_answer_replace_as_proposed(coord, request)
    else
      st = lib.emend_answer_replace(coord, request, E.REPLACE.APPLIED, actual, #actual)
    end
    if st ~= E.OK and st ~= E.E.STALE then error("answer refused: " .. err_text(st)) end
    s.marks_dirty = true
  end, debug.traceback)
  if not ok then fail(coord, request, err) end
end

local function cb_select_ranges(ud, coord, context_id, engine_context, ranges, count, request)
  local s = state_of(ud)
  local ok, err = xpcall(function()
    if count > 0 then
      local a = tonumber(ranges[0].location)
      local b = a + tonumber(ranges[0].length)
      s.selected = { a, b }
      local pos = position_index(s.buf)
      local sr, sc = pos(a)
      local er, ec = pos(math.max(a, b - 1))
      -- '< and '> marks: `gv` selects what the tool selected (the result of a rewrite).
      pcall(api.nvim_buf_set_mark, s.buf, "<", sr + 1, sc, {})
      pcall(api.nvim_buf_set_mark, s.buf, ">", er + 1, ec, {})
    end
    lib.emend_answer_done(coord, request)
  end, debug.traceback)
  if not ok then fail(coord, request, err) end
end

local function cb_will_change_to_state(ud, coord, new_state, request)
  local s = state_of(ud)
  local ok, err = xpcall(function()
    local old = s.state
    s.state = tonumber(new_state)
    if s.state == E.STATE.INACTIVE then s.showing_original = false end
    later(s, function() M.state_changed(s, old) end)
    lib.emend_answer_done(coord, request)
  end, debug.traceback)
  if not ok then fail(coord, request, err) end
end

local function cb_present_result(ud, coord, result, request)
  local s = state_of(ud)
  local ok, err = xpcall(function()
    local presented = {
      request = request,
      tool = E.TOOL_NAME[tonumber(result.tool)] or "result",
      text = ffi.string(result.text, result.text_length),
      explanation = result.explanation ~= nil and ffi.string(result.explanation) or nil,
      range = { tonumber(result.range.location), tonumber(result.range.location + result.range.length) },
    }
    s.presented = presented
    -- Answered later, from the float's keys (emend_answer_presented works at any time).
    -- The tool's work is over: the spinner stops while the float waits for the person.
    later(s, function()
      require("emend.ui").progress_stop(s)
      require("emend.ui").present(s, presented)
    end)
  end, debug.traceback)
  if not ok then fail(coord, request, err) end
end

local function cb_session_ended(ud, coord, status, message)
  local s = state_of(ud)
  local ok, err = xpcall(function()
    local msg = ffi.string(message) -- valid only during the call
    s.ended = { status = tonumber(status), message = msg }
    s.sessions_ended = (s.sessions_ended or 0) + 1
    s.marks_dirty = true
    if status ~= E.OK then
      local name = E.status_name(status)
      later(s, function()
        vim.notify(("Emend: %s failed: %s (%s)"):format(s.tool_name or "session", msg, name), vim.log.levels.ERROR)
      end)
    end
    later(s, function() require("emend.ui").close_presented(s) end)
  end, debug.traceback)
  if not ok then vim.schedule(function() vim.notify(tostring(err), vim.log.levels.ERROR) end) end
end

-- Animations: ANTICIPATE marks the region the model works on; its finish (exactly one per
-- prepare, whatever happens) removes the mark. Other animations are answered at once.
local function animation_prepare(s, coord, animation, loc, len, request)
  s.last_animation = { animation = animation, range = { loc, loc + len } }
  if animation == 0 and s.buf and api.nvim_buf_is_valid(s.buf) then
    local pos = position_index(s.buf)
    local sr, sc = pos(loc)
    local er, ec = pos(loc + len)
    local id = api.nvim_buf_set_extmark(s.buf, M.ns_work, sr, sc, {
      end_row = er, end_col = ec, hl_group = "EmendWorking", priority = 150,
    })
    s.working = s.working or {}
    table.insert(s.working, id)
    s.prepared = (s.prepared or 0) + 1
  end
  lib.emend_answer_done(coord, request)
end

local function animation_finish(s, coord, animation, request)
  if animation == 0 and s.working and #s.working > 0 then
    local id = table.remove(s.working, 1)
    pcall(api.nvim_buf_del_extmark, s.buf, M.ns_work, id)
    s.finished = (s.finished or 0) + 1
  end
  lib.emend_answer_done(coord, request)
end

-- The range arrives as `const emend_range *`, valid only during the call: read it now.
local function cb_prepare(ud, coord, animation, ctx, ectx, range, request)
  local s = state_of(ud)
  local ok, err = xpcall(animation_prepare, debug.traceback, s, coord, animation,
    tonumber(range.location), tonumber(range.length), request)
  if not ok then fail(coord, request, err) end
end

local function cb_finish(ud, coord, animation, ctx, ectx, range, preview, request)
  local s = state_of(ud)
  local ok, err = xpcall(animation_finish, debug.traceback, s, coord, animation, request)
  if not ok then fail(coord, request, err) end
end

-- Created once, anchored for the life of the process.
local function make_callbacks()
  if anchors.delegate then return end
  for _, fn in ipairs({ cb_requests_contexts, cb_replace, cb_select_ranges, cb_will_change_to_state,
    cb_present_result, cb_session_ended, animation_prepare, animation_finish, cb_prepare, cb_finish }) do
    jit.off(fn)
  end
  anchors.requests_contexts = ffi.cast("emend_requests_contexts_fn", cb_requests_contexts)
  anchors.replace = ffi.cast("emend_replace_fn", cb_replace)
  anchors.select_ranges = ffi.cast("emend_select_ranges_fn", cb_select_ranges)
  anchors.will_change_to_state = ffi.cast("emend_will_change_to_state_fn", cb_will_change_to_state)
  anchors.present_result = ffi.cast("emend_present_result_fn", cb_present_result)
  anchors.session_ended = ffi.cast("emend_session_ended_fn", cb_session_ended)
  anchors.prepare = ffi.cast("emend_animation_fn", cb_prepare)
  anchors.finish = ffi.cast("emend_finish_animation_fn", cb_finish)
  anchors.delegate = true
end

local function new_delegate(id)
  local d = ffi.new("emend_delegate")
  d.struct_size = ffi.sizeof("emend_delegate")
  d.user_data = ffi.cast("void *", id)
  d.requests_contexts = anchors.requests_contexts
  d.replace = anchors.replace
  d.select_ranges = anchors.select_ranges
  d.will_change_to_state = anchors.will_change_to_state
  d.present_result = anchors.present_result
  d.session_ended = anchors.session_ended
  d.prepare_for_text_animation = anchors.prepare
  d.finish_text_animation = anchors.finish
  return d -- copied by emend_coordinator_create
end

-- ---------------------------------------------------------------------------------------
-- Event loop
-- ---------------------------------------------------------------------------------------

local function language()
  if M.config.language then return M.config.language end
  local spl = vim.o.spelllang or ""
  local first = spl:match("^[^,]+") or ""
  local l, r = first:match("^(%a%a)_(%a%a)$")
  if l then return l:lower() .. "-" .. r:upper() end
  return nil
end

local dispatch

-- The coordinator's fd is level-triggered: readable while work is pending. The poll callback
-- runs in libuv's fast context, where the buffer API is off limits, so it stops the watcher
-- and schedules the dispatch; the dispatch re-arms it when it is done. No busy loop, and no
-- callback runs outside the main loop's safe points.
local function arm(s)
  if not s.poll or s.closing then return end
  s.poll:start("r", function(perr)
    if s.poll then s.poll:stop() end
    if perr then return end
    vim.schedule(function() dispatch(s) end)
  end)
end

local function fetch_context_id(s)
  local ids = ffi.new("uint64_t[4]")
  local count = ffi.new("size_t[1]")
  if lib.emend_coordinator_context_ids(s.coord, ids, 4, count) == E.OK and count[0] > 0 then
    s.ctx_id = ids[0]
  else
    s.ctx_id = nil
  end
end

dispatch = function(s)
  if not s.coord or s.closing then return end
  s.in_dispatch = true
  local processed = ffi.new("size_t[1]")
  local t0 = now_ms()
  local st = lib.emend_coordinator_dispatch(s.coord, processed)
  local dt = now_ms() - t0
  s.in_dispatch = false
  M.stats.dispatches = M.stats.dispatches + 1
  if dt > M.stats.max_dispatch_ms then M.stats.max_dispatch_ms = dt end
  if st ~= E.OK then
    vim.notify("Emend: dispatch: " .. err_text(st), vim.log.levels.ERROR)
  end
  if s.coord then
    if s.state ~= E.STATE.INACTIVE then
      if not s.ctx_id then fetch_context_id(s) end
    else
      s.ctx_id = nil
    end
    if s.marks_dirty then M.refresh_marks(s) end
  end
  local after = s.after
  s.after = {}
  for _, fn in ipairs(after) do
    local ok, err = pcall(fn)
    if not ok then vim.notify("Emend: " .. tostring(err), vim.log.levels.ERROR) end
  end
  arm(s)
end
jit.off(dispatch)
M.dispatch = dispatch

-- ---------------------------------------------------------------------------------------
-- Coordinators
-- ---------------------------------------------------------------------------------------

function M.init(clib)
  lib = clib
  make_callbacks()
end

local function on_bytes(_, buf, _, srow, scol, sbyte, _, _, old_len, nrow, _, new_len)
  local s = sessions[buf]
  if not s or not s.coord then return true end -- detach
  if s.applying then return end -- our own replace
  s.marks_dirty = true
  if s.state == E.STATE.INACTIVE or not s.ctx_id then return end
  -- The new text: bytes [sbyte, sbyte + new_len) of the buffer, in the "\n" after every
  -- line model on_bytes counts in.
  local lines = api.nvim_buf_get_lines(buf, srow, srow + nrow + 1, false)
  local chunk = table.concat(lines, "\n") .. "\n"
  local text = chunk:sub(scol + 1, scol + new_len)
  local range = ffi.new("emend_range", sbyte, old_len)
  local reason = s.undoing and E.UPDATE.UNDO_REDO or E.UPDATE.TYPING
  if s.in_dispatch then
    -- Not ours and inside a callback (another plugin editing from our autocmds): report it
    -- once the dispatch returns.
    local ctx = s.ctx_id
    later(s, function()
      if s.coord then lib.emend_coordinator_update_range(s.coord, ctx, range, text, #text, reason) end
    end)
    return
  end
  local st = lib.emend_coordinator_update_range(s.coord, s.ctx_id, range, text, #text, reason)
  if st ~= E.OK then
    s.update_errors = (s.update_errors or 0) + 1
    s.last_update_error = err_text(st)
  end
  s.typed = (s.typed or 0) + 1
  if not s.refresh_scheduled then
    s.refresh_scheduled = true
    vim.schedule(function()
      s.refresh_scheduled = false
      if s.coord then M.refresh_marks(s) end
    end)
  end
end

function M.get(buf, create)
  buf = (buf == nil or buf == 0) and api.nvim_get_current_buf() or buf
  local s = sessions[buf]
  if s or not create then return s end
  if not lib then return nil, "emend: setup() has not loaded libemend" end
  next_id = next_id + 1
  s = { id = next_id, buf = buf, state = E.STATE.INACTIVE, after = {}, seq = 0 }
  local delegate = new_delegate(next_id)
  local options = ffi.new("emend_coordinator_options")
  options.struct_size = ffi.sizeof("emend_coordinator_options")
  options.completion_timeout_ms = M.config.completion_timeout_ms or 0
  options.provider_timeout_ms = M.config.provider_timeout_ms or 0
  options.stream_chunk_bytes = M.config.stream_chunk_bytes or 0
  local hosts = E.PROVIDER_HOSTS[M.config.hosts or "service"]
  if not hosts then
    return nil, "emend: hosts must be \"service\", \"own\" or \"default\", not " .. vim.inspect(M.config.hosts)
  end
  options.provider_hosts = hosts
  local lang = language()
  options.language = lang
  local out = ffi.new("emend_coordinator *[1]")
  local st = lib.emend_coordinator_create(delegate, options, out)
  if st ~= E.OK then return nil, "emend: cannot create a coordinator: " .. err_text(st) end
  -- A finalizer for a coordinator the plugin would lose; M.destroy removes it first.
  s.coord = ffi.gc(out[0], lib.emend_coordinator_destroy)
  by_id[s.id] = s
  sessions[buf] = s
  s.fd = lib.emend_coordinator_fd(s.coord)
  s.poll = uv.new_poll(s.fd)
  arm(s)
  api.nvim_buf_attach(buf, false, {
    on_bytes = on_bytes,
    on_reload = function()
      -- :e! and friends replaced all the text behind the runtime's back: the session's
      -- offsets mean nothing any more. Destroying keeps the buffer as it now is.
      vim.schedule(function() if sessions[buf] == s then M.destroy(s) end end)
    end,
    on_detach = function()
      vim.schedule(function() if sessions[buf] == s then M.destroy(s) end end)
    end,
  })
  return s
end

function M.destroy(s)
  if not s or s.closing then return end
  if s.in_dispatch then
    -- Never from inside a callback: after the dispatch returns.
    vim.schedule(function() M.destroy(s) end)
    return
  end
  s.closing = true
  if s.poll then
    s.poll:stop()
    if not s.poll:is_closing() then s.poll:close() end -- before destroy closes the fd
    s.poll = nil
  end
  if api.nvim_buf_is_valid(s.buf) then
    pcall(api.nvim_buf_clear_namespace, s.buf, M.ns, 0, -1)
    pcall(api.nvim_buf_clear_namespace, s.buf, M.ns_work, 0, -1)
    pcall(vim.diagnostic.reset, M.ns, s.buf)
  end
  pcall(function() require("emend.ui").close_presented(s) end)
  if s.coord then
    local coord = s.coord
    s.coord = nil
    ffi.gc(coord, nil)
    lib.emend_coordinator_destroy(coord)
  end
  local old = s.state
  s.state = E.STATE.INACTIVE
  if sessions[s.buf] == s then sessions[s.buf] = nil end
  by_id[s.id] = nil
  if old ~= E.STATE.INACTIVE then pcall(M.state_changed, s, old) end
end

function M.destroy_all()
  for _, s in pairs(vim.tbl_values(sessions)) do M.destroy(s) end
end

-- ---------------------------------------------------------------------------------------
-- Marks and state
-- ---------------------------------------------------------------------------------------

-- How complete the latest result is (emend_coordinator_get_completeness): "complete",
-- "partial" or "unknown", and the message that says what is missing ("" when nothing).
function M.completeness(s)
  if not s.coord then return "unknown", "" end
  local value, length = ffi.new("int[1]"), ffi.new("size_t[1]")
  if lib.emend_coordinator_get_completeness(s.coord, value, nil, 0, length) ~= E.OK then return "unknown", "" end
  local buffer = ffi.new("char[?]", tonumber(length[0]) + 1)
  if lib.emend_coordinator_get_completeness(s.coord, value, buffer, tonumber(length[0]) + 1, length) ~= E.OK then
    return "unknown", ""
  end
  local names = { [E.COMPLETENESS.COMPLETE] = "complete", [E.COMPLETENESS.PARTIAL] = "partial" }
  return names[tonumber(value[0])] or "unknown", ffi.string(buffer, length[0])
end

-- A result that lacks what a checker should have given (it timed out or failed) says so
-- once, when the run's result is in: a clean-looking buffer is not a checked one. A session
-- that failed has no result: the runtime reports its completeness as unknown (from before
-- the change to inactive), so only its failure is told, with its reason.
local function tell_if_partial(s)
  if s.partial_told or (s.state ~= E.STATE.RESTING and s.state ~= E.STATE.INACTIVE) then return end
  local completeness, message = M.completeness(s)
  if completeness == "partial" then
    s.partial_told = true
    vim.notify("Emend: " .. message, vim.log.levels.WARN)
  end
end

-- The number of the buffer's last write (undotree's save_last): it changes with every :w.
local function last_write(buf)
  return api.nvim_buf_call(buf, function() return vim.fn.undotree().save_last end)
end

-- A session that ends with the text it started with (a dismissed poor result, a revert,
-- every change rejected) leaves 'modified' as it found it: the session's replaces and the
-- replace that took them back mark the buffer modified, as any change does, though its text
-- is the file's again. Only when it was unmodified then, is byte for byte the same text now,
-- and was not written meanwhile (then the file holds what was written, and the buffer
-- differs from it).
local function restore_unmodified(s)
  local start = s.start
  s.start = nil
  if not start or start.modified or s.marks_for or not api.nvim_buf_is_valid(s.buf) or not vim.bo[s.buf].modified then
    return
  end
  if last_write(s.buf) == start.saved and buffer_text(s.buf) == start.text then
    vim.bo[s.buf].modified = false
  end
end

function M.state_changed(s, old)
  local name = E.STATE_NAME[s.state] or "inactive"
  if old ~= s.state then tell_if_partial(s) end
  -- A presented result waits for the person, not for a tool: no spinner until it is answered.
  if (s.state == E.STATE.STREAMING or s.state == E.STATE.NONINTERACTIVE) and not s.presented then
    require("emend.ui").progress_start(s)
  else
    require("emend.ui").progress_stop(s)
  end
  if s.state == E.STATE.INACTIVE then
    restore_unmodified(s)
    s.showing_original = false
    s.reviewing = false
    if api.nvim_buf_is_valid(s.buf) then pcall(api.nvim_buf_clear_namespace, s.buf, M.ns_work, 0, -1) end
    s.working = {}
  end
  if s.marks_for then
    -- The hidden copy of a marks-only check: its marks go to the real buffer.
    require("emend.marks").state_changed(s)
    return
  end
  local data = { buf = s.buf, state = name, old = E.STATE_NAME[old] or "inactive", tool = s.tool_name }
  local ok = pcall(api.nvim_exec_autocmds, "User", { pattern = "EmendStateChanged", modeline = false, data = data })
  if not ok then
    pcall(api.nvim_exec_autocmds, "User", { pattern = "EmendStateChanged", modeline = false })
  end
end

local function severity_of(category)
  if category == "spelling" then return vim.diagnostic.severity.WARN end
  return vim.diagnostic.severity.INFO
end

-- Pending suggestions, copied into Lua tables (the runtime's strings are valid only until
-- the next non-getter call).
function M.suggestions(s)
  local list = {}
  if not s or not s.coord then return list end
  local count = ffi.new("size_t[1]")
  if lib.emend_session_suggestion_count(s.coord, count) ~= E.OK then return list end
  local sug = ffi.new("emend_suggestion")
  for i = 0, tonumber(count[0]) - 1 do
    sug.struct_size = ffi.sizeof("emend_suggestion")
    if lib.emend_session_get_suggestion(s.coord, i, sug) == E.OK then
      local function str(p) return p ~= nil and ffi.string(p) or "" end
      table.insert(list, {
        index = i,
        context_id = sug.context_id,
        start = tonumber(sug.range.location),
        finish = tonumber(sug.range.location + sug.range.length),
        original = str(sug.original),
        replacement = str(sug.replacement),
        explanation = str(sug.explanation),
        category = str(sug.category),
        rule_id = str(sug.rule_id),
        state = tonumber(sug.state),
      })
    end
  end
  return list
end

function M.pending(s)
  local out = {}
  for _, sug in ipairs(M.suggestions(s)) do
    if sug.state == E.SUGGESTION.PENDING then table.insert(out, sug) end
  end
  table.sort(out, function(a, b) return a.start < b.start end)
  return out
end

function M.refresh_marks(s)
  s.marks_dirty = false
  if not api.nvim_buf_is_valid(s.buf) then return end
  api.nvim_buf_clear_namespace(s.buf, M.ns, 0, -1)
  if not s.coord or s.state == E.STATE.INACTIVE or (s.tool_name ~= "proofread" and not s.reviewing) then
    pcall(vim.diagnostic.reset, M.ns, s.buf)
    s.marks = {}
    return
  end
  local pos = position_index(s.buf)
  local diags, marks = {}, {}
  for _, sug in ipairs(M.pending(s)) do
    local sr, sc = pos(sug.start)
    local er, ec = pos(sug.finish)
    local id = api.nvim_buf_set_extmark(s.buf, M.ns, sr, sc, {
      end_row = er, end_col = ec, hl_group = "EmendSuggestion", priority = 120,
    })
    table.insert(marks, { id = id, row = sr, col = sc, end_row = er, end_col = ec, suggestion = sug })
    local message = sug.explanation ~= "" and sug.explanation
      or ("%s → %s"):format(sug.original, sug.replacement)
    table.insert(diags, {
      lnum = sr, col = sc, end_lnum = er, end_col = ec,
      severity = severity_of(sug.category),
      message = message, source = "emend", code = sug.rule_id ~= "" and sug.rule_id or sug.category,
      user_data = { index = sug.index, original = sug.original, replacement = sug.replacement },
    })
  end
  s.marks = marks
  if M.config.diagnostics then vim.diagnostic.set(M.ns, s.buf, diags) end
end

-- ---------------------------------------------------------------------------------------
-- Operations
-- ---------------------------------------------------------------------------------------

local function call(s, fn, ...)
  if not s or not s.coord then return nil, "Emend: no session in this buffer" end
  if s.in_dispatch then return nil, "Emend: busy (inside a callback)" end
  local st = fn(s.coord, ...)
  if st ~= E.OK then return nil, "Emend: " .. err_text(st) end
  return true
end

-- Start `tool` (a name of E.TOOL) on buffer `buf` with selection {start_byte, end_byte}
-- (nil: the whole buffer).
function M.start(buf, tool, selection, prompt, provider)
  local s, err = M.get(buf, true)
  if not s then return nil, err end
  local t = E.TOOL[tool]
  if not t then return nil, "Emend: unknown tool " .. tostring(tool) end
  if t ~= E.TOOL.followup and s.state ~= E.STATE.INACTIVE then
    return nil, "Emend: a session is open here: :Emend done, :Emend revert (or :Emend followup)"
  end
  if s.in_dispatch then return nil, "Emend: busy (inside a callback)" end
  if t ~= E.TOOL.followup then
    s.selection = selection
    s.tool_name = tool
    s.seq = s.seq + 1
    s.ended = nil
    s.first_text_ms = nil
    s.start = { text = buffer_text(s.buf), modified = vim.bo[s.buf].modified, saved = last_write(s.buf) }
  end
  s.started_ms = now_ms()
  if t ~= E.TOOL.followup then
    -- Presented tools run in limited behavior (results come to present_result); the
    -- preference can change only between sessions, which is now.
    local behavior = M.config.present and M.config.present[tool] and E.BEHAVIOR.LIMITED or E.BEHAVIOR.DEFAULT
    if s.behavior ~= behavior then
      local bst = lib.emend_coordinator_set_preferred_behavior(s.coord, behavior)
      if bst ~= E.OK then return nil, "Emend: " .. err_text(bst) end
      s.behavior = behavior
    end
  end
  local req = ffi.new("emend_tool_request")
  req.struct_size = ffi.sizeof("emend_tool_request")
  req.tool = t
  req.scope = selection and E.SCOPE.USER_SELECTION or E.SCOPE.FULL_DOCUMENT
  if prompt then req.prompt = prompt end -- Lua strings are NUL-terminated; the runtime copies
  if provider == nil then
    local p = M.config.provider
    if type(p) == "table" then provider = p[tool] or p.default else provider = p end
  end
  if provider then req.provider_id = provider end
  local st = lib.emend_coordinator_start(s.coord, req)
  if st ~= E.OK then return nil, "Emend: " .. err_text(st) end
  if t == E.TOOL.followup and s.reviewing then
    -- A follow-up refines the text as it stands; the review of the earlier result ends.
    s.reviewing = false
    M.refresh_marks(s)
  end
  s.partial_told = false -- a new run: its completeness is told once it is known
  return s
end

function M.stop(s) return call(s, lib.emend_coordinator_stop) end
-- "Add to dictionary": emend_coordinator_add_word (allowed during a session; not inside a
-- callback here, as every call of the plugin).
function M.add_word(s, word) return call(s, lib.emend_coordinator_add_word, word) end
function M.done(s) return call(s, lib.emend_session_accept) end
function M.revert(s)
  -- Set before the call (its replaces may come while it runs), taken back when the runtime
  -- refuses it: a later take-back of the runtime's own must still join the result's undo step.
  local before = s and s.revert_seq
  if s then s.revert_seq = s.seq end
  local ok, err = call(s, lib.emend_session_revert)
  if not ok and s then s.revert_seq = before end
  return ok, err
end

function M.toggle_original(s)
  if not s then return nil, "Emend: no session in this buffer" end
  local show = not s.showing_original
  local ok, err = call(s, lib.emend_session_show_original, show and 1 or 0)
  if ok then s.showing_original = show end
  return ok, err
end

-- Review the rewrite resting in the buffer change by change (emend_session_review_changes):
-- each change gets a mark, and accept / reject / next / prev work on them as on proofreading
-- suggestions; a reject puts back that change's original, one undo step per decision.
function M.review(s)
  if not s or not s.coord then return nil, "Emend: no session in this buffer" end
  if s.in_dispatch then return nil, "Emend: busy (inside a callback)" end
  local count = ffi.new("size_t[1]")
  local st = lib.emend_session_review_changes(s.coord, count)
  if st ~= E.OK then return nil, "Emend: " .. err_text(st) end
  s.reviewing = true
  M.refresh_marks(s)
  return tonumber(count[0])
end

function M.undo(s) return call(s, lib.emend_session_undo) end
function M.redo(s) return call(s, lib.emend_session_redo) end

-- The pending suggestion at byte `offset` of the buffer.
function M.suggestion_at(s, offset)
  if not s or not s.coord or not s.ctx_id then return nil end
  local index = ffi.new("size_t[1]")
  if lib.emend_session_suggestion_at_offset(s.coord, s.ctx_id, offset, index) ~= E.OK then return nil end
  for _, sug in ipairs(M.suggestions(s)) do
    if sug.index == tonumber(index[0]) then return sug end
  end
end

function M.accept_suggestion(s, sug)
  local ok, err = call(s, lib.emend_session_accept_suggestion, sug.index)
  if ok then M.refresh_marks(s) end
  return ok, err
end

function M.reject_suggestion(s, sug)
  local ok, err = call(s, lib.emend_session_reject_suggestion, sug.index)
  if ok then M.refresh_marks(s) end -- the replace comes in the next dispatch
  return ok, err
end

function M.answer_presented(s, presented, action)
  if presented.answered then return end
  presented.answered = true
  if s.presented == presented then s.presented = nil end
  if not s.coord then return end
  local st = lib.emend_answer_presented(s.coord, presented.request, action)
  if st ~= E.OK and st ~= E.E.STALE then
    vim.notify("Emend: " .. err_text(st), vim.log.levels.ERROR)
  end
  -- A tool still running once the result is answered spins again (state_changed's rule).
  if (s.state == E.STATE.STREAMING or s.state == E.STATE.NONINTERACTIVE) and not s.presented then
    require("emend.ui").progress_start(s)
  end
end

function M.providers(s)
  local list = {}
  local count = ffi.new("size_t[1]")
  if lib.emend_coordinator_provider_count(s.coord, count) ~= E.OK then return list end
  local info = ffi.new("emend_provider_info")
  for i = 0, tonumber(count[0]) - 1 do
    info.struct_size = ffi.sizeof("emend_provider_info")
    if lib.emend_coordinator_get_provider(s.coord, i, info) == E.OK then
      local function str(p) return p ~= nil and ffi.string(p) or "" end
      local tools = {}
      for t = 0, 10 do
        if bit.band(info.tools, bit.lshift(1, t)) ~= 0 then table.insert(tools, E.TOOL_NAME[t]) end
      end
      table.insert(list, {
        id = str(info.id), name = str(info.name), version = str(info.version), path = str(info.path),
        tools = tools, languages = str(info.languages), flags = tonumber(info.flags),
        priority = tonumber(info.priority), enabled = info.enabled ~= 0, reason = str(info.reason),
      })
    end
  end
  return list
end

function M.status(buf)
  local s = M.get(buf, false)
  if not s or not s.coord then return { state = "inactive", pending = 0 } end
  local pending = 0
  if s.state ~= E.STATE.INACTIVE and s.tool_name == "proofread" then pending = #M.pending(s) end
  return { state = E.STATE_NAME[s.state] or "inactive", pending = pending, tool = s.tool_name }
end

return M
