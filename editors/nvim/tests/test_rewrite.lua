-- Rewrite with the fixture provider: streamed replaces, the working-region highlight, undo
-- as one step, revert byte for byte, show original, follow-up, typing during a session.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":p:h") .. "/helper.lua")
local api = vim.api
local emend = H.setup({ stream_chunk_bytes = 16 })
local S = require("emend.session")

local PARA = "I do not think we can come. We will not be there. It is raining and we are tired."
local LINES = { "Intro: café 😀.", "", PARA, "", "Last line." }
local FRIENDLY = "I don't think we can come. We won't be there. It's raining and we're tired."

H.test("rewrite friendly: the paragraph under the cursor, streamed, one undo step", function()
  local buf = H.buffer(LINES)
  local before = H.text(buf)
  api.nvim_win_set_cursor(0, { 3, 10 })
  local s = emend.rewrite("friendly")
  H.check(s)
  H.wait_state("resting")
  H.eq(api.nvim_buf_get_lines(buf, 0, -1, false), { "Intro: café 😀.", "", FRIENDLY, "", "Last line." })
  H.check(s.replaces >= 2, "streamed in several replaces: " .. s.replaces)
  -- The working region: prepare/finish came in pairs, over the paragraph.
  -- Both arrive through plain ffi.cast callbacks that read the range through its pointer.
  H.check((s.prepared or 0) >= 1, "prepare_for_text_animation was called")
  H.eq(s.prepared, s.finished, "every prepare finished")
  local para_start = #"Intro: café 😀.\n\n"
  H.eq(s.last_animation.range[1], para_start, "the anticipate animation starts at the paragraph")
  local a, b = s.last_animation.range[1], s.last_animation.range[2]
  H.eq(before:sub(a + 1, a + #PARA), PARA, "the anticipated range covers the paragraph as it was")
  H.check(b >= a + #PARA and b <= #before, "and ends after it, within the text: " .. b)
  H.eq(#api.nvim_buf_get_extmarks(buf, S.ns_work, 0, -1, {}), 0, "no working highlight once resting")
  vim.cmd("Emend done")
  H.wait_state("inactive")
  vim.cmd("undo")
  H.eq(H.text(buf), before, "one `u` takes the whole rewrite back")
  vim.cmd("redo")
  H.eq(api.nvim_buf_get_lines(buf, 2, 3, false)[1], FRIENDLY, "redo brings it again")
end)

H.test("rewrite professional with a range, revert byte for byte", function()
  local buf = H.buffer({ "Hey, I can't come today, it's raining. We're gonna stay home.", "Ünïcödé stays 🎉." })
  local before = H.text(buf)
  vim.cmd("1Emend rewrite professional")
  H.wait_state("resting")
  H.check(H.text(buf) ~= before, "rewritten")
  H.eq(api.nvim_buf_get_lines(buf, 1, 2, false)[1], "Ünïcödé stays 🎉.", "outside the range unchanged")
  vim.cmd("Emend revert")
  H.wait_state("inactive")
  H.eq(H.text(buf), before, "revert restores byte for byte")
end)

H.test("original toggles; followup refines", function()
  local buf = H.buffer({ PARA })
  emend.rewrite("friendly")
  H.wait_state("resting")
  vim.cmd("Emend original")
  H.wait(function() return H.text(buf) == PARA end, 5000, "the original shown")
  vim.cmd("Emend original")
  H.wait(function() return H.text(buf) == FRIENDLY end, 5000, "the rewrite shown again")
  vim.cmd("Emend followup uppercase")
  H.wait(function() return H.text(buf) == FRIENDLY:upper() end, 5000, "follow-up uppercase: " .. H.text(buf))
  H.wait_state("resting")
  vim.cmd("Emend revert")
  H.wait_state("inactive")
  H.eq(H.text(buf), PARA)
end)

H.test("typing in the middle of a session is kept by revert", function()
  local buf = H.buffer({ "Title", "", PARA, "", "We meet tomorow." })
  api.nvim_win_set_cursor(0, { 3, 0 })
  emend.rewrite("friendly")
  H.wait_state("resting")
  -- type at the start of the last line, outside the rewrite, and inside the rewritten paragraph
  api.nvim_win_set_cursor(0, { 5, 0 })
  api.nvim_feedkeys("iSo, \27", "xt", false)
  api.nvim_win_set_cursor(0, { 1, 5 })
  api.nvim_feedkeys("a (draft)\27", "xt", false)
  local s = S.get(buf)
  H.eq(s.update_errors, nil, "updates accepted: " .. tostring(s.last_update_error))
  H.check((s.typed or 0) >= 2, "typing reported")
  H.eq(api.nvim_buf_get_lines(buf, 0, 1, false)[1], "Title (draft)")
  vim.cmd("Emend revert")
  H.wait_state("inactive")
  H.eq(api.nvim_buf_get_lines(buf, 0, -1, false), { "Title (draft)", "", PARA, "", "So, We meet tomorow." },
    "the original back around the typed text")
end)

H.test("typing inside a proofread moves the marks", function()
  local buf = H.buffer({ "We meet tomorow, and they has snacks." })
  emend.proofread()
  H.wait_state("resting")
  local before = H.marks(buf)
  api.nvim_win_set_cursor(0, { 1, 0 })
  api.nvim_feedkeys("iOK 😀 \27", "xt", true) -- escape_ks: 😀 holds a 0x80 byte
  H.wait(function() return H.marks(buf)[1] and H.marks(buf)[1][2] == before[1][2] + #"OK 😀 " end, 2000, "marks moved")
  H.eq(#H.marks(buf), 2)
  -- typing over a suggestion invalidates it
  local l = api.nvim_buf_get_lines(buf, 0, 1, false)[1]
  local c = l:find("tomorrow", 1, true)
  api.nvim_buf_set_text(buf, 0, c - 1, 0, c - 1 + #"tomorrow", { "today" })
  H.wait(function() return #H.marks(buf) == 1 end, 2000, "the edited suggestion is gone")
  H.eq(emend.status().pending, 1)
  vim.cmd("Emend done")
  H.wait_state("inactive")
  H.eq(H.text(buf), "OK 😀 We meet today, and they have snacks.")
end)

H.test("a second tool while a session is open is refused", function()
  H.buffer({ PARA })
  emend.rewrite("friendly")
  H.wait_state("resting")
  H.notes = {}
  H.eq(emend.proofread(), nil)
  H.check(H.notes[1] and H.notes[1].msg:find("session is open"), "told why")
  emend.done()
  H.wait_state("inactive")
end)

H.finish()
