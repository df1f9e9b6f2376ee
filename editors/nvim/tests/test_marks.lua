-- Marks-only proofreading (the default, as harper-ls, ltex and `emend lsp` show it): the
-- buffer keeps its text, each suggestion is a mark and a diagnostic that moves with edits,
-- `:Emend accept` applies one (one undo step), reject / addword / done drop marks, Markdown
-- code is left alone, and Apple's inline review is still there as `proofread = "inline"`.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":p:h") .. "/helper.lua")
local api = vim.api
H.eq(require("emend.session").config.proofread, "marks", "marks only is the default")
local emend = H.setup({ proofread = "marks" })
local M = require("emend.marks")

local LINES = {
  "Café 😀 naïve: we meet tomorow, and they has snacks.",
  "Ünïcödé 🎉🎉 I could of done it better. This is a example.",
}

local function cols(line, word)
  local s, e = line:find(word, 1, true)
  return s - 1, e
end

local function marks(buf)
  return vim.tbl_map(function(m) return { m.row, m.col, m.end_row, m.end_col, m.suggestion.replacement } end, M.list(buf))
end

local function check(buf)
  H.check(emend.proofread())
  H.wait(function() return not M.checking(buf) end, 10000, "the check to end")
  H.eq(emend.status(buf).state, #M.list(buf) > 0 and "marks" or "inactive")
end

H.test("marks only: the text stays, each suggestion is a mark and a diagnostic", function()
  local buf = H.buffer(LINES)
  local tick = api.nvim_buf_get_changedtick(buf)
  check(buf)
  H.eq(api.nvim_buf_get_lines(buf, 0, -1, false), LINES, "nothing applied")
  H.eq(api.nvim_buf_get_changedtick(buf), tick, "the buffer never changed")
  local a, b = cols(LINES[1], "tomorow")
  local c, d = cols(LINES[1], "they has")
  local e, f = cols(LINES[2], "could of")
  local g, h = cols(LINES[2], "a example")
  H.eq(marks(buf), { { 0, a, 0, b, "tomorrow" }, { 0, c, 0, d, "they have" }, { 1, e, 1, f, "could have" }, { 1, g, 1, h, "an example" } })
  H.eq(#vim.diagnostic.get(buf, { namespace = M.ns }), 4)
  H.eq(emend.status(buf), { state = "marks", pending = 4, tool = "proofread" })
  vim.cmd("Emend done")
  H.eq(#M.list(buf), 0)
  H.eq(#vim.diagnostic.get(buf, { namespace = M.ns }), 0)
  H.eq(api.nvim_buf_get_lines(buf, 0, -1, false), LINES)
end)

H.test("marks only: accept applies one suggestion, one u takes it back; edits move or drop marks", function()
  local buf = H.buffer(LINES)
  check(buf)
  api.nvim_win_set_cursor(0, { 1, 0 })
  vim.cmd("Emend next")
  local a = cols(LINES[1], "tomorow")
  H.eq(api.nvim_win_get_cursor(0), { 1, a })
  vim.cmd("Emend accept")
  H.eq(api.nvim_buf_get_lines(buf, 0, 1, false)[1], "Café 😀 naïve: we meet tomorrow, and they has snacks.")
  H.eq(#M.list(buf), 3)
  vim.cmd("undo")
  H.eq(api.nvim_buf_get_lines(buf, 0, -1, false), LINES, "one u: the original")
  -- Typing before a mark moves it; typing inside one drops it.
  api.nvim_buf_set_text(buf, 1, 0, 1, 0, { "OK " })
  H.wait(function()
    local m = M.list(buf)
    return #m >= 2 and m[#m].col == cols(LINES[2], "a example") + 3
  end, 2000, "the marks moved")
  local e = cols(LINES[2], "could of") + 3
  api.nvim_buf_set_text(buf, 1, e + 6, 1, e + 8, { "if" })
  H.wait(function() return #vim.diagnostic.get(buf, { namespace = M.ns }) == #M.list(buf) and not vim.tbl_contains(
    vim.tbl_map(function(m) return m.suggestion.original end, M.list(buf)), "could of") end, 2000, "the edited mark gone")
  vim.cmd("Emend done")
end)

H.test("marks only: revert takes back the accepted suggestions in one undo step, not one edited since", function()
  local buf = H.buffer(LINES)
  check(buf)
  api.nvim_win_set_cursor(0, { 1, (cols(LINES[1], "tomorow")) })
  vim.cmd("Emend accept")
  api.nvim_win_set_cursor(0, { 2, (cols(LINES[2], "a example")) })
  vim.cmd("Emend accept")
  local line = api.nvim_buf_get_lines(buf, 0, 1, false)[1]
  api.nvim_win_set_cursor(0, { 1, (cols(line, "they has")) })
  vim.cmd("Emend accept")
  line = api.nvim_buf_get_lines(buf, 0, 1, false)[1]
  H.eq(line, "Café 😀 naïve: we meet tomorrow, and they have snacks.")
  -- The user edits one accepted replacement: it is theirs now.
  local _, e = cols(line, "they have")
  api.nvim_buf_set_text(buf, 0, e - 1, 0, e, { "" })
  local before = api.nvim_buf_get_lines(buf, 0, -1, false)
  vim.cmd("Emend revert")
  H.eq(api.nvim_buf_get_lines(buf, 0, -1, false), {
    "Café 😀 naïve: we meet tomorow, and they hav snacks.",
    LINES[2],
  }, "the accepted ones back, the edited one left")
  H.eq(#M.list(buf), 0, "no marks after revert")
  H.eq(emend.status(buf).state, "inactive")
  vim.cmd("undo")
  H.eq(api.nvim_buf_get_lines(buf, 0, -1, false), before, "one u: the revert undone")
  -- Nothing accepted: revert leaves the text as it is.
  local plain = H.buffer(LINES)
  check(plain)
  vim.cmd("Emend revert")
  H.eq(api.nvim_buf_get_lines(plain, 0, -1, false), LINES)
  H.eq(#M.list(plain), 0)
end)

H.test("marks only: typing while the check runs moves its marks with their words; edited ones are said", function()
  local buf = H.buffer(LINES)
  local notes = {}
  local notify = vim.notify
  vim.notify = function(msg, level) table.insert(notes, { msg, level }) end
  H.check(emend.proofread())
  H.check(M.checking(buf), "the check runs in the background")
  -- A new first line (every suggestion moves one line down) and an edit of "a example".
  api.nvim_buf_set_lines(buf, 0, 0, false, { "A new line typed at the top." })
  local g = cols(LINES[2], "a example")
  api.nvim_buf_set_text(buf, 2, g, 2, g + 1, { "the" })
  H.wait(function() return not M.checking(buf) end, 10000, "the check to end")
  vim.notify = notify
  local a, b = cols(LINES[1], "tomorow")
  local c, d = cols(LINES[1], "they has")
  local e, f = cols(LINES[2], "could of")
  H.eq(marks(buf), { { 1, a, 1, b, "tomorrow" }, { 1, c, 1, d, "they have" }, { 2, e, 2, f, "could have" } },
    "the marks on their words, one line down")
  H.eq(#vim.diagnostic.get(buf, { namespace = M.ns }), 3)
  H.eq(#notes, 1, vim.inspect(notes))
  H.check(notes[1][1]:find("1 suggestion on text you edited", 1, true) and notes[1][2] == vim.log.levels.WARN, vim.inspect(notes))
  H.eq(H.text(buf), "A new line typed at the top.\n" .. LINES[1] .. "\nÜnïcödé 🎉🎉 I could of done it better. This is the example.",
    "what the user typed is kept")
  vim.cmd("Emend done")
end)

H.test("marks only: a range checks only those lines", function()
  local buf = H.buffer(LINES)
  vim.cmd("2Emend proofread")
  H.wait(function() return not M.checking(buf) end, 10000, "the check to end")
  H.eq(vim.tbl_map(function(m) return m.row end, M.list(buf)), { 1, 1 }, "the two suggestions of line 2 only")
  H.eq(api.nvim_buf_get_lines(buf, 0, -1, false), LINES)
  vim.cmd("Emend done")
end)

H.test("marks only: reject and addword drop marks and leave the text", function()
  local buf = H.buffer({ "Tomorow or tomorow, they has it." })
  check(buf)
  H.eq(#M.list(buf), 3)
  api.nvim_win_set_cursor(0, { 1, 22 })
  vim.cmd("Emend reject")
  H.eq(vim.tbl_map(function(m) return m.suggestion.original end, M.list(buf)), { "Tomorow", "tomorow" })
  api.nvim_win_set_cursor(0, { 1, 12 })
  vim.cmd("Emend addword")
  H.eq(vim.tbl_map(function(m) return m.suggestion.original end, M.list(buf)), { "Tomorow" }, "the same word elsewhere stays (case differs)")
  H.eq(H.text(buf), "Tomorow or tomorow, they has it.")
  local words = vim.fn.readfile(require("emend.dictionary").path())
  H.check(vim.tbl_contains(words, "tomorow"), vim.inspect(words))
end)

H.test("marks only: addword goes through libemend (emend_coordinator_add_word), not a writer of its own", function()
  local buf = H.buffer({ "We recieve it." }) -- (not a word an earlier test added)
  local first = os.getenv("XDG_CONFIG_HOME")
  check(buf) -- the scratch copy's coordinator is created here, with XDG_CONFIG_HOME = first
  -- The library writes in the directory of the environment at emend_coordinator_create; a
  -- writer in Lua would follow the environment of now.
  local other = vim.fn.tempname()
  vim.env.XDG_CONFIG_HOME = other
  H.eq(#M.list(buf), 1)
  api.nvim_win_set_cursor(0, { 1, 4 })
  local ok, err = emend.addword()
  vim.env.XDG_CONFIG_HOME = first
  H.check(ok, tostring(err))
  H.eq(vim.fn.filereadable(other .. "/emend/dictionary.txt"), 0, "nothing written where the coordinator does not look")
  local path = first .. "/emend/dictionary.txt"
  H.check(vim.tbl_contains(vim.fn.readfile(path), "recieve"), vim.inspect(vim.fn.readfile(path)))
  H.eq(#M.list(buf), 0, "the word's mark went")
  -- The library's rules and statuses: a word with white space inside is refused, nothing written.
  local before = vim.fn.readfile(path)
  local s = M.coordinator_session(buf)
  local refused, why = require("emend.dictionary").add(s, "two words")
  H.eq(refused, nil)
  H.check(tostring(why):find("invalid argument", 1, true) or tostring(why):find("INVALID_ARGUMENT", 1, true), tostring(why))
  H.eq(vim.fn.readfile(path), before, "a refused word leaves the file")
  os.remove(path)
end)

H.test("marks only: Markdown code and link targets are not marked", function()
  local buf = H.buffer({ "See `teh` and [teh](http://x.y/teh) teh." }, "markdown")
  check(buf)
  local starts = vim.tbl_map(function(m) return m.col end, M.list(buf))
  local line = api.nvim_buf_get_lines(buf, 0, 1, false)[1]
  H.eq(starts, { (line:find("[teh]", 1, true)), (line:find(" teh.", 1, true)) }, "the link text and the last word: " .. vim.inspect(marks(buf)))
end)

H.test("inline review stays available: proofread = \"inline\"", function()
  emend.setup({ proofread = "inline" })
  local buf = H.buffer({ "We see teh end." })
  H.check(emend.proofread())
  H.wait_state("resting")
  H.eq(H.text(buf), "We see the end.", "Apple's inline review: applied at once")
  vim.cmd("Emend revert")
  H.wait_state("inactive")
  H.eq(H.text(buf), "We see teh end.")
  emend.setup({ proofread = "marks" })
end)

H.finish()
