-- Real providers, when EMEND_PROVIDER_PATH holds them: Hunspell + Harper proofreading
-- together, and (EMEND_TEST_LLAMA=1) a llama.cpp rewrite streaming into the buffer.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":p:h") .. "/helper.lua")
local api = vim.api
local emend = H.setup({ provider = false })
local S = require("emend.session")

local path = os.getenv("EMEND_PROVIDER_PATH") or ""
local ids = vim.tbl_map(function(p) return p.enabled and p.id or nil end, emend.providers({ silent = true }))
local function has(id) return vim.tbl_contains(ids, id) end

if has("org.emend.hunspell") and has("org.emend.harper") then
  H.test("hunspell + harper proofread: marks at byte columns, accept", function()
    local buf = H.buffer({ "Café 😀: we will meet tomorow.", "He go to the store yesterday." })
    emend.proofread()
    H.wait_state("resting", 60000)
    local marks = H.marks(buf)
    H.check(#marks >= 1, "marks: " .. vim.inspect(marks))
    local l1 = api.nvim_buf_get_lines(buf, 0, 1, false)[1]
    local found = false
    for _, m in ipairs(marks) do
      if m[1] == 0 and l1:sub(m[2] + 1, m[4]):lower():find("tomorrow", 1, true) then found = true end
    end
    H.check(found, "the spelling mark covers tomorrow at byte columns: " .. l1 .. " " .. vim.inspect(marks))
    local providers = {}
    for _, sug in ipairs(S.pending(S.get(buf))) do providers[sug.rule_id] = true end
    io.stdout:write("     rules: " .. table.concat(vim.tbl_keys(providers), ", ") .. "\n")
    emend.revert()
    H.wait_state("inactive")
    H.eq(H.text(buf), "Café 😀: we will meet tomorow.\nHe go to the store yesterday.")
  end)
else
  io.stdout:write("skip hunspell + harper: not in EMEND_PROVIDER_PATH (" .. path .. ")\n")
end

if os.getenv("EMEND_TEST_LLAMA") == "1" and has("org.emend.llama") then
  H.test("llama rewrite streams into the buffer, revert byte for byte", function()
    local para = "I do not think we can come tomorrow. We will not be there on time. It is raining and we are tired."
    local buf = H.buffer({ "Intro.", "", para, "", "End." })
    api.nvim_win_set_cursor(0, { 3, 0 })
    local max_gap, last = 0, vim.loop.hrtime()
    local timer = vim.loop.new_timer()
    timer:start(1, 1, function()
      local now = vim.loop.hrtime()
      max_gap = math.max(max_gap, (now - last) / 1e6)
      last = now
    end)
    local states = {}
    api.nvim_create_autocmd("User", { pattern = "EmendStateChanged", callback = function(ev)
      if ev.data then table.insert(states, ev.data.state) end
    end })
    local s = emend.rewrite("concise", { provider = "org.emend.llama" })
    -- A small model may change a fact of the text: the fact guard then presents its result
    -- (with the reason) in a float instead of applying it, and the buffer stays as it was.
    H.wait(function() return s.ended ~= nil or s.presented ~= nil or emend.status(buf).state == "resting" end, 240000, "the model")
    local was_presented = s.presented ~= nil and s.ended == nil
    if was_presented then
      io.stdout:write("     presented, not applied: " .. (s.presented.explanation or "(no reason)") .. "\n")
      H.check(s.presented.explanation ~= nil, "a presented rewrite says why")
      local presented = s.presented
      require("emend.session").answer_presented(s, presented, require("emend.ffi").PRESENTED.DISMISS)
      H.wait_state("inactive")
    end
    timer:stop(); timer:close()
    io.stdout:write(("     %d replaces, first text after %.0f ms, longest main-loop block %.1f ms, states %s\n"):format(
      s.replaces or 0, (s.first_text_ms or 0) - s.started_ms, max_gap, table.concat(states, ",")))
    if was_presented then
      -- checked above
    elseif s.ended and s.ended.status ~= 0 then
      io.stdout:write("     the model's result was refused: " .. s.ended.message .. "\n")
    else
      H.check(vim.tbl_contains(states, "streaming"), "streamed")
      emend.revert()
      H.wait_state("inactive")
    end
    H.eq(api.nvim_buf_get_lines(buf, 0, -1, false), { "Intro.", "", para, "", "End." }, "the original back")
  end)
else
  io.stdout:write("skip llama: set EMEND_TEST_LLAMA=1 with org.emend.llama in EMEND_PROVIDER_PATH\n")
end

H.finish()
