-- :Emend review: a rewrite reviewed change by change with the fixture provider. Each change
-- gets a mark; reject puts back that change's original (one undo step), accept keeps it,
-- next / prev move between changes, done keeps what was not rejected, revert gives the
-- original byte for byte, a follow-up refines the text as it stands.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":p:h") .. "/helper.lua")
local api = vim.api
local emend = H.setup({})
local S = require("emend.session")

local PARA = "I do not think we can come. We will not be there. It is raining and we are tired."
local FRIENDLY = "I don't think we can come. We won't be there. It's raining and we're tired."

local function changes(buf)
  return S.pending(S.get(buf, false))
end

H.test("review: a mark on each change; reject one, accept one, done keeps the rest", function()
  local buf = H.buffer({ PARA })
  emend.rewrite("friendly")
  H.wait_state("resting")
  H.eq(#H.marks(buf), 0, "a rewrite has no marks before the review")
  vim.cmd("Emend review")
  local list = changes(buf)
  H.eq(#list, 4, "four changes")
  H.eq(#H.marks(buf), 4, "a mark on each")
  local words = {}
  for _, c in ipairs(list) do
    table.insert(words, c.original .. "->" .. c.replacement)
    H.eq(H.text(buf):sub(c.start + 1, c.finish), c.replacement, "the mark is on the change's text")
    H.eq(c.category, "rewrite")
  end
  H.eq(table.concat(words, ", "), "do not->don't, will not->won't, It is->It's, we are->we're")
  -- :Emend next from the start goes to the second change (the first starts after column 0).
  api.nvim_win_set_cursor(0, { 1, list[1].start })
  vim.cmd("Emend next")
  H.eq(api.nvim_win_get_cursor(0)[2], list[2].start, "next goes to the next change")
  vim.cmd("Emend reject")
  H.wait(function() return H.text(buf) == "I don't think we can come. We will not be there. It's raining and we're tired." end,
    5000, "reject puts back only that change's original: " .. H.text(buf))
  H.wait(function() return #H.marks(buf) == 3 end, 2000, "its mark is gone")
  -- One undo step per decision: `u` takes the reject back.
  vim.cmd("undo")
  H.eq(H.text(buf), FRIENDLY, "u takes back exactly the reject")
  vim.cmd("redo")
  H.eq(H.text(buf), "I don't think we can come. We will not be there. It's raining and we're tired.")
  api.nvim_win_set_cursor(0, { 1, changes(buf)[1].start })
  vim.cmd("Emend accept")
  H.wait(function() return #H.marks(buf) == 2 end, 2000, "an accepted change loses its mark")
  vim.cmd("Emend done")
  H.wait_state("inactive")
  H.eq(H.text(buf), "I don't think we can come. We will not be there. It's raining and we're tired.", "done keeps what was not rejected")
  H.eq(#H.marks(buf), 0, "no marks once done")
end)

H.test("review: revert after a partial review gives the original byte for byte", function()
  local buf = H.buffer({ PARA })
  emend.rewrite("friendly")
  H.wait_state("resting")
  H.eq(emend.review(), 4)
  api.nvim_win_set_cursor(0, { 1, changes(buf)[3].start })
  vim.cmd("Emend reject")
  H.wait(function() return H.text(buf):find("It is raining", 1, true) ~= nil end, 5000, "the third change rejected")
  vim.cmd("Emend revert")
  H.wait_state("inactive")
  H.eq(H.text(buf), PARA, "the original, byte for byte")
end)

H.test("review: a follow-up refines the text as it stands", function()
  local buf = H.buffer({ PARA })
  emend.rewrite("friendly")
  H.wait_state("resting")
  emend.review()
  api.nvim_win_set_cursor(0, { 1, changes(buf)[1].start })
  vim.cmd("Emend reject")
  H.wait(function() return H.text(buf):find("I do not think", 1, true) == 1 end, 5000, "the first change rejected")
  vim.cmd("Emend followup uppercase")
  H.wait(function() return H.text(buf) == ("I do not think we can come. We won't be there. It's raining and we're tired."):upper() end,
    5000, "the follow-up refined the reviewed text: " .. H.text(buf))
  H.wait_state("resting")
  H.eq(#H.marks(buf), 0, "the earlier review's marks are gone")
  emend.done()
  H.wait_state("inactive")
end)

H.test("review without a rewrite says why", function()
  H.buffer({ PARA })
  H.notes = {}
  H.eq(emend.review(), nil)
  H.check(H.notes[1] and H.notes[1].msg:find("no session"), "told why: " .. vim.inspect(H.notes))
  emend.proofread()
  H.wait_state("resting")
  H.notes = {}
  H.eq(emend.review(), nil)
  H.check(H.notes[1] and H.notes[1].msg:find("proofreading"), "proofreading is reviewed per suggestion: " .. vim.inspect(H.notes))
  emend.revert()
  H.wait_state("inactive")
end)

H.finish()
