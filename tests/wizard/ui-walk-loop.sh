#!/bin/bash
# The wizard on a real filesystem: a loop-mounted ext4 made with -b 2048 -O ^dir_index. The Target
# screen lists the loop device with its mount point; with the smallfiles preset, Detected shows block
# size 2048, the dir_index recommendation opens with its tune2fs command, and the saved JSON equals
# `fstune report --facts` on the same facts. Then the same walk with --facts on that filesystem's
# probed facts.
. "$FSTUNE_SRCDIR/tests/lib/ui-loop.sh"
require_cmd jq mkfs.ext4

make_image "$TMP/ext4.img" 256M
mkfs.ext4 -q -F -b 2048 -O ^dir_index "$TMP/ext4.img" || fail "mkfs.ext4 failed"
dev=$(attach_loop "$TMP/ext4.img")
mnt=$(mount_tmp "$dev")
name=${dev#/dev/}

# The Target screen lists the loop device, its filesystem, its mount point, and that it can be
# benchmarked as a writable directory.
tmux_start 80 24 "$FSTUNE" --no-system-rules
tmux_wait "Target:"
tmux_capture | grep -E "^ .{2}$name +256 MiB .* loop +[01] +ext4 +write +/" >/dev/null ||
	fail "no '$name 256 MiB ... loop ext4 write /...' row: $(tmux_capture | grep -F "$name")"
tmux_select "$CURSOR" "$name"
tmux_wait "Benchmarks: tests write at most"
tmux_keys q
assert_eq "$(tmux_wait_exit)" 0 "exit status after q"
tmux_ kill-server

ui_walk "$name" "block_size" "2 KiB" "directories.dir_index_off" "tune2fs" 
[ "$(jq -r '.facts.device.name' "$TMP/wizard.json")" = "$name" ] || fail "device.name is not $name"
[ "$(jq -r '.facts.fs.block_size' "$TMP/wizard.json")" = 2048 ] || fail "fs.block_size is not 2048"
jq -e '.facts.fs.features | index("dir_index") == null' "$TMP/wizard.json" >/dev/null ||
	fail "fs.features lists dir_index"

# The same walk on the probed facts of this filesystem.
tmux_ kill-server
"$FSTUNE" probe --format json "$mnt" >"$TMP/probed.json" || fail "fstune probe failed"
mv "$TMP/wizard.json" "$TMP/wizard-live.json"
ui_walk "$name" "block_size" "2 KiB" "directories.dir_index_off" "tune2fs" --facts "$TMP/probed.json"
