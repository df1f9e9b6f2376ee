-- Proofread with the fixture provider: marks at the right byte columns in lines with emoji
-- and accents, diagnostics, accept / reject / next, Done, status and the state autocmd.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":p:h") .. "/helper.lua")
local api = vim.api
local emend = H.setup()
local S = require("emend.session")

local LINES = {
  "Café 😀 naïve: we meet tomorow, and they has snacks.",
  "Ünïcödé 🎉🎉 I could of done it better. This is a example.",
}

-- byte columns of `word` in `line` (0-based start, exclusive end)
local function cols(line, word)
  local s, e = line:find(word, 1, true)
  return s - 1, e
end

H.test("proofread: marks at byte columns with emoji and accents", function()
  local buf = H.buffer(LINES)
  local states = {}
  api.nvim_create_autocmd("User", { pattern = "EmendStateChanged", callback = function(ev)
    table.insert(states, ev.data and ev.data.state or "?")
  end })
  H.eq(emend.status(), { state = "inactive", pending = 0 })
  H.check(emend.proofread())
  H.wait_state("resting")
  local l1, l2 = api.nvim_buf_get_lines(buf, 0, 2, false)[1], api.nvim_buf_get_lines(buf, 1, 2, false)[1]
  H.eq(l1, "Café 😀 naïve: we meet tomorrow, and they have snacks.", "corrections inline")
  H.eq(l2, "Ünïcödé 🎉🎉 I could have done it better. This is an example.")
  local a1, b1 = cols(l1, "tomorrow")
  local a2, b2 = cols(l1, "they have")
  local a3, b3 = cols(l2, "could have")
  local a4, b4 = cols(l2, "an example")
  H.eq(a1, 27, "tomorrow starts after 6 multi-byte characters' bytes") -- C-a-f-é(2) 😀(4) n-a-ï(2)-v-e
  H.eq(H.marks(buf), {
    { 0, a1, 0, b1, "EmendSuggestion" }, { 0, a2, 0, b2, "EmendSuggestion" },
    { 1, a3, 1, b3, "EmendSuggestion" }, { 1, a4, 1, b4, "EmendSuggestion" },
  }, "one mark per suggestion, byte columns")
  local diags = vim.diagnostic.get(buf, { namespace = S.ns })
  H.eq(#diags, 4, "four diagnostics")
  H.eq(diags[1].source, "emend")
  H.eq({ diags[1].lnum, diags[1].col, diags[1].end_col }, { 0, a1, b1 })
  H.eq(emend.status(buf), { state = "resting", pending = 4, tool = "proofread" })
  H.check(vim.tbl_contains(states, "resting"), "User EmendStateChanged fired: " .. vim.inspect(states))
end)

H.test("proofread: next / accept / reject / done", function()
  local buf = H.buffer(LINES)
  H.check(emend.proofread())
  H.wait_state("resting")
  api.nvim_win_set_cursor(0, { 1, 0 })
  local target = emend.next()
  H.eq(target.replacement, "tomorrow", "next goes to the first suggestion")
  local l1 = api.nvim_buf_get_lines(buf, 0, 1, false)[1]
  H.eq(api.nvim_win_get_cursor(0), { 1, (cols(l1, "tomorrow")) }, "cursor on it")
  H.check(emend.accept(), "accept under the cursor")
  H.eq(emend.status().pending, 3)
  H.eq(#H.marks(buf), 3, "its mark is gone")
  emend.next() -- "they have"
  H.eq(api.nvim_win_get_cursor(0), { 1, (cols(l1, "they have")) })
  H.check(emend.reject(), "reject under the cursor")
  H.wait(function() return api.nvim_buf_get_lines(buf, 0, 1, false)[1]:find("they has", 1, true) ~= nil end, 5000, "the reject's replace")
  H.eq(emend.status().pending, 2)
  emend.next()
  emend.prev()
  H.eq(api.nvim_win_get_cursor(0)[1], 2, "prev wraps to the last suggestion")
  vim.cmd("Emend done")
  H.wait_state("inactive")
  H.eq(H.text(buf), "Café 😀 naïve: we meet tomorrow, and they has snacks.\nÜnïcödé 🎉🎉 I could have done it better. This is an example.")
  H.eq(#H.marks(buf), 0, "no marks after Done")
  H.eq(#vim.diagnostic.get(buf, { namespace = S.ns }), 0, "no diagnostics after Done")
end)

H.test("proofread: revert restores byte for byte", function()
  local buf = H.buffer(LINES)
  H.check(emend.proofread())
  H.wait_state("resting")
  vim.cmd("Emend revert")
  H.wait_state("inactive")
  H.eq(H.text(buf), table.concat(LINES, "\n"))
end)

H.test("proofread: a range proofreads only those lines", function()
  local buf = H.buffer({ "We meet tomorow.", "", "I could of done it." })
  vim.cmd("3Emend proofread")
  H.wait_state("resting")
  H.eq(H.text(buf), "We meet tomorow.\n\nI could have done it.")
  vim.cmd("Emend done")
  H.wait_state("inactive")
end)

H.test("proofread: a charwise visual selection", function()
  local buf = H.buffer({ "tomorow and tomorow and recieve" })
  api.nvim_win_set_cursor(0, { 1, 12 })
  vim.cmd("normal! v6l\27")
  vim.cmd("'<,'>Emend proofread")
  H.wait_state("resting")
  -- the selection is widened to the sentence by the runtime; at least the selected word changed
  H.check(H.text(buf):find("and tomorrow and", 1, true), H.text(buf))
  vim.cmd("Emend done")
  H.wait_state("inactive")
end)

H.test("proofread: failure is notified with the runtime's message", function()
  H.buffer({ "This text asks for a failure [fixture:fail] tomorow." })
  H.notes = {}
  H.check(emend.proofread())
  H.wait(function() return #H.notes > 0 end, 5000, "a notification")
  H.wait_state("inactive")
  H.check(H.notes[1].msg:find("fixture: the text asked for a failure", 1, true), H.notes[1].msg)
  H.eq(H.notes[1].level, vim.log.levels.ERROR)
  -- One honest thing: the failure, not also a "partial result" of a result there is not
  -- (the named checker runs as a combination of one, which reported its failed part).
  vim.wait(300)
  for _, n in ipairs(H.notes) do
    H.check(not tostring(n.msg):find("partial", 1, true), "no partial-result warning beside a failure: " .. tostring(n.msg))
  end
  H.eq(#H.notes, 1, "told once")
end)

H.test("proofread: addword writes the dictionary, rejects the word here, and checks leave it alone", function()
  local buf = H.buffer(LINES)
  H.check(emend.proofread())
  H.wait_state("resting")
  api.nvim_win_set_cursor(0, { 1, 0 })
  H.eq(emend.next().original, "tomorow")
  H.check(emend.addword(), "addword under the cursor")
  local path = require("emend.dictionary").path()
  H.eq(path, os.getenv("XDG_CONFIG_HOME") .. "/emend/dictionary.txt")
  local f = assert(io.open(path, "rb"))
  H.eq(f:read("*a"), "tomorow\n", "the documented format: one word a line")
  f:close()
  H.wait(function() return api.nvim_buf_get_lines(buf, 0, 1, false)[1]:find("meet tomorow,", 1, true) ~= nil end, 5000,
    "the suggestion's original back")
  H.eq(emend.status().pending, 3)
  vim.cmd("Emend revert")
  H.wait_state("inactive")
  H.check(emend.proofread())
  H.wait_state("resting")
  H.eq(emend.status().pending, 3, "the new check does not flag the user's word")
  H.check(api.nvim_buf_get_lines(buf, 0, 1, false)[1]:find("meet tomorow,", 1, true), "left as written")
  vim.cmd("Emend revert")
  H.wait_state("inactive")
  os.remove(path)
end)

H.test("command completion", function()
  local c = vim.fn.getcompletion("Emend re", "cmdline")
  table.sort(c)
  H.eq(c, { "reject", "revert", "review", "rewrite" })
  H.eq(vim.fn.getcompletion("Emend rewrite p", "cmdline"), { "professional" })
end)

H.finish()
