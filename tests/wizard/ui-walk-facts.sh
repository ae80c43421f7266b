#!/bin/bash
# The wizard on hand-written facts (--facts): an ext4 with 2 KiB blocks and no dir_index, the
# smallfiles preset; Detected shows the block size, the dir_index recommendation opens with its
# tune2fs command, and the saved JSON equals `fstune report --facts` on the same facts.
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
. "$FSTUNE_SRCDIR/tests/lib/tmux.sh"
. "$FSTUNE_SRCDIR/tests/lib/ui.sh"
require_tmux
require_cmd jq

cat >"$TMP/facts.json" <<'JSON'
{
  "schema": "fstune.facts/1",
  "host": {"kernel": "6.1.0", "target_os": "linux", "mem_total_bytes": 17179869184},
  "device": {"name": "sdb", "disk": "sdb", "transport": "sata", "rotational": true,
             "model": "WDC WD800JD", "size_bytes": 80026361856},
  "fs": {"type": "ext4", "block_size": 2048, "fragment_size": 2048,
         "features": ["has_journal", "extent", "filetype", "flex_bg"], "mount_point": "/srv/mail"}
}
JSON
ui_walk "sdb" "block_size" "2 KiB" "directories.dir_index_off" "tune2fs" --facts "$TMP/facts.json"
# The Target row came from the facts, and nothing was probed: the saved facts are the input's
# plus the preset.
[ "$(jq -r '.facts.device.model' "$TMP/wizard.json")" = "WDC WD800JD" ] || fail "device.model changed"
[ "$(jq -r '.facts.fs.block_size' "$TMP/wizard.json")" = 2048 ] || fail "fs.block_size changed"

# --workload preselects the preset on the Workload step, and the command line's overrides apply on
# top of it (source "user"); the saved JSON still equals `fstune report --facts` on its facts.
tmux_ kill-server
rm -f "$TMP/wizard.json"
tmux_start 80 24 "$FSTUNE" --no-system-rules --facts "$TMP/facts.json" --workload database \
	--files-per-dir 50000
tmux_wait "Target:"
tmux_keys Enter
tmux_wait "Workload:"
tmux_wait_line "$CURSOR" "database"
tmux_wait "The command line's workload options apply on top of the preset chosen here."
tmux_keys Enter
tmux_wait "Detected:"
ui_detected_to_advice
ui_save_json "$TMP/wizard.json"
mkdir "$TMP/wizard-scripts"
ui_save_scripts "$TMP/wizard-scripts"
tmux_keys q
assert_eq "$(tmux_wait_exit)" 0 "exit status after q"
tmux_assert_stty_same
ui_assert_no_sanitizer_report
[ "$(jq -r '.facts.workload.files_per_dir' "$TMP/wizard.json")" = 50000 ] || fail "--files-per-dir not applied"
[ "$(jq -r '.facts.sources["workload.files_per_dir"]' "$TMP/wizard.json")" = user ] ||
	fail "workload.files_per_dir does not have source user"
[ "$(jq -r '.facts.sources["workload.io_mode"]' "$TMP/wizard.json")" = preset ] ||
	fail "workload.io_mode (from the database preset) does not have source preset"
ui_compare_with_report "$TMP/wizard.json"
ui_compare_scripts_with_report "$TMP/wizard.json" "$TMP/wizard-scripts"
