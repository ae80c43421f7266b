#!/bin/bash
# The wizard on a captured machine (--sysroot, the simple-nvme fixture): the Target screen
# lists the captured disks and partitions with lsblk's columns (values from the capture), the walk
# picks /home on nvme0n1p2, Detected shows its transport, a recommendation opens, and the saved JSON
# equals `fstune report --facts` on the same facts.
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
. "$FSTUNE_SRCDIR/tests/lib/tmux.sh"
. "$FSTUNE_SRCDIR/tests/lib/ui.sh"
require_tmux
require_cmd jq

root="$FSTUNE_SRCDIR/tests/fixtures/sysroot/simple-nvme"
[ -d "$root/sys" ] || fail "the sysroot fixture $root is missing"

# The Target screen alone first: lsblk's answers for this capture (simple-nvme.lsblk).
tmux_start 80 24 "$FSTUNE" --no-system-rules --sysroot "$root"
tmux_wait "Target:"
tmux_wait_line "nvme0n1p2" "/home"
tmux_wait_line "nvme0n1 " "223.6 GiB"
tmux_wait_line "sdb " "WDC WD80"
tmux_wait_line "sda4" "/"
tmux_wait "a captured machine (--sysroot) cannot be benchmarked"
# The partition's row: ext4 on /home, not benchmarkable, non-rotational NVMe.
tmux_capture | grep -F "nvme0n1p2" | grep -qE "nvme +0 +ext4 +- +/home" ||
	fail "the nvme0n1p2 row is not 'nvme 0 ext4 - /home': $(tmux_capture | grep -F nvme0n1p2)"
tmux_capture | grep -F "sdb " | grep -qE "sata +1 " || fail "sdb is not a rotational SATA disk"
# "a directory…": a path typed in the prompt resolves through the captured mountinfo.
tmux_keys d
tmux_wait "Directory to examine:"
tmux_keys C-u
tmux_type "/home/archive/photos"
tmux_keys Enter
tmux_wait "Workload:"
tmux_wait "probed /home/archive/photos"
tmux_keys Escape
tmux_wait "Target:"
tmux_keys q
assert_eq "$(tmux_wait_exit)" 0 "exit status after q"
tmux_ kill-server

ui_walk "nvme0n1p2" "transport" "nvme" - "Apply" --sysroot "$root"
[ "$(jq -r '.facts.device.name' "$TMP/wizard.json")" = nvme0n1p2 ] || fail "device.name is not nvme0n1p2"
[ "$(jq -r '.facts.fs.mount_point' "$TMP/wizard.json")" = /home ] || fail "fs.mount_point is not /home"
