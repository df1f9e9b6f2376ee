-- Where the checkers' processes run (the `hosts` option, :help emend-service): by default
-- every buffer's coordinator uses the one per-user checker service, so a second buffer
-- finds the checker's host already running; with hosts = "own" each buffer starts its own,
-- a child of Neovim. A real plugin through discovery (the C example; run.sh builds it into
-- EMEND_PROVIDER_PATH), and XDG_RUNTIME_DIR of this test's own: the user's service is never
-- touched. The service's pid goes to EMEND_SERVICE_PID_FILE for run.sh to stop it.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":p:h") .. "/helper.lua")
local emend = H.setup({ provider = "org.emend.example.c" })
local S = require("emend.session")

local runtime = os.getenv("XDG_RUNTIME_DIR") or ""
local original = "See you tomorow."

-- { pid, ppid, comm } of every live process (from /proc/PID/stat).
local function processes()
  local out = {}
  for _, name in ipairs(vim.fn.readdir("/proc")) do
    if name:match("^%d+$") then
      local f = io.open("/proc/" .. name .. "/stat", "r")
      local line = f and f:read("*a")
      if f then f:close() end
      -- "pid (comm) state ppid ...": comm may hold spaces, so from the last ')'.
      local comm, rest = (line or ""):match("^%d+ %((.*)%) (.*)$")
      local state, ppid = (rest or ""):match("^(%S) (%d+)")
      if comm and state ~= "Z" then table.insert(out, { pid = tonumber(name), ppid = tonumber(ppid), comm = comm }) end
    end
  end
  return out
end

local function read(path)
  local f = io.open(path, "rb")
  if not f then return "" end
  local data = f:read("*a")
  f:close()
  return data
end

-- Provider hosts (emend-provider-host, comm cut to 15 characters) whose parent is `parent`.
local function hosts_of(parent)
  local n = 0
  for _, p in ipairs(processes()) do
    if p.ppid == parent and p.comm == "emend-provider-" then n = n + 1 end
  end
  return n
end

-- The checker service of this test's runtime directory: `emend-provider-host --service`
-- with our XDG_RUNTIME_DIR in its environment.
local function services()
  local found = {}
  for _, p in ipairs(processes()) do
    if p.comm == "emend-provider-" then
      local argv = vim.split(read("/proc/" .. p.pid .. "/cmdline"), "\0", { plain = true })
      local env = "\0" .. read("/proc/" .. p.pid .. "/environ")
      if vim.tbl_contains(argv, "--service") and env:find("\0XDG_RUNTIME_DIR=" .. runtime .. "\0", 1, true) then
        table.insert(found, p.pid)
      end
    end
  end
  return found
end

-- Proofreads `buf` (inline: the correction is applied) and waits for the result.
local function proofread(buf)
  vim.api.nvim_set_current_buf(buf)
  emend.proofread()
  H.wait(function() return emend.status(buf).state == "resting" end, 120000, "the proofread of buffer " .. buf)
  H.eq(H.text(buf), "See you tomorrow.", "buffer " .. buf .. " is corrected")
end

local function revert(buf)
  vim.api.nvim_set_current_buf(buf)
  emend.revert()
  H.wait(function() return emend.status(buf).state == "inactive" end, 10000, "revert")
  H.eq(H.text(buf), original, "revert gives buffer " .. buf .. " back byte for byte")
end

H.check(runtime:sub(1, 1) == "/", "run.sh gives this test an XDG_RUNTIME_DIR of its own")
H.check(os.getenv("EMEND_SERVICE") == nil, "EMEND_SERVICE would decide instead of the plugin")
local ids = vim.tbl_map(function(p) return p.enabled and p.id or nil end, emend.providers({ silent = true }))
H.check(vim.tbl_contains(ids, "org.emend.example.c"), "the C example plugin is in EMEND_PROVIDER_PATH: " .. vim.inspect(ids))

local nvim = vim.fn.getpid()
local service

H.test("two buffers proofread through one checker service (hosts = \"service\", the default)", function()
  H.eq(S.config.hosts, "service", "the plugin asks for the service by default")
  H.eq(#services(), 0, "no service runs in this test's runtime directory before")
  local a, b = H.buffer({ original }), H.buffer({ original })
  proofread(a)
  proofread(b)
  H.eq(hosts_of(nvim), 0, "no provider host is Neovim's child")
  local found = services()
  H.eq(#found, 1, "one checker service")
  service = found[1]
  local pidfile = os.getenv("EMEND_SERVICE_PID_FILE")
  if pidfile then
    local f = assert(io.open(pidfile, "w"))
    f:write(tostring(service), "\n")
    f:close()
  end
  H.eq(hosts_of(service), 1, "one host in the service serves both buffers")
  io.stdout:write(("     service pid %d, its hosts: %d\n"):format(service, hosts_of(service)))
  revert(a)
  revert(b)
end)

H.test("a buffer opened later uses the same service", function()
  H.check(service, "the first test found the service")
  local c = H.buffer({ original })
  proofread(c)
  H.eq(services(), { service }, "the same service")
  H.eq(hosts_of(service), 1, "its host, already running")
  H.eq(hosts_of(nvim), 0, "no provider host is Neovim's child")
  revert(c)
end)

H.test("hosts = \"own\": each buffer starts its own host, Neovim's child", function()
  emend.setup({ hosts = "own" })
  local a, b = H.buffer({ original }), H.buffer({ original })
  proofread(a)
  proofread(b)
  H.eq(hosts_of(nvim), 2, "a host per buffer")
  revert(a)
  revert(b)
  emend.setup({ hosts = "service" })
end)

H.test("an unknown hosts value is refused and changes nothing", function()
  emend.setup({ hosts = "shared" })
  local buf = H.buffer({ original })
  emend.proofread()
  local said = H.notes[#H.notes] and H.notes[#H.notes].msg or ""
  H.check(said:find("hosts must be", 1, true), "the error says what hosts may be: " .. said)
  H.eq(H.text(buf), original)
  emend.setup({ hosts = "service" })
end)

H.finish()
