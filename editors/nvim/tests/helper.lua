-- Test helper: loads the plugin from this checkout, sets it up with the fixture provider and
-- reports results. Each test file runs in its own `nvim --headless -u NONE` (tests/run.sh);
-- H.finish() quits with :qall! (0) or :cquit (1).
local H = {}
local api = vim.api

H.root = vim.fn.fnamemodify(debug.getinfo(1, "S").source:gsub("^@", ""), ":p:h:h")
H.failures, H.passed = 0, 0
H.notes = {}

vim.opt.rtp:prepend(H.root)
vim.cmd("runtime plugin/emend.lua")

-- vim.notify is recorded (and still printed).
local orig_notify = vim.notify
vim.notify = function(msg, level, o)
  table.insert(H.notes, { msg = msg, level = level })
  io.stderr:write("notify: " .. tostring(msg) .. "\n")
end

function H.setup(opts)
  -- Apple's inline review unless a test asks for marks only (the plugin's default; test_marks.lua).
  opts = vim.tbl_extend("force", { library = os.getenv("EMEND_LIBRARY"), provider = "org.emend.fixture", proofread = "inline" }, opts or {})
  local ok, err = require("emend").setup(opts)
  if not ok then
    io.stderr:write("setup failed: " .. tostring(err) .. "\n")
    vim.cmd("cquit 1")
  end
  return require("emend")
end

function H.check(cond, msg)
  if not cond then error(msg or "check failed", 2) end
end

function H.eq(got, want, msg)
  if not vim.deep_equal(got, want) then
    error(("%s\n    got:  %s\n    want: %s"):format(msg or "not equal", vim.inspect(got), vim.inspect(want)), 2)
  end
end

function H.test(name, fn)
  local t0 = vim.loop.hrtime()
  local ok, err = xpcall(fn, debug.traceback)
  local ms = (vim.loop.hrtime() - t0) / 1e6
  if ok then
    H.passed = H.passed + 1
    io.stdout:write(("ok   %s (%.0f ms)\n"):format(name, ms))
  else
    H.failures = H.failures + 1
    io.stdout:write(("FAIL %s: %s\n"):format(name, tostring(err)))
  end
  -- leave no session behind for the next test
  pcall(function()
    local S = require("emend.session")
    S.destroy_all()
  end)
  vim.cmd("silent! %bwipeout!")
end

function H.wait(pred, ms, msg)
  local ok = vim.wait(ms or 10000, pred, 5)
  if not ok then error("timed out waiting for " .. (msg or "a condition"), 2) end
end

function H.wait_state(state, ms)
  H.wait(function() return require("emend").status().state == state end, ms,
    "state " .. state .. " (now " .. require("emend").status().state .. ")")
end

function H.buffer(lines, ft)
  local buf = api.nvim_create_buf(true, false)
  api.nvim_set_current_buf(buf)
  api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  if ft then vim.bo[buf].filetype = ft end
  vim.cmd("let &undolevels = &undolevels")
  return buf
end

function H.text(buf)
  return table.concat(api.nvim_buf_get_lines(buf or 0, 0, -1, false), "\n")
end

function H.marks(buf)
  local out = {}
  for _, m in ipairs(api.nvim_buf_get_extmarks(buf or 0, require("emend.session").ns, 0, -1, { details = true })) do
    table.insert(out, { m[2], m[3], m[4].end_row, m[4].end_col, m[4].hl_group })
  end
  return out
end

function H.finish()
  io.stdout:write(("%d passed, %d failed\n"):format(H.passed, H.failures))
  io.stdout:flush()
  if H.failures > 0 then vim.cmd("cquit 1") else vim.cmd("qall!") end
end

return H
