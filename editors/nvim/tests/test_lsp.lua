-- `emend lsp` driven by Neovim's own LSP client (vim.lsp.start): diagnostics arrive, a quick
-- fix changes the buffer, "Add to dictionary" writes the shared dictionary, hover shows a
-- finding, and a rewrite comes back and is applied (Neovim resolves commands, so it is offered
-- emend.runTool, answered at once, whose result comes as workspace/applyEdit). Needs EMEND_CLI, the emend command
-- (tests/run.sh finds it next to EMEND_LIBRARY). Standalone: the Lua plugin is not loaded.
local api = vim.api
local cli = os.getenv("EMEND_CLI")
local fixture = (os.getenv("EMEND_PROVIDER_PATH") or "") == ""
local failures, passed = 0, 0

local function check(cond, msg)
  if not cond then error(msg or "check failed", 2) end
end

local function wait(pred, msg, ms)
  if not vim.wait(ms or 20000, pred, 10) then error("timed out waiting for " .. msg, 2) end
end

local function test(name, fn)
  local ok, err = xpcall(fn, debug.traceback)
  if ok then
    passed = passed + 1
    io.stdout:write("ok   " .. name .. "\n")
  else
    failures = failures + 1
    io.stdout:write("FAIL " .. name .. ": " .. tostring(err) .. "\n")
  end
end

if not cli or vim.fn.executable(cli) ~= 1 then
  io.stdout:write("FAIL lsp: set EMEND_CLI to the emend command (got " .. tostring(cli) .. ")\n")
  vim.cmd("cquit 1")
end

local dir = vim.fn.tempname()
vim.fn.mkdir(dir, "p")
local path = dir .. "/notes.md"
vim.fn.writefile({ "# Notes", "", "Café 😀 we meet tomorow to talk.", "", "`tomorow` is code.", "", "It is noon." }, path)
vim.cmd("edit " .. vim.fn.fnameescape(path))
local buf = api.nvim_get_current_buf()
local client_id
if vim.lsp.config and vim.lsp.enable then
  -- Neovim 0.11+: the configuration the README gives (vim.lsp.config + vim.lsp.enable),
  -- attached by the FileType event.
  vim.lsp.config("emend", {
    cmd = { cli, "lsp" },
    -- The fixture pauses between the words it writes: a rewrite takes a second, time to type.
    cmd_env = { EMEND_FIXTURE_CHUNK_DELAY_MS = "400" },
    filetypes = { "markdown", "text" },
    root_markers = { ".git" },
    init_options = { debounceMs = 50 },
  })
  vim.lsp.enable("emend")
  vim.bo[buf].filetype = "markdown"   -- -u NONE: no filetype detection; the languageId comes from it
  wait(function() return #vim.lsp.get_clients({ bufnr = buf, name = "emend" }) > 0 end, "vim.lsp.enable to attach emend")
  client_id = vim.lsp.get_clients({ bufnr = buf, name = "emend" })[1].id
else
  vim.bo[buf].filetype = "markdown"
  client_id = vim.lsp.start({
    name = "emend",
    cmd = { cli, "lsp" },
    cmd_env = { EMEND_FIXTURE_CHUNK_DELAY_MS = "400" },
    root_dir = dir,
    init_options = { debounceMs = 50 },
  })
end
check(client_id, "no emend client")

local function emend_diagnostics()
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if d.source == "emend" then table.insert(out, d) end
  end
  table.sort(out, function(a, b) return a.lnum < b.lnum or (a.lnum == b.lnum and a.col < b.col) end)
  return out
end

local function line(n) return api.nvim_buf_get_lines(buf, n, n + 1, false)[1] end

-- Diagnostics on line `lnum` whose message names `word` (whatever else the providers flag there).
local function mentioning(word, lnum)
  return vim.tbl_filter(function(d) return d.lnum == lnum and d.message:find(word, 1, true) ~= nil end, emend_diagnostics())
end

test("lsp: diagnostics arrive at the right columns, not in code", function()
  wait(function() return #emend_diagnostics() > 0 end, "diagnostics")
  local s = line(2):find("tomorow", 1, true) - 1
  local found = vim.tbl_filter(function(d) return d.lnum == 2 and d.col == s and d.end_col == s + 7 end, emend_diagnostics())
  check(#found == 1, ("no diagnostic at 2:%d-%d (byte columns after é and 😀): %s"):format(s, s + 7,
    vim.inspect(vim.tbl_map(function(d) return { d.lnum, d.col, d.end_col, d.message } end, emend_diagnostics()))))
  for _, other in ipairs(emend_diagnostics()) do
    check(other.lnum ~= 4, "the code span on line 5 is not checked")
  end
  local client = vim.lsp.get_client_by_id(client_id)
  check(client.offset_encoding == "utf-16" or client.offset_encoding == "utf-8" or client.offset_encoding == "utf-32",
    "negotiated encoding: " .. tostring(client.offset_encoding))
end)

test("lsp: hover over a finding shows its replacement", function()
  local col = line(2):find("tomorow", 1, true) - 1
  local client = vim.lsp.get_client_by_id(client_id)
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    position = { line = 2, character = vim.str_utfindex(line(2), client.offset_encoding or "utf-16", col + 2) },
  }
  local replies = vim.lsp.buf_request_sync(buf, "textDocument/hover", params, 5000) or {}
  local reply = replies[client_id]
  check(reply and reply.result, "no hover: " .. vim.inspect(replies))
  local value = reply.result.contents.value
  check(value:find("tomorrow", 1, true), value)
  check(reply.result.range.start.line == 2, vim.inspect(reply.result.range))
end)

local function apply_action(filter, range)
  local before = api.nvim_buf_get_changedtick(buf)
  vim.lsp.buf.code_action({ apply = true, filter = filter, range = range })
  return before
end

test("lsp: the preferred quick fix changes the buffer", function()
  local col = line(2):find("tomorow", 1, true) - 1
  api.nvim_win_set_cursor(0, { 3, col + 2 })
  local before = apply_action(function(a) return a.isPreferred end)
  wait(function() return api.nvim_buf_get_changedtick(buf) ~= before end, "the quick fix")
  check(not line(2):find("tomorow", 1, true), "fixed: " .. line(2))
  if fixture then check(line(2) == "Café 😀 we meet tomorrow to talk.", "line 3 is " .. line(2)) end
  check(line(4) == "`tomorow` is code.", "code untouched")
  wait(function() return #mentioning("tomorow", 2) == 0 end, "the diagnostic of the fixed word to go")
end)

test("lsp: “Add to dictionary” writes the shared dictionary", function()
  api.nvim_buf_set_lines(buf, 2, 3, false, { "Then wierd things." })
  wait(function() return #mentioning("wierd", 2) == 1 end, "a diagnostic for “wierd”")
  api.nvim_win_set_cursor(0, { 3, 6 })
  apply_action(function(a) return a.title == "Add “wierd” to dictionary" end)
  local file = os.getenv("XDG_CONFIG_HOME") .. "/emend/dictionary.txt"
  wait(function() return vim.fn.filereadable(file) == 1 end, file)
  check(vim.fn.readfile(file)[1] == "wierd", "dictionary: " .. table.concat(vim.fn.readfile(file), "|"))
  wait(function() return #mentioning("wierd", 2) == 0 end, "the word's diagnostic to go")
end)

if fixture then
  test("lsp: a rewrite over a selection comes back and is applied", function()
    local before = apply_action(function(a) return a.title == "Rewrite: friendly" end,
      { start = { 7, 0 }, ["end"] = { 7, 11 } })
    wait(function() return api.nvim_buf_get_changedtick(buf) ~= before end, "the rewrite")
    -- The fixture's friendly tone contracts "It is" (and, in plain text, ends with "!").
    check(line(6):find("^It's noon") ~= nil, "line 7 is " .. line(6))
  end)

  test("lsp: typing elsewhere while a rewrite runs moves its result instead of losing it", function()
    api.nvim_buf_set_lines(buf, -1, -1, false, { "", "It is late." })
    local n = api.nvim_buf_line_count(buf)
    local begun = false
    local id = api.nvim_create_autocmd("LspProgress", { callback = function(ev)
      local value = ev.data and ev.data.params and ev.data.params.value
      if value and value.kind == "begin" and (value.title or ""):find("Rewrite", 1, true) then begun = true end
    end })
    apply_action(function(a) return a.title == "Rewrite: friendly" end, { start = { n, 0 }, ["end"] = { n, 11 } })
    wait(function() return begun end, "the rewrite's $/progress begin")
    api.nvim_del_autocmd(id)
    -- While the model writes: a word typed in the title, above the selection.
    api.nvim_buf_set_text(buf, 0, 2, 0, 2, { "My " })
    check(line(n - 1) == "It is late.", "the model is still writing: " .. line(n - 1))
    wait(function() return line(n - 1):find("^It's late") ~= nil end, "the rewrite to land: " .. line(n - 1))
    check(line(0) == "# My Notes", "the typing kept: " .. line(0))
  end)
end

vim.lsp.stop_client(client_id)
wait(function() return vim.lsp.get_client_by_id(client_id) == nil end, "the server to stop", 10000)
io.stdout:write(("%d passed, %d failed\n"):format(passed, failures))
io.stdout:flush()
if failures > 0 then vim.cmd("cquit 1") else vim.cmd("qall!") end
