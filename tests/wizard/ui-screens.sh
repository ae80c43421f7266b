#!/bin/bash
# What the wizard's screens say, at 80 columns: no notes meant for developers (Target, Workload);
# Detected marks with `!` the fact a warning is about (features for dir_index, not the filesystem
# type the rule also read); a title longer than its column is wrapped in Advice and in the detail,
# never cut; and the detail of a change that takes effect now shows the persistent form the Advice
# heading promises. Runs on hand-written facts, so it needs tmux but not root.
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
. "$FSTUNE_SRCDIR/tests/lib/tmux.sh"
. "$FSTUNE_SRCDIR/tests/lib/ui.sh"
require_tmux

# no_dev_notes WHERE: the pane holds none of the notes that promised later versions.
no_dev_notes() {
	! tmux_capture | grep -Eq "come later|part 2|later version|this version" ||
		{ tmux_capture >&2; fail "$1: a note meant for developers is on screen"; }
}

# Without --facts the Target screen lists this machine's devices and mounts, with benchmarks.
tmux_start 80 24 "$FSTUNE" --no-system-rules
tmux_wait "Target:"
no_dev_notes "Target"
tmux_keys q
tmux_wait_exit >/dev/null
tmux_ kill-server

cat >"$TMP/ext4.json" <<'JSON'
{
  "schema": "fstune.facts/1",
  "host": {"kernel": "6.1.0", "target_os": "linux", "mem_total_bytes": 17179869184},
  "device": {"name": "sdb", "disk": "sdb", "transport": "sata", "rotational": true,
             "size_bytes": 80026361856},
  "fs": {"type": "ext4", "block_size": 4096, "fragment_size": 4096,
         "features": ["has_journal", "extent", "filetype", "flex_bg"], "mount_point": "/srv/mail"}
}
JSON
tmux_start 80 24 "$FSTUNE" --no-system-rules --facts "$TMP/ext4.json"
tmux_wait "Target:"
no_dev_notes "Target (facts)"
tmux_keys Enter
tmux_wait "Workload:"
no_dev_notes "Workload"
tmux_select "$CURSOR" "smallfiles"
tmux_keys Enter
tmux_wait "Detected:"
ui_scroll_find "features"
tmux_capture | grep -Eq '^ +! +features ' || { tmux_capture >&2; fail "Detected: features is not marked"; }
! tmux_capture | grep -Eq '^ +! +type ' || { tmux_capture >&2; fail "Detected: type is marked for dir_index"; }
tmux_keys q
tmux_wait_exit >/dev/null
tmux_ kill-server

# FreeBSD facts whose dirhash recommendation has a title of about 90 characters, a runtime sysctl
# with a persistent sysctl.conf line.
tmux_start 80 24 "$FSTUNE" --no-system-rules --facts "$FSTUNE_SRCDIR/tests/facts/freebsd-newfs.json"
tmux_wait "Target:"
tmux_keys Enter
tmux_wait "Workload:"
tmux_select "$CURSOR" "smallfiles"
tmux_keys Enter
tmux_wait "Detected:"
ui_detected_to_advice
# The title's last words are on screen, on the row below its start.
tmux_wait "raise vfs.ufs.dirhash_maxmem"
tmux_capture | tr -s ' \n' ' ' | grep -q "in directories of up to 40,000" ||
	{ tmux_capture >&2; fail "Advice: the long title is cut"; }
tmux_select "$CURSOR" "freebsd.dirhash_maxmem"
tmux_keys Enter
tmux_wait "Rule:       freebsd.dirhash_maxmem"
tmux_capture | sed -n '2,3p' | tr -s ' \n' ' ' | grep -q "of up to 40,000" ||
	{ tmux_capture >&2; fail "detail: the long title is cut"; }
ui_scroll_find "sysctl.conf, in /etc/sysctl.conf:"
tmux_capture | grep -A3 "^ Persistent" | grep -q "^     vfs.ufs.dirhash_maxmem=33554432" ||
	{ tmux_capture >&2; fail "detail: no persistent form under Persistent"; }
tmux_keys Escape
tmux_wait "Advice:"
tmux_keys q
status=$(tmux_wait_exit)
assert_eq "$status" 0 "the wizard's exit status after q"
ui_assert_no_sanitizer_report
tmux_ kill-server

# As root, built-in rules in a directory writable by group are refused: Advice says no rule ran, with
# the command that fixes it, not "Nothing to change".
if [ "$(id -u)" = 0 ]; then
	cp -r "${FSTUNE_RULES_BUILTIN:-$FSTUNE_SRCDIR/rules/builtin}" "$TMP/rules"
	chmod -R go-w "$TMP/rules"
	chmod g+w "$TMP/rules"
	tmux_start 80 24 env "FSTUNE_RULES_BUILTIN=$TMP/rules" "$FSTUNE" --no-system-rules --facts "$TMP/ext4.json"
	tmux_wait "Target:"
	tmux_keys Enter
	tmux_wait "Workload:"
	tmux_keys Enter
	tmux_wait "Detected:"
	ui_detected_to_advice "No advice: no rule could be evaluated"
	tmux_capture | tr -s ' \n' ' ' | grep -qF "chmod -R go-w $TMP/rules" ||
		{ tmux_capture >&2; fail "Advice: the refusal does not give the command that fixes it"; }
	! tmux_capture | grep -q "Nothing to change" || fail "Advice says 'Nothing to change' when no rule ran"
	tmux_keys q
	tmux_wait_exit >/dev/null
fi
exit 0
