#!/bin/bash
# A fleet of JSON reports from the server fixtures, for fstune compare at scale:
#
#   tests/lib/make-fleet.sh FSTUNE N DIR
#
# Reports the servers of tests/servers/ (as they are, with the scheduler set to bfq, and with
# read-ahead 8 MiB: real rule runs on each), then writes N reports DIR/host0001.json ... by copying
# them round the fleet under host names of their own, each with its own memory available and time,
# which move from run to run and must not read as differences. Prints the number of distinct
# reports it made by running fstune.
set -euo pipefail
fstune=${1:?usage: $0 FSTUNE N DIR}
n=${2:?usage: $0 FSTUNE N DIR}
dir=${3:?usage: $0 FSTUNE N DIR}
src=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/fstune-fleet.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$dir"

export FSTUNE_RULES_BUILTIN=${FSTUNE_RULES_BUILTIN:-$src/../rules/builtin}
k=0
for f in "$src"/servers/*.json; do
	name=$(basename "$f" .json)
	cp "$f" "$work/$name.json"
	jq '.device.scheduler = "bfq"' "$f" >"$work/$name-bfq.json"
	jq '.device.read_ahead_kb = 8192' "$f" >"$work/$name-ra.json"
	for v in "$name" "$name-bfq" "$name-ra"; do
		rc=0
		"$fstune" report --no-system-rules --facts "$work/$v.json" --bench none --json -o "$work/base-$k.json" \
			2>/dev/null || rc=$?
		[ "$rc" -le 1 ] || { echo "make-fleet: fstune report --facts $v.json: status $rc" >&2; exit 1; }
		k=$((k + 1))
	done
done

python3 - "$work" "$k" "$n" "$dir" <<'EOF'
import json, sys
work, k, n, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
bases = [json.load(open("%s/base-%d.json" % (work, i))) for i in range(k)]
for i in range(n):
    # Most hosts like the first few fixtures, a long tail of the others: groups of many sizes.
    x = (i * 0.6180339887) % 1
    b = bases[int(k * x * x)]
    r = json.loads(json.dumps(b))
    g = r.setdefault("generated", {})
    g["host"] = "host%04d" % (i + 1)
    g["time"] = "2026-12-01T%02d:%02d:%02dZ" % (i // 3600 % 24, i // 60 % 60, i % 60)
    host = r["facts"].setdefault("host", {})
    host["mem_available_bytes"] = 1073741824 + (i * 7919 % 1000) * 1048576
    with open("%s/host%04d.json" % (out, i + 1), "w") as f:
        json.dump(r, f)
EOF
echo "$k"
