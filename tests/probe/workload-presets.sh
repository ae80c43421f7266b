#!/bin/bash
# Presets and overrides give the documented facts and sources: every preset against the table of
# doc/workload-presets.md (parsed here, so code and documentation cannot drift), the implicit general
# with source default, each override with source user, and one clear line for each bad value.
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
require_cmd python3 jq
"$FSTUNE" workload --help >/dev/null 2>&1 || skip "this fstune does not list the workload command yet"

for p in smallfiles source-tree database largefiles general; do
	run_status 0 "$FSTUNE" workload --json --workload "$p"
	cp "$TMP/out" "$TMP/$p.json"
done
run_status 0 "$FSTUNE" workload --json
cp "$TMP/out" "$TMP/implicit.json"

python3 - "$FSTUNE_SRCDIR/doc/workload-presets.md" "$TMP" <<'PY' || fail "presets differ from doc/workload-presets.md"
import json, re, sys
doc, tmp = sys.argv[1], sys.argv[2]
units = {"B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30}
def size(s):
    n, u = s.split()
    return int(n) * units[u]
rows = [l for l in open(doc) if re.match(r"^\| (smallfiles|source-tree|database|largefiles|general) \|", l)]
assert len(rows) == 5, "expected 5 preset rows in the doc, found %d" % len(rows)
bad = 0
def check(name, key, want, got, src_want, src_got):
    global bad
    if got != want or src_got != src_want:
        print("%s %s: got %r [%s], want %r [%s]" % (name, key, got, src_got, want, src_want), file=sys.stderr)
        bad += 1
for row in rows:
    c = [x.strip() for x in row.strip().strip("|").split("|")]
    name = c[0]
    want = {"file_size_min_bytes": size(c[1]), "file_size_p50_bytes": size(c[2]),
            "file_size_p90_bytes": size(c[3]), "file_size_max_bytes": size(c[4]),
            "file_size_mean_bytes": size(c[5]), "files_total": int(c[6]), "files_per_dir": int(c[7]),
            "access": c[8], "io_mode": c[9], "io_size_bytes": size(c[10]),
            "sync_heavy": c[11] == "yes", "profile": name}
    want["bytes_total"] = want["files_total"] * want["file_size_mean_bytes"]
    for f, src in ((name, "preset"),) + ((("implicit", "default"),) if name == "general" else ()):
        d = json.load(open("%s/%s.json" % (tmp, f)))
        for k, v in want.items():
            check(f, k, v, d["workload"].get(k), src, d["sources"].get("workload." + k))
        if set(d["workload"]) != set(want):
            print("%s: keys %s, want %s" % (f, sorted(d["workload"]), sorted(want)), file=sys.stderr)
            bad += 1
sys.exit(1 if bad else 0)
PY

# Overrides: each names its keys with source user; the rest keeps the preset's.
run_status 0 "$FSTUNE" workload --json --workload database --file-size 1k-64k --files 5000 \
	--files-per-dir 250 --access sequential --io-size 16k --io-mode direct --no-sync-heavy
o=$TMP/out
for kv in file_size_min_bytes=1024 file_size_max_bytes=65536 file_size_p50_bytes=33280 \
	file_size_p90_bytes=59085 file_size_mean_bytes=33280 files_total=5000 files_per_dir=250 \
	access=sequential io_size_bytes=16384 io_mode=direct sync_heavy=false bytes_total=166400000; do
	k=${kv%%=*}
	assert_eq "$(jq -r ".workload.$k" "$o")" "${kv#*=}" "override $k"
	assert_eq "$(jq -r ".sources[\"workload.$k\"]" "$o")" user "source of $k"
done
assert_eq "$(jq -r .workload.profile "$o")" database "profile with overrides"
assert_eq "$(jq -r '.sources["workload.profile"]' "$o")" preset "profile source with overrides"

# Overrides on the implicit general: its other keys stay "default".
run_status 0 "$FSTUNE" workload --json --sync-heavy
assert_eq "$(jq -r '.sources["workload.sync_heavy"]' "$TMP/out")" user "--sync-heavy source"
assert_eq "$(jq -r .workload.sync_heavy "$TMP/out")" true "--sync-heavy value"
assert_eq "$(jq -r '.sources["workload.access"]' "$TMP/out")" default "untouched key under general"

# Text output names the sources too.
run_status 0 "$FSTUNE" workload --workload largefiles --io-size 4m
grep -Eq 'io_size_bytes +4 MiB.*\[user\]' "$TMP/out" || fail "text output: $(cat "$TMP/out")"
grep -Eq 'profile +largefiles +\[preset\]' "$TMP/out" || fail "text output: $(cat "$TMP/out")"

# Bad values: status 2 and one line naming the flag and what is accepted.
bad() {
	local want=$1
	shift
	run_status 2 "$FSTUNE" workload "$@"
	grep -q -- "$want" "$TMP/err" || fail "$*: message '$(cat "$TMP/err")' lacks '$want'"
}
bad "choose smallfiles, source-tree, database, largefiles or general" --workload mail
bad "minimum is larger than the maximum" --file-size 64k-1k
bad "not a size range" --file-size lots
bad "whole number of at least 1" --files 0
bad "whole number of at least 1" --files 1M
bad "whole number of at least 1" --files-per-dir -4
bad "choose random, sequential or mixed" --access often
bad "multiple of 512" --io-size 1000
bad "choose direct, buffered or mmap" --io-mode aio
bad "observe" --observe soon
exit 0
