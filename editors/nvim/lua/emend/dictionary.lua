-- The user's dictionary, $XDG_CONFIG_HOME/emend/dictionary.txt (default ~/.config/emend),
-- written straight from Lua in the format every part of Emend reads (PersonalDictionary in
-- Sources/EmendProviders/Config): one word a line, UTF-8, `#` starts a comment line. Why not
-- through libemend: the file is the interface, so the plugin needs no new C entry point,
-- and every proofreading provider reads it again at its next check.
local M = {}

-- The directory holding dictionary.txt, or nil when neither XDG_CONFIG_HOME nor HOME is set.
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

-- The words in the file (a set), trimmed, without comments and blank lines.
function M.words()
  local set = {}
  local path = M.path()
  local f = path and io.open(path, "rb")
  if not f then return set end
  for line in f:lines() do
    local word = line:gsub("\r$", ""):match("^%s*(.-)%s*$")
    if word ~= "" and word:sub(1, 1) ~= "#" then set[word] = true end
  end
  f:close()
  return set
end

-- Appends `word` (no-op when it is there). Returns true, or nil and the reason.
function M.add(word)
  word = (word or ""):match("^%s*(.-)%s*$")
  if word == "" then return nil, "an empty word cannot be added" end
  if word:sub(1, 1) == "#" then return nil, "a word cannot start with #" end
  if word:find("[%s%c]") then return nil, "a word cannot contain white space: \"" .. word .. "\"" end
  local path = M.path()
  if not path then return nil, "no configuration directory: set XDG_CONFIG_HOME or HOME" end
  if M.words()[word] then return true end
  vim.fn.mkdir(M.directory(), "p")
  -- Start on a line of its own when the file does not end with a newline.
  local prefix = ""
  local r = io.open(path, "rb")
  if r then
    local size = r:seek("end")
    if size and size > 0 then
      r:seek("set", size - 1)
      if r:read(1) ~= "\n" then prefix = "\n" end
    end
    r:close()
  end
  local f, err = io.open(path, "ab")
  if not f then return nil, path .. ": " .. tostring(err) end
  f:write(prefix .. word .. "\n")
  f:close()
  return true
end

return M
