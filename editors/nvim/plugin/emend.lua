-- The :Emend command and the highlight groups. Nothing is loaded (no library, no FFI) until
-- the command or require("emend").setup() is used.
if vim.g.loaded_emend then return end
vim.g.loaded_emend = true

vim.api.nvim_set_hl(0, "EmendSuggestion", { link = "DiagnosticUnderlineWarn", default = true })
vim.api.nvim_set_hl(0, "EmendWorking", { link = "Visual", default = true })

vim.api.nvim_create_user_command("Emend", function(cmd)
  require("emend").command(cmd)
end, {
  nargs = "+",
  range = true,
  desc = "Emend Writing Tools: proofread, rewrite, summary, ...",
  complete = function(arglead, cmdline, pos)
    return require("emend").complete(arglead, cmdline, pos)
  end,
})
