#!/bin/bash
# The Detected screen renders from the facts schema: values in the schema's units, unavailable facts
# as "status: reason" in the one spelling the report uses ("not found", not "not_found"), and on a
# terminal of 100 columns or more each fact's label after its source; at 80 columns the layout the
# walks read is unchanged. On the captured simple-nvme machine (--sysroot).
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
. "$FSTUNE_SRCDIR/tests/lib/tmux.sh"
. "$FSTUNE_SRCDIR/tests/lib/ui.sh"
require_tmux

root="$FSTUNE_SRCDIR/tests/fixtures/sysroot/simple-nvme"
[ -d "$root/sys" ] || fail "the sysroot fixture $root is missing"

# detected COLS ROWS: the wizard on nvme0n1p2 (/home), on its Detected screen.
detected() {
	ui_open_target "$1" "$2" nvme0n1p2 --sysroot "$root"
	tmux_keys Enter
	tmux_wait "Detected:"
}

detected 120 40
tmux_wait_line "logical_block_size" "Logical sector size"
tmux_capture | grep -Eq '^ +logical_block_size +512 B +\[sysfs\] +Logical sector size$' ||
	fail "Detected at 120 columns: $(tmux_capture | grep logical_block_size)"
tmux_capture | grep -Eq '^ +read_ahead_kb +128 KiB +\[sysfs\] +Read-ahead$' ||
	fail "Detected at 120 columns: read_ahead_kb is not in KiB: $(tmux_capture | grep read_ahead_kb)"
tmux_capture | grep -Eq '^ +\? holders +not found: ' ||
	fail "Detected: holders is not 'not found: reason': $(tmux_capture | grep holders)"
tmux_keys q
assert_eq "$(tmux_wait_exit)" 0 "the wizard's exit status after q"

detected 80 24
tmux_capture | grep -Eq '^ +logical_block_size +512 B +\[sysfs\]$' ||
	fail "Detected at 80 columns: $(tmux_capture | grep logical_block_size)"
tmux_keys q
assert_eq "$(tmux_wait_exit)" 0 "the wizard's exit status after q"
ui_assert_no_sanitizer_report
echo "ok: Detected in the schema's units, with labels at 120 columns and without at 80"
