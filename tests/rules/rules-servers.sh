#!/bin/bash
# The rule set on eight hand-written servers (tests/servers/*.json): for each, the headline advice
# the shipped rules must give and the advice they must not give, asserted on the JSON report of
# `fstune report --facts`. Written before any golden report was frozen; the healthy server must get
# no warning and no suggestion resting only on a preset or default workload. Then the same servers
# with measurements (tests/servers/measured/) and the healthy baseline of each device class
# (tests/baselines/).
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
require_cmd jq

SERVERS="$FSTUNE_SRCDIR/tests/servers"
failures=0

# report SERVER [FACTS]: the JSON report of tests/servers/SERVER.json (or FACTS) in $TMP/SERVER.json;
# a report that does not run, or in which a rule errs, fails the test at once.
report() {
	local s=$1 out="$TMP/$1.json" st=0
	"$FSTUNE" report --facts "${2:-$SERVERS/$s.json}" --no-system-rules --format json >"$out" \
		2>"$TMP/$s.err" || st=$?
	[ "$st" = 0 ] || fail "$s: fstune report exited $st: $(head -c 600 "$TMP/$s.err")"
	jq -e . "$out" >/dev/null || fail "$s: the report is not JSON"
	jq -e '.errors | length == 0' "$out" >/dev/null ||
		fail "$s: rule errors: $(jq -c '.errors' "$out" | head -c 600)"
}

ids() { jq -r '[.recommendations[].id] | join(" ")' "$TMP/$1.json"; }

note() {
	echo "FAIL: $*" >&2
	failures=$((failures + 1))
}

# present SERVER ID[=SEVERITY]...
present() {
	local s=$1 want id sev got
	shift
	for want in "$@"; do
		id=${want%%=*}
		sev=${want#*=}
		[ "$sev" = "$want" ] && sev=
		got=$(jq -r --arg id "$id" '[.recommendations[] | select(.id == $id) | .severity][0] // "absent"' \
			"$TMP/$s.json")
		if [ "$got" = absent ]; then
			note "$s: expected $id; got: $(ids "$s")"
		elif [ -n "$sev" ] && [ "$got" != "$sev" ]; then
			note "$s: $id is $got, expected $sev"
		fi
	done
}

# absent SERVER ID-or-PREFIX.* ...
absent() {
	local s=$1 id hit
	shift
	for id in "$@"; do
		if [ "${id%.\*}" != "$id" ]; then
			hit=$(jq -r --arg p "${id%\*}" '[.recommendations[].id | select(startswith($p))] | join(" ")' \
				"$TMP/$s.json")
		else
			hit=$(jq -r --arg id "$id" '[.recommendations[].id | select(. == $id)] | join(" ")' "$TMP/$s.json")
		fi
		[ -z "$hit" ] || note "$s: did not expect $hit"
	done
}

# value SERVER ID JQ-FIELD EXPECTED
value() {
	local got
	got=$(jq -r --arg id "$2" ".recommendations[] | select(.id == \$id) | $3" "$TMP/$1.json")
	[ "$got" = "$4" ] || note "$1: $2 $3 is '${got}', expected '$4'"
}

# No warning or critical anywhere, and no suggestion whose evidence comes only from a preset or a
# default (or that names no evidence at all).
healthy() {
	local s=$1 bad
	bad=$(jq -r '[.recommendations[] | select(.severity == "warn" or .severity == "critical") | .id]
		| join(" ")' "$TMP/$s.json")
	[ -z "$bad" ] || note "$s: warnings on a healthy server: $bad"
	bad=$(jq -r '[.recommendations[] | select(.severity == "suggest")
		| select([.evidence[]? | select(.source != null) | .source]
			| all(. == "preset" or . == "default")) | .id] | join(" ")' "$TMP/$s.json")
	[ -z "$bad" ] || note "$s: suggestions resting only on preset/default sources: $bad"
}

MINE="topology.* inodes.* mount.* reserve.* freebsd.* fschoice.* legacy.* fanout.* readahead.*"

# 1. PostgreSQL on NVMe: nothing trims it, 7 TB with a 5% reserve; random writes into 1 GiB
#    segment files (lazytime, info); nothing about topology or read-ahead (128 KiB, buffered 8K).
report nvme-database
present nvme-database mount.fstrim_timer=suggest reserve.large_fs_reserve=suggest mount.lazytime=info
value nvme-database mount.fstrim_timer .recommended true
value nvme-database reserve.large_fs_reserve .recommended 1
absent nvme-database 'topology.*' 'readahead.*' 'inodes.*' 'fschoice.*' 'fanout.*' reserve.nearly_full \
	mount.strictatime mount.discard_to_fstrim

# 2. md RAID6 file server reshaped from a 4-disk RAID5: ext4 still stripes for 3 data disks; 22 TB
#    data share with 5% reserve; read-ahead already 2 x the 3 MiB stripe, so nothing to raise.
report hdd-raid-fileserver
present hdd-raid-fileserver topology.fs_stripe_mismatch=suggest reserve.large_fs_reserve=suggest \
	fanout.inode_order_backup=info
absent hdd-raid-fileserver topology.fs_stripe_missing topology.untrusted_optimal_io \
	topology.partition_misaligned 'readahead.*' mount.fstrim_timer 'inodes.*' fanout.bounded_directories \
	topology.fs_stride
# The engine builds the fix from fs.stripe_width (384 blocks now, 768 for 6 data disks); the stride
# (128 blocks = the 512 KiB chunk) is already right.
value hdd-raid-fileserver topology.fs_stripe_mismatch .setting fs.stripe_width
value hdd-raid-fileserver topology.fs_stripe_mismatch .disruption online
value hdd-raid-fileserver topology.fs_stripe_mismatch '.apply | join(";")' 'tune2fs -E stripe_width=768 /dev/md0'
value hdd-raid-fileserver topology.fs_stripe_mismatch '.revert | join(";")' 'tune2fs -E stripe_width=384 /dev/md0'

# 3. Mail spool: 93% of inodes used, 80 M messages planned against 61 M inodes, spool directories
#    of up to 350,000 files on md RAID1 of disks; relatime stays (mail readers compare atime).
report mail-spool
present mail-spool inodes.exhaustion=warn reserve.inodes_nearly_full=warn \
	fanout.bounded_directories=suggest fanout.inode_order_backup=info
value mail-spool inodes.exhaustion .setting mkfs.inode_ratio
value mail-spool inodes.exhaustion .recommended 8192
absent mail-spool 'mount.*' 'topology.*' reserve.large_fs_reserve reserve.nearly_full 'readahead.*'

# 4. KVM guest: virtio says rotational=1 (info only), tuned's 4 MiB read-ahead with a workload
#    nobody described: no read-ahead advice; nothing above info from these rules.
report vm-virtio
present vm-virtio topology.rotational_not_evidence=info
absent vm-virtio 'readahead.*' 'mount.*' 'fanout.*' 'inodes.*' 'reserve.*' topology.partition_misaligned
healthy vm-virtio

# 5. New 18 TB 4Kn SAS disk for a video archive: XFS slightly preferred (info); read-ahead up for
#    streaming; 4Kn at 1 MiB is aligned. One filesystem goes on the disk: the ext4 advice (a large
#    inode ratio, a 1% reserve) is left out of the one mkfs.xfs command, each said in its notes.
report sas-4kn
present sas-4kn fschoice.xfs_for_large_files=info readahead.raise_for_streaming=suggest
value sas-4kn readahead.raise_for_streaming .recommended 4096
absent sas-4kn 'topology.*' fschoice.ext4_small_device inodes.ratio_for_small_files 'mount.*' \
	inodes.largefile_ratio reserve.mkfs_reserve
[ "$(jq -c '[.mkfs[] | .fs]' "$TMP/sas-4kn.json")" = '["xfs"]' ] ||
	note "sas-4kn: not one mkfs.xfs command: $(jq -c .mkfs "$TMP/sas-4kn.json")"
for left in inodes.largefile_ratio reserve.mkfs_reserve; do
	jq -e --arg id "$left" 'any(.mkfs[0].notes[]; startswith("Leaves out " + $id + " (for ext4: "))' \
		"$TMP/sas-4kn.json" >/dev/null || note "sas-4kn: no note leaving out $left: $(jq -c .mkfs "$TMP/sas-4kn.json")"
done

# 6. USB enclosure reporting optimal_io_size 33553920: topology distrusted (warn), the ext4 stripe
#    copied from it, read-ahead 65532 KiB derived from it; no RAID geometry advice.
report usb-bogus-opt-io
present usb-bogus-opt-io topology.untrusted_optimal_io=warn topology.fs_stripe_from_bogus_topology=suggest \
	readahead.inflated_by_io_opt=suggest
# a backup disk that only streams large files: the streaming size, not the 128 KiB of small reads
value usb-bogus-opt-io readahead.inflated_by_io_opt .recommended 4096
absent usb-bogus-opt-io topology.fs_stripe_missing topology.fs_stripe_mismatch topology.partition_misaligned \
	topology.partition_off_stripe readahead.raise_for_streaming topology.fs_stride
value usb-bogus-opt-io topology.fs_stripe_from_bogus_topology .recommended 0
value usb-bogus-opt-io topology.fs_stripe_from_bogus_topology .current 8191
value usb-bogus-opt-io topology.fs_stripe_from_bogus_topology '.apply | join(";")' 'tune2fs -E stripe_width=0 /dev/sdc1'
value usb-bogus-opt-io topology.fs_stripe_from_bogus_topology '.revert | join(";")' \
	'tune2fs -E stripe_width=8191 /dev/sdc1'

# 7. FreeBSD news spool (articles of 500-2000 bytes, 512-byte sectors): newfs 16K/2K from the
#    2001 table's 0.5KB-2KB row, -i for 60 M articles, the carried-over kern.nbuf, dirhash memory.
report freebsd-target
present freebsd-target freebsd.newfs_block_size=suggest freebsd.newfs_fragment_size=suggest \
	inodes.freebsd_bytes_per_inode=suggest freebsd.nbuf_override=suggest freebsd.dirhash_maxmem=suggest
value freebsd-target freebsd.newfs_block_size .recommended 16384
value freebsd-target freebsd.newfs_fragment_size .recommended 2048
absent freebsd-target 'mount.*' 'reserve.*' 'fschoice.*' 'fanout.*' 'readahead.*' freebsd.small_frags_below_sector \
	freebsd.nbuf_auto
# kern.nbuf = 0: the apply deletes the loader.conf line (no persistent line to add); the revert
# puts the carried-over 4096 back.
value freebsd-target freebsd.nbuf_override .setting freebsd.kern.nbuf
value freebsd-target freebsd.nbuf_override .recommended 0
value freebsd-target freebsd.nbuf_override .disruption reboot
value freebsd-target freebsd.nbuf_override '.persistent == null' true
value freebsd-target freebsd.nbuf_override '.apply | join(";")' \
	"sed -i '' '/^[[:space:]]*kern[.]nbuf[[:space:]]*=/d' /boot/loader.conf"
value freebsd-target freebsd.nbuf_override '.revert | join(";")' \
	"sed -i '' '/^[[:space:]]*kern[.]nbuf[[:space:]]*=/d' /boot/loader.conf;echo 'kern.nbuf=\"4096\"' >> /boot/loader.conf"

# 8. The healthy default server: nothing from these rules, and nothing alarming from any rule.
report healthy-default
# shellcheck disable=SC2086 # the patterns are words on purpose
absent healthy-default $MINE
healthy healthy-default

# --- Measured variants: each server with what a benchmark run adds (tests/servers/measured/), the
# expected headline advice written before any golden report of them. Every bench key gets source
# "bench", as a run would give it.
measured() {
	local s=$1
	jq -s '(.[0] * .[1]) as $f | $f | .sources = (([$f.bench | paths(scalars) | map(tostring) | join(".")
		| {("bench." + .): "bench"}] | add) + $f.sources)' "$SERVERS/$s.json" "$SERVERS/measured/$s.json" \
		>"$TMP/$s.facts" || fail "$s: cannot merge the measured overlay"
	report "$s-measured" "$TMP/$s.facts"
}

# 1m. PostgreSQL on NVMe, random writes measured at 620 MB/s with 200 GiB available: the dirty
#     limit is sized from the random rate (2 GiB, not the 1 GiB of the unmeasured rule).
measured nvme-database
present nvme-database-measured writeback.dirty_bytes=suggest writeback.dirty_background_bytes=suggest
value nvme-database-measured writeback.dirty_bytes .recommended 2147483648
value nvme-database-measured writeback.dirty_background_bytes .recommended 536870912
value nvme-database-measured writeback.dirty_bytes \
	'[.evidence[] | select(.key == "bench.rand_write_4k_qd32.bw_bytes_per_s") | .source][0]' bench
absent nvme-database-measured 'devclass.*' 'durability.*' 'blocksize.*'
value nvme-database writeback.dirty_bytes .recommended 1073741824

# 2m. The RAID6 array reading at 30 MB/s: slower than 6 striped disks can be (warn, a failing
#     member); sequential writes at 60 MB/s set a 256 MiB dirty limit.
measured hdd-raid-fileserver
present hdd-raid-fileserver-measured devclass.slow_seq_read_1m=warn writeback.dirty_bytes=suggest
value hdd-raid-fileserver-measured writeback.dirty_bytes .recommended 268435456
absent hdd-raid-fileserver-measured 'durability.*' devclass.slow_seq_write_1m

# 3m. The mail spool measured: directories of up to 350,000 entries at 80,000 stat/s warm
#     (4.4 s a scan): about 5,000 per directory at low confidence; an fsync per file costs 94% of
#     the small-file rate on a sync-heavy spool: lazytime; the 2001 Postmark row beside it.
measured mail-spool
present mail-spool-measured dirlayout.measured_scan=suggest smallfile.fsync_bound=suggest \
	smallfile.postmark_2001=info
value mail-spool-measured dirlayout.measured_scan .recommended 5000
value mail-spool-measured dirlayout.measured_scan .confidence 0.5
value mail-spool-measured smallfile.fsync_bound .setting mount.option.lazytime
absent mail-spool-measured smallfile.commit_bound 'devclass.*' 'durability.*'

# 4m. This machine's KVM guest: fsync in 126 us on a disk claiming to rotate: the hypervisor
#     decides durability (info); 2 GB/s writes drain 3.6 GiB in 2 s: no writeback advice.
measured vm-virtio
present vm-virtio-measured durability.vm_cache_mode=info
absent vm-virtio-measured 'writeback.*' 'devclass.*'
healthy vm-virtio-measured

# 5m. The new SAS disk reading at 28 MB/s before it holds anything: slower than any healthy disk.
measured sas-4kn
present sas-4kn-measured devclass.slow_seq_read_1m=warn
absent sas-4kn-measured 'durability.*' devclass.fast_rand_read_4k_qd1

# 6m. The USB disk whose bridge acknowledges an fsync in 0.35 ms: flushes do not reach the media;
#     38 MB/s of backup writes set a 128 MiB dirty limit.
measured usb-bogus-opt-io
present usb-bogus-opt-io-measured durability.flush_not_reaching_media=warn writeback.dirty_bytes=suggest
value usb-bogus-opt-io-measured writeback.dirty_bytes .recommended 134217728

# 7m. The FreeBSD news spool's smallfile run beside the 2001 table's 0.5KB-2KB row (1086 / 961).
measured freebsd-target
present freebsd-target-measured smallfile.postmark_2001=info
value freebsd-target-measured smallfile.postmark_2001 '.title | test("1086 and 961")' true
absent freebsd-target-measured 'writeback.*' 'dcache.*' 'blocksize.*'

# 8m. The healthy SATA SSD measuring what its class does: no warning; 5.4 GiB of dirty pages at
#     470 MB/s take 12 s, so byte limits are suggested, resting on the measurement.
measured healthy-default
present healthy-default-measured writeback.dirty_bytes=suggest
value healthy-default-measured writeback.dirty_bytes .recommended 2147483648
absent healthy-default-measured 'devclass.*' 'durability.*'
healthy healthy-default-measured

# --- Healthy baselines, one per device class (tests/baselines/): default settings and numbers
# typical of the class give no warning and no critical finding.
for f in "$FSTUNE_SRCDIR"/tests/baselines/*.json; do
	b=baseline-$(basename "$f" .json)
	report "$b" "$f"
	bad=$(jq -r '[.recommendations[] | select(.severity == "warn" or .severity == "critical") | .id]
		| join(" ")' "$TMP/$b.json")
	[ -z "$bad" ] || note "$b: warnings on a healthy baseline: $bad"
done

# On every server: no reformat rests on a default source (nobody said), and nothing resting only on
# default sources is more than info (DESIGN.md, "Recommendations").
for f in "$TMP"/*.json; do
	s=$(basename "$f" .json)
	bad=$(jq -r '[.recommendations[] | select(.disruption == "reformat")
		| select([.evidence[]? | .source] | index("default")) | .id] | join(" ")' "$f")
	[ -z "$bad" ] || note "$s: reformat resting on a default source: $bad"
	bad=$(jq -r '[.recommendations[] | select(.severity != "info")
		| select([.evidence[]? | select(.source != null) | .source] | length > 0 and all(. == "default"))
		| .id] | join(" ")' "$f")
	[ -z "$bad" ] || note "$s: more than info resting only on default sources: $bad"
done

# doc/rules-table.md is generated from the rules: its rule and setting tables must be today's.
"$FSTUNE" rules list --no-system-rules --format markdown >"$TMP/table.md" || fail "rules list failed"
grep -vxF -f "$FSTUNE_SRCDIR/doc/rules-table.md" "$TMP/table.md" >"$TMP/stale" || true
[ ! -s "$TMP/stale" ] || note "doc/rules-table.md is stale (run make rules-table): $(head -n 3 "$TMP/stale")"

[ "$failures" = 0 ] || fail "$failures expectation(s) not met"
echo "ok: 8 servers, their measured variants and the baselines"
