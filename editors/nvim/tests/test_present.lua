-- Summary, key points, list, table: presented in a float with apply / copy / dismiss keys.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":p:h") .. "/helper.lua")
local api = vim.api
local emend = H.setup()
local S = require("emend.session")

local LINES = {
  "The team met on Monday to plan the release. They agreed to ship the editor plugin first.",
  "Testing takes two more days. The documentation is written by Ana. Marketing starts after the release.",
}

local function float_of(s)
  H.wait(function() return s.present_float ~= nil end, 5000, "the float")
  return s.present_float
end

H.test("summary in a float, applied with `a`", function()
  local buf = H.buffer(LINES)
  local s = emend.summary()
  H.check(s)
  local p = float_of(s)
  H.eq(api.nvim_get_current_win(), p.win, "the float has the focus")
  local shown = table.concat(api.nvim_buf_get_lines(p.buf, 0, -1, false), "\n")
  H.check(#shown > 0 and shown ~= table.concat(LINES, "\n"), "a summary is shown: " .. shown)
  H.check(api.nvim_win_get_config(p.win).relative ~= "", "a floating window")
  api.nvim_feedkeys("a", "xt", false)
  H.check(not api.nvim_win_is_valid(p.win), "the float closed")
  H.wait_state("inactive")
  H.eq(api.nvim_get_current_buf(), buf)
  H.check(H.text(buf):find(vim.trim(vim.split(shown, "\n")[1]), 1, true), "applied into the buffer: " .. H.text(buf))
end)

H.test("key points copied with `y`, the buffer unchanged", function()
  local buf = H.buffer(LINES)
  local s = emend.keypoints()
  local p = float_of(s)
  local shown = table.concat(api.nvim_buf_get_lines(p.buf, 0, -1, false), "\n")
  api.nvim_feedkeys("y", "xt", false)
  H.wait_state("inactive")
  H.eq(H.text(buf), table.concat(LINES, "\n"))
  H.eq(vim.trim(vim.fn.getreg('"')), vim.trim(shown))
end)

H.test("table dismissed with q; list: closing the float another way dismisses too", function()
  local buf = H.buffer(LINES)
  api.nvim_win_set_cursor(0, { 1, 0 })
  local s = emend.table({ line1 = 1, line2 = 2, range = 2 })
  local p = float_of(s)
  local shown = table.concat(api.nvim_buf_get_lines(p.buf, 0, -1, false), "\n")
  H.check(shown:find("\t", 1, true) or shown:find("|", 1, true), "a table: " .. shown)
  api.nvim_feedkeys("q", "xt", false)
  H.wait_state("inactive")
  H.eq(H.text(buf), table.concat(LINES, "\n"))
  s = emend.list({ line1 = 1, line2 = 2, range = 2 })
  p = float_of(s)
  api.nvim_win_close(p.win, true)
  H.wait_state("inactive")
  H.eq(H.text(buf), table.concat(LINES, "\n"))
end)

H.test("compose inserts at the cursor", function()
  local buf = H.buffer({ "Dear team,", "", "Regards." })
  api.nvim_win_set_cursor(0, { 2, 0 })
  vim.cmd("Emend compose a short note about the release")
  H.wait_state("resting")
  H.check(#api.nvim_buf_get_lines(buf, 0, -1, false) >= 3 and H.text(buf) ~= "Dear team,\n\nRegards.", "composed: " .. H.text(buf))
  if emend.status().state ~= "inactive" then vim.cmd("Emend done") end
  H.wait_state("inactive")
end)

H.test("a poor rewrite dismissed: `u` never brings back the text the session refused", function()
  local lines = { "We meet [fixture:fabricate] for lunch with the team.", "Second paragraph stays." }
  local buf = H.buffer(lines)
  api.nvim_win_set_cursor(0, { 1, 0 })
  local seq_before = vim.fn.undotree().seq_cur
  local s = emend.rewrite("friendly")
  H.check(s)
  local p = float_of(s)
  H.eq(H.text(buf), table.concat(lines, "\n"), "a poor result is not applied while the person decides")
  local shown = table.concat(api.nvim_buf_get_lines(p.buf, 0, -1, false), "\n")
  H.check(shown:find("changes facts of the text", 1, true), "the float says why it was not applied: " .. shown)
  H.check(shown:find("on Monday at 5pm", 1, true), "and shows the result: " .. shown)
  api.nvim_feedkeys("q", "xt", false)
  H.wait_state("inactive")
  H.eq(H.text(buf), table.concat(lines, "\n"), "dismissed: the original byte for byte")
  H.check(not api.nvim_win_is_valid(p.win), "the float closed")
  -- Whatever the session streamed in before the fact check refused it, `u` now must not
  -- bring that text back: every state the undo history reaches is the original.
  local guard = 0
  while vim.fn.undotree().seq_cur > seq_before and guard < 10 do
    vim.cmd("silent! undo")
    H.eq(H.text(buf), table.concat(lines, "\n"), "u after a dismissed poor result")
    guard = guard + 1
  end
end)

H.finish()
