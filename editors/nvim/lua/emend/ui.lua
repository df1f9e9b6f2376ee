-- emend.ui: floating windows (a suggestion's explanation; summary, key points, list and
-- table results with apply / copy / dismiss keys) and the providers listing.
local api = vim.api
local M = {}

local function config()
  return require("emend.session").config
end

-- The explanation of a suggestion, next to the cursor; closes when the cursor moves.
function M.explain(sug, verb)
  local lines = {}
  local head = ("%s → %s"):format(sug.original, sug.replacement)
  if verb then head = verb .. ": " .. head end
  table.insert(lines, head)
  if sug.explanation ~= "" then
    for _, l in ipairs(vim.split(sug.explanation, "\n", { plain = true })) do table.insert(lines, l) end
  end
  if sug.category ~= "" then table.insert(lines, "(" .. sug.category .. (sug.rule_id ~= "" and (", " .. sug.rule_id) or "") .. ")") end
  local ok, _, win = pcall(vim.lsp.util.open_floating_preview, lines, "", {
    border = config().float.border, focus_id = "emend_explain", focusable = false,
    close_events = { "CursorMoved", "CursorMovedI", "InsertEnter", "BufLeave" },
  })
  if ok then M.explain_win = win end
  return lines
end

local function close_win(win)
  if win and api.nvim_win_is_valid(win) then pcall(api.nvim_win_close, win, true) end
end

-- A presented result (summary, key points, list, table, or a poor result with its reason):
-- a float with the text; `a` applies it in place of the range it was made from, `y` copies
-- it (unnamed register, and + when a clipboard is there), `q` / <Esc> dismisses it. Closing
-- the window any other way dismisses it too, so the runtime always gets its answer.
function M.present(s, presented)
  local session = require("emend.session")
  local E = require("emend.ffi")
  local text = presented.text
  local lines = vim.split(text, "\n", { plain = true })
  if #lines > 1 and lines[#lines] == "" then table.remove(lines) end
  -- A poor result says in the float itself why it was not applied (a notification alone
  -- scrolls away behind the float); `a` and `y` still take only the result's text.
  local reason = {}
  if presented.explanation and presented.explanation ~= "" then
    reason = vim.split(presented.explanation, "\n", { plain = true })
    table.insert(reason, "")
    lines = vim.list_extend(vim.deepcopy(reason), lines)
  end
  local buf = api.nvim_create_buf(false, true)
  api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  local reason_ns = api.nvim_create_namespace("emend_present_reason")
  for i = 1, #reason - 1 do
    api.nvim_buf_add_highlight(buf, reason_ns, "WarningMsg", i - 1, 0, -1)
  end
  vim.bo[buf].bufhidden = "wipe"
  vim.bo[buf].modifiable = false
  if presented.tool == "table" or presented.tool == "list" or presented.tool == "keypoints" then
    vim.bo[buf].filetype = "markdown"
  end
  local width = 20
  for _, l in ipairs(lines) do width = math.max(width, vim.fn.strdisplaywidth(l)) end
  width = math.min(width + 2, math.max(20, vim.o.columns - 8))
  local rows = 0 -- screen rows, long lines wrapped
  for _, l in ipairs(lines) do rows = rows + math.max(1, math.ceil(vim.fn.strdisplaywidth(l) / width)) end
  local height = math.min(rows, math.max(3, vim.o.lines - 8))
  local title = (" Emend %s — a apply · y copy · q dismiss "):format(presented.tool)
  local winopts = {
    relative = "cursor", row = 1, col = 0, width = width, height = height, style = "minimal",
    border = config().float.border, title = title, title_pos = "center",
  }
  local ok, win = pcall(api.nvim_open_win, buf, true, winopts)
  if not ok then -- before 0.9: no title
    winopts.title, winopts.title_pos = nil, nil
    win = api.nvim_open_win(buf, true, winopts)
    vim.notify("Emend " .. presented.tool .. ": a apply, y copy, q dismiss")
  end
  vim.wo[win].wrap = true
  if presented.explanation and presented.explanation ~= "" then
    vim.notify("Emend: " .. presented.explanation, vim.log.levels.WARN)
  end
  presented.win, presented.buf = win, buf
  s.present_float = presented

  local function finish(action)
    session.answer_presented(s, presented, action)
    s.present_float = nil
    close_win(win)
  end
  local function map(lhs, fn)
    vim.keymap.set("n", lhs, fn, { buffer = buf, nowait = true, silent = true })
  end
  map("a", function() finish(E.PRESENTED.APPLY) end)
  map("<CR>", function() finish(E.PRESENTED.APPLY) end)
  map("y", function()
    vim.fn.setreg('"', text)
    if vim.fn.has("clipboard") == 1 then pcall(vim.fn.setreg, "+", text) end
    finish(E.PRESENTED.COPY)
  end)
  map("q", function() finish(E.PRESENTED.DISMISS) end)
  map("<Esc>", function() finish(E.PRESENTED.DISMISS) end)
  api.nvim_create_autocmd({ "BufWipeout" }, {
    buffer = buf, once = true,
    callback = function()
      vim.schedule(function()
        if not presented.answered then
          session.answer_presented(s, presented, E.PRESENTED.DISMISS)
          s.present_float = nil
        end
      end)
    end,
  })
  return win, buf
end

function M.close_presented(s)
  local p = s.present_float
  if p then
    p.answered = true -- the session is over: nothing to answer
    s.present_float = nil
    close_win(p.win)
  end
end

-- ---------------------------------------------------------------------------------------
-- Progress: while a tool runs, a spinner in the command line (no message history) and a
-- statusline component (require("emend").progress()), as avante.nvim and codecompanion
-- show one; a `User EmendProgress` event each tick for other indicators.
-- ---------------------------------------------------------------------------------------

local SPINNER = { "⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏" }
local running = {} -- session -> start time (ms)
local timer, frame = nil, 0
local echoed = false

local function now_ms() return (vim.uv or vim.loop).hrtime() / 1e6 end

-- "⠋ Emend rewrite friendly… 3 s" for the longest-running tool, or "" when none runs.
function M.progress_text()
  local oldest, started
  for s, t in pairs(running) do
    if not started or t < started then oldest, started = s, t end
  end
  if not oldest then return "" end
  local seconds = math.floor((now_ms() - started) / 1000)
  return ("%s Emend %s… %d s"):format(SPINNER[frame % #SPINNER + 1], oldest.tool_name or "", seconds)
end

local function tick()
  frame = frame + 1
  local text = M.progress_text()
  local cfg = config().progress
  if cfg ~= false and text ~= "" and api.nvim_get_mode().mode:sub(1, 1) ~= "c" then
    api.nvim_echo({ { text, "Comment" } }, false, {})
    echoed = true
  end
  pcall(api.nvim_exec_autocmds, "User", { pattern = "EmendProgress", modeline = false, data = { text = text } })
end

function M.progress_start(s)
  if running[s] then return end
  running[s] = now_ms()
  if not timer then
    timer = (vim.uv or vim.loop).new_timer()
    timer:start(100, 100, vim.schedule_wrap(function() if timer then tick() end end))
  end
end

function M.progress_stop(s)
  if not running[s] then return end
  running[s] = nil
  if next(running) == nil and timer then
    timer:stop()
    timer:close()
    timer = nil
    if echoed and api.nvim_get_mode().mode:sub(1, 1) ~= "c" then api.nvim_echo({ { "" } }, false, {}) end
    echoed = false
    pcall(api.nvim_exec_autocmds, "User", { pattern = "EmendProgress", modeline = false, data = { text = "" } })
  end
end

function M.providers(list)
  local lines = {}
  for _, p in ipairs(list) do
    local flags = {}
    local E = require("emend.ffi")
    if bit.band(p.flags, E.PROVIDER_FLAG.BUILT_IN) ~= 0 then table.insert(flags, "built-in") end
    if bit.band(p.flags, E.PROVIDER_FLAG.STREAMS) ~= 0 then table.insert(flags, "streams") end
    if bit.band(p.flags, E.PROVIDER_FLAG.USES_NETWORK) ~= 0 then table.insert(flags, "network") end
    table.insert(lines, ("%s %s %s (%s)%s"):format(p.enabled and "✓" or "✗", p.id, p.version,
      table.concat(p.tools, ","), #flags > 0 and (" [" .. table.concat(flags, ", ") .. "]") or ""))
    if not p.enabled and p.reason ~= "" then table.insert(lines, "    " .. p.reason) end
  end
  if #lines == 0 then lines = { "no providers" } end
  local chunks = {}
  for _, l in ipairs(lines) do table.insert(chunks, { l .. "\n" }) end
  api.nvim_echo(chunks, true, {})
  return lines
end

return M
