#!/bin/bash
# `fstune probe --sysroot` on the fixture trees of tests/fixtures/sysroot: the device kinds this
# machine lacks (NVMe, SATA SSD and HDD with partitions, md RAID 5), checked value by value and
# against lsblk's own answers for the same capture.
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
require_cmd jq

FIX=$FSTUNE_SRCDIR/tests/fixtures/sysroot
NVME=$FIX/simple-nvme
MD=$FIX/md-raid5
LSBLK=$FIX/simple-nvme.lsblk

# probe_json ROOT TARGET: the facts as JSON in $TMP/<n>.json; prints the file name.
n=0
probe_json() {
	n=$((n + 1))
	run_status 0 "$FSTUNE" probe --sysroot "$1" --format json "$2"
	cp "$TMP/out" "$TMP/$n.json"
	echo "$TMP/$n.json"
}
# jq_eq FILE FILTER WANT
jq_eq() { assert_eq "$(jq -r "$2" "$1")" "$3" "$(basename "$1") $2"; }

# lsblk size strings ("512B", "4K", "2G") as bytes.
to_bytes() {
	local v=$1 num unit
	num=${v%[BKMGT]}
	unit=${v#"$num"}
	case $unit in
	B | "") echo "$num" ;;
	K) echo $((num * 1024)) ;;
	M) echo $((num * 1024 * 1024)) ;;
	G) echo $((num * 1024 * 1024 * 1024)) ;;
	T) echo $((num * 1024 * 1024 * 1024 * 1024)) ;;
	esac
}

# --- lsblk's answers, device by device (tree prefixes |- and `- stripped) ---
rows() { tail -n +2 "$1" | sed -e 's/^[|`]-//'; }
# kname NAME: lsblk shows a device-mapper volume by its dm name; fstune by its kernel name.
kname() { case $1 in vg_*) echo dm-0 ;; *) echo "$1" ;; esac; }
# compare_lsblk ROOT LSBLK-DIR CAPTURE REGEX: the devices of lsblk's topo, rw, discard and state
# answers whose kernel name matches REGEX.
compare_lsblk() {
	local root=$1 dir=$2 cap=$3 only=$4 name _size align minio optio physec logsec rq f k ra gran rota sched
	local got want
	local -A seen=()
	checked=0
	while read -r name _size align minio optio physec logsec rq; do
		k=$(kname "$name")
		[[ $k =~ $only ]] || continue
		[ -z "${seen[$k]:-}" ] || continue
		seen[$k]=1
		f=$(probe_json "$root" "$k")
		ra=$(rows "$dir/lsblk-$cap-rw" | awk -v n="$name" '$1 == n {print $2; exit}')
		gran=$(rows "$dir/lsblk-$cap-discard" | awk -v n="$name" '$1 == n {print $3; exit}')
		# STATE is empty for partitions and loops, PKNAME for disks and loops: find TYPE first.
		read -r rota sched < <(rows "$dir/lsblk-$cap-state" | awk -v n="$name" '$1 == n {
			for (i = 2; i <= NF; i++) if ($i ~ /^(disk|part|loop|lvm)$/) t = i
			s = ($t == "disk" || $t == "loop") ? $(t + 1) : $(t + 2)
			print $(t - 1), (s == "" ? "-" : s); exit }')
		# One jq per device: name, alignment, min-io, opt-io, phy-sec, log-sec, rq, ra, gran,
		# rotational, scheduler.
		got=$(jq -r '.device | [.name, .alignment_offset, .minimum_io_size, .optimal_io_size,
			.physical_block_size, .logical_block_size, .nr_requests, .read_ahead_kb,
			.discard_granularity, (if .rotational then 1 else 0 end), .scheduler] | map(tostring) |
			join(" ")' "$f")
		[ "$sched" != - ] || sched=$(jq -r .device.scheduler "$f") # lsblk 2.30: none for dm
		want="$k $align $minio $optio $physec $logsec $rq $ra $(to_bytes "$gran") $rota $sched"
		assert_eq "$got" "$want" "$cap $k (name align min-io opt-io phy-sec log-sec rq ra disc-gran rota sched)"
		checked=$((checked + 1))
	done < <(rows "$dir/lsblk-$cap-topo")
}
compare_lsblk "$NVME" "$LSBLK" simple-nvme .
assert_eq "$checked" 13 "simple-nvme devices compared with lsblk"
# The LVM capture's fixture keeps only the loop devices and the volume on them.
compare_lsblk "$FIX/simple-lvm" "$FIX/simple-lvm.lsblk" simple-lvm '^(loop[0-9]+|dm-0)$'
assert_eq "$checked" 5 "simple-lvm devices compared with lsblk"

# Models: lsblk prints them for whole disks, in a fixed-width column.
models=0
while IFS=$'\t' read -r name model; do
	f=$(probe_json "$NVME" "$name")
	jq_eq "$f" .device.model "$model"
	models=$((models + 1))
done < <(awk 'NR == 1 { m = index($0, "MODEL"); v = index($0, "VENDOR"); next }
	$0 !~ /^[|`]/ { s = substr($0, m, v - m); sub(/ +$/, "", s); if (s != "") print $1 "\t" s }' \
	"$LSBLK/lsblk-simple-nvme-vendor")
assert_eq "$models" 3 "models compared with lsblk"

# --- NVMe, through a directory: /home/test is nvme0n1p3 in the capture's mountinfo ---
f=$(probe_json "$NVME" /home/test/some/dir)
jq_eq "$f" .device.name nvme0n1p3
jq_eq "$f" .device.disk nvme0n1
jq_eq "$f" .device.path /dev/nvme0n1p3
jq_eq "$f" .device.transport nvme
jq_eq "$f" .device.size_bytes $((33111183 * 512))
jq_eq "$f" .device.partition_start_bytes $((435750912 * 512))
jq_eq "$f" .device.nr_hw_queues 7
jq_eq "$f" '.device.schedulers | join(",")' none,mq-deadline
jq_eq "$f" .device.write_cache "write back"
jq_eq "$f" .device.serial 50026B728203601D
# the PCIe link of a partition's whole disk: 8 GT/s x 4 (the fixture's hand-made link files)
jq_eq "$f" .device.link_speed_mbps 32000
jq_eq "$f" .device.link_lanes 4
jq_eq "$f" '.sources["device.link_speed_mbps"]' sysfs
jq_eq "$f" '.sources["device.rotational"]' sysfs
jq_eq "$f" .vm.bdi.max_ratio 100
jq_eq "$f" .vm.bdi.strict_limit 0
jq_eq "$f" .vm.dirty_ratio 20
jq_eq "$f" .vm.dirty_expire_centisecs 3000
# The host comes from the capture, never from this machine.
jq_eq "$f" .host.kernel 4.16.15-200.fc27.x86_64
jq_eq "$f" '.sources["host.kernel"]' procfs
jq_eq "$f" .host.os "Fedora 27 (Workstation Edition)"
jq_eq "$f" .host.virtualization none
jq_eq "$f" .host.cpus 8
jq_eq "$f" .host.mem_total_bytes $((16339864 * 1024))
jq_eq "$f" .host.mem_available_bytes $((12254898 * 1024))
jq_eq "$f" '.sources["host.mem_available_bytes"]' procfs
jq_eq "$f" .host.container false
jq_eq "$f" '.unavailable["host.page_size_bytes"].status' not_found

# --- host.virtualization and host.container from variants of the capture ---
cp -a "$NVME" "$TMP/host"
chmod -R u+w "$TMP/host"
virt() { probe_json "$TMP/host" /; }
# A kernel before 3.14 has no MemAvailable line: not_found, MemTotal still read.
cp "$TMP/host/proc/meminfo" "$TMP/meminfo"
printf 'MemTotal:       16339864 kB\nMemFree:         1000000 kB\n' >"$TMP/host/proc/meminfo"
f=$(virt)
jq_eq "$f" .host.mem_total_bytes $((16339864 * 1024))
jq_eq "$f" '.unavailable["host.mem_available_bytes"].status' not_found
cp "$TMP/meminfo" "$TMP/host/proc/meminfo"
f=$(virt)
jq_eq "$f" .host.virtualization none
sed -i 's/^flags\t\t: fpu/flags\t\t: hypervisor fpu/' "$TMP/host/proc/cpuinfo"
f=$(virt)
jq_eq "$f" .host.virtualization vm
jq_eq "$f" '.sources["host.virtualization"]' procfs
mkdir -p "$TMP/host/sys/hypervisor"
echo xen >"$TMP/host/sys/hypervisor/type"
f=$(virt)
jq_eq "$f" .host.virtualization xen
mkdir -p "$TMP/host/sys/class/dmi/id"
echo "Microsoft Corporation" >"$TMP/host/sys/class/dmi/id/sys_vendor"
echo "Virtual Machine" >"$TMP/host/sys/class/dmi/id/product_name"
f=$(virt)
jq_eq "$f" .host.virtualization hyperv
jq_eq "$f" '.sources["host.virtualization"]' sysfs
echo QEMU >"$TMP/host/sys/class/dmi/id/sys_vendor"
echo "Standard PC (Q35 + ICH9, 2009)" >"$TMP/host/sys/class/dmi/id/product_name"
f=$(virt)
jq_eq "$f" .host.virtualization kvm
echo "VMware, Inc." >"$TMP/host/sys/class/dmi/id/sys_vendor"
echo "VMware Virtual Platform" >"$TMP/host/sys/class/dmi/id/product_name"
f=$(virt)
jq_eq "$f" .host.virtualization vmware
jq_eq "$f" .host.container false
mkdir -p "$TMP/host/run/systemd"
echo lxc >"$TMP/host/run/systemd/container"
f=$(virt)
jq_eq "$f" .host.container true
jq_eq "$f" '.sources["host.container"]' systemd
rm "$TMP/host/run/systemd/container"
mkdir -p "$TMP/host/proc/1"
printf 'PATH=/bin\0container=podman\0HOME=/\0' >"$TMP/host/proc/1/environ"
f=$(virt)
jq_eq "$f" .host.container true
printf 'PATH=/bin\0HOME=/\0' >"$TMP/host/proc/1/environ"
f=$(virt)
jq_eq "$f" .host.container false

# A plain SATA disk does not hide its topology (hardware RAID volumes: tests/probe/fs-stack.sh).
f=$(probe_json "$TMP/host" sda)
jq_eq "$f" .device.topology_hidden false

# --- SATA SSD (sda, KINGSTON SH103S3) and SATA HDD (sdb, WDC WD800JD) with partitions ---
f=$(probe_json "$NVME" /)
jq_eq "$f" .device.name sda4
jq_eq "$f" .device.disk sda
jq_eq "$f" .device.transport sata
jq_eq "$f" .device.rotational false
jq_eq "$f" .device.size_bytes $((104857600 * 512))
jq_eq "$f" .device.partition_start_bytes $((274087936 * 512))
jq_eq "$f" '.device.schedulers | join(",")' noop,deadline,cfq
jq_eq "$f" .device.vendor ATA
jq_eq "$f" '.unavailable["device.nr_hw_queues"].status' not_applicable
jq_eq "$f" '.unavailable["device.serial"].status' not_found
# Without TARGET under --sysroot: the captured machine's root directory.
run_status 0 "$FSTUNE" probe --sysroot "$NVME" --json
assert_eq "$(jq -r .device.name "$TMP/out")" sda4 "default TARGET under --sysroot"
f=$(probe_json "$NVME" /boot/efi/EFI)
jq_eq "$f" .device.name sda1
f=$(probe_json "$NVME" /home/archive)
jq_eq "$f" .device.name sdb1
jq_eq "$f" .device.transport sata
jq_eq "$f" .device.rotational true
jq_eq "$f" .device.partition_start_bytes 1048576
jq_eq "$f" .device.model "WDC WD800JD-00MS"
jq_eq "$f" '.unavailable["vm.bdi"].status' not_found
f=$(probe_json "$NVME" /dev/sdb)
jq_eq "$f" .device.name sdb
jq_eq "$f" .device.size_bytes $((156301488 * 512))
jq_eq "$f" '.unavailable["device.partition_start_bytes"].status' not_applicable

# A tmpfs of the capture: the whole device branch is one not_applicable entry.
f=$(probe_json "$NVME" /tmp/x)
jq_eq "$f" '.unavailable.device.status' not_applicable
jq_eq "$f" '.unavailable.device.reason' tmpfs
jq_eq "$f" '.device // "absent"' absent

# --- device-mapper over loop devices (simple-lvm) ---
f=$(probe_json "$FIX/simple-lvm" dm-0)
jq_eq "$f" .device.transport dm
jq_eq "$f" .device.scheduler none
jq_eq "$f" .device.size_bytes $((65536 * 512))
jq_eq "$f" '.unavailable["device.nr_hw_queues"].status' not_applicable
f=$(probe_json "$FIX/simple-lvm" /dev/loop2)
jq_eq "$f" .device.transport loop
jq_eq "$f" .device.loop_direct_io false
jq_eq "$f" .device.loop_backing_file /tmp/foo.4059-2.img
jq_eq "$f" .device.nr_hw_queues 1

# --- md RAID 5: 64 KiB chunk over four SATA disks ---
f=$(probe_json "$MD" /srv/data)
jq_eq "$f" .device.name md0
jq_eq "$f" .device.disk md0
jq_eq "$f" .device.transport md
jq_eq "$f" .device.minimum_io_size 65536
jq_eq "$f" .device.optimal_io_size 196608
jq_eq "$f" .device.logical_block_size 512
jq_eq "$f" .device.rotational true
jq_eq "$f" .device.scheduler none
jq_eq "$f" .device.size_bytes $(((156301488 - 264192) / 128 * 128 * 3 * 512))
jq_eq "$f" '.unavailable["device.model"].status' not_applicable
jq_eq "$f" '.unavailable["device.nr_requests"].status' not_applicable
f=$(probe_json "$MD" sdc)
jq_eq "$f" .device.transport sata
jq_eq "$f" .device.model "WDC WD800JD-00MS"
jq_eq "$f" .device.size_bytes $((156301488 * 512))

# --- text and Markdown ---
run_status 0 "$FSTUNE" probe --sysroot "$NVME" /home --sources
grep -Eq '^device$' "$TMP/out" || fail "no device heading in text output"
grep -Eq '^  transport +nvme +\[sysfs\] +Transport$' "$TMP/out" || fail "text: no aligned transport line with source and label"
grep -Eq '^  size_bytes +200 GiB +\[sysfs\] +Device size$' "$TMP/out" || fail "text: size not in human units"
grep -Eq '^  page_size_bytes +\(not found: ' "$TMP/out" || fail "text: unavailable fact not listed"
run_status 0 "$FSTUNE" probe --sysroot "$NVME" /home
if grep -q '\[sysfs\]' "$TMP/out"; then fail "sources shown without --sources"; fi
run_status 0 "$FSTUNE" probe --sysroot "$NVME" /tmp
grep -Eq '^  \(not applicable: tmpfs\)$' "$TMP/out" || fail "text: tmpfs device branch not shown"
run_status 0 "$FSTUNE" probe --sysroot "$NVME" /home --format markdown --sources
grep -q '^### device$' "$TMP/out" || fail "markdown: no device heading"
grep -q '^| transport | nvme | sysfs |$' "$TMP/out" || fail "markdown: no transport row"

# --- negotiated links: the ATA link of each SATA disk, a USB 2.0 device's speed ---
f=$(probe_json "$NVME" sda)
jq_eq "$f" .device.link_speed_mbps 6000
jq_eq "$f" '.device.link_lanes' null
f=$(probe_json "$NVME" sdb1)
jq_eq "$f" .device.link_speed_mbps 3000
f=$(probe_json "$FIX/usb2-stick" sdc)
jq_eq "$f" .device.transport usb
jq_eq "$f" .device.link_speed_mbps 480
f=$(probe_json "$MD" md0)
jq_eq "$f" '.unavailable["device.link_speed_mbps"].status' not_applicable
cp -a "$NVME" "$TMP/nolink"
chmod -R u+w "$TMP/nolink"
rm "$TMP/nolink/sys/devices/pci0000:00/0000:00:1f.2/ata1/link1/ata_link/link1/sata_spd"
f=$(probe_json "$TMP/nolink" sda)
jq_eq "$f" '.unavailable["device.link_speed_mbps"].status' not_found

# --- a value the kernel would never write is a failed fact: status 3 ---
cp -a "$NVME" "$TMP/broken"
chmod -R u+w "$TMP/broken" # a distcheck source tree is read-only
echo garbage >"$TMP/broken/sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/nvme/nvme0/nvme0n1/queue/rotational"
run_status 3 "$FSTUNE" probe --sysroot "$TMP/broken" --json nvme0n1
jq_eq "$TMP/out" '.unavailable["device.rotational"].status' failed
grep -q 'could not be probed' "$TMP/err" || fail "no note on stderr for a failed fact"

# --- bad targets under --sysroot ---
run_status 2 "$FSTUNE" probe --sysroot "$NVME" nosuchdisk
grep -q "no block device 'nosuchdisk'" "$TMP/err" || fail "unknown device: $(cat "$TMP/err")"
run_status 2 "$FSTUNE" probe --sysroot "$NVME" /dev/sdz
grep -q "'sdz'" "$TMP/err" || fail "unknown /dev name: $(cat "$TMP/err")"
run_status 2 "$FSTUNE" probe --sysroot "$NVME" relative/path
grep -q "absolute path" "$TMP/err" || fail "relative path: $(cat "$TMP/err")"
run_status 2 "$FSTUNE" probe --sysroot "$TMP/no-such-dir" /
exit 0
