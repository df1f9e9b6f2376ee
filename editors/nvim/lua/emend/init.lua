-- emend: Writing Tools for Neovim through libemend (LuaJIT FFI, no compiled helper).
--
--   require("emend").setup({ library = nil, provider = nil, language = nil })
--   :[range]Emend proofread | rewrite friendly|professional|concise | describe {text}
--                 | summary | keypoints | list | table | compose {prompt} | followup {text}
--                 | review | accept | reject | addword | next | prev | done | revert | original | providers
--
-- See :help emend.
local api = vim.api
local M = {}

local E, session, ui
local marks = require("emend.marks")
local setup_done, setup_error = false, nil

local function notify(msg, level) vim.notify(msg, level or vim.log.levels.INFO) end

local function define_highlights()
  api.nvim_set_hl(0, "EmendSuggestion", { link = "DiagnosticUnderlineWarn", default = true })
  api.nvim_set_hl(0, "EmendWorking", { link = "Visual", default = true })
end
M.define_highlights = define_highlights

function M.setup(opts)
  opts = opts or {}
  E = require("emend.ffi")
  session = require("emend.session")
  ui = require("emend.ui")
  if opts.library then M.library_option = opts.library end
  for k, v in pairs(opts) do
    if k ~= "library" and k ~= "silent" then session.config[k] = v end
  end
  if setup_done then return true end -- the library is loaded once per process
  define_highlights()
  local lib, err, path = E.load(opts.library)
  if not lib then
    setup_error = err
    if not opts.silent then notify("Emend: " .. err, vim.log.levels.ERROR) end
    return false, err
  end
  session.init(lib)
  pcall(vim.diagnostic.config, session.config.diagnostic_config or { underline = false, virtual_text = false }, session.ns)
  M.library_path = path
  setup_done = true
  setup_error = nil
  local group = api.nvim_create_augroup("emend", { clear = true })
  api.nvim_create_autocmd("VimLeavePre", { group = group, callback = function() session.destroy_all() end })
  api.nvim_create_autocmd({ "BufUnload", "BufReadPre" }, {
    group = group,
    callback = function(ev)
      local s = session.sessions[ev.buf]
      if s then session.destroy(s) end
      if ev.event == "BufUnload" then marks.forget(ev.buf) else marks.clear(ev.buf) end
    end,
  })
  api.nvim_create_autocmd("ColorScheme", { group = group, callback = define_highlights })
  return true
end

local function ready()
  if setup_done then return true end
  if setup_error then notify("Emend: " .. setup_error, vim.log.levels.ERROR) return false end
  return M.setup({})
end

local function report(ok, err)
  if not ok and err then notify(err, vim.log.levels.ERROR) end
  return ok, err
end

-- ---------------------------------------------------------------------------------------
-- Selections
-- ---------------------------------------------------------------------------------------

-- The paragraph (non-blank lines) around `row` (0-based): {first_row, last_row}.
local function paragraph_rows(buf, row)
  local n = api.nvim_buf_line_count(buf)
  local lines = api.nvim_buf_get_lines(buf, 0, -1, false)
  local function blank(r) return lines[r + 1]:match("^%s*$") ~= nil end
  if blank(row) then return nil end
  local a, b = row, row
  while a > 0 and not blank(a - 1) do a = a - 1 end
  while b < n - 1 and not blank(b + 1) do b = b + 1 end
  return a, b
end

local function rows_selection(buf, a, b)
  local line = api.nvim_buf_get_lines(buf, b, b + 1, false)[1] or ""
  return { session.offset_of(buf, a, 0), session.offset_of(buf, b, #line) }
end

-- Length in bytes of the UTF-8 character starting at byte `col` (0-based) of `line`.
local function char_len(line, col)
  local c = line:byte(col + 1)
  if not c then return 0 end
  if c >= 0xF0 then return 4 elseif c >= 0xE0 then return 3 elseif c >= 0xC0 then return 2 end
  return 1
end

-- opts: { bufnr, line1, line2, range (number of range items), selection = {s, e} bytes,
--         visual = true (use the '< '> marks charwise when they match line1/line2) }
local function selection_for(buf, tool, opts)
  if opts.selection then return opts.selection end
  if opts.line1 and opts.range and opts.range > 0 then
    local l1, l2 = opts.line1 - 1, opts.line2 - 1
    local ms = api.nvim_buf_get_mark(buf, "<")
    local me = api.nvim_buf_get_mark(buf, ">")
    if vim.fn.visualmode() == "v" and ms[1] - 1 == l1 and me[1] - 1 == l2 and opts.visual ~= false then
      local line = api.nvim_buf_get_lines(buf, me[1] - 1, me[1], false)[1] or ""
      local ecol = math.min(me[2], math.max(#line - 1, 0))
      return { session.offset_of(buf, l1, ms[2]), session.offset_of(buf, l2, math.min(#line, ecol + char_len(line, ecol))) }
    end
    return rows_selection(buf, l1, l2)
  end
  -- No selection: the whole buffer for proofread and summaries, the paragraph under the
  -- cursor for the others, the cursor for compose.
  if tool == "proofread" or tool == "summary" or tool == "keypoints" then return nil end
  local win = api.nvim_get_current_win()
  local cursor = api.nvim_win_get_cursor(win)
  if api.nvim_win_get_buf(win) ~= buf then cursor = { 1, 0 } end
  if tool == "compose" then
    local o = session.offset_of(buf, cursor[1] - 1, cursor[2])
    return { o, o }
  end
  local a, b = paragraph_rows(buf, cursor[1] - 1)
  if not a then return nil end
  return rows_selection(buf, a, b)
end

local function bufnr(opts)
  local b = opts and opts.bufnr
  if not b or b == 0 then b = api.nvim_get_current_buf() end
  return b
end

local function run(tool, opts, prompt)
  opts = opts or {}
  if not ready() then return nil end
  local buf = bufnr(opts)
  if (tool == "describe" or tool == "compose" or tool == "followup") and (not prompt or prompt == "") then
    return report(nil, "Emend: " .. tool .. " needs a text")
  end
  local sel = tool ~= "followup" and selection_for(buf, tool, opts) or nil
  local s, err = session.start(buf, tool, sel, prompt, opts.provider)
  if not s then return report(nil, err) end
  marks.settle(buf)
  return s
end

-- ---------------------------------------------------------------------------------------
-- The tools
-- ---------------------------------------------------------------------------------------

function M.proofread(opts)
  opts = opts or {}
  if not ready() then return nil end
  if session.config.proofread == "inline" then return run("proofread", opts) end
  local buf = bufnr(opts)
  local open = session.get(buf, false)
  if open and open.coord and open.state ~= E.STATE.INACTIVE then
    return report(nil, "Emend: a session is open here: :Emend done, :Emend revert (or :Emend followup)")
  end
  local s, err = marks.check(buf, selection_for(buf, "proofread", opts), opts.provider)
  if not s then return report(nil, err) end
  return s
end

function M.rewrite(tone, opts)
  tone = tone or "friendly"
  if tone ~= "friendly" and tone ~= "professional" and tone ~= "concise" then
    return report(nil, "Emend: rewrite friendly|professional|concise")
  end
  return run(tone, opts)
end

function M.describe(text, opts) return run("describe", opts, text) end
function M.summary(opts) return run("summary", opts) end
function M.keypoints(opts) return run("keypoints", opts) end
function M.list(opts) return run("list", opts) end
function M.table(opts) return run("table", opts) end
function M.compose(prompt, opts) return run("compose", opts, prompt) end
function M.followup(text, opts) return run("followup", opts, text) end

-- ---------------------------------------------------------------------------------------
-- Review
-- ---------------------------------------------------------------------------------------

local function current(opts)
  if not ready() then return nil end
  local s = session.get(bufnr(opts), false)
  if not s or not s.coord or s.state == E.STATE.INACTIVE then
    return report(nil, "Emend: no session in this buffer")
  end
  return s
end

local function cursor_offset(buf)
  local win = api.nvim_get_current_win()
  if api.nvim_win_get_buf(win) ~= buf then return nil end
  local c = api.nvim_win_get_cursor(win)
  return session.offset_of(buf, c[1] - 1, c[2])
end

local function suggestion_under_cursor(s)
  local off = cursor_offset(s.buf)
  if not off then return nil end
  local sug = session.suggestion_at(s, off)
  if sug then return sug end
  -- On the character just after a mark (the end of a word in normal mode): that one.
  for _, p in ipairs(session.pending(s)) do
    if off >= p.start and off <= p.finish then return p end
  end
end

-- The buffer when its proofreading is marks only (`proofread = "marks"`) and no inline
-- session is open there: review commands work on its marks.
local function marks_buffer(opts)
  if not setup_done then return nil end
  local buf = bufnr(opts)
  local s = session.get(buf, false)
  if s and s.coord and s.state ~= E.STATE.INACTIVE then return nil end
  if marks.active(buf) then return buf end
end

local function mark_under_cursor(buf)
  local win = api.nvim_get_current_win()
  if api.nvim_win_get_buf(win) ~= buf then return nil end
  local c = api.nvim_win_get_cursor(win)
  return marks.at(buf, c[1] - 1, c[2])
end

-- Accept the suggestion under the cursor (proofreading); in a rewrite, Done.
function M.accept(opts)
  local mb = marks_buffer(opts)
  if mb then
    local m = mark_under_cursor(mb)
    if not m then return report(nil, "Emend: no suggestion under the cursor") end
    local ok, err = marks.accept(mb, m)
    if ok then ui.explain(m.suggestion, "accepted") end
    return report(ok, err)
  end
  local s = current(opts)
  if not s then return nil end
  if s.tool_name ~= "proofread" and not s.reviewing then return M.done(opts) end
  local sug = suggestion_under_cursor(s)
  if not sug then return report(nil, "Emend: no suggestion under the cursor") end
  local ok, err = session.accept_suggestion(s, sug)
  if ok then ui.explain(sug, "accepted") end
  return report(ok, err)
end

function M.reject(opts)
  local mb = marks_buffer(opts)
  if mb then
    local m = mark_under_cursor(mb)
    if not m then return report(nil, "Emend: no suggestion under the cursor") end
    return report(marks.reject(mb, m))
  end
  local s = current(opts)
  if not s then return nil end
  if s.tool_name ~= "proofread" and not s.reviewing then return M.revert(opts) end
  local sug = suggestion_under_cursor(s)
  if not sug then return report(nil, "Emend: no suggestion under the cursor") end
  return report(session.reject_suggestion(s, sug))
end

local function jump(opts, forward)
  local mb = marks_buffer(opts)
  if mb then
    local list = marks.list(mb)
    if #list == 0 then return report(nil, "Emend: no pending suggestion") end
    local c = api.nvim_win_get_cursor(0)
    local row, col = c[1] - 1, c[2]
    local target
    if forward then
      for _, m in ipairs(list) do if m.row > row or (m.row == row and m.col > col) then target = m break end end
      target = target or list[1]
    else
      for i = #list, 1, -1 do
        local m = list[i]
        if m.row < row or (m.row == row and m.col < col) then target = m break end
      end
      target = target or list[#list]
    end
    api.nvim_win_set_cursor(0, { target.row + 1, target.col })
    vim.schedule(function() ui.explain(target.suggestion) end)
    return target.suggestion
  end
  local s = current(opts)
  if not s then return nil end
  local list = session.pending(s)
  if #list == 0 then return report(nil, "Emend: no pending suggestion") end
  local off = cursor_offset(s.buf) or 0
  local target
  if forward then
    for _, p in ipairs(list) do if p.start > off then target = p break end end
    target = target or list[1]
  else
    for i = #list, 1, -1 do if list[i].start < off then target = list[i] break end end
    target = target or list[#list]
  end
  local pos = session.position_index(s.buf)
  local row, col = pos(target.start)
  api.nvim_win_set_cursor(0, { row + 1, col })
  -- After the jump's own CursorMoved (which closes an explanation float), as
  -- vim.diagnostic.jump opens its float.
  vim.schedule(function() ui.explain(target) end)
  return target
end

-- Adds the word of the suggestion under the cursor to the user's dictionary, then checks
-- again: every pending suggestion on that word in this session is rejected (its original
-- text comes back), as a new check would no longer make it, and later checks leave it alone.
function M.addword(opts)
  local mb = marks_buffer(opts)
  if mb then
    local m = mark_under_cursor(mb)
    if not m then return report(nil, "Emend: no suggestion under the cursor") end
    local cs, why = marks.coordinator_session(mb)
    if not cs then return report(nil, why) end
    local ok, err = require("emend.dictionary").add(cs, m.suggestion.original)
    if not ok then return report(nil, err) end
    marks.reject_word(mb, m.suggestion.original)
    notify("Emend: added \"" .. m.suggestion.original .. "\" to " .. require("emend.dictionary").path())
    return true
  end
  local s = current(opts)
  if not s then return nil end
  if s.tool_name ~= "proofread" then return report(nil, "Emend: addword works on proofreading suggestions") end
  local sug = suggestion_under_cursor(s)
  if not sug then return report(nil, "Emend: no suggestion under the cursor") end
  local ok, err = require("emend.dictionary").add(s, sug.original)
  if not ok then return report(nil, err) end
  for _, p in ipairs(session.pending(s)) do
    if p.original == sug.original then
      local rejected, why = session.reject_suggestion(s, p)
      if not rejected then return report(nil, why) end
    end
  end
  notify("Emend: added \"" .. sug.original .. "\" to " .. require("emend.dictionary").path())
  return true
end

function M.next(opts) return jump(opts, true) end

-- After a rewrite: its changes become marks to accept (keep) or reject (undo that change).
function M.review(opts)
  local s = current(opts)
  if not s then return nil end
  local count, err = session.review(s)
  if not count then return report(nil, err) end
  if not (opts and opts.silent) then
    notify(("Emend: %d change%s to review: accept keeps, reject undoes it, done keeps the rest"):format(count, count == 1 and "" or "s"))
  end
  return count
end
function M.prev(opts) return jump(opts, false) end

function M.done(opts)
  local mb = marks_buffer(opts)
  if mb and not marks.checking(mb) then
    marks.clear(mb)
    return true
  end
  local s = current(opts)
  if not s then return nil end
  return report(session.done(s))
end

function M.revert(opts)
  local mb = marks_buffer(opts)
  if mb and not marks.checking(mb) then
    -- Marks only: the text changed only where the user accepted a suggestion.
    local ok, note = marks.revert(mb)
    if note then vim.notify(note, vim.log.levels.INFO) end
    return ok
  end
  local s = current(opts)
  if not s then return nil end
  return report(session.revert(s))
end

-- Stop a running tool: what it delivered is put back.
function M.stop(opts)
  local mb = marks_buffer(opts)
  if mb and marks.checking(mb) then return report(marks.stop(mb)) end
  local s = current(opts)
  if not s then return nil end
  return report(session.stop(s))
end

function M.original(opts)
  local s = current(opts)
  if not s then return nil end
  return report(session.toggle_original(s))
end

function M.providers(opts)
  if not ready() then return nil end
  local s, err = session.get(bufnr(opts), true)
  if not s then return report(nil, err) end
  local list = session.providers(s)
  if not (opts and opts.silent) then ui.providers(list) end
  return list
end

-- What runs, for a statusline: "⠋ Emend rewrite… 3 s", or "" when no tool runs.
function M.progress()
  if not setup_done then return "" end
  return ui.progress_text()
end

-- {state = "inactive"|"noninteractive"|"streaming"|"resting", pending = N}
-- With marks-only proofreading: state "checking" while the check runs, then "marks" with
-- the number of marks as `pending` until they are all accepted, rejected or cleared.
function M.status(buf)
  if not setup_done then return { state = "inactive", pending = 0 } end
  local b = (buf == nil or buf == 0) and api.nvim_get_current_buf() or buf
  local st = session.status(b)
  if st.state == "inactive" and marks.reviewing(b) then
    return { state = marks.checking(b) and "checking" or "marks", pending = marks.count(b), tool = "proofread" }
  end
  return st
end

-- ---------------------------------------------------------------------------------------
-- The command
-- ---------------------------------------------------------------------------------------

M.subcommands = {
  "proofread", "rewrite", "describe", "summary", "keypoints", "list", "table", "compose",
  "followup", "review", "accept", "reject", "addword", "next", "prev", "done", "revert", "original", "stop", "providers",
}

function M.complete(arglead, cmdline, _)
  local words = vim.split((cmdline:gsub("^.-Emend!?%s*", "")), "%s+")
  if #words <= 1 then
    return vim.tbl_filter(function(c) return c:sub(1, #arglead) == arglead end, M.subcommands)
  end
  if words[1] == "rewrite" and #words == 2 then
    return vim.tbl_filter(function(c) return c:sub(1, #arglead) == arglead end, { "friendly", "professional", "concise" })
  end
  return {}
end

function M.command(cmd)
  local sub, rest = (cmd.args or ""):match("^(%S+)%s*(.*)$")
  if not sub then return report(nil, "Emend: " .. table.concat(M.subcommands, " | ")) end
  local opts = { line1 = cmd.line1, line2 = cmd.line2, range = cmd.range }
  if sub == "rewrite" then return M.rewrite(rest ~= "" and rest or "friendly", opts) end
  if sub == "describe" or sub == "compose" or sub == "followup" then return M[sub](rest, opts) end
  local fn = M[sub]
  if not fn or not vim.tbl_contains(M.subcommands, sub) then
    return report(nil, "Emend: unknown subcommand " .. sub)
  end
  return fn(opts)
end

return M
