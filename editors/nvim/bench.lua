-- bench.lua: how the plugin performs in an editor.
--
--   EMEND_LIBRARY=/path/libemend.so nvim --headless -u NONE -i NONE -n -c "luafile editors/nvim/bench.lua"
--
-- Prints:
--   1. the time from :Emend proofread to the marks for a 2,000-line Markdown file;
--   2. for a streamed rewrite: the longest time the editor's main loop was blocked (a 1 ms
--      libuv timer measures the gaps between its ticks) and the longest dispatch;
--   3. the time to the first streamed text.
-- The fixture provider by default; EMEND_BENCH_PROVIDER=org.emend.llama (with
-- EMEND_PROVIDER_PATH) measures a real model.
local root = vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":p:h")
vim.opt.rtp:prepend(root)
vim.cmd("runtime plugin/emend.lua")
local uv = vim.uv or vim.loop
local api = vim.api
local provider = os.getenv("EMEND_BENCH_PROVIDER") or "org.emend.fixture"
local emend = require("emend")
assert(emend.setup({ provider = provider, stream_chunk_bytes = 64, proofread = "inline" }))
local S = require("emend.session")
local function ms() return uv.hrtime() / 1e6 end
local function out(fmt, ...) io.stdout:write(fmt:format(...) .. "\n") end

-- 1. proofread a 2,000-line Markdown file
local lines = {}
local para = {
  "We meet tomorow to go over the the draft, and they has brought snacks.",
  "I could of done it better; this is a example of a sentence with `code` and a [link](https://example.com).",
  "Café naïve 😀 résumé — the text keeps its accents and emoji.",
  "",
}
table.insert(lines, "---")
table.insert(lines, "title: bench")
table.insert(lines, "---")
while #lines < 2000 do
  for _, l in ipairs(para) do table.insert(lines, l) end
  if #lines % 100 < 4 then
    for _, l in ipairs({ "```sh", "echo tomorow", "```", "" }) do table.insert(lines, l) end
  end
end
while #lines > 2000 do table.remove(lines) end
local buf = api.nvim_create_buf(true, false)
api.nvim_set_current_buf(buf)
api.nvim_buf_set_lines(buf, 0, -1, false, lines)
vim.bo[buf].filetype = "markdown"
local bytes = #S.buffer_text(buf)

local t0 = ms()
S.stats.max_dispatch_ms = 0
vim.cmd("Emend proofread")
vim.wait(120000, function() return emend.status(buf).state == "resting" end, 1)
local marks = #api.nvim_buf_get_extmarks(buf, S.ns, 0, -1, {})
local t1 = ms()
out("proofread 2000-line Markdown (%d KB, %s): %d marks in %.0f ms",
  math.floor(bytes / 1024), provider, marks, t1 - t0)
local tp = ms()
S.protected_ranges(buf, S.buffer_text(buf))
out("  longest dispatch during it: %.1f ms", S.stats.max_dispatch_ms)
out("  of which Markdown protected ranges: %.1f ms", ms() - tp)
emend.done()
vim.wait(10000, function() return emend.status(buf).state == "inactive" end, 1)

-- 2 and 3. a streamed rewrite of a long paragraph
local sentences = {}
for i = 1, 40 do
  table.insert(sentences, ("We do not think sentence %d is ready, and it is not finished yet."):format(i))
end
local buf2 = api.nvim_create_buf(true, false)
api.nvim_set_current_buf(buf2)
api.nvim_buf_set_lines(buf2, 0, -1, false, { table.concat(sentences, " ") })
local max_gap, last = 0, ms()
local timer = uv.new_timer()
timer:start(1, 1, function()
  local now = ms()
  if now - last > max_gap then max_gap = now - last end
  last = now
end)
S.stats.max_dispatch_ms = 0
local start = ms()
local s = emend.rewrite("friendly")
vim.wait(300000, function() return emend.status(buf2).state == "resting" or s.ended ~= nil end, 1)
local finished = ms()
timer:stop()
timer:close()
out("streamed rewrite (%d bytes, %s): %d replaces in %.0f ms; first text after %.1f ms",
  #sentences * 60, provider, s.replaces or 0, finished - start, (s.first_text_ms or finished) - start)
out("  longest main-loop block: %.1f ms (1 ms timer gaps); longest dispatch: %.2f ms; dispatches: %d",
  max_gap, S.stats.max_dispatch_ms, S.stats.dispatches)
if emend.status(buf2).state ~= "inactive" then emend.done() end
vim.cmd("qall!")
