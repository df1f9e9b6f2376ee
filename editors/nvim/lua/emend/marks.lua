-- emend.marks: proofreading as marks only (`proofread = "marks"`, the default), the way
-- harper-ls, ltex and `emend lsp` show it: the buffer keeps its text, every suggestion is an
-- undercurl and a diagnostic, and a suggestion changes the text only when the user accepts
-- it (`:Emend accept`, one undo step each). Apple's inline review (every suggestion applied
-- at once, rejected one by one) stays available as `proofread = "inline"`.
--
-- How: the runtime proofreads inline, so the check runs on a hidden scratch copy of the
-- buffer (one per buffer, kept with its coordinator so providers stay warm). When that
-- session rests, its suggestions are placed back in the text as it was (each one's range
-- less what the ones before it changed), the copy's session is closed, and the marks are
-- extmarks in the real buffer: they move with every edit, and a mark whose text was edited
-- goes away.
local api = vim.api
local M = {}

M.ns = api.nvim_create_namespace("emend_marks")
-- The suggestions accepted since the check: an extmark over each replacement, so that
-- `:Emend revert` can put their originals back wherever the text has moved them.
M.accepted_ns = api.nvim_create_namespace("emend_marks_accepted")

-- buf -> { scratch = bufnr, checking = session, items = { [extmark id] = suggestion },
--          accepted = { [extmark id in accepted_ns] = suggestion },
--          text = snapshot, tick = changedtick at the start, attached = bool,
--          edits = the user's edits since the snapshot, while a check runs:
--                  { { byte offset, old length, new length }, ... } in the order made }
local by_buf = {}
M.by_buf = by_buf

local function session() return require("emend.session") end

local function state_of(buf)
  local st = by_buf[buf]
  if not st then
    st = { items = {}, accepted = {} }
    by_buf[buf] = st
  end
  return st
end

-- The buffer's text as the runtime counts it (each line followed by "\n").
local function text_of(buf)
  return table.concat(api.nvim_buf_get_lines(buf, 0, -1, false), "\n") .. "\n"
end

-- The text between two (row, col) positions of the buffer.
local function text_between(buf, sr, sc, er, ec)
  local ok, lines = pcall(api.nvim_buf_get_text, buf, sr, sc, er, ec, {})
  return ok and table.concat(lines, "\n") or nil
end

-- The marks of `buf`, in text order: { id, row, col, end_row, end_col, suggestion }.
function M.list(buf)
  local st = by_buf[buf]
  if not st or not api.nvim_buf_is_valid(buf) then return {} end
  local out = {}
  for _, m in ipairs(api.nvim_buf_get_extmarks(buf, M.ns, 0, -1, { details = true })) do
    local item = st.items[m[1]]
    if item then
      table.insert(out, { id = m[1], row = m[2], col = m[3], end_row = m[4].end_row, end_col = m[4].end_col, suggestion = item })
    end
  end
  return out
end

function M.count(buf)
  return #M.list(buf)
end

-- Whether `buf` has a marks-only check running, marks to review, or accepted suggestions
-- that `:Emend revert` would take back.
function M.active(buf)
  local st = by_buf[buf]
  return st ~= nil and (st.checking ~= nil or next(st.items) ~= nil or next(st.accepted) ~= nil)
end

-- Whether `buf` has a check running or marks left to review (its status).
function M.reviewing(buf)
  local st = by_buf[buf]
  return st ~= nil and (st.checking ~= nil or next(st.items) ~= nil)
end

-- Forgets the accepted suggestions of `buf` (they stay in the text as the user's edits):
-- another tool starts on the buffer, and its revert is that tool's.
function M.settle(buf)
  local st = by_buf[buf]
  if not st then return end
  st.accepted = {}
  if api.nvim_buf_is_valid(buf) then pcall(api.nvim_buf_clear_namespace, buf, M.accepted_ns, 0, -1) end
end

function M.checking(buf)
  local st = by_buf[buf]
  return st ~= nil and st.checking ~= nil
end

local function severity_of(category)
  if category == "spelling" then return vim.diagnostic.severity.WARN end
  return vim.diagnostic.severity.INFO
end

-- Drops marks whose text is no longer the suggestion's original and publishes the rest as
-- diagnostics at their current places.
function M.refresh(buf)
  local st = by_buf[buf]
  if not st or not api.nvim_buf_is_valid(buf) then return end
  local diags = {}
  for _, m in ipairs(M.list(buf)) do
    local sug = m.suggestion
    if text_between(buf, m.row, m.col, m.end_row, m.end_col) ~= sug.original then
      api.nvim_buf_del_extmark(buf, M.ns, m.id)
      st.items[m.id] = nil
    else
      table.insert(diags, {
        lnum = m.row, col = m.col, end_lnum = m.end_row, end_col = m.end_col,
        severity = severity_of(sug.category),
        message = sug.explanation ~= "" and sug.explanation or ("%s → %s"):format(sug.original, sug.replacement),
        source = "emend", code = sug.rule_id ~= "" and sug.rule_id or sug.category,
        user_data = { original = sug.original, replacement = sug.replacement },
      })
    end
  end
  if session().config.diagnostics then vim.diagnostic.set(M.ns, buf, diags) end
end

local function attach(buf, st)
  if st.attached then return end
  st.attached = true
  api.nvim_buf_attach(buf, false, {
    on_lines = function()
      if by_buf[buf] ~= st then return true end -- detach
      if not st.refresh_scheduled then
        st.refresh_scheduled = true
        vim.schedule(function()
          st.refresh_scheduled = false
          M.refresh(buf)
        end)
      end
    end,
    -- The check runs on a copy: what the user types meanwhile is recorded, so that its
    -- suggestions can be placed where their words went (see through_edits).
    on_bytes = function(_, _, _, _, _, offset, _, _, old_len, _, _, new_len)
      if by_buf[buf] ~= st then return true end
      if st.edits then table.insert(st.edits, { offset, old_len, new_len }) end
    end,
    on_detach = function() st.attached = false end,
  })
end

-- The range [start, finish) of the snapshot's text in the buffer after `edits`, or nil
-- when one of them touched it. Text inserted at the range's start or end is outside it,
-- as a mark's gravity has it.
local function through_edits(edits, start, finish)
  for _, e in ipairs(edits) do
    local at, old, new = e[1], e[2], e[3]
    if at + old <= start then
      start, finish = start + new - old, finish + new - old
    elseif at >= finish then
      -- after the range: it does not move
    else
      return nil
    end
  end
  return start, finish
end

-- Clears the marks and diagnostics of `buf`, and forgets what was accepted (the text is
-- untouched: accepted suggestions stay, as the user's own edits).
function M.clear(buf)
  local st = by_buf[buf]
  if not st then return end
  st.items = {}
  st.accepted = {}
  if api.nvim_buf_is_valid(buf) then
    pcall(api.nvim_buf_clear_namespace, buf, M.ns, 0, -1)
    pcall(api.nvim_buf_clear_namespace, buf, M.accepted_ns, 0, -1)
    pcall(vim.diagnostic.reset, M.ns, buf)
  end
end

-- Forgets `buf`: its scratch copy and that copy's coordinator go (BufUnload).
function M.forget(buf)
  local st = by_buf[buf]
  if not st then return end
  M.clear(buf)
  by_buf[buf] = nil
  if st.scratch then
    local s = session().sessions[st.scratch]
    if s then session().destroy(s) end
    if api.nvim_buf_is_valid(st.scratch) then pcall(api.nvim_buf_delete, st.scratch, { force = true }) end
  end
end

-- Suggestions of a resting inline session placed in the text as it was before the session
-- applied them: each one's current range, less what the pending ones before it changed.
local function placed(suggestions)
  table.sort(suggestions, function(a, b) return a.start < b.start end)
  local delta, out = 0, {}
  for _, sug in ipairs(suggestions) do
    local start = sug.start - delta
    delta = delta + (#sug.replacement - #sug.original)
    table.insert(out, vim.tbl_extend("force", sug, { start = start, finish = start + #sug.original }))
  end
  return out
end

-- Puts the marks for `suggestions` (offsets of the snapshot `st.text`) on `buf`, moved
-- through what the user typed while the check ran. Returns how many were left out because
-- the user edited their words meanwhile.
local function show(buf, st, suggestions)
  M.clear(buf)
  local text = text_of(buf)
  local pos = session().position_index(buf)
  local edits, dropped = st.edits or {}, 0
  for _, sug in ipairs(placed(suggestions)) do
    -- A suggestion whose words the user edited meanwhile is left out rather than marked
    -- on other words; one before or after an edit moves with its words.
    local start, finish = through_edits(edits, sug.start, sug.finish)
    if st.text:sub(sug.start + 1, sug.finish) ~= sug.original or not start
      or text:sub(start + 1, finish) ~= sug.original then
      dropped = dropped + 1
    else
      local sr, sc = pos(start)
      local er, ec = pos(finish)
      local id = api.nvim_buf_set_extmark(buf, M.ns, sr, sc, {
        end_row = er, end_col = ec, hl_group = "EmendSuggestion", priority = 120,
        right_gravity = false, end_right_gravity = true,
      })
      st.items[id] = sug
    end
  end
  attach(buf, st)
  M.refresh(buf)
  return dropped
end

-- Says that `dropped` suggestions are not shown (a clean-looking paragraph is not a
-- checked one).
local function tell_dropped(dropped)
  if dropped > 0 then
    vim.notify(("Emend: %d suggestion%s on text you edited during the check %s not shown; :Emend proofread checks again")
      :format(dropped, dropped == 1 and "" or "s", dropped == 1 and "is" or "are"), vim.log.levels.WARN)
  end
end

-- Starts a marks-only check of `buf` (`selection`: {start, end} bytes, nil: all of it).
-- Returns the scratch copy's session, or nil and why.
function M.check(buf, selection, provider)
  local S = session()
  local st = state_of(buf)
  if st.checking then return nil, "Emend: a check of this buffer is running" end
  if not st.scratch or not api.nvim_buf_is_valid(st.scratch) then
    st.scratch = api.nvim_create_buf(false, true)
    vim.bo[st.scratch].bufhidden = "hide"
  end
  local lines = api.nvim_buf_get_lines(buf, 0, -1, false)
  api.nvim_buf_set_lines(st.scratch, 0, -1, false, lines)
  -- The copy is Markdown when the buffer is (code and links protected), without running
  -- FileType autocommands (language servers and plugins would attach to it).
  local ft = vim.bo[buf].filetype
  api.nvim_buf_call(st.scratch, function() vim.cmd("noautocmd setlocal filetype=" .. (ft ~= "" and ft or "text")) end)
  st.text = text_of(buf)
  st.tick = api.nvim_buf_get_changedtick(buf)
  local s, err = S.start(st.scratch, "proofread", selection, nil, provider)
  if not s then return nil, err end
  s.marks_for = buf
  st.checking = s
  st.edits = {}
  attach(buf, st)
  return s
end

-- Called by the session when the scratch copy's state changes.
function M.state_changed(s)
  local E = require("emend.ffi")
  local buf = s.marks_for
  local st = by_buf[buf]
  if not st or st.checking ~= s then return end
  if s.state == E.STATE.RESTING then
    local pending = session().pending(s)
    st.checking = nil
    if api.nvim_buf_is_valid(buf) then tell_dropped(show(buf, st, pending)) end
    st.edits = nil
    -- Close the copy's session; its text is thrown away at the next check.
    session().done(s)
  elseif s.state == E.STATE.INACTIVE then
    -- Ended without resting: nothing found, stopped or failed (the session said why).
    st.checking = nil
    if s.ended and s.ended.status == E.OK and api.nvim_buf_is_valid(buf) then show(buf, st, {}) end
    st.edits = nil
  end
end

-- Stops a running check of `buf`.
function M.stop(buf)
  local st = by_buf[buf]
  if not st or not st.checking then return nil, "Emend: no check is running here" end
  return session().stop(st.checking)
end

-- The mark under (or just after) byte position (row, col).
function M.at(buf, row, col)
  for _, m in ipairs(M.list(buf)) do
    local after_start = row > m.row or (row == m.row and col >= m.col)
    local before_end = row < m.end_row or (row == m.end_row and col <= m.end_col)
    if after_start and before_end then return m end
  end
end

-- Applies the mark's replacement (one undo step) and removes the mark.
function M.accept(buf, m)
  local st = by_buf[buf]
  local sug = m.suggestion
  if text_between(buf, m.row, m.col, m.end_row, m.end_col) ~= sug.original then
    M.refresh(buf)
    return nil, "Emend: the text under the mark changed"
  end
  api.nvim_buf_call(buf, function() vim.cmd("let &undolevels = &undolevels") end)
  api.nvim_buf_set_text(buf, m.row, m.col, m.end_row, m.end_col, vim.split(sug.replacement, "\n", { plain = true }))
  pcall(api.nvim_buf_del_extmark, buf, M.ns, m.id)
  st.items[m.id] = nil
  -- Remember where the replacement now stands (an empty one is a point that text typed
  -- at it does not widen).
  local er, ec = m.row, m.col
  local lines = vim.split(sug.replacement, "\n", { plain = true })
  if #lines > 1 then er, ec = m.row + #lines - 1, #lines[#lines] else ec = m.col + #sug.replacement end
  local id = api.nvim_buf_set_extmark(buf, M.accepted_ns, m.row, m.col, {
    end_row = er, end_col = ec, right_gravity = false, end_right_gravity = true,
  })
  st.accepted[id] = sug
  M.refresh(buf)
  return true
end

-- `:Emend revert` of a marks-only check: the accepted suggestions' originals back (one undo
-- step), then no marks. An accepted suggestion whose replacement the user edited since is
-- the user's now and stays as it is; the count of those is returned with a message.
function M.revert(buf)
  local st = by_buf[buf]
  if not st then return true end
  local kept = 0
  if api.nvim_buf_is_valid(buf) and next(st.accepted) ~= nil then
    local places = api.nvim_buf_get_extmarks(buf, M.accepted_ns, 0, -1, { details = true })
    local first = true
    -- From the end back, so a put-back original does not move the ones before it.
    for i = #places, 1, -1 do
      local id, row, col, details = places[i][1], places[i][2], places[i][3], places[i][4]
      local sug = st.accepted[id]
      if sug then
        if text_between(buf, row, col, details.end_row, details.end_col) == sug.replacement then
          if first then
            api.nvim_buf_call(buf, function() vim.cmd("let &undolevels = &undolevels") end)
            first = false
          end
          api.nvim_buf_set_text(buf, row, col, details.end_row, details.end_col,
            vim.split(sug.original, "\n", { plain = true }))
        else
          kept = kept + 1
        end
      end
    end
  end
  M.clear(buf)
  if kept > 0 then
    return true, ("Emend: %d accepted suggestion%s you edited since stay%s as you left %s"):format(
      kept, kept == 1 and "" or "s", kept == 1 and "s" or "", kept == 1 and "it" or "them")
  end
  return true
end

function M.reject(buf, m)
  local st = by_buf[buf]
  pcall(api.nvim_buf_del_extmark, buf, M.ns, m.id)
  st.items[m.id] = nil
  M.refresh(buf)
  return true
end

-- The session of `buf`'s scratch copy (its coordinator: "add to dictionary" goes through
-- it), made when the copy has none any more; nil and why when there is no copy.
function M.coordinator_session(buf)
  local st = by_buf[buf]
  if not st or not st.scratch or not api.nvim_buf_is_valid(st.scratch) then
    return nil, "Emend: no proofreading of this buffer"
  end
  return session().get(st.scratch, true)
end

-- Removes every mark on the word `original` (after it went into the dictionary).
function M.reject_word(buf, original)
  for _, m in ipairs(M.list(buf)) do
    if m.suggestion.original == original then M.reject(buf, m) end
  end
end

return M
