# Helpers for tests that drive a real terminal program through tmux: a private tmux server per test
# (its own socket under $TMP, no user configuration), a wrapper that records `stty -g` before and
# after the program and its exit status, and polling of `capture-pane` until the expected text shows
# (never a fixed sleep). Source tests/lib/common.sh first.
# shellcheck shell=bash

TMUX_SOCK="$TMP/tmux.0.sock"
_tmux_starts=0
TMUX_TIMEOUT="${TMUX_TIMEOUT:-20}" # seconds a wait may take before the test fails (sanitized builds are slow)

tmux_() { tmux -S "$TMUX_SOCK" "$@"; }

require_tmux() {
	require_cmd tmux
	infocmp tmux-256color >/dev/null 2>&1 || skip "needs the tmux-256color terminfo entry (ncurses-term)"
}

# tmux_start COLS ROWS CMD [ARGS...]: starts CMD in a detached COLSxROWS pane through the wrapper.
# The wrapper writes $TMP/stty.before, $TMP/stty.after and $TMP/status, then prints
# "WRAPPER-DONE status=N" and keeps the pane for capture. Extra environment for CMD goes in
# TMUX_ENV (an array of NAME=VALUE).
tmux_start() {
	local cols=$1 rows=$2 q arg
	shift 2
	q=""
	for arg in "$@"; do q+=" $(printf '%q' "$arg")"; done
	cat >"$TMP/tmux.conf" <<-EOF
		set -g status off
		set -g remain-on-exit on
		set -g escape-time 0
		set -g default-terminal tmux-256color
		set -g history-limit 100
	EOF
	# The wrapper traps SIGINT so that Ctrl-C reaches only the program (a trapped signal is reset
	# to its default in the child) and the wrapper lives on to report.
	cat >"$TMP/wrapper.sh" <<-EOF
		trap ':' INT
		cd $(printf '%q' "$TMP")
		stty -g >stty.before
		env ${TMUX_ENV[*]:-} $q
		echo \$? >status
		stty -g >stty.after
		echo "WRAPPER-DONE status=\$(cat status)"
		if cmp -s stty.before stty.after; then echo "STTY-SAME"; else echo "STTY-CHANGED"; fi
	EOF
	rm -f "$TMP/status" "$TMP/stty.before" "$TMP/stty.after"
	# A new server (socket) for each start: a server still shutting down from an earlier start
	# must not meet this one.
	_tmux_starts=$((_tmux_starts + 1))
	TMUX_SOCK="$TMP/tmux.$_tmux_starts.sock"
	tmux -S "$TMUX_SOCK" -f "$TMP/tmux.conf" new-session -d -s fst -x "$cols" -y "$rows" \
		"bash $TMP/wrapper.sh" || fail "tmux new-session failed"
	on_exit "tmux -S '$TMUX_SOCK' kill-server"
}

tmux_capture() { tmux_ capture-pane -p -t fst "$@"; }

# The pane with its escape sequences (attributes and colours), for the colour tests.
tmux_capture_escapes() { tmux_ capture-pane -p -e -t fst; }

tmux_keys() { tmux_ send-keys -t fst "$@"; }

# tmux_type TEXT: literal text, no key names.
tmux_type() { tmux_ send-keys -t fst -l "$1"; }

_tmux_dump() {
	echo "--- pane:" >&2
	tmux_capture >&2 || true
	echo "---" >&2
}

# tmux_wait TEXT [SECONDS]: polls the pane until TEXT (fixed string) appears.
tmux_wait() {
	local text=$1 limit=${2:-$TMUX_TIMEOUT} start=$SECONDS
	while ! tmux_capture 2>/dev/null | grep -qF -- "$text"; do
		if ((SECONDS - start >= limit)); then
			_tmux_dump
			fail "timed out after ${limit}s waiting for '$text' in the pane"
		fi
		sleep 0.05
	done
}

# tmux_wait_gone TEXT [SECONDS]: polls until TEXT is no longer on the pane.
tmux_wait_gone() {
	local text=$1 limit=${2:-$TMUX_TIMEOUT} start=$SECONDS
	while tmux_capture 2>/dev/null | grep -qF -- "$text"; do
		if ((SECONDS - start >= limit)); then
			_tmux_dump
			fail "timed out after ${limit}s waiting for '$text' to go"
		fi
		sleep 0.05
	done
}

# tmux_wait_line PATTERN_A PATTERN_B: polls until one line holds both fixed strings.
tmux_wait_line() {
	local a=$1 b=$2 limit=${3:-$TMUX_TIMEOUT} start=$SECONDS
	while ! tmux_capture 2>/dev/null | grep -F -- "$a" | grep -qF -- "$b"; do
		if ((SECONDS - start >= limit)); then
			_tmux_dump
			fail "timed out after ${limit}s waiting for a line with '$a' and '$b'"
		fi
		sleep 0.05
	done
}

# tmux_wait_row ROW TEXT [SECONDS]: polls until row ROW (1-based) of the pane holds TEXT.
tmux_wait_row() {
	local row=$1 text=$2 limit=${3:-$TMUX_TIMEOUT} start=$SECONDS
	while ! tmux_capture 2>/dev/null | sed -n "${row}p" | grep -qF -- "$text"; do
		if ((SECONDS - start >= limit)); then
			_tmux_dump
			fail "timed out after ${limit}s waiting for '$text' on row $row"
		fi
		sleep 0.05
	done
}

# _tmux_settle: waits (2 s at most) until the pane has looked the same for 0.1 s: a key sent with
# nothing on screen to wait for has then been read and drawn.
_tmux_settle() {
	local prev="" cur start=$SECONDS
	while ((SECONDS - start < 2)); do
		cur=$(tmux_capture)
		[ "$cur" = "$prev" ] && return 0
		prev=$cur
		sleep 0.1
	done
}

# tmux_select CURSOR TEXT [MAX]: presses Down (from the top: Home first) until the line holding the
# cursor mark CURSOR also holds TEXT. The list's own cursor is followed, not a count of rows.
tmux_select() {
	local cursor=$1 text=$2 max=${3:-60} i before
	tmux_keys Home
	_tmux_settle
	for ((i = 0; i < max; i++)); do
		before=$(tmux_capture | grep -F -- "$cursor" || true)
		if printf '%s\n' "$before" | grep -qF -- "$text"; then
			return 0
		fi
		tmux_keys Down
		# Wait for the cursor line to change. When it does not, the cursor is at the end of the list:
		# start again from the top (a Home read late would have sent the search off the end).
		local start=$SECONDS
		while [ "$(tmux_capture | grep -F -- "$cursor" || true)" = "$before" ]; do
			if ((SECONDS - start >= 2)); then
				tmux_keys Home
				_tmux_settle
				break
			fi
			sleep 0.05
		done
	done
	_tmux_dump
	fail "no row with '$text' under the cursor after $max moves"
}

# tmux_wait_exit [SECONDS]: waits until the wrapper has ended (the pane is dead) and prints the
# program's exit status.
tmux_wait_exit() {
	local limit=${1:-$TMUX_TIMEOUT} start=$SECONDS
	while [ "$(tmux_ display-message -p -t fst '#{pane_dead}' 2>/dev/null)" != 1 ] || [ ! -s "$TMP/status" ]; do
		if ((SECONDS - start >= limit)); then
			_tmux_dump
			fail "timed out after ${limit}s waiting for the program to end"
		fi
		sleep 0.05
	done
	cat "$TMP/status"
}

# tmux_assert_stty_same: the program left the terminal settings as it found them.
tmux_assert_stty_same() {
	[ -s "$TMP/stty.before" ] || fail "no stty -g before the program"
	cmp -s "$TMP/stty.before" "$TMP/stty.after" ||
		fail "stty settings changed: before '$(cat "$TMP/stty.before")' after '$(cat "$TMP/stty.after")'"
}

tmux_pane_pid() { tmux_ display-message -p -t fst '#{pane_pid}'; }

# The wizard's pid: the wrapper's child.
tmux_program_pid() {
	local wrapper pid start=$SECONDS
	wrapper=$(tmux_pane_pid)
	while ! pid=$(pgrep -P "$wrapper" | head -n 1) || [ -z "$pid" ]; do
		((SECONDS - start < TMUX_TIMEOUT)) || fail "no program under the wrapper $wrapper"
		sleep 0.05
	done
	# `env` execs the program, so the child is the program itself.
	echo "$pid"
}

tmux_resize() { tmux_ resize-window -t fst -x "$1" -y "$2"; }
