#!/bin/bash
# "Settle this by trial" from the wizard's Advice screen: on a loop-mounted ext2 made with 1 KiB
# blocks, the reformat advice (4096-byte blocks) is tried by the real `fstune trial` on a 1 GiB image
# beside it, with the terminal handed over and given back: the filesystem as it is (ext2 -b 1024, the
# baseline) against the advice, on the whole workload of the session (the command line's source-tree
# with its file count: the trial writes that many files). The Trial screen then shows the tables with
# the ratios to the baseline and the verdicts; the advice's detail shows the trial's numbers; nothing
# of the trial is left (image, loop device, mount, record, the workload file).
. "$FSTUNE_SRCDIR/tests/lib/ui-loop.sh"
. "$FSTUNE_SRCDIR/tests/lib/trial.sh"
require_cmd mkfs.ext2

make_image "$TMP/ext2.img" 3G
mkfs.ext2 -q -F -b 1024 "$TMP/ext2.img" || fail "mkfs.ext2 failed"
dev=$(attach_loop "$TMP/ext2.img")
mnt=$(mount_tmp "$dev")
files=$((150 * ${FSTUNE_TEST_SCALE:-1}))

tmux_start 120 40 "$FSTUNE" --no-system-rules --workload source-tree --files "$files"
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
capture=$(tmux_capture -S -200)
grep -q "fstune trial ended (status 0)" <<<"$capture" || fail "the trial did not end with status 0: $capture"
grep -q "trial: round 1 of [0-9]*, c2 ext2:-b 4096: writeback" <<<"$capture" ||
	fail "no progress line of the advice's candidate: $capture"
tmux_keys Enter
# the Trial screen: each metric's table, the baseline, the ratio and its verdict, the verdicts in words
tmux_wait "Verdicts:"
screen=$(tmux_capture)
for want in "Trial: source-tree workload on image" "tree write + unmount (the writeback), seconds (primary)" \
	"cold read-back of the tree after a mount, seconds" "c2 ext2:-b 4096 against c1 ext2:-b 1024:" \
	"trial done: the advice it measured is marked"; do
	grep -Fq -- "$want" <<<"$screen" || fail "the Trial screen has no '$want': $screen"
done
for want in "c1 +ext2:-b 1024 .* baseline" "c2 +ext2:-b 4096 .* x[0-9.]+ .*(better|worse|tie|not_settled)" \
	"^ +- writeback of the tree "; do
	grep -Eq -- "$want" <<<"$screen" || fail "the Trial screen has no '$want': $screen"
done
tmux_keys End
tmux_wait "Environment:"
tmux_keys Enter
tmux_wait "Advice:"
tmux_select "$CURSOR" "blocksize.below_4k"
tmux_keys Enter
tmux_wait "Rule:       blocksize.below_4k"
screen=$(tmux_capture)
grep -Eq "^ *(confirmed|contradicted|unchanged|not settled), against ext2:-b 1024 \(the trial's baseline\)" <<<"$screen" ||
	fail "the detail shows no trial verdict: $screen"
# the ratio of whichever metric the advice is about decided it: on a busy host the writeback's floor
# can leave it unsettled while the cold read settles
grep -Eq "(writeback|cold read) of the tree: ratio [0-9.]+ (\(95%: [0-9.]+-[0-9.]+\) )?of values in s" <<<"$screen" ||
	fail "the detail shows no ratio: $screen"
grep -Eq "c2 \(ext2:-b 4096\): writeback of the tree" <<<"$screen" || fail "the detail shows no comparison: $screen"
tmux_keys q q
tmux_ kill-server

[ "$(ls -A "$mnt")" = "lost+found" ] || fail "the trial left files beside the target: $(ls -A "$mnt")"
# other tests run beside this one with loop devices of their own: look for the trial's image
! losetup -a | grep -qF "$mnt/.fstune-trial." || fail "a loop device of the trial is left: $(losetup -a | grep -F "$mnt/.fstune-trial.")"
! grep -qF ".fstune-trial." /proc/self/mountinfo || fail "a mount of the trial is left"
[ -z "$(find "$TMP" -maxdepth 1 -name 'fstune-trial-*' | head -1)" ] || fail "a temporary file of the trial is left: $(ls "$TMP")"
[ -z "$(find "$FSTUNE_TEST_LOCK_DIR" -name 'trial-*.json' 2>/dev/null)" ] || fail "a record of the trial is left"
echo "the wizard settles reformat advice by trial, shows its result and leaves nothing behind"
