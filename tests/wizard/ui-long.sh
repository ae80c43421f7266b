#!/bin/bash
# Long values in the wizard, at 80x24 and 200x50, on hand-written facts (tmux, not root): nothing
# is cut without a way to read it. Target: a row whose columns cut the model or the mount point is
# shown whole under the list; at 200x50 NAME and MODEL are as wide as their longest value and
# nothing is cut. Detected: a value longer than its column (the model, the uuid, fifteen ext4
# features, a long mount point) wraps in the value column, every word on screen, the source
# column in one place on every row. An observed share is a percentage, not a fraction.
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
. "$FSTUNE_SRCDIR/tests/lib/tmux.sh"
. "$FSTUNE_SRCDIR/tests/lib/ui.sh"
require_tmux

MODEL="SAMSUNG MZVL21T0HCLR-00B00 with a rather long model name"
MNT=/srv/a/rather/long/mount/point/for/the/mail/spool/of/the/company
UUID=0b8c6a2e-7d5f-4c1b-9a3e-2f6d8e1c4b7a
FEATURES=(has_journal ext_attr resize_inode dir_index filetype needs_recovery extent 64bit flex_bg sparse_super
	large_file huge_file dir_nlink extra_isize metadata_csum)
jq -n --arg model "$MODEL" --arg mnt "$MNT" --arg uuid "$UUID" --args '{schema: "fstune.facts/1",
	host: {kernel: "6.1.0", target_os: "linux", mem_total_bytes: 17179869184},
	device: {name: "nvme0n1p3", disk: "nvme0n1", transport: "nvme", rotational: false, model: $model,
		size_bytes: 1024209543168, schedulers: ["none", "mq-deadline", "kyber", "bfq"], scheduler: "none"},
	fs: {type: "ext4", block_size: 4096, uuid: $uuid, features: $ARGS.positional, mount_point: $mnt},
	workload: {busy_share: 0.00519974, access: "random"},
	sources: {"workload.busy_share": "observe", "workload.access": "observe"}}' "${FEATURES[@]}" >"$TMP/long.json"

# detected_pages: every page of Detected, from the top (PgDn until the page stays the same).
detected_pages() {
	local page prev=""
	tmux_keys Home
	_tmux_settle
	while page=$(tmux_capture) && [ "$page" != "$prev" ]; do
		printf '%s\n' "$page"
		prev=$page
		tmux_keys NPage
		_tmux_settle
	done
}

for size in "80 24" "200 50"; do
	read -r cols rows <<<"$size"
	tmux_start "$cols" "$rows" "$FSTUNE" --no-system-rules --facts "$TMP/long.json"
	tmux_wait "Target:"
	row=$(tmux_capture | grep -F "$CURSOR")
	if [ "$cols" = 80 ]; then
		# the row is cut; under the list, the whole of it
		[[ $row == *…* ]] || { _tmux_dump; fail "80x24: the Target row is not cut: $row"; }
		tmux_capture | tr '\n' ' ' | tr -s ' ' | grep -qF "nvme0n1p3: $MODEL, mounted on $MNT" ||
			{ _tmux_dump; fail "80x24: the cut row is not shown whole"; }
	else
		# wide enough: the whole model and mount point in their columns, nothing cut
		[[ $row == *"$MODEL"* && $row == *"$MNT"* && $row != *…* ]] ||
			{ _tmux_dump; fail "200x50: the Target row: $row"; }
		head=$(tmux_capture | grep -F "MODEL")
		model_at=$(awk -v s="$head" 'BEGIN { print index(s, "MODEL") }')
		tran_at=$(awk -v s="$head" 'BEGIN { print index(s, "TRAN") }')
		[ $((tran_at - model_at)) -le $((${#MODEL} + 2)) ] ||
			{ _tmux_dump; fail "200x50: MODEL is $((tran_at - model_at)) columns for a ${#MODEL}-character model"; }
	fi
	tmux_keys Enter
	tmux_wait "Workload:"
	tmux_wait_line "busy (observed)" "0.5%   [observe]"
	! tmux_capture | grep -qF 0.0051 || { _tmux_dump; fail "$size: the observed share is a fraction"; }
	tmux_keys Enter
	tmux_wait "Detected:"
	detected_pages >"$TMP/detected"
	text=$(tr '\n' ' ' <"$TMP/detected" | tr -s ' ')
	for word in "${FEATURES[@]}" $MODEL; do
		grep -qw -- "$word" <<<"$text" || { cat "$TMP/detected" >&2; fail "$size: Detected cuts '$word'"; }
	done
	grep -qF "${MNT:0:20}" <<<"$text" && grep -qF "company" <<<"$text" ||
		{ cat "$TMP/detected" >&2; fail "$size: Detected cuts the mount point"; }
	[ "$cols" = 80 ] || grep -qE "^ +uuid +$UUID +\[user\]" "$TMP/detected" ||
		{ cat "$TMP/detected" >&2; fail "200x50: the uuid is not on its row whole"; }
	# the source column: one place on every row that has one
	at=$(grep -E '\[(user|observe)\]' "$TMP/detected" | awk '{ print index($0, " [") }' | sort -u)
	[ "$(wc -l <<<"$at")" = 1 ] || { cat "$TMP/detected" >&2; fail "$size: the source column moves: $(echo $at)"; }
	grep -qE "^ +busy_share +0\.5% +\[observe\]" "$TMP/detected" ||
		{ cat "$TMP/detected" >&2; fail "$size: Detected's busy_share is not a percentage"; }
	ui_quit_clean "$size"
done
echo "long values wrap or show whole at 80x24 and 200x50; the columns fit their values; shares are percentages"
