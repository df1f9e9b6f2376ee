-- :checkhealth emend
local M = {}

local health = vim.health or require("health")
local start = health.start or health.report_start
local ok = health.ok or health.report_ok
local warn = health.warn or health.report_warn
local err = health.error or health.report_error
local info = health.info or health.report_info

function M.check()
  start("emend: Neovim")
  local v = vim.version()
  local version = ("%d.%d.%d"):format(v.major, v.minor, v.patch)
  if vim.fn.has("nvim-0.7") == 1 then ok("Neovim " .. version) else err("Neovim " .. version .. ": 0.7 or newer needed") end
  if jit then ok("LuaJIT " .. jit.version .. " with FFI") else err("Neovim is not built with LuaJIT: the FFI is needed") end
  if (vim.uv or vim.loop).new_poll then ok("libuv poll handles (" .. (vim.uv and "vim.uv" or "vim.loop") .. ")") end

  start("emend: libemend")
  local E = require("emend.ffi")
  local session = require("emend.session")
  local lib, lerr, path = E.load(require("emend").library_option)
  if not lib then
    err(lerr, { "Install Emend with scripts/install.sh PREFIX, or set require('emend').setup({ library = '/path/to/libemend.so.0' })" })
    return
  end
  ok("loaded " .. path .. " (ABI " .. lib.emend_abi_version() .. ")")

  start("emend: providers")
  local ready = require("emend").setup({ silent = true })
  if not ready then err("setup failed") return end
  local buf = vim.api.nvim_get_current_buf()
  local had = session.sessions[buf] ~= nil
  local s = session.get(buf, true)
  if not s then err("cannot create a coordinator") return end
  local list = session.providers(s)
  local usable = 0
  local E = require("emend.ffi")
  for _, p in ipairs(list) do
    local line = ("%s %s — %s"):format(p.id, p.version, table.concat(p.tools, ", "))
    local built_in = bit.band(p.flags, E.PROVIDER_FLAG.BUILT_IN) ~= 0
    local network = bit.band(p.flags, E.PROVIDER_FLAG.USES_NETWORK) ~= 0
    if p.id == "org.emend.fixture" or (built_in and p.id:find("fixture", 1, true)) then
      -- A fixed table for tests and examples, not a writing aid: never counted as usable.
      info(line .. ": the built-in test fixture (not a real provider)")
    elseif p.enabled then
      usable = usable + 1
      ok(line)
    elseif network then
      -- Off by design until the user allows the network in config.toml: nothing is wrong.
      info(line .. ": off until you allow it: " .. p.reason)
    else
      warn(line .. ": " .. p.reason)
    end
  end
  if usable == 0 then
    info("Only the built-in fixture provider: build real ones (providers/hunspell, providers/harper, providers/llama) or run scripts/install.sh")
  end
  if not had then session.destroy(s) end

  start("emend: provider hosts")
  local hosts = session.config.hosts or "service"
  local forced = vim.env.EMEND_SERVICE
  if forced == "on" or forced == "1" then
    info("EMEND_SERVICE=" .. forced .. ": the checker service, whatever the `hosts` option (\"" .. hosts .. "\") and config.toml say")
  elseif forced == "off" or forced == "0" then
    info("EMEND_SERVICE=" .. forced .. ": each buffer starts its own provider hosts, whatever the `hosts` option (\"" .. hosts .. "\") and config.toml say")
  elseif hosts == "service" then
    ok("hosts = \"service\": the per-user checker service, shared by every buffer (unless config.toml says [service] hosts = \"process\"); `emend service status` lists it")
  elseif hosts == "own" then
    info("hosts = \"own\": each buffer starts its own provider hosts (the first proofread of every buffer waits for them)")
  elseif hosts == "default" then
    info("hosts = \"default\": config.toml's [service] hosts, else each buffer starts its own provider hosts")
  else
    err("hosts = " .. vim.inspect(hosts) .. ": must be \"service\", \"own\" or \"default\"")
  end

  start("emend: Markdown")
  local ranges, md_err = require("emend.ffi").markdown_protected_ranges("Run `emend`.\n")
  if ranges and #ranges == 1 then ok("libemend protects code, quotes, links, HTML and front matter (emend_markdown_protected_ranges)")
  else err("libemend's Markdown protection does not work: " .. tostring(md_err)) end
end

return M
