#!/bin/bash
# Strings anyone can write reach the terminal as text: a hand-written facts file whose device model
# holds an OSC title sequence, a bell, a screen clear, a carriage return, a line break and a C1 CSI,
# and whose sysctl.d owner is a file name with a line break in it, and a rule whose title quotes
# that model and holds line breaks itself. The text and Markdown reports, fstune compare on two
# such reports, and the wizard's Detected and Advice screens hold no control character but line
# breaks (and tabs): each is written visibly (\x1b, \u009b), every title and name on one line, and
# the JSON report keeps the bytes as they were.
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
. "$FSTUNE_SRCDIR/tests/lib/tmux.sh"
. "$FSTUNE_SRCDIR/tests/lib/ui.sh"
require_cmd jq

model=$'WDC\e]0;pwned\a\e[2J\rX\nY\xc2\x9b31m'
jq -n --arg m "$model" '{
  schema: "fstune.facts/1",
  host: {kernel: "6.1.0", target_os: "linux", mem_total_bytes: 17179869184},
  vm: {dirty_ratio: 20, dirty_background_ratio: 10, dirty_bytes: 0, dirty_background_bytes: 0},
  owners: {sysctl: {vm: {dirty_ratio: [{kind: "sysctl.d", path: "/etc/sysctl.d/99-a\nb.conf", line: 1,
                                        key: "vm.dirty_ratio", value: "20", wins: true}]}}},
  device: {name: "sdb", disk: "sdb", transport: "sata", rotational: true, model: $m, size_bytes: 80026361856},
  fs: {type: "ext4", block_size: 2048, fragment_size: 2048,
       features: ["has_journal", "extent", "filetype", "flex_bg"], mount_point: "/srv/mail"}
}' >"$TMP/facts.json"
# A rule quoting a fact in its title, which has line breaks of its own.
test_rule quote quote "a rule that quotes the model" "Quotes device.model in a title with line breaks." \
	'{"sysctl.vm.dirty_ratio"}' '{"device.model"}' <<'EOF'
	check = function(facts)
		return {{name = "model", severity = "info", confidence = 1,
			title = "the disk\nis " .. facts.device.model .. "\tsee\nbelow",
			rationale = "Line one.\nLine two quotes " .. facts.device.model .. ".",
			evidence = {"device.model"}},
			{name = "ratio", severity = "info", confidence = 1, setting = "sysctl.vm.dirty_ratio",
			current = 20, recommended = 10, title = "a lower dirty ratio", rationale = "A test.",
			evidence = {"vm.dirty_ratio"}}}
	end,
	tests = {{name = "a model", facts = {device = {model = "m"}}, expect = {"model", "ratio"}}},
EOF
R=(--no-system-rules --rules-dir "$TMP/rules" --facts "$TMP/facts.json")

run_status 0 "$FSTUNE" report "${R[@]}"
cp "$TMP/out" "$TMP/report.txt"
no_controls "$TMP/report.txt" "the text report"
grep -qF 'WDC\x1b]0;pwned\x07\x1b[2J\x0dX\x0aY\u009b31m' "$TMP/report.txt" ||
	fail "the model is not shown visibly: $(grep -a WDC "$TMP/report.txt" | cat -v)"
# (what a rule returns has its control characters stripped; the line breaks of a title become spaces)
grep -qF '[INFO] the disk is WDC]0;pwned[2JX Y31m see below' "$TMP/report.txt" ||
	fail "the title is not one line: $(grep -a -A2 'the disk' "$TMP/report.txt" | cat -v)"
grep -qF '/etc/sysctl.d/99-a\x0ab.conf:1' "$TMP/report.txt" ||
	fail "the owner's file name is not one line: $(grep -a -A1 'sysctl.d' "$TMP/report.txt" | cat -v)"
run_status 0 "$FSTUNE" report "${R[@]}" --format markdown
no_controls "$TMP/out" "the Markdown report"
grep -qa 'INFO: the disk is WDC.*0;pwned.*2JX Y31m see below$' "$TMP/out" || fail "the Markdown title: $(grep -a 'the disk' "$TMP/out" | cat -v)"

# JSON keeps the bytes; the title is one line there too.
run_status 0 "$FSTUNE" report "${R[@]}" --format json
cp "$TMP/out" "$TMP/a.json"
assert_eq "$(jq -r .facts.device.model "$TMP/a.json")" "$model" "the model in the JSON report"
assert_eq "$(jq -r '.recommendations[] | select(.id == "quote.model") | .title' "$TMP/a.json")" \
	"the disk is WDC]0;pwned[2JX Y31m see below" "the title in the JSON report"
jq '.facts.device.model = "other\u001b[5m"' "$TMP/a.json" >"$TMP/b.json"
run_status 0 "$FSTUNE" compare "$TMP/a.json" "$TMP/b.json"
no_controls "$TMP/out" "fstune compare"
grep -qF 'WDC\x1b]0;pwned' "$TMP/out" && grep -qF 'other\x1b[5m' "$TMP/out" || fail "compare does not show the models: $(cat -v "$TMP/out" | head -20)"

# The wizard: Detected shows the model, Advice the title, each visibly on its line.
require_tmux
ui_open_target 100 30 "sdb" "${R[@]}"
tmux_keys Enter
tmux_wait "Detected:"
# The value column wraps the model (no blanks to break at), so it is found as the two lines it takes
# at 100 columns.
ui_scroll_find 'model                        WDC\x1b]0;pwned\x07\x1b[2J\'
tmux_wait '                             x0dX\x0aY\u009b31m' 2
ui_detected_to_advice
ui_scroll_find 'the disk is WDC]0;pwned[2JX Y31m see below'
tmux_keys q
assert_eq "$(tmux_wait_exit)" 0 "the wizard's exit status after q"
tmux_assert_stty_same
ui_assert_no_sanitizer_report
echo ok
