#!/bin/bash
# Who else owns a knob, on fixture trees (tests/fixtures/owners/ laid over the simple-nvme capture):
# competing sysctl.d files (one name in /etc and /usr/lib, a masked one, a later file, Debian's
# 99-sysctl.conf link), udev rules, an fstab entry and a mount unit, elevator= on the kernel command
# line, and a tuned profile including another. The probe names each owner and the winner; the report
# (text, Markdown, JSON) says so and places the persistent form where it wins.
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
require_cmd jq

FIX=$FSTUNE_SRCDIR/tests/fixtures
BASE=$TMP/base
TUNED=$TMP/tuned
cp -a "$FIX/sysroot/simple-nvme" "$BASE"
chmod -R u+w "$BASE"
cp -a "$FIX/owners/base/." "$BASE/"
cp -a "$BASE" "$TUNED"
cp -a "$FIX/owners/tuned/." "$TUNED/"

# probe ROOT TARGET: the facts as JSON in $TMP/facts.json
probe() {
	run_status 0 "$FSTUNE" probe --sysroot "$1" --format json "$2"
	cp "$TMP/out" "$TMP/facts.json"
}
# owners SETTING: "kind path:line value wins" per owner, one a line
owners() {
	jq -r --arg s "$1" 'getpath(["owners"] + ($s | split("."))) // [] | .[] |
		"\(.kind) \(.path):\(.line) \(.value) \(.wins)"' "$TMP/facts.json"
}
expect_owners() {
	local got
	got=$(owners "$1")
	[ "$got" = "$2" ] || fail "owners of $1 on $3:
--- got
$got
--- want
$2"
}

# --- without tuned: systemd-sysctl's order, udev's, fstab and the unit ---
probe "$BASE" /home/archive
# 30-distro (the slash spelling) < 50-vendor (/etc's copy; /usr/lib's is hidden) < 99-db, the last
expect_owners sysctl.vm.vfs_cache_pressure "sysctl.d /usr/lib/sysctl.d/30-distro.conf:2 120 false
sysctl.d /etc/sysctl.d/50-vendor.conf:2 90 false
sysctl.d /etc/sysctl.d/99-db.conf:3 40 true" base
# 40-masked.conf is a link to /dev/null: its 5 is never read; /etc/sysctl.conf through 99-sysctl.conf
expect_owners sysctl.vm.dirty_ratio "sysctl.d /etc/sysctl.d/99-db.conf:4 40 false
sysctl.d /etc/sysctl.conf:6 20 true" base
assert_eq "$(jq -r '.owners.sysctl.vm.dirty_ratio[1].via' "$TMP/facts.json")" /etc/sysctl.d/99-sysctl.conf \
	"the link sysctl.conf is read through"
expect_owners sysctl.vm.dirty_background_ratio "sysctl.d /run/sysctl.d/70-runtime.conf:1 5 true" base
# sdb is rotational, so 60-readahead's first rule runs; 80-vendor's match is not known here
expect_owners queue.read_ahead_kb "udev /etc/udev/rules.d/60-readahead.rules:2 1024 unknown
udev /etc/udev/rules.d/60-readahead.rules:4 256 false
udev /usr/lib/udev/rules.d/80-vendor.rules:1 512 unknown
udev /etc/udev/rules.d/90-blockdev.rules:2 256 false" base
jq -e '.owners.queue.read_ahead_kb[1].note | test("does not match sdb")' "$TMP/facts.json" >/dev/null ||
	fail "the nvme rule says why it does not run"
expect_owners mount.option.commit "mount-unit /etc/systemd/system/home-archive.mount:8 commit=120 true
fstab /etc/fstab:4 commit=60 false" base
# the capture's kernel is 4.16: elevator= may still act on a single-queue device
expect_owners queue.scheduler "udev /etc/udev/rules.d/60-readahead.rules:2 bfq true
cmdline /proc/cmdline:1 deadline unknown" base
assert_eq "$(jq -r '.sources["owners.queue.scheduler"]' "$TMP/facts.json")" config "source of owners"
jq -e '.host.tuned_profile == null' "$TMP/facts.json" >/dev/null || fail "no tuned profile in the base tree"

# on sda (not rotational), blockdev --setra 512 (sectors) in a RUN program runs after every rule
probe "$BASE" /
expect_owners queue.read_ahead_kb "udev /etc/udev/rules.d/60-readahead.rules:2 1024 false
udev /etc/udev/rules.d/60-readahead.rules:4 256 false
udev /usr/lib/udev/rules.d/80-vendor.rules:1 512 false
udev /etc/udev/rules.d/90-blockdev.rules:2 256 true" "/ on sda"
jq -e '.owners.queue.read_ahead_kb[0].note | test("rotational.*does not match 0")' "$TMP/facts.json" >/dev/null ||
	fail "the rotational rule says why it does not run on sda"

# /home has only its fstab entry, which then wins
probe "$BASE" /home
expect_owners mount.option.noatime "fstab /etc/fstab:3 relatime true" "/home"
expect_owners mount.option.commit "fstab /etc/fstab:3 commit=30 true" "/home"

# --- with tuned: the child profile's value wins; reapply_sysctl gives /etc's sysctl.d the last word ---
probe "$TUNED" /home/archive
jq -e '.host.tuned_profile == "db-tuned" and .host.tuned_active and .host.tuned_reapply_sysctl and
	.host.tuned_profile_mode == "manual"' \
	"$TMP/facts.json" >/dev/null || fail "tuned facts: $(jq -c .host "$TMP/facts.json")"
expect_owners queue.read_ahead_kb "udev /etc/udev/rules.d/60-readahead.rules:2 1024 false
udev /etc/udev/rules.d/60-readahead.rules:4 256 false
udev /usr/lib/udev/rules.d/80-vendor.rules:1 512 false
udev /etc/udev/rules.d/90-blockdev.rules:2 256 false
tuned /usr/lib/tuned/throughput-performance/tuned.conf:14 >4096 false
tuned /etc/tuned/db-tuned/tuned.conf:10 2048 true" tuned
expect_owners sysctl.vm.vfs_cache_pressure "sysctl.d /usr/lib/sysctl.d/30-distro.conf:2 120 false
sysctl.d /etc/sysctl.d/50-vendor.conf:2 90 false
sysctl.d /etc/sysctl.d/99-db.conf:3 40 true
tuned /etc/tuned/db-tuned/tuned.conf:7 60 false" tuned
# set only by tuned (the parent; the child does not touch it) and a /run file tuned re-applies
expect_owners sysctl.vm.dirty_background_ratio "sysctl.d /run/sysctl.d/70-runtime.conf:1 5 true
tuned /usr/lib/tuned/throughput-performance/tuned.conf:18 10 false" tuned
# a /usr/lib file systemd-sysctl reads last at boot still loses to /etc/sysctl.conf, re-applied by tuned
echo "vm.dirty_ratio = 25" >"$TUNED/usr/lib/sysctl.d/99-zz-late.conf"
probe "$TUNED" /home/archive
expect_owners sysctl.vm.dirty_ratio "sysctl.d /etc/sysctl.d/99-db.conf:4 40 false
sysctl.d /etc/sysctl.conf:6 20 true
sysctl.d /usr/lib/sysctl.d/99-zz-late.conf:1 25 false
tuned /usr/lib/tuned/throughput-performance/tuned.conf:17 40 false
tuned /etc/tuned/db-tuned/tuned.conf:6 30 false" "tuned, reapplied"
jq -e '[.owners.sysctl.vm.dirty_ratio[] | .reapplied // false] == [true, true, false, false, false]' \
	"$TMP/facts.json" >/dev/null || fail "reapplied marks: $(jq -c .owners.sysctl.vm.dirty_ratio "$TMP/facts.json")"
sed -i 's/^reapply_sysctl = 1/reapply_sysctl = 0/' "$TUNED/etc/tuned/tuned-main.conf"
probe "$TUNED" /home/archive
expect_owners sysctl.vm.dirty_ratio "sysctl.d /etc/sysctl.d/99-db.conf:4 40 false
sysctl.d /etc/sysctl.conf:6 20 false
sysctl.d /usr/lib/sysctl.d/99-zz-late.conf:1 25 false
tuned /usr/lib/tuned/throughput-performance/tuned.conf:17 40 false
tuned /etc/tuned/db-tuned/tuned.conf:6 30 true" "tuned, reapply_sysctl = 0"
sed -i 's/^reapply_sysctl = 0/reapply_sysctl = 1/' "$TUNED/etc/tuned/tuned-main.conf"
rm "$TUNED/usr/lib/sysctl.d/99-zz-late.conf"

# without the service enabled the profile manages nothing
rm "$TUNED/etc/systemd/system/multi-user.target.wants/tuned.service"
probe "$TUNED" /home/archive
jq -e '.host.tuned_active == false' "$TMP/facts.json" >/dev/null || fail "tuned.service not enabled"
expect_owners queue.read_ahead_kb "udev /etc/udev/rules.d/60-readahead.rules:2 1024 unknown
udev /etc/udev/rules.d/60-readahead.rules:4 256 false
udev /usr/lib/udev/rules.d/80-vendor.rules:1 512 unknown
udev /etc/udev/rules.d/90-blockdev.rules:2 256 false
tuned /usr/lib/tuned/throughput-performance/tuned.conf:14 >4096 false
tuned /etc/tuned/db-tuned/tuned.conf:10 2048 false" "tuned, not enabled"
ln -s /usr/lib/systemd/system/tuned.service "$TUNED/etc/systemd/system/multi-user.target.wants/tuned.service"

# --- elevator= on a kernel of 5.0 or later: a leftover, never the owner ---
KERNEL6=$TMP/kernel6
cp -a "$BASE" "$KERNEL6"
echo "Linux version 6.1.0-28-amd64 (debian-kernel@lists.debian.org) (gcc-12 (Debian 12.2.0-14) 12.2.0) #1 SMP" \
	>"$KERNEL6/proc/version"
probe "$KERNEL6" /home/archive
expect_owners queue.scheduler "udev /etc/udev/rules.d/60-readahead.rules:2 bfq true
cmdline /proc/cmdline:1 deadline false" kernel6
export FSTUNE_RULES_BUILTIN=$FSTUNE_SRCDIR/rules/builtin
run_status 0 "$FSTUNE" report --no-system-rules --sysroot "$KERNEL6" /home/archive --workload largefiles
grep -A4 '^Leftovers' "$TMP/out" | tr -s ' \n' ' ' | grep -q "elevator=deadline on the kernel command line: a leftover: elevator= has done nothing since Linux 5.0" ||
	fail "text report names the elevator= leftover: $(cat "$TMP/out")"
run_status 0 "$FSTUNE" report --no-system-rules --sysroot "$KERNEL6" /home/archive --workload largefiles --format json
jq -e '.leftovers == [{"kind":"cmdline","path":"/proc/cmdline","line":1,"key":"elevator","value":"deadline",
	"wins":false,"note":.leftovers[0].note,"setting":"queue.scheduler"}]' "$TMP/out" >/dev/null ||
	fail "JSON leftovers: $(jq -c .leftovers "$TMP/out")"

# --- the report: owners named, the winner said, the persistent form placed where it wins ---
# rec_text FILE ID: one recommendation's block of a text report, joined into one line
rec_text() { awk -v id="    $2" '$0 == id {on = 1} on && /^[^ ]/ {exit} on' "$1" | tr -s ' \n' ' '; }
has() { grep -qF -- "$2" <<<"$1" || fail "$3: no \"$2\" in: $1"; }

run_status 0 "$FSTUNE" report --no-system-rules --sysroot "$BASE" /home --workload smallfiles
cp "$TMP/out" "$TMP/base-home.txt"
t=$(rec_text "$TMP/base-home.txt" dcache.keep_metadata)
has "$t" "vm/vfs_cache_pressure is set to 120 by /usr/lib/sysctl.d/30-distro.conf:2; overridden" sysctl
has "$t" "vm.vfs_cache_pressure is set to 40 by /etc/sysctl.d/99-db.conf:3; this one wins" sysctl
has "$t" "a file named 60-fstune.conf would lose to /etc/sysctl.d/99-db.conf:3 at boot: this one is named 99-fstune.conf" sysctl
has "$t" "Persistent (sysctl.d, /etc/sysctl.d/99-fstune.conf): vm.vfs_cache_pressure = 50" sysctl
grep -q "50-vendor.conf:.*= 200\|set to 200" "$TMP/base-home.txt" && fail "the hidden /usr/lib/sysctl.d/50-vendor.conf is listed"

run_status 0 "$FSTUNE" report --no-system-rules --sysroot "$BASE" /home/archive --workload largefiles
cp "$TMP/out" "$TMP/base-archive.txt"
t=$(rec_text "$TMP/base-archive.txt" readahead.raise_for_streaming)
has "$t" "ATTR{queue/read_ahead_kb} is set to 1024 by /etc/udev/rules.d/60-readahead.rules:2; it may win: the rule at /usr/lib/udev/rules.d/80-vendor.rules:1 runs after it and may match" udev
has "$t" "a file named 69-fstune.rules could lose to /usr/lib/udev/rules.d/80-vendor.rules:1 at boot: this one is named 99-fstune.rules" udev
has "$t" "Persistent (udev, /etc/udev/rules.d/99-fstune.rules)" udev
t=$(rec_text "$TMP/base-archive.txt" mount.commit_throughput)
has "$t" "the mount unit at /etc/systemd/system/home-archive.mount:8 has commit=120; this one wins" mount
has "$t" "the fstab entry at /etc/fstab:4 has commit=60; overridden" mount
has "$t" "Persistent (mount-unit, /etc/systemd/system/home-archive.mount): add commit=30 to Options= in /etc/systemd/system/home-archive.mount:8 (replacing commit=120)" mount

run_status 0 "$FSTUNE" report --no-system-rules --sysroot "$TUNED" /home/archive --workload largefiles
t=$(rec_text "$TMP/out" readahead.raise_for_streaming)
has "$t" "readahead is set to 2048 by /etc/tuned/db-tuned/tuned.conf:10 (tuned profile db-tuned, [disk]); this one wins" tuned
has "$t" "readahead is set to >4096 by /usr/lib/tuned/throughput-performance/tuned.conf:14 (tuned profile throughput-performance, [disk]); overridden: /etc/tuned/db-tuned/tuned.conf:10 (profile db-tuned) sets it after this one" tuned
has "$t" "tuned (profile db-tuned) is active: the persistent form is a child profile that includes it" tuned
has "$t" "Persistent (tuned, /etc/tuned/fstune/tuned.conf): [main] include=db-tuned [disk] readahead=4096" tuned
# chosen by tuned itself: selecting the child profile also makes the choice the admin's
echo auto >"$TUNED/etc/tuned/profile_mode"
run_status 0 "$FSTUNE" report --no-system-rules --sysroot "$TUNED" /home/archive --workload largefiles
has "$(rec_text "$TMP/out" readahead.raise_for_streaming)" "which also turns the profile mode from auto to manual" tuned-auto
echo manual >"$TUNED/etc/tuned/profile_mode"

run_status 0 "$FSTUNE" report --no-system-rules --sysroot "$TUNED" /home --workload smallfiles
t=$(rec_text "$TMP/out" dcache.keep_metadata)
has "$t" "vm.vfs_cache_pressure is set to 60 by /etc/tuned/db-tuned/tuned.conf:7 (tuned profile db-tuned, [sysctl]); overridden: tuned re-applies the sysctl.d files of /etc and /run after its profile" tuned-sysctl
has "$t" "tuned re-applies /etc/sysctl.d/99-db.conf:3 after its profiles (reapply_sysctl), so remove that line too" tuned-sysctl
has "$t" "Persistent (tuned, /etc/tuned/fstune/tuned.conf): [main] include=db-tuned [sysctl] vm.vfs_cache_pressure=50" tuned-sysctl

# Closing the loop: each placed form, written where the report says, is then the winner
# placed ROOT TARGET WORKLOAD ID: writes the recommendation's persistent form into the tree
placed() {
	local path line
	run_status 0 "$FSTUNE" report --no-system-rules --sysroot "$1" "$2" --workload "$3" --format json
	path=$(jq -r --arg id "$4" '.recommendations[] | select(.id == $id) | .persistent.path' "$TMP/out")
	line=$(jq -r --arg id "$4" '.recommendations[] | select(.id == $id) | .persistent.line' "$TMP/out")
	mkdir -p "$1$(dirname "$path")"
	printf '%s\n' "$line" >"$1$path"
	echo "$path"
}
p=$(placed "$BASE" /home smallfiles dcache.keep_metadata)
probe "$BASE" /home
assert_eq "$(owners sysctl.vm.vfs_cache_pressure | grep true)" "sysctl.d $p:1 50 true" "placed sysctl.d line"
rm "$BASE$p"
p=$(placed "$BASE" /home/archive largefiles readahead.raise_for_streaming)
probe "$BASE" /home/archive
assert_eq "$(owners queue.read_ahead_kb | grep -v false)" "udev $p:2 4096 true" "placed udev rule"
rm "$BASE$p"
p=$(placed "$TUNED" /home/archive largefiles readahead.raise_for_streaming)
echo fstune >"$TUNED/etc/tuned/active_profile"
probe "$TUNED" /home/archive
assert_eq "$(owners queue.read_ahead_kb | grep -v false)" "tuned $p:5 4096 true" "placed tuned child profile"
echo db-tuned >"$TUNED/etc/tuned/active_profile"
rm -r "$TUNED$(dirname "$p")"

# The apply script installs a placed file, and never one of the admin's: a form to edit into the
# owner's file, or a tuned profile, is described for the admin to do by hand
mkdir "$TMP/s1" "$TMP/s2" "$TMP/s3"
run_status 0 "$FSTUNE" report --no-system-rules --sysroot "$BASE" /home --workload smallfiles --scripts "$TMP/s1"
grep -q "^install_file /etc/sysctl.d/99-fstune.conf " "$TMP/s1/apply.sh" || fail "apply.sh installs the placed file"
printf 'vm.vfs_cache_pressure = 30\n' >"$BASE/etc/sysctl.d/zzzz-last.conf"
run_status 0 "$FSTUNE" report --no-system-rules --sysroot "$BASE" /home --workload smallfiles --scripts "$TMP/s2"
t=$(rec_text "$TMP/out" dcache.keep_metadata)
has "$t" "no file name sorts after zzzz-last.conf: edit /etc/sysctl.d/zzzz-last.conf:1 to read as below" edit
has "$t" "Persistent (edit, /etc/sysctl.d/zzzz-last.conf): vm.vfs_cache_pressure = 50" edit
grep -q "^install_file /" "$TMP/s2/apply.sh" && fail "apply.sh installs over the owner's file: $(grep install_file "$TMP/s2/apply.sh")"
grep -q "by hand, in /etc/sysctl.d/zzzz-last.conf" "$TMP/s2/apply.sh" || fail "apply.sh describes the edit"
rm "$BASE/etc/sysctl.d/zzzz-last.conf"
run_status 0 "$FSTUNE" report --no-system-rules --sysroot "$TUNED" /home --workload smallfiles --scripts "$TMP/s3"
grep -q "^install_file /" "$TMP/s3/apply.sh" && fail "apply.sh installs a sysctl.d file beside tuned"
grep -q "by hand, in /etc/tuned/fstune/tuned.conf" "$TMP/s3/apply.sh" || fail "apply.sh describes the tuned profile"
# a mount unit wins over fstab: the remount step's persistent form is said, for the unit, not shown as
# an fstab diff
mkdir "$TMP/s4"
run_status 0 "$FSTUNE" report --no-system-rules --sysroot "$BASE" /home/archive --workload largefiles --scripts "$TMP/s4"
grep -q "by hand, in /etc/systemd/system/home-archive.mount: .*commit=30" "$TMP/s4/apply.sh" ||
	fail "apply.sh does not describe the mount unit's change: $(grep -n "commit" "$TMP/s4/apply.sh")"
grep -q "^show_fstab .*commit=30" "$TMP/s4/apply.sh" && fail "apply.sh shows an fstab diff a mount unit overrides"

# Markdown and JSON say the same
run_status 0 "$FSTUNE" report --no-system-rules --sysroot "$BASE" /home --workload smallfiles --format markdown
grep -qF -- '- vm.vfs\_cache\_pressure is set to 40 by /etc/sysctl.d/99-db.conf:3; this one wins' "$TMP/out" ||
	fail "Markdown names the winner"
grep -q '^\*\*Managed elsewhere\*\*' "$TMP/out" || fail "Markdown has the owners block"
run_status 0 "$FSTUNE" report --no-system-rules --sysroot "$BASE" /home --workload smallfiles --format json
cp "$TMP/out" "$TMP/report.json"
jq -e '.recommendations[] | select(.id == "dcache.keep_metadata") |
	(.owners | map(select(.wins == true)) | .[0].path == "/etc/sysctl.d/99-db.conf") and
	.persistent.path == "/etc/sysctl.d/99-fstune.conf" and .persistent.instead_of == "/etc/sysctl.d/60-fstune.conf" and
	.persistent.placement.reason == "after"' "$TMP/report.json" >/dev/null ||
	fail "JSON owners and placement: $(jq -c '.recommendations[] | select(.id == "dcache.keep_metadata") | {owners, persistent}' "$TMP/report.json")"

# the rules are pure: the saved facts give the same placement with no tree to read
jq .facts "$TMP/report.json" >"$TMP/saved.json"
run_status 0 "$FSTUNE" report --no-system-rules --facts "$TMP/saved.json" --format json
jq -e '.recommendations[] | select(.id == "dcache.keep_metadata") | .persistent.path == "/etc/sysctl.d/99-fstune.conf"' \
	"$TMP/out" >/dev/null || fail "placement from saved facts"
# a hand-written owners list of the wrong shape is refused with the key named
echo '{"fs": {"type": "ext4"}, "owners": {"sysctl": {"vm": {"dirty_ratio": ["99-db.conf"]}}}}' >"$TMP/bad.json"
run_status 2 "$FSTUNE" report --no-system-rules --facts "$TMP/bad.json"
grep -q "owners.sysctl.vm.dirty_ratio must be a list of objects" "$TMP/err" || fail "bad owners: $(cat "$TMP/err")"
exit 0
