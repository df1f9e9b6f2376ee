-- Quitting mid-session: :qall! while a provider runs (a hanging rewrite) and with a proofread
-- open in another buffer. VimLeavePre destroys every coordinator; Neovim must exit 0.
-- tests/run.sh checks the exit status and the file written at VimLeave.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":p:h") .. "/helper.lua")
local api = vim.api
local emend = H.setup()
local S = require("emend.session")
local out = os.getenv("EMEND_QUIT_MARKER")

local b1 = H.buffer({ "We meet tomorow." })
emend.proofread()
H.wait_state("resting")
local b2 = H.buffer({ "This will hang [fixture:hang] until cancelled." })
emend.rewrite("friendly")
H.wait(function() return emend.status(b2).state ~= "inactive" end, 2000)
io.stdout:write(("ok   two sessions open (%s, %s)\n"):format(emend.status(b1).state, emend.status(b2).state))
api.nvim_create_autocmd("VimLeave", { callback = function()
  local n = #vim.tbl_keys(S.sessions)
  if out then
    local f = io.open(out, "w")
    f:write(n == 0 and "destroyed\n" or ("left " .. n .. "\n"))
    f:close()
  end
end })
vim.cmd("qall!")
