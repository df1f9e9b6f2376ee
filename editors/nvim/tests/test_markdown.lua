-- Markdown: front matter, code, block quotes, HTML comments, link destinations and autolinks
-- are protected ranges of the context, from libemend's one rule set
-- (emend_markdown_protected_ranges through the FFI): a proofread corrects only the prose.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":p:h") .. "/helper.lua")
local api = vim.api
local emend = H.setup()
local S = require("emend.session")
local E = require("emend.ffi")

local DOC = {
  "---",
  "title: tomorow",
  "---",
  "# Notes",
  "",
  "We meet tomorow with `tomorow --flag` and [tomorow](https://example.com/tomorow) <https://x.y/tomorow>.",
  "",
  "```sh",
  "echo tomorow",
  "```",
  "",
  "    indented tomorow",
  "",
  "> Quoted tomorow, as it was said.",
  "",
  "<!-- a note: tomorow -->",
  "",
  "I could of done it.",
}
local EXPECTED = vim.deepcopy(DOC)
EXPECTED[6] = "We meet tomorrow with `tomorow --flag` and [tomorrow](https://example.com/tomorow) <https://x.y/tomorow>."
EXPECTED[18] = "I could have done it."

local function protected_texts(ranges, text)
  local out = {}
  for _, r in ipairs(ranges) do table.insert(out, text:sub(r[1] + 1, r[2])) end
  return out
end

H.test("markdown protected ranges from libemend", function()
  local buf = H.buffer(DOC, "markdown")
  local text = S.buffer_text(buf)
  local texts = protected_texts(S.protected_ranges(buf, text), text)
  local joined = table.concat(texts, "|")
  for _, want in ipairs({ "title: tomorow", "`tomorow --flag`", "https://example.com/tomorow", "<https://x.y/tomorow>",
                          "echo tomorow", "indented tomorow", "> Quoted tomorow", "<!-- a note: tomorow -->" }) do
    H.check(joined:find(want, 1, true), "protects " .. want .. " in " .. vim.inspect(texts))
  end
  H.check(not joined:find("We meet", 1, true), "prose is not protected")
  H.check(not joined:find("could of", 1, true), "prose is not protected")
  emend.proofread()
  H.wait_state("resting")
  H.eq(api.nvim_buf_get_lines(buf, 0, -1, false), EXPECTED, "only prose corrected")
  emend.revert()
  H.wait_state("inactive")
  H.eq(api.nvim_buf_get_lines(buf, 0, -1, false), DOC, "revert byte for byte")
end)

H.test("other filetypes have no protected ranges", function()
  local buf = H.buffer(DOC, "text")
  H.eq(S.protected_ranges(buf, S.buffer_text(buf)), {})
end)

H.test("a text libemend refuses is an error, never unprotected text", function()
  local ranges, err = E.markdown_protected_ranges("ok `x` \255")
  H.eq(ranges, nil)
  H.check(err:find("EMEND_E_INVALID_UTF8", 1, true) and err:find("byte 7", 1, true), tostring(err))
  H.eq(E.markdown_protected_ranges(""), {})
end)

H.finish()
