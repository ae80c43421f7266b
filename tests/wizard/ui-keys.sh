#!/bin/bash
# `?` on every screen lists every key that screen handles: the keys are read from the keymap tables
# in app/wizard/*.c (the same tables that drive the dispatch) and each must appear in the help's key
# column; and the moves and edits do what it says on every list and in the custom form. Runs on
# hand-written facts, so it needs tmux but not root.
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
. "$FSTUNE_SRCDIR/tests/lib/tmux.sh"
. "$FSTUNE_SRCDIR/tests/lib/ui.sh"
require_tmux

# The display names of the key codes used in the tables (keymap.c's ui_key_name).
key_name() {
	case "$1" in
	KEY_UP) echo Up ;; KEY_DOWN) echo Down ;; KEY_LEFT) echo Left ;; KEY_RIGHT) echo Right ;;
	KEY_PPAGE) echo PgUp ;; KEY_NPAGE) echo PgDn ;; KEY_HOME) echo Home ;; KEY_END) echo End ;;
	KEY_ENTER | "'\\r'" | "'\\n'") echo Enter ;; KEY_BACKSPACE | 127) echo Backspace ;;
	KEY_DC) echo Delete ;; KEY_BTAB) echo Shift-Tab ;; "'\\t'") echo Tab ;; 27 | KEY_ESC) echo Esc ;;
	"KEY_F(1)") echo F1 ;; "' '") echo Space ;; 1) echo Ctrl-A ;; 5) echo Ctrl-E ;; 8) echo Ctrl-H ;;
	21) echo Ctrl-U ;; "'"?"'") echo "${1:1:1}" ;;
	*) fail "ui-keys.sh does not know the key code '$1': add it to key_name" ;;
	esac
}

# keys_of FILE TABLE: the display names of the keys in `static const struct ui_key TABLE[]`.
keys_of() {
	local file=$FSTUNE_SRCDIR/app/wizard/$1 table=$2 code
	awk -v t="$table" '
		$0 ~ "struct ui_key " t "\\[\\] = \\{" { on = 1; next }
		on && /^};/ { exit }
		on && /^\tUI_KEYS_UP_DOWN\(/ { print "KEY_UP"; print "\047k\047"; print "KEY_DOWN"; print "\047j\047"; next }
		on && /^\tUI_KEYS_PAGES\(/ { print "KEY_PPAGE"; print "KEY_NPAGE"; next }
		on && /^\tUI_KEYS_ENDS\(/ { print "KEY_HOME"; print "KEY_END"; next }
		on && /^\tUI_KEYS_SCROLL,/ {
			print "KEY_UP"; print "\047k\047"; print "KEY_DOWN"; print "\047j\047"
			print "KEY_PPAGE"; print "KEY_NPAGE"; print "\047 \047"; print "KEY_HOME"; print "KEY_END"; next
		}
		on && /^\tUI_KEYS_ENTER_OR\(/ { sub(/^\tUI_KEYS_ENTER_OR\(/, ""); sub(/, .*/, ""); print "\047\\r\047"; print; next }
		on && /^\tUI_KEYS_EDIT\(/ {
			print "KEY_LEFT"; print "KEY_RIGHT"; print "KEY_HOME"; print 1; print "KEY_END"; print 5
			print "KEY_BACKSPACE"; print 127; print 8; print "KEY_DC"; print 21; next
		}
		on && /^\t\{/ { sub(/^\t\{/, ""); sub(/, .*/, ""); print }
	' "$file" | while IFS= read -r code; do
		[ "$code" = 0 ] || key_name "$code"
	done | sort -u
}

# help_keys: the key names in the help overlay's key column (the text before the description), on
# every page of it (PgDn until the page stays the same).
help_keys() {
	local page prev=""
	while page=$(tmux_capture) && [ "$page" != "$prev" ]; do
		printf '%s\n' "$page"
		prev=$page
		tmux_keys NPage
		_tmux_settle
	done | sed -n 's/^.\{0,4\}│   \(.\{18\}\) .*/\1/p; s/^.\{0,4\}|   \(.\{18\}\) .*/\1/p' |
		tr ',' '\n' | sed 's/^ *//; s/ *$//' | grep -v '^$' | sort -u
	tmux_keys Home
}

# check_help SCREEN_TITLE FILE TABLE: opens the help (with KEY), compares, closes it.
check_help() {
	local what=$1 file=$2 table=$3 open=${4:-?} k missing=""
	tmux_keys "$open"
	tmux_wait "Everywhere"
	help_keys >"$TMP/help.keys"
	{ keys_of "$file" "$table"; keys_of keymap.c "${5:-ui_global_keys}"; } >"$TMP/want.keys"
	while IFS= read -r k; do
		grep -qxF -- "$k" "$TMP/help.keys" || missing+=" $k"
	done <"$TMP/want.keys"
	[ -z "$missing" ] || { _tmux_dump; fail "$what: the help does not list:$missing"; }
	# The help's own keys are in its bottom edge, from its table.
	keys_of loop.c help_keys >"$TMP/want.keys"
	while IFS= read -r k; do
		tmux_capture | tail -n 2 | grep -qF -- "$k" || fail "$what: the help's edge lacks its key $k"
	done <"$TMP/want.keys"
	tmux_capture | tail -n 2 | grep -qF -- " close " || { _tmux_dump; fail "$what: the help's edge is cut"; }
	tmux_keys Escape
	tmux_wait_gone "Everywhere"
}

cat >"$TMP/facts.json" <<'JSON'
{"schema": "fstune.facts/1",
 "device": {"name": "sdb", "transport": "sata", "rotational": true},
 "fs": {"type": "ext4", "block_size": 2048, "features": ["has_journal", "extent"]}}
JSON
tmux_start 80 24 "$FSTUNE" --no-system-rules --facts "$TMP/facts.json"
tmux_wait "Target:"
check_help Target scr_target.c target_keys
tmux_keys Enter
tmux_wait "Workload:"
check_help Workload scr_workload.c workload_keys
# The custom form takes text: F1 opens its help.
tmux_select "$CURSOR" "custom"
tmux_keys Enter
tmux_wait "Custom workload"
check_help Custom scr_custom.c custom_keys F1 ui_text_global_keys
tmux_keys Escape
tmux_wait_gone "Custom workload"
tmux_select "$CURSOR" "general"
tmux_keys Enter
tmux_wait "Detected:"
check_help Detected scr_detected.c detected_keys
tmux_keys Enter
tmux_wait "Benchmarks:"
check_help Bench scr_bench.c bench_keys
tmux_select "$CURSOR" "none"
tmux_keys Enter
tmux_wait "Advice:"
tmux_keys BTab
tmux_wait "Charts:"
check_help Charts scr_charts.c charts_keys
tmux_keys Enter
tmux_wait "Advice:"
check_help Advice scr_advice.c advice_keys
tmux_keys Enter
tmux_wait "Rule:"
check_help Detail scr_detail.c detail_keys
tmux_keys Escape
tmux_wait "Advice:"
tmux_keys s
tmux_wait "Save:"
check_help Save scr_save.c save_keys
tmux_keys Enter
tmux_wait "Save the report as"
# In the prompt every printable key is text: F1 opens the help, and `?` is typed.
check_help Prompt scr_prompt.c prompt_keys F1 ui_text_global_keys
tmux_keys Escape
tmux_wait "cancelled"
tmux_keys q
assert_eq "$(tmux_wait_exit)" 0 "exit status after q"
tmux_assert_stty_same

# The keys do what the help says. Every list: End and PgDn go to its last row, Home and PgUp to
# its first (each list here is shorter than a page). The custom form: Backspace on an empty first
# field stays there (it once wrapped to the last field, and the next key replaced that one's value).
# check_ends WHAT FIRST LAST: the cursor's row after each of the four keys.
check_ends() {
	local what=$1 first=$2 last=$3 key want
	for key in End Home NPage PPage; do
		case $key in End | NPage) want=$last ;; *) want=$first ;; esac
		tmux_keys "$key"
		tmux_wait_line "$CURSOR" "$want" || fail "$what: $key does not reach '$want'"
	done
}
tmux_start 80 24 "$FSTUNE" --no-system-rules --facts "$FSTUNE_SRCDIR/tests/facts/ext4-dir-index-off.json"
tmux_wait "Target:"
tmux_keys Enter
tmux_wait "Workload:"
check_ends Workload "as given" "observe"
tmux_select "$CURSOR" "custom"
tmux_keys Enter
tmux_wait "Custom workload"
tmux_keys C-u BSpace BSpace BSpace
tmux_type "7"
tmux_wait_line "file sizes (MIN-MAX)" " 7 "
tmux_wait_line "sync-heavy" " no "
tmux_keys Escape
tmux_wait_gone "Custom workload"
tmux_select "$CURSOR" "as given"
tmux_keys Enter
tmux_wait "Detected:"
tmux_keys Enter
tmux_wait "Benchmarks:"
check_ends Bench "none " "full "
tmux_keys Home Enter
tmux_wait "Advice:"
first=$(tmux_capture | grep -F "$CURSOR" | cut -c1-40)
tmux_keys End
tmux_wait_gone "$first"
tmux_keys Home
tmux_wait "$first"
tmux_keys s
tmux_wait "Save:"
check_ends Save "text        for reading" "scripts     apply.sh"
tmux_keys q
assert_eq "$(tmux_wait_exit)" 0 "exit status after q (the keys' walk)"
tmux_assert_stty_same

# The keypad's Enter is Enter everywhere, the help and the detail too: a terminal whose terminfo
# names it (xterm's kent, ESC O M) sends it as KEY_ENTER. Only keys whose xterm and tmux encodings
# agree from here on (tmux sends Home as its own khome, which xterm's terminfo does not know).
TMUX_ENV+=(TERM=xterm)
tmux_start 80 24 "$FSTUNE" --no-system-rules --facts "$TMP/facts.json"
tmux_wait "Target:"
tmux_keys KPEnter
tmux_wait "Workload:"
tmux_keys KPEnter
tmux_wait "Detected:"
tmux_keys "?"
tmux_wait "Everywhere"
tmux_keys KPEnter
tmux_wait_gone "Everywhere"
tmux_keys KPEnter
tmux_wait "Benchmarks:"
tmux_keys KPEnter
tmux_wait "Advice:"
tmux_keys KPEnter
tmux_wait "Rule:"
tmux_keys KPEnter
tmux_wait_gone "Rule:"
tmux_wait "Advice:"
tmux_keys q
assert_eq "$(tmux_wait_exit)" 0 "exit status after q (keypad Enter walk)"
tmux_assert_stty_same
ui_assert_no_sanitizer_report
