-- A proofread whose second checker runs past its time limit is partial, and the plugin says
-- so with vim.notify (a warning naming the checker and the setting to raise) while the
-- suggestions of the checker that answered are shown. The slow checker is the built-in
-- test checker EMEND_FIXTURE_SLOW_CHECKER_MS turns on, listed with the fixture in config.toml.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":p:h") .. "/helper.lua")

local function configure(slow_ms, timeout_ms)
  vim.env.EMEND_FIXTURE_SLOW_CHECKER_MS = tostring(slow_ms)
  local dir = vim.env.XDG_CONFIG_HOME .. "/emend"
  vim.fn.mkdir(dir, "p")
  vim.fn.writefile({
    "[tools]",
    'proofread = ["org.emend.fixture", "org.emend.fixture.slow"]',
    '[providers."org.emend.fixture.slow"]',
    "timeout_ms = " .. timeout_ms,
  }, dir .. "/config.toml")
end

-- Not one named provider: the registry's combination of the two checkers.
local emend = H.setup({ provider = false })

local function warnings()
  local out = {}
  for _, n in ipairs(H.notes) do
    if n.level == vim.log.levels.WARN and tostring(n.msg):find("partial result", 1, true) then table.insert(out, n.msg) end
  end
  return out
end

H.test("partial: a late checker is a warning beside the suggestions of the other", function()
  configure(20000, 300)
  H.notes = {}
  H.buffer({ "See you tomorow." })
  H.check(emend.proofread())
  H.wait_state("resting")
  H.eq(emend.status().pending, 1, "the suggestion of the checker that answered")
  H.wait(function() return #warnings() > 0 end, 5000, "a partial-result warning")
  local message = warnings()[1]
  H.check(message:find("org.emend.fixture.slow did not finish within 300 ms", 1, true), message)
  H.check(message:find('[providers."org.emend.fixture.slow"] timeout_ms', 1, true), message)
  H.eq(#warnings(), 1, "told once")
end)

H.test("partial: a checker within its limit says nothing", function()
  configure(50, 20000)
  H.notes = {}
  H.buffer({ "See you tomorow." })
  H.check(emend.proofread())
  H.wait_state("resting")
  H.eq(emend.status().pending, 1)
  vim.wait(200)
  H.eq(warnings(), {}, "a whole result")
end)

H.test("partial: a failed check says why, once, and is not called partial", function()
  configure(20000, 300)
  H.notes = {}
  H.buffer({ "This text asks for a failure [fixture:fail] tomorow." })
  H.check(emend.proofread())
  H.wait(function() return #H.notes > 0 end, 5000, "a notification")
  H.wait_state("inactive")
  vim.wait(300)
  H.eq(#H.notes, 1, "one message: " .. vim.inspect(H.notes))
  H.eq(H.notes[1].level, vim.log.levels.ERROR)
  local message = tostring(H.notes[1].msg)
  H.check(message:find("the text asked for a failure", 1, true), message)
  H.check(message:find("org.emend.fixture.slow did not finish within 300 ms", 1, true), "says why the other gave nothing: " .. message)
  H.check(not message:find("partial", 1, true) and not message:find("left out", 1, true), message)
end)

H.finish()
