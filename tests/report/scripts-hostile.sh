#!/bin/bash
# The scripts quote what a facts file says about other owners of a setting, and a file name is
# bytes anyone can choose: a hand-written facts file whose udev rule owner (one that runs a program,
# so the read-ahead must be edited there by hand) and whose mount unit owner (which overrides fstab)
# have names holding line breaks, a command after each, and an escape sequence. In apply.sh those
# names stay inside their comment lines (a line break a space, the escape written \x1b): sh -n and
# shellcheck pass, no line outside a comment names the commands, and apply.sh --root run to its end
# runs neither of them.
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
require_cmd jq shellcheck

marker=$TMP/injected
udev_rule=$'/etc/udev/rules.d/99-a\ntouch '"$marker"$'.udev\n\e]0;x\a.rules'
mount_unit=$'/etc/systemd/system/srv-mail.mount\ntouch '"$marker"$'.mount\n#'
jq -n --arg rule "$udev_rule" --arg unit "$mount_unit" '{
  schema: "fstune.facts/1",
  host: {kernel: "6.1.0", target_os: "linux", mem_total_bytes: 17179869184},
  owners: {queue: {read_ahead_kb: [{kind: "udev", path: $rule, line: 1, key: "queue/read_ahead_kb",
                                    value: "4096", wins: true, run: true}]},
           mount: {option: {noatime: [{kind: "mount-unit", path: $unit, line: 4, key: "Options",
                                       value: "strictatime", wins: true}]}}},
  device: {name: "sdb", disk: "sdb", transport: "sata", rotational: true, size_bytes: 80026361856,
           read_ahead_kb: 4096},
  fs: {type: "ext4", block_size: 4096, features: ["has_journal", "extent"], mount_point: "/srv/data",
       mount_options: ["rw", "strictatime"]}
}' >"$TMP/facts.json"
# A read-ahead to change, so that the udev rule owner is quoted.
test_rule ra ra "a lower read-ahead" "Recommends 128 KiB of read-ahead." '{"queue.read_ahead_kb"}' \
	'{"device.read_ahead_kb"}' <<'EOF'
	check = function(facts)
		return {{name = "lower", setting = "queue.read_ahead_kb", current = facts.device.read_ahead_kb,
			recommended = 128, severity = "info", confidence = 1, title = "a lower read-ahead",
			rationale = "A test.", evidence = {"device.read_ahead_kb"}}}
	end,
	tests = {{name = "a disk", facts = {device = {read_ahead_kb = 4096}}, expect = {"lower"}}},
EOF
mkdir "$TMP/s"
run_status 0 "$FSTUNE" report --facts "$TMP/facts.json" --no-system-rules --rules-dir "$TMP/rules" \
	--access random --io-mode mmap --io-size 4k --format json --scripts "$TMP/s"
jq -e --arg rule "$udev_rule" 'any(.recommendations[]; .id == "ra.lower" and .persistent.kind == "edit"
	and .persistent.path == $rule)' "$TMP/out" >/dev/null ||
	fail "no edit of the udev rule owner: $(jq -c '[.recommendations[] | [.id, .persistent]]' "$TMP/out")"
jq -e --arg unit "$mount_unit" 'any(.recommendations[]; .id == "mount.strictatime" and .persistent.kind == "mount-unit"
	and .persistent.path == $unit)' "$TMP/out" >/dev/null ||
	fail "no edit of the mount unit: $(jq -c '[.recommendations[] | [.id, .persistent]]' "$TMP/out")"

for s in apply.sh revert.sh; do
	sh -n "$TMP/s/$s" || fail "sh -n $s"
	shellcheck "$TMP/s/$s" >"$TMP/sc" 2>&1 || fail "shellcheck $s: $(head -c 2000 "$TMP/sc")"
	no_controls "$TMP/s/$s" "$s"
	! grep -v '^[[:space:]]*#' "$TMP/s/$s" | grep -qF "$marker" || fail "$s runs what a file name says: $(grep -n -B1 -A1 -F "$marker" "$TMP/s/$s")"
done
grep -qF "# ra.lower: by hand, in /etc/udev/rules.d/99-a touch $marker.udev \\x1b]0;x\\x07.rules: " "$TMP/s/apply.sh" ||
	fail "the udev rule owner's comment: $(grep -n 'by hand' "$TMP/s/apply.sh" | cat -v)"
grep -qF "# mount.strictatime: by hand, in /etc/systemd/system/srv-mail.mount touch $marker.mount #: " "$TMP/s/apply.sh" ||
	fail "the mount unit's comment: $(grep -n 'by hand' "$TMP/s/apply.sh" | cat -v)"

mkdir "$TMP/root"
run_status 0 sh "$TMP/s/apply.sh" --yes --root "$TMP/root"
run_status 0 sh "$TMP/s/revert.sh" --yes --root "$TMP/root"
assert_eq "$(ls "$marker"* 2>/dev/null)" "" "files made by commands in file names"
echo ok
