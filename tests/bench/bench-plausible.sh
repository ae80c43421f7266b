#!/bin/bash
# Benchmark figures against the hardware's limits, on fixed facts (hardware this machine lacks): a USB
# 2.0 link, a SATA link (known and unknown speed), a PCIe link, a rotating disk's random reads and
# fsync'd writes on bare metal, the low end of a figure's 95% interval, a protected write cache; and
# a virtio disk that claims to rotate, where the claim is flagged, not the figure. Each is judged by
# `report --facts` and shown in the JSON, the text table and Markdown; the durability rule still reads
# a too-fast fsync as the cache it is.
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
require_cmd jq

# report NAME [FORMAT]: the report of $TMP/NAME.json in $TMP/out (JSON unless FORMAT is given)
report() {
	run_status 0 "$FSTUNE" report --no-system-rules --facts "$TMP/$1.json" --format "${2:-json}"
}
# judge NAME DEVICE-JSON HOST-VIRT BENCH-JSON: a hand-written facts file $TMP/NAME.json, and its JSON
# report in $TMP/out
judge() {
	jq -n --argjson d "$2" --arg v "$3" --argjson b "$4" '{schema: "fstune.facts/1",
		host: {virtualization: $v, kernel: "6.1.0", mem_total_bytes: 17179869184, cpus: 8},
		device: ({name: "sdc", disk: "sdc"} + $d),
		bench: ($b | with_entries(.value += {direct: "yes"}))}' >"$TMP/$1.json"
	report "$1"
}
# flagged NAME TEST: the test's figure is implausible, with its limit; WHAT must be in the reason
flagged() {
	jq -e --arg t "$2" --arg w "$3" --argjson l "$4" '.facts.bench[$t] | .implausible == true and
		(.implausible_reason | contains($w)) and ((.implausible_limit - $l) | fabs) < 0.01' "$TMP/out" >/dev/null ||
		fail "$1: $2 not flagged implausible at $4 IOPS with '$3': $(jq -c --arg t "$2" '.facts.bench[$t]' "$TMP/out")"
}
unflagged() {
	jq -e --arg t "$2" '.facts.bench[$t] | has("implausible") | not' "$TMP/out" >/dev/null ||
		fail "$1: $2 flagged: $(jq -c --arg t "$2" '.facts.bench[$t]' "$TMP/out")"
}
MB=1000000

# --- USB 2.0: 13 x 512 bytes per 125 us microframe = 53.2 MB/s, whatever the device claims ---
usb='{"transport": "usb", "link_speed_mbps": 480, "rotational": true}'
judge usb2 "$usb" none "{\"seq_read_1m\": {\"iops\": 114.4, \"bw_bytes_per_s\": $((120 * MB)), \"ci95_pct\": 2},
	\"rand_read_4k_qd1\": {\"iops\": 2000, \"bw_bytes_per_s\": 8192000, \"ci95_pct\": 5}}"
flagged usb2 seq_read_1m "USB 2.0 high-speed link (device.link_speed_mbps 480)" 50.781
# a USB bridge says rotational for flash too: 2,000 random reads contradict the claim, not the figure
unflagged usb2 rand_read_4k_qd1
jq -e '.facts.bench.rotational_claim.contradicted_by == "rand_read_4k_qd1"' "$TMP/out" >/dev/null ||
	fail "usb2: the claim: $(jq -c '.facts.bench.rotational_claim' "$TMP/out")"
jq -e '.facts.sources["bench.seq_read_1m.implausible"] == "bench"' "$TMP/out" >/dev/null || fail "usb2: source"
report usb2 text
grep -Eq '^seq_read_1m +114 +120\.0 .* yes implausible$' "$TMP/out" || fail "usb2: text row: $(cat "$TMP/out")"
grep -q '^implausible seq_read_1m: 114 IOPS (120 MB/s) is beyond what the link can carry: at most 51 IOPS (53.2 MB/s) of 1 MiB' \
	"$TMP/out" || fail "usb2: text note: $(grep implausible "$TMP/out")"
report usb2 markdown
grep -q '^| seq_read_1m | 114 | 120.0 | .* | yes implausible |$' "$TMP/out" || fail "usb2: markdown row"
grep -q '^- implausible seq_read_1m: ' "$TMP/out" || fail "usb2: markdown note"

# --- SATA: 6.0 Gb/s less 8b/10b = 600 MB/s; unknown speed: SATA's fastest, the same ---
sata='{"transport": "sata", "link_speed_mbps": 6000, "rotational": false}'
judge sata "$sata" none "{\"seq_read_1m\": {\"iops\": 1907, \"bw_bytes_per_s\": $((2000 * MB)), \"ci95_pct\": 3},
	\"seq_write_1m\": {\"iops\": 524, \"bw_bytes_per_s\": $((550 * MB)), \"ci95_pct\": 3}}"
flagged sata seq_read_1m "a 6.0 Gb/s SATA link (device.link_speed_mbps 6000)" 572.205
unflagged sata seq_write_1m
judge sata-unknown '{"transport": "sata", "rotational": false}' none \
	"{\"seq_read_1m\": {\"iops\": 1907, \"bw_bytes_per_s\": $((2000 * MB))}}"
flagged sata-unknown seq_read_1m "the link speed itself was not found" 572.205
# a 3.0 Gb/s link: 300 MB/s
judge sata3 '{"transport": "sata", "link_speed_mbps": 3000, "rotational": false}' none \
	"{\"seq_read_1m\": {\"iops\": 400, \"bw_bytes_per_s\": 419430400, \"ci95_pct\": 1}}"
flagged sata3 seq_read_1m "3.0 Gb/s SATA link" 286.102
# the same figure inside a VM: the hypervisor's disk, no link cap
judge sata-vm "$sata" kvm "{\"seq_read_1m\": {\"iops\": 1907, \"bw_bytes_per_s\": $((2000 * MB))}}"
unflagged sata-vm seq_read_1m

# --- PCIe 3.0 x4: 32 GT/s less 128b/130b = 3.94 GB/s ---
judge nvme '{"transport": "nvme", "link_speed_mbps": 32000, "link_lanes": 4, "rotational": false}' none \
	"{\"seq_read_1m\": {\"iops\": 4768, \"bw_bytes_per_s\": $((5000 * MB)), \"ci95_pct\": 2},
	\"rand_read_4k_qd32\": {\"iops\": 700000, \"bw_bytes_per_s\": 2867200000, \"ci95_pct\": 2}}"
flagged nvme seq_read_1m "PCIe link of 4 lanes at 8.0 GT/s" 3756.01
unflagged nvme rand_read_4k_qd32

# --- a rotating SATA disk on bare metal: random reads and fsync against the revolution ---
hdd='{"transport": "sata", "link_speed_mbps": 6000, "rotational": true, "write_cache": "write back"}'
judge hdd "$hdd" none '{"rand_read_4k_qd1": {"iops": 5000, "bw_bytes_per_s": 20480000, "ci95_pct": 4},
	"rand_read_4k_qd32": {"iops": 9000, "bw_bytes_per_s": 36864000, "ci95_pct": 4},
	"rand_read_64k_qd1": {"iops": 150, "bw_bytes_per_s": 9830400, "ci95_pct": 4},
	"rand_write_4k_qd1": {"iops": 9000, "bw_bytes_per_s": 36864000, "ci95_pct": 4},
	"fsync_4k_overwrite": {"iops": 2000, "bw_bytes_per_s": 8192000, "lat_p50_us": 450, "ci95_pct": 4},
	"fsync_4k_append": {"iops": 300, "bw_bytes_per_s": 1228800, "ci95_pct": 4}}'
flagged hdd rand_read_4k_qd1 "half a revolution on average, 2 ms at 15,000 rpm" 1000
flagged hdd rand_read_4k_qd32 "with 32 reads queued" 3000
flagged hdd fsync_4k_overwrite "500 commits a second at 15,000 rpm" 500
flagged hdd fsync_4k_append "once per revolution at most" 250
unflagged hdd rand_read_64k_qd1
# a drive's write cache takes plain writes at any rate: no cap
unflagged hdd rand_write_4k_qd1
# the durability rule reads the too-fast fsync all the same: a cache acknowledged it
jq -e '[.recommendations[] | select(.id == "durability.flush_not_reaching_media")] | length == 1' "$TMP/out" >/dev/null ||
	fail "hdd: the durability warning went with the implausible flag"
# 1,050 IOPS with a 95% interval of +-10%: its low end, 945, is within the limit
judge hdd-ci "$hdd" none '{"rand_read_4k_qd1": {"iops": 1050, "bw_bytes_per_s": 4300800, "ci95_pct": 10}}'
unflagged hdd-ci rand_read_4k_qd1
# a power-loss protected cache may acknowledge a flush at once
judge hdd-bbu "$(jq -c '. + {write_cache_protected: true}' <<<"$hdd")" none \
	'{"fsync_4k_overwrite": {"iops": 2000, "bw_bytes_per_s": 8192000}}'
unflagged hdd-bbu fsync_4k_overwrite
# a hardware RAID volume hides several spindles behind one name
judge hdd-raid "$(jq -c '. + {topology_hidden: true}' <<<"$hdd")" none \
	'{"rand_read_4k_qd32": {"iops": 9000, "bw_bytes_per_s": 36864000}}'
unflagged hdd-raid rand_read_4k_qd32

# --- this VM's case: a virtio disk says rotational and does 11k IOPS: the claim is flagged ---
judge virtio '{"transport": "virtio", "rotational": true, "logical_block_size": 512, "physical_block_size": 512,
	"minimum_io_size": 512, "optimal_io_size": 0, "alignment_offset": 0}' vm \
	'{"rand_read_4k_qd1": {"iops": 11000, "bw_bytes_per_s": 45056000, "ci95_pct": 5},
	"seq_read_1m": {"iops": 1000, "bw_bytes_per_s": 1048576000, "ci95_pct": 5}}'
unflagged virtio rand_read_4k_qd1
jq -e '.facts.bench.rotational_claim.contradicted_by == "rand_read_4k_qd1" and
	(.facts.bench.rotational_claim.reason | test("^rand_read_4k_qd1 measured 11000 IOPS, and a rotating disk does at most 1000 there .*: device.rotational is the hypervisor.s flag"))' \
	"$TMP/out" >/dev/null || fail "virtio: claim: $(jq -c '.facts.bench.rotational_claim' "$TMP/out")"
jq -e '.recommendations[] | select(.id == "topology.rotational_not_evidence") |
	.rationale | test("The measurement says so too")' "$TMP/out" >/dev/null ||
	fail "virtio: the topology rule does not cite the measurement"
jq -e '.examined | tostring | test("rotational_claim") | not' "$TMP/out" >/dev/null ||
	fail "virtio: rotational_claim listed as a measured test"
report virtio text
grep -q '^rotational? rand_read_4k_qd1 measured 11000 IOPS, and a rotating disk does at most 1000 there' "$TMP/out" ||
	fail "virtio: text note: $(cat "$TMP/out")"

# (that no rule sizes anything from a flagged figure is in the rules' own vectors: writeback.lua's
# implausible and cpu_bound cases fall back to the size rule)
exit 0
