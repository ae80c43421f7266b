#!/bin/bash
# The wizard's Workload step on a loop-mounted ext4: a facts file's own workload (50,000 files per
# directory) is shown first, preselected and kept, not replaced by the general preset; the custom
# form refuses a bad value with the parser's message and keeps the field, then describes the
# workload with its values; "sample" on a generated tree shows its known file count, its size
# histogram and the tail waste; an observation of the device joins the sample; Esc stops a sample
# (partial); Ctrl-C during a sample ends the wizard with the terminal restored.
. "$FSTUNE_SRCDIR/tests/lib/ui-loop.sh"
require_cmd jq mkfs.ext4 python3

# 1. --facts with its own workload: kept, and the rules judge it.
cat >"$TMP/facts.json" <<'JSON'
{"schema": "fstune.facts/1",
 "device": {"name": "sdb", "transport": "sata", "rotational": true},
 "fs": {"type": "ext4", "block_size": 4096, "features": ["has_journal", "extent", "dir_index"]},
 "workload": {"files_per_dir": 50000, "files_total": 5000000, "file_size_p50_bytes": 2048},
 "sources": {"workload.files_per_dir": "user", "workload.files_total": "user",
	     "workload.file_size_p50_bytes": "user"}}
JSON
tmux_start 80 24 "$FSTUNE" --no-system-rules --facts "$TMP/facts.json"
tmux_wait "Target:"
tmux_keys Enter
tmux_wait "Workload:"
tmux_wait_line "$CURSOR" "as given"
tmux_wait_line "files per directory" "50000"
# sampling needs the machine: said on the row, refused with the reason
tmux_select "$CURSOR" "sample a directory"
tmux_wait "saved facts: nothing is measured"
tmux_select "$CURSOR" "as given"
tmux_keys Enter
tmux_wait "Detected:"
ui_detected_to_advice
ui_save_json "$TMP/kept.json"
tmux_keys q
assert_eq "$(tmux_wait_exit)" 0 "exit status after q"
assert_eq "$(jq -r '.facts.workload.files_per_dir' "$TMP/kept.json")" 50000 "the facts file's files_per_dir"
assert_eq "$(jq -r '.facts.sources["workload.files_per_dir"]' "$TMP/kept.json")" user "its source"
ui_compare_with_report "$TMP/kept.json"
tmux_ kill-server

# 2. A loop-mounted ext4 with a tree of known sizes: 300 files of 100 bytes, 200 of 3000, 100 of
# 10000 (the shares under 1 KiB and 4 KiB: 50% and 83.3%).
make_image "$TMP/ext4.img" 256M
mkfs.ext4 -q -F "$TMP/ext4.img" || fail "mkfs.ext4 failed"
dev=$(attach_loop "$TMP/ext4.img")
mnt=$(mount_tmp "$dev")
name=${dev#/dev/}
# A pane wide enough for "Sample: $mnt/tree" on one line, however long TMPDIR is.
cols=$((${#mnt} + 40 > 80 ? ${#mnt} + 40 : 80))
python3 - "$mnt/tree" <<'PY' || fail "cannot make the tree"
import os, sys
root = sys.argv[1]
for d in range(6):
    os.makedirs(f"{root}/d{d}")
for i, size in enumerate([100] * 300 + [3000] * 200 + [10000] * 100):
    with open(f"{root}/d{i % 6}/f{i}", "wb") as f:
        f.write(b"x" * size)
PY

ui_open_target "$cols" 24 "$name"
tmux_select "$CURSOR" "custom"
tmux_keys Enter
tmux_wait "Custom workload"
# The second field (files): a bad value is refused with the parser's message; the field keeps it.
tmux_keys Tab
tmux_keys C-u
tmux_type "12x"
tmux_keys Enter
tmux_wait "files: --files 12x"
tmux_wait "Custom workload"
tmux_wait_line "files" "12x"
tmux_keys C-u
tmux_type "40000"
tmux_keys Tab
tmux_keys C-u
tmux_type "5000"
tmux_keys Enter
tmux_wait "Detected:"
tmux_wait "workload: custom"
tmux_keys BTab
tmux_wait "Workload:"
tmux_wait_line "$CURSOR" "current"
tmux_wait_line "files per directory" "5000   [user]"

# Sample the tree.
tmux_select "$CURSOR" "sample a directory"
tmux_keys Enter
tmux_wait "Directory to sample"
tmux_keys C-u
tmux_type "$mnt/tree"
tmux_keys Enter
tmux_wait "Sample: $mnt/tree"
tmux_wait "600 files, 7 directories"
tmux_wait_line "up to 100 B" " 50.0%  300"
tmux_wait_line "4 KiB " " 33.3%  200"
tmux_wait "Tail waste by block size"
tmux_wait_line "4K:" "%)"
tmux_keys Enter
tmux_wait "Detected:"
# Observe the device for a second: the sample stays, the observation's keys join it.
tmux_keys BTab
tmux_wait "Workload:"
tmux_select "$CURSOR" "observe the running workload"
tmux_keys Enter
tmux_wait "Seconds to observe"
tmux_keys C-u
tmux_type "1"
tmux_keys Enter
tmux_wait "observed $name for 1 s"
tmux_wait_line "busy (observed)" "[observe]"
tmux_select "$CURSOR" "current"
tmux_keys Enter
tmux_wait "Detected:"
ui_detected_to_advice
ui_save_json "$TMP/sampled.json"
tmux_keys q
assert_eq "$(tmux_wait_exit)" 0 "exit status after q"
tmux_assert_stty_same
ui_assert_no_sanitizer_report
assert_eq "$(jq -r '.facts.workload.files_total' "$TMP/sampled.json")" 600 "sampled files_total"
assert_eq "$(jq -r '.facts.sources["workload.files_total"]' "$TMP/sampled.json")" sample "its source"
assert_eq "$(jq -r '.facts.sources["workload.busy_share"]' "$TMP/sampled.json")" observe "the observation's source"
tmux_ kill-server

# 3. Ctrl-C during a sample: the wizard is held (SIGSTOP) while its sampling box is up, so that the
# signal lands in the sample whatever the machine's speed; it ends by SIGINT with the terminal as found.
python3 - "$mnt/big" <<'PY' || fail "cannot make the big tree"
import os, sys
root = sys.argv[1]
for d in range(200):
    os.makedirs(f"{root}/d{d}")
    for i in range(200):
        open(f"{root}/d{d}/f{i}", "wb").close()
PY
# ui_sample_held DIR KEY: starts sampling DIR, holds the wizard while its box is up, presses KEY
# (read by the sampler's progress callback once it runs again) and lets it go on.
ui_sample_held() {
	local pid
	tmux_select "$CURSOR" "sample a directory"
	tmux_keys Enter
	tmux_wait "Directory to sample"
	tmux_keys C-u
	tmux_type "$1"
	pid=$(tmux_program_pid)
	tmux_keys Enter
	tmux_wait "Sampling $1"
	kill -STOP "$pid"
	tmux_capture | grep -qF "Sample: $1" && { kill -CONT "$pid"; skip "the sample ended before it could be stopped"; }
	tmux_keys "$2"
	sleep 0.2 # the key (or Ctrl-C's SIGINT) waits for the held process: it is read when it goes on
	kill -CONT "$pid"
}
ui_open_target "$cols" 24 "$name"
# Esc stops the sampler: what it saw is kept, marked partial.
ui_sample_held "$mnt/big" Escape
tmux_wait "Sample: $mnt/big"
tmux_wait "stopped early: partial"
tmux_keys Escape
tmux_wait "Workload:"
ui_sample_held "$mnt/big" C-c
assert_eq "$(tmux_wait_exit)" 130 "exit status after Ctrl-C during the sample"
tmux_assert_stty_same
find "$mnt" -maxdepth 2 -name '.fstune*' | grep -q . && fail "left behind: $(find "$mnt" -maxdepth 2 -name '.fstune*')"
exit 0
