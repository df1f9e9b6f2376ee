-- A poor result (the fact guard refused the rewrite; the float says why): while the person
-- decides, no spinner says a tool is still running; once dismissed, the buffer is the
-- original byte for byte and 'modified' is what it was before the session.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":p:h") .. "/helper.lua")
local api = vim.api
local emend = H.setup()
local ui = require("emend.ui")

local LINES = { "We meet [fixture:fabricate] for lunch with the team.", "Second paragraph stays." }

local function float_of(s)
  H.wait(function() return s.present_float ~= nil end, 5000, "the float")
  return s.present_float
end

-- Rewrites `buf` into a poor result, checks the float and the spinner, dismisses it with `q`.
local function rewrite_and_dismiss(buf)
  api.nvim_win_set_cursor(0, { 1, 0 })
  local progress = {}
  local id = api.nvim_create_autocmd("User", { pattern = "EmendProgress", callback = function(ev)
    table.insert(progress, ev.data and ev.data.text or "")
  end })
  local s = emend.rewrite("friendly")
  H.check(s)
  local p = float_of(s)
  local shown = table.concat(api.nvim_buf_get_lines(p.buf, 0, -1, false), "\n")
  H.check(shown:find("changes facts of the text", 1, true), "the poor result's float: " .. shown)
  H.eq(ui.progress_text(), "", "no spinner while the float waits for the person")
  -- Nor a tick of it later (the spinner ticks every 100 ms).
  local ticks = #progress
  vim.wait(350, function() return false end)
  H.eq(ui.progress_text(), "", "still no spinner")
  H.check(#progress == ticks or progress[#progress] == "", "no EmendProgress ticks while the float is shown: " .. vim.inspect(progress))
  api.nvim_del_autocmd(id)
  api.nvim_set_current_win(p.win)
  api.nvim_feedkeys("q", "xt", false)
  H.wait_state("inactive")
  H.check(not api.nvim_win_is_valid(p.win), "the float closed")
  H.eq(H.text(buf), table.concat(LINES, "\n"), "dismissed: the original byte for byte")
end

H.test("a poor result dismissed leaves an unmodified buffer unmodified", function()
  local buf = H.buffer(LINES)
  vim.bo[buf].modified = false
  rewrite_and_dismiss(buf)
  H.eq(vim.bo[buf].modified, false, "'modified' after a dismissed poor result on an unmodified buffer")
end)

H.test("a poor result dismissed leaves a modified buffer modified", function()
  local buf = H.buffer(LINES)
  vim.bo[buf].modified = true
  rewrite_and_dismiss(buf)
  H.eq(vim.bo[buf].modified, true, "the buffer's own changes are still unsaved")
end)

H.test("a buffer typed in before the float was dismissed stays modified", function()
  local buf = H.buffer(LINES)
  vim.bo[buf].modified = false
  api.nvim_win_set_cursor(0, { 1, 0 })
  local s = emend.rewrite("friendly")
  local p = float_of(s)
  -- The person edits the second line while the float waits.
  api.nvim_buf_set_lines(buf, 1, 2, false, { "Second paragraph changed." })
  api.nvim_set_current_win(p.win)
  api.nvim_feedkeys("q", "xt", false)
  H.wait_state("inactive")
  H.eq(H.text(buf), LINES[1] .. "\nSecond paragraph changed.")
  H.eq(vim.bo[buf].modified, true, "text that is not the original is modified")
end)

H.test("a rewrite reverted: unmodified again, unless it was written meanwhile", function()
  local file = vim.fn.tempname() .. ".txt"
  local lines = { "I am sure it is fine. We are ready, do not worry." }
  vim.fn.writefile(lines, file)
  vim.cmd("edit " .. vim.fn.fnameescape(file))
  local buf = api.nvim_get_current_buf()
  H.eq(vim.bo[buf].modified, false)
  emend.rewrite("friendly")
  H.wait_state("resting")
  H.check(H.text(buf) ~= lines[1], "rewritten: " .. H.text(buf))
  vim.cmd("Emend revert")
  H.wait_state("inactive")
  H.eq(H.text(buf), lines[1], "reverted: the original")
  H.eq(vim.bo[buf].modified, false, "the file's text again: unmodified")

  emend.rewrite("friendly")
  H.wait_state("resting")
  vim.cmd("silent write")
  vim.cmd("Emend revert")
  H.wait_state("inactive")
  H.eq(H.text(buf), lines[1])
  H.eq(vim.bo[buf].modified, true, "the file holds the rewrite now: the original in the buffer is unsaved")
  vim.fn.delete(file)
end)

H.finish()
