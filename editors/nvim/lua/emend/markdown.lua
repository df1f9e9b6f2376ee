-- emend.markdown: the parts of a Markdown buffer no Writing Tool may change, as protected
-- ranges of the context (byte offsets [start, end), sorted, disjoint): front matter, fenced
-- and indented code, code spans, link destinations and autolinks (the link text stays
-- editable, as with the emend command). With the treesitter markdown parsers installed
-- (bundled with Neovim 0.10+) the parse tree decides; otherwise simple line rules do.
local M = {}

local MARKDOWN_FILETYPES = { markdown = true, ["markdown.pandoc"] = true, pandoc = true, rmd = true, quarto = true, vimwiki = true }

local BLOCK_TYPES = {
  minus_metadata = true, plus_metadata = true, fenced_code_block = true, indented_code_block = true,
}
local INLINE_TYPES = {
  code_span = true, link_destination = true, uri_autolink = true, email_autolink = true,
}

local function merge(ranges)
  table.sort(ranges, function(a, b) return a[1] < b[1] end)
  local out = {}
  for _, r in ipairs(ranges) do
    if r[2] > r[1] then
      local last = out[#out]
      if last and r[1] <= last[2] then
        if r[2] > last[2] then last[2] = r[2] end
      else
        table.insert(out, { r[1], r[2] })
      end
    end
  end
  return out
end

function M.treesitter_ranges(text)
  local ok_parser, parser = pcall(vim.treesitter.get_string_parser, text, "markdown")
  if not ok_parser or not parser then return nil end
  -- parse(true) (0.10+) also parses injections (markdown_inline); older versions parse
  -- injections in parse().
  local ok = pcall(parser.parse, parser, true)
  if not ok then return nil end
  local ranges = {}
  local saw_inline = false
  parser:for_each_tree(function(tree, ltree)
    local lang = ltree:lang()
    if lang ~= "markdown" and lang ~= "markdown_inline" then return end
    if lang == "markdown_inline" then saw_inline = true end
    local types = lang == "markdown" and BLOCK_TYPES or INLINE_TYPES
    local function walk(node)
      local t = node:type()
      if types[t] then
        local _, _, s = node:start()
        local _, _, e = node:end_()
        table.insert(ranges, { s, e })
        return
      end
      for child in node:iter_children() do walk(child) end
    end
    walk(tree:root())
  end)
  if not saw_inline and text:find("[`<%]]") then
    -- No markdown_inline parser: add the inline rules from Lua.
    for _, r in ipairs(M.inline_ranges(text, ranges)) do table.insert(ranges, r) end
  end
  return merge(ranges)
end

-- Inline rules outside the given block ranges: code spans, link destinations, autolinks and
-- bare URLs.
function M.inline_ranges(text, blocks)
  local out = {}
  local function inside_block(pos)
    for _, b in ipairs(blocks or {}) do
      if pos >= b[1] and pos < b[2] then return true end
    end
    return false
  end
  -- code spans: a run of N backticks up to the next run of exactly N
  local i = 1
  while true do
    local s, e = text:find("`+", i)
    if not s then break end
    local ticks = e - s + 1
    local j = e + 1
    local closed = false
    while true do
      local cs, ce = text:find("`+", j)
      if not cs then break end
      if ce - cs + 1 == ticks then
        if not inside_block(s - 1) then table.insert(out, { s - 1, ce }) end
        i = ce + 1
        closed = true
        break
      end
      j = ce + 1
    end
    if not closed then i = e + 1 end
  end
  -- link destinations: ](...)
  for s, e in text:gmatch("%]%(()[^)%s]*()") do
    if e > s and not inside_block(s - 1) then table.insert(out, { s - 1, e - 1 }) end
  end
  -- autolinks <scheme:...> and bare URLs
  for s, e in text:gmatch("()<%a[%w+.-]*:[^%s<>]*>()") do
    if not inside_block(s - 1) then table.insert(out, { s - 1, e - 1 }) end
  end
  for s, e in text:gmatch("()https?://[^%s<>()]+()") do
    if not inside_block(s - 1) then table.insert(out, { s - 1, e - 1 }) end
  end
  return out
end

-- Line rules: front matter, fenced code (``` or ~~~), indented code after a blank line.
function M.lua_ranges(text)
  local ranges = {}
  local lines, starts = {}, {}
  local pos = 1
  while pos <= #text do
    local nl = text:find("\n", pos, true) or (#text + 1)
    table.insert(lines, text:sub(pos, nl - 1))
    table.insert(starts, pos - 1)
    pos = nl + 1
  end
  local function line_end(k) return starts[k] + #lines[k] end
  local k = 1
  if lines[1] == "---" or lines[1] == "+++" then
    for j = 2, #lines do
      if lines[j] == lines[1] or (lines[1] == "---" and lines[j] == "...") then
        table.insert(ranges, { 0, line_end(j) })
        k = j + 1
        break
      end
    end
  end
  local prev_blank = true
  while k <= #lines do
    local line = lines[k]
    local fence = line:match("^ ? ? ?(```+)") or line:match("^ ? ? ?(~~~+)")
    if fence then
      local ch = fence:sub(1, 1)
      local close = #lines
      for j = k + 1, #lines do
        local f = lines[j]:match("^ ? ? ?(" .. (ch == "`" and "```+" or "~~~+") .. ")%s*$")
        if f and #f >= #fence then close = j break end
      end
      table.insert(ranges, { starts[k], line_end(close) })
      k = close + 1
      prev_blank = false
    elseif prev_blank and (line:match("^    %S") or line:match("^\t%S")) then
      local j = k
      while j + 1 <= #lines and (lines[j + 1]:match("^    ") or lines[j + 1]:match("^\t") or lines[j + 1]:match("^%s*$")) do
        j = j + 1
      end
      while j > k and lines[j]:match("^%s*$") do j = j - 1 end
      table.insert(ranges, { starts[k], line_end(j) })
      k = j + 1
      prev_blank = false
    else
      prev_blank = line:match("^%s*$") ~= nil
      k = k + 1
    end
  end
  for _, r in ipairs(M.inline_ranges(text, ranges)) do table.insert(ranges, r) end
  return merge(ranges)
end

function M.is_markdown(buf)
  local ft = vim.bo[buf].filetype or ""
  return MARKDOWN_FILETYPES[ft] or ft:match("^markdown") ~= nil
end

-- Protected ranges for buffer `buf` whose context text is `text`; {} for other filetypes.
-- M.force_lua makes the tests and the benchmark use the Lua rules.
-- Above M.treesitter_max_bytes the Lua rules are used: they find the same ranges in prose
-- files about ten times faster (7 ms against 60 ms for 2,000 lines), and the contexts
-- callback runs inside a dispatch, on the editor's main loop.
M.treesitter_max_bytes = 32768

function M.protected_ranges(buf, text)
  if not M.is_markdown(buf) then return {} end
  if not M.force_lua and #text <= M.treesitter_max_bytes then
    local ok, ranges = pcall(M.treesitter_ranges, text)
    if ok and ranges then
      M.last_method = "treesitter"
      return ranges
    end
  end
  M.last_method = "lua"
  return M.lua_ranges(text)
end

return M
