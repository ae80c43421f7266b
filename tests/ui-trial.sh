#!/bin/bash
# "Settle this by trial" from the wizard's Advice screen: on a loop-mounted ext2 made with 1 KiB
# blocks, the reformat advice (4096-byte blocks) is tried against the filesystem's defaults by the real
# `fstune trial` on a 1 GiB image beside it, with the terminal handed over and given back; the advice
# then shows the trial's verdict, and nothing of the trial is left (image, loop device, mount).
. "$FSTUNE_SRCDIR/tests/lib/ui-loop.sh"
require_cmd mkfs.ext2

make_image "$TMP/ext2.img" 3G
mkfs.ext2 -q -F -b 1024 "$TMP/ext2.img" || fail "mkfs.ext2 failed"
dev=$(attach_loop "$TMP/ext2.img")
mnt=$(mount_tmp "$dev")

tmux_start 120 40 "$FSTUNE" --no-system-rules
tmux_wait "Target:"
tmux_keys d
tmux_wait "Directory to examine"
tmux_keys C-u
tmux_type "$mnt"
tmux_keys Enter
tmux_wait "Workload:"
tmux_keys Enter
tmux_wait "Detected"
ui_detected_to_advice
tmux_select "$CURSOR" "blocksize.below_4k"
tmux_keys t
tmux_wait "press Enter to return to the wizard" 300
tmux_capture | grep -q "fstune trial ended (status 0)" || fail "the trial did not end with status 0: $(tmux_capture)"
tmux_keys Enter
tmux_wait "trial done: the advice it settles is marked"
tmux_select "$CURSOR" "blocksize.below_4k"
tmux_keys Enter
tmux_wait "Rule:       blocksize.below_4k"
tmux_capture | grep -Eq "Trial: (confirmed|contradicted)" || fail "the advice shows no verdict: $(tmux_capture)"
tmux_keys q q
tmux_ kill-server

[ "$(ls -A "$mnt")" = "lost+found" ] || fail "the trial left files beside the target: $(ls -A "$mnt")"
# other tests run beside this one with loop devices of their own: look for the trial's image
! losetup -a | grep -qF "$mnt/.fstune-trial." || fail "a loop device of the trial is left: $(losetup -a | grep -F "$mnt/.fstune-trial.")"
! grep -qF ".fstune-trial." /proc/self/mountinfo || fail "a mount of the trial is left"
echo "the wizard settles reformat advice by trial and leaves nothing behind"
