-- The user's dictionary, $XDG_CONFIG_HOME/emend/dictionary.txt (default ~/.config/emend).
-- Words go in through libemend (emend_coordinator_add_word), the same code the `emend`
-- command's interactive review and `emend lsp`'s emend.addToDictionary use: one format, one
-- set of rules for what a word is (trimmed, no white space, not a comment, valid UTF-8), one
-- append per word, in the directory the coordinator was created with. The plugin keeps no
-- writer of its own, so the three front ends cannot drift apart.
local M = {}

-- The directory holding dictionary.txt as the environment names it now (for messages), or
-- nil when neither XDG_CONFIG_HOME nor HOME is set.
function M.directory()
  local xdg = os.getenv("XDG_CONFIG_HOME")
  if xdg and xdg:sub(1, 1) == "/" then return xdg .. "/emend" end
  local home = os.getenv("HOME")
  if home and home ~= "" then return home .. "/.config/emend" end
  return nil
end

function M.path()
  local dir = M.directory()
  return dir and (dir .. "/dictionary.txt") or nil
end

-- Adds `word` through the coordinator of session `s` (a buffer's, or the scratch copy's of
-- marks-only proofreading). Returns true, or nil and the runtime's status and message.
function M.add(s, word)
  return require("emend.session").add_word(s, word)
end

return M
