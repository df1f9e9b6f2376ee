#!/usr/bin/env bash
# The plugin on a real terminal: Neovim runs in tmux, the keys a person would type are sent
# with send-keys, and the screen is read once with capture-pane (with its colours and
# attributes) to see what the person sees: the marks under the misspelled words, then the
# explanation in a float after `:Emend next`.
#
#   NVIM=... EMEND_LIBRARY=... bash editors/nvim/tests/screen.sh
# Exits nonzero when the screen does not show them.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
plugin="$(cd "$here/.." && pwd)"
: "${NVIM:?set NVIM to the nvim binary}" "${EMEND_LIBRARY:?set EMEND_LIBRARY to libemend.so}"
command -v tmux >/dev/null || { echo "screen.sh: tmux is missing (apt-get install tmux)" >&2; exit 2; }

work="$(mktemp -d)"
session="emend-screen-$$"
trap 'tmux kill-session -t "$session" 2>/dev/null || true; rm -rf "$work"' EXIT
mkdir -p "$work/config" "$work/data" "$work/cache" "$work/state"
printf 'See you tomorow, we go over the the draft.\n' > "$work/notes.txt"
cat > "$work/init.lua" <<LUA
vim.opt.rtp:prepend("$plugin")
vim.o.termguicolors = true
require("emend").setup({ library = "$EMEND_LIBRARY", provider = "org.emend.fixture", proofread = "inline" })
LUA

tmux -f /dev/null new-session -d -s "$session" -x 100 -y 20 \
    "env XDG_CONFIG_HOME=$work/config XDG_DATA_HOME=$work/data XDG_CACHE_HOME=$work/cache XDG_STATE_HOME=$work/state EMEND_PROVIDER_PATH= TERM=tmux-256color '$NVIM' -n -i NONE -u '$work/init.lua' '$work/notes.txt'"
# Wait until Neovim has drawn the file.
for _ in $(seq 1 100); do
    tmux capture-pane -p -t "$session" | grep -q "tomorow" && break
    sleep 0.1
done

screen() { tmux capture-pane -p -e -t "$session"; }
wait_for() {   # wait_for PATTERN: until the screen shows it (5 s)
    for _ in $(seq 1 50); do screen | grep -q -- "$1" && return 0; sleep 0.1; done
    echo "screen.sh: the screen never showed '$1':" >&2
    tmux capture-pane -p -t "$session" >&2
    return 1
}

tmux send-keys -t "$session" ":Emend proofread" Enter
wait_for "tomorrow"
tmux send-keys -t "$session" "gg0" ":Emend next" Enter
wait_for "─"     # the float's border
shot="$(screen)"
echo "$shot" > "$work/screen.txt"
plain="$(tmux capture-pane -p -t "$session")"

fail=0
# The marks: an underline (4, or 4:3 for undercurl) in the SGR codes of the proofread line.
if ! printf '%s' "$shot" | grep "tomorrow" | grep -qE $'\e\\[[0-9;:]*4(:3)?[;m]'; then
    echo "screen.sh: no underline on the corrected line" >&2; fail=1
fi
if ! printf '%s' "$plain" | grep -q "tomorrow"; then echo "screen.sh: the correction is not on screen" >&2; fail=1; fi
if ! printf '%s' "$plain" | grep -qi "misspell\|spelling\|tomorow"; then
    echo "screen.sh: the float shows no explanation" >&2; fail=1
fi
tmux send-keys -t "$session" Escape ":qall!" Enter
if [ "$fail" -ne 0 ]; then
    echo "--- screen:" >&2; printf '%s\n' "$plain" >&2
    exit 1
fi
echo "screen.sh: marks and the explanation's float are on screen"
printf '%s\n' "$plain" | sed 's/^/   | /'
