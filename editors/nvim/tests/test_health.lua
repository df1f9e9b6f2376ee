-- :checkhealth emend reports the library and the providers; the help file's tags build.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":p:h") .. "/helper.lua")
local api = vim.api
H.setup()

H.test(":checkhealth emend", function()
  vim.cmd("checkhealth emend")
  local text = table.concat(api.nvim_buf_get_lines(0, 0, -1, false), "\n")
  H.check(text:find("ABI 2", 1, true), text)
  H.check(text:find("org.emend.fixture", 1, true), text)
  H.check(text:find("emend_markdown_protected_ranges", 1, true), text)
  H.check(not text:find("ERROR", 1, true), text)
  for _, line in ipairs(vim.split(text, "\n", { plain = true })) do
    if line:find("org.emend.fixture", 1, true) then
      H.check(not line:find("OK", 1, true) and not line:find("WARNING", 1, true), "the fixture is not a usable provider: " .. line)
      H.check(line:find("test fixture", 1, true), line)
    end
  end
end)

H.test("the provider timeout is emend lsp's", function()
  local swift = table.concat(vim.fn.readfile(H.root .. "/../../Sources/EmendLSP/Server/ServerConfiguration.swift"), "\n")
  local lsp = swift:match("providerTimeoutMilliseconds: Int64 = ([%d_]+)")
  H.check(lsp, "the LSP's default in ServerConfiguration.swift")
  H.eq(require("emend.session").config.provider_timeout_ms, tonumber((lsp:gsub("_", ""))))
  local help = table.concat(vim.fn.readfile(H.root .. "/doc/emend.txt"), "\n")
  H.check(help:find("provider_timeout_ms", 1, true), ":help emend-setup names provider_timeout_ms")
end)

H.test("help tags", function()
  local dir = vim.fn.tempname()
  vim.fn.mkdir(dir .. "/doc", "p")
  vim.fn.writefile(vim.fn.readfile(H.root .. "/doc/emend.txt"), dir .. "/doc/emend.txt")
  vim.cmd("helptags " .. vim.fn.fnameescape(dir .. "/doc"))
  local tags = table.concat(vim.fn.readfile(dir .. "/doc/tags"), "\n")
  for _, tag in ipairs({ ":Emend", "emend.setup()", "emend.status()", "hl-EmendSuggestion", "EmendStateChanged" }) do
    H.check(tags:find(tag, 1, true), "tag " .. tag)
  end
end)

H.test(":Emend providers lists the fixture", function()
  local list = require("emend").providers({ silent = true })
  local ids = vim.tbl_map(function(p) return p.id end, list)
  H.check(vim.tbl_contains(ids, "org.emend.fixture"), vim.inspect(ids))
end)

H.test("installed layout: the library is found from PREFIX/lib without options", function()
  local lib = os.getenv("EMEND_LIBRARY")
  local prefix = vim.fn.tempname()
  local dest = prefix .. "/share/nvim/site/pack/emend/start/emend"
  vim.fn.mkdir(prefix .. "/lib", "p")
  vim.fn.mkdir(vim.fn.fnamemodify(dest, ":h"), "p")
  vim.fn.system({ "cp", "-a", H.root, dest })
  vim.loop.fs_symlink(lib, prefix .. "/lib/libemend.so.0")
  local out = vim.fn.system({ "env", "-u", "EMEND_LIBRARY", vim.v.progpath, "--headless", "-u", "NONE", "-i", "NONE", "-n",
    "--cmd", "set rtp^=" .. dest,
    "-c", "lua local ok = require('emend').setup({}); io.stdout:write(tostring(ok) .. ' ' .. tostring(require('emend').library_path))",
    "-c", "qa!" })
  H.eq(vim.trim(out), "true " .. prefix .. "/lib/libemend.so.0")
end)

H.finish()
