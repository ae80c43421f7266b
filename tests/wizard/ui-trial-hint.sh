#!/bin/bash
# The `t` hint on the Advice screen, at 80x24 and 200x50, on a loop-mounted ext2 made with 1 KiB
# blocks: on the reformat advice a trial can settle (blocksize.below_4k: its mkfs against the
# defaults, on an image beside the target) the hint line names `t`; on advice a trial cannot
# settle (a runtime or remount change) it names no `t`, and `t` there says why, whole; on saved facts, where there is no filesystem to put the image on, the reformat advice has
# no `t` either.
. "$FSTUNE_SRCDIR/tests/lib/ui-loop.sh"
require_cmd mkfs.ext2 jq

make_image "$TMP/ext2.img" 512M
mkfs.ext2 -q -F -b 1024 "$TMP/ext2.img" || fail "mkfs.ext2 failed"
dev=$(attach_loop "$TMP/ext2.img")
mnt=$(mount_tmp "$dev")
run_status 0 "$FSTUNE" report --no-system-rules --bench none --format json "$mnt"
cp "$TMP/out" "$TMP/report.json"
other=$(jq -r '[.recommendations[] | select(.disruption != "reformat" and .disruption != "advice")][0].id' \
	"$TMP/report.json")
[ "$other" != null ] || fail "no runtime, online or remount advice to compare with: $(jq -c '[.recommendations[].id]' \
	"$TMP/report.json")"
jq '.facts' "$TMP/report.json" >"$TMP/facts.json"
HINT="t settle this reformat advice by trial"

# hint_line: the bottom line of the pane (the keys of the selected row).
hint_line() { tmux_capture | tail -n 1; }

# to_reformat_advice: from Detected through no benchmarks to Advice, the reformat advice selected.
to_reformat_advice() {
	tmux_wait "Detected:"
	ui_detected_to_advice
	tmux_select "$CURSOR" "blocksize.below_4k"
	_tmux_settle
}

for size in "80 24" "200 50"; do
	read -r cols rows <<<"$size"
	tmux_start "$cols" "$rows" "$FSTUNE" --no-system-rules "$mnt"
	tmux_wait "Workload:"
	tmux_keys Enter
	to_reformat_advice
	[[ $(hint_line) == *"$HINT"* ]] || { _tmux_dump; fail "$size: no t hint on the reformat advice"; }
	tmux_select "$CURSOR" "$other"
	_tmux_settle
	[[ $(hint_line) != *" t "* && $(hint_line) != "t "* ]] || { _tmux_dump; fail "$size: a t hint on $other"; }
	tmux_keys t
	tmux_wait "t: a trial settles only advice that makes a new filesystem"
	ui_quit_clean "$size"
done

# Saved facts: no filesystem to try on, no hint.
tmux_start 80 24 "$FSTUNE" --no-system-rules --facts "$TMP/facts.json"
tmux_wait "Target:"
tmux_keys Enter
tmux_wait "Workload:"
tmux_keys Enter
to_reformat_advice
[[ $(hint_line) != *"$HINT"* ]] || { _tmux_dump; fail "saved facts: a t hint"; }
ui_quit_clean "saved facts"
echo "t is hinted, whole, only on advice a trial settles here"
