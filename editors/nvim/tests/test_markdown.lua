-- Markdown: front matter, fenced code, code spans and link destinations are protected
-- ranges, from the treesitter markdown parsers and from the Lua rules.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":p:h") .. "/helper.lua")
local api = vim.api
local emend = H.setup()
local md = require("emend.markdown")

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
  "I could of done it.",
}
local EXPECTED = vim.deepcopy(DOC)
EXPECTED[6] = "We meet tomorrow with `tomorow --flag` and [tomorrow](https://example.com/tomorow) <https://x.y/tomorow>."
EXPECTED[14] = "I could have done it."

local function protected_texts(ranges, text)
  local out = {}
  for _, r in ipairs(ranges) do table.insert(out, text:sub(r[1] + 1, r[2])) end
  return out
end

for _, method in ipairs({ "treesitter", "lua" }) do
  H.test("markdown protected ranges (" .. method .. ")", function()
    local buf = H.buffer(DOC, "markdown")
    md.force_lua = method == "lua"
    local text = require("emend.session").buffer_text(buf)
    local ranges = md.protected_ranges(buf, text)
    if method == "treesitter" and md.last_method ~= "treesitter" then
      io.stdout:write("skip treesitter: no markdown parser in this Neovim\n")
      return
    end
    H.eq(md.last_method, method)
    local texts = protected_texts(ranges, text)
    local joined = table.concat(texts, "|")
    for _, want in ipairs({ "title: tomorow", "`tomorow --flag`", "https://example.com/tomorow", "https://x.y/tomorow", "echo tomorow", "indented tomorow" }) do
      H.check(joined:find(want, 1, true), method .. ": protects " .. want .. " in " .. vim.inspect(texts))
    end
    H.check(not joined:find("We meet", 1, true), "prose is not protected")
    emend.proofread()
    H.wait_state("resting")
    H.eq(api.nvim_buf_get_lines(buf, 0, -1, false), EXPECTED, "only prose corrected")
    emend.revert()
    H.wait_state("inactive")
    H.eq(api.nvim_buf_get_lines(buf, 0, -1, false), DOC, "revert byte for byte")
    md.force_lua = false
  end)
end

H.test("other filetypes have no protected ranges", function()
  local buf = H.buffer(DOC, "text")
  H.eq(md.protected_ranges(buf, require("emend.session").buffer_text(buf)), {})
end)

H.finish()
