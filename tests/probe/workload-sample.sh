#!/bin/bash
# The sampler on a generated tree of known sizes and layout: exact counts, nearest-rank percentiles,
# shares, inline candidates, tail waste and files-per-directory, all computed independently here from
# the sizes the generator chose; symbolic links (loops, a link out of the tree) never followed; a hard
# link counted once; a sparse file flagged; a time limit giving a partial result.
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
require_cmd python3 jq
"$FSTUNE" workload --help >/dev/null 2>&1 || skip "this fstune does not list the workload command yet"

tree=$TMP/tree
python3 - "$tree" "$TMP/expected.json" <<'PY'
import json, math, os, random, sys

root, out = sys.argv[1], sys.argv[2]
rng = random.Random(20261129)
sizes = []       # one per inode
entries = {}     # directory -> number of entries
os.makedirs(root)

def add_dir(path):
    os.makedirs(path, exist_ok=True)
    entries.setdefault(path, 0)
    parent = os.path.dirname(path)
    if path != root:
        entries[parent] = entries.get(parent, 0) + 1

def add_file(path, size, sparse=False):
    with open(path, "wb") as f:
        if sparse:
            f.write(b"x" * 4096)
            f.truncate(size)
        else:
            f.write(b"y" * size)
    entries[os.path.dirname(path)] += 1
    sizes.append(size)

special = [0, 1, 59, 60, 61, 1023, 1024, 1025, 2048, 2049, 4095, 4096, 4097, 16384, 65535, 65536,
           65537, 1 << 20]
add_dir(root)
n = 0
for d in range(40):
    sub = os.path.join(root, "d%02d" % d)
    add_dir(sub)
    fanout = [0, 1, 3, 10, 30, 120][d % 6]
    for i in range(fanout):
        size = special[n % len(special)] if n < 3 * len(special) else int(rng.lognormvariate(8, 2))
        size = min(size, 256 << 10)
        add_file(os.path.join(sub, "f%d" % i), size)
        n += 1
    if d % 5 == 0:
        deep = os.path.join(sub, "a", "b", "c")
        for p in (os.path.join(sub, "a"), os.path.join(sub, "a", "b"), deep):
            add_dir(p)
        for i in range(7):
            add_file(os.path.join(deep, "g%d" % i), rng.randrange(0, 9000))
big = os.path.join(root, "big")
add_dir(big)
for i in range(500):
    add_file(os.path.join(big, "m%03d" % i), rng.randrange(500, 10001))
add_file(os.path.join(root, "sparse.img"), 10 << 20, sparse=True)

# Links: none may be followed, the hard link's inode counted once (its name is an entry).
os.symlink(".", os.path.join(root, "loop"))
os.symlink("../..", os.path.join(root, "d01", "up"))
os.symlink("/etc", os.path.join(root, "d02", "etc"))
os.symlink("nowhere", os.path.join(root, "d03", "dangling"))
entries[root] += 1
for p in ("d01", "d02", "d03"):
    entries[os.path.join(root, p)] += 1
os.link(os.path.join(big, "m000"), os.path.join(root, "d04", "hard"))
entries[os.path.join(root, "d04")] += 1
os.mkfifo(os.path.join(root, "fifo"))
entries[root] += 1

def rank(values, pct):
    s = sorted(values)
    return s[max((pct * len(s) + 99) // 100, 1) - 1]

files = len(sizes)
total = sum(sizes)
per_dir = list(entries.values())
exp = {
    "files_total": files,
    "bytes_total": total,
    "file_size_min_bytes": min(sizes),
    "file_size_max_bytes": max(sizes),
    "file_size_p50_bytes": rank(sizes, 50),
    "file_size_p90_bytes": rank(sizes, 90),
    "file_size_mean_bytes": (total + files // 2) // files,
    "share_under_1k": sum(s <= 1024 for s in sizes) / files,
    "share_under_2k": sum(s <= 2048 for s in sizes) / files,
    "share_under_4k": sum(s <= 4096 for s in sizes) / files,
    "inline_candidates": sum(s <= 60 for s in sizes),
    "sparse_files": 1,
    "tail_waste_bytes": {"u%dk" % (u // 1024): sum(-s % u for s in sizes)
                         for u in (1024, 2048, 4096, 16384, 32768, 65536)},
    "files_per_dir": rank(per_dir, 50),
    "files_per_dir_p90": rank(per_dir, 90),
    "files_per_dir_max": max(per_dir),
    "partial": False,
    "sample": {"dirs": len(entries), "symlinks": 4, "hardlinks_skipped": 1, "others": 1,
               "mounts_skipped": 0, "denied": 0, "errors": 0, "percentiles_exact": True},
}
json.dump(exp, open(out, "w"), indent=1)
PY

run_status 0 "$FSTUNE" workload --json --sample "$tree"
cp "$TMP/out" "$TMP/got.json"

# Every expected key, exactly (shares to 1e-9: JSON keeps 10 digits).
python3 - "$TMP/expected.json" "$TMP/got.json" <<'PY' || fail "sampled facts differ from the generated tree"
import json, sys
exp, got = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
w, bad = got["workload"], 0
def cmp(key, want, have):
    global bad
    ok = abs(have - want) < 1e-9 if isinstance(want, float) else have == want
    if not ok:
        print("%s: got %r, want %r" % (key, have, want), file=sys.stderr); bad += 1
for k, v in exp.items():
    if isinstance(v, dict):
        for k2, v2 in v.items():
            cmp(k + "." + k2, v2, w.get(k, {}).get(k2))
    else:
        cmp(k, v, w.get(k))
    for key in (["workload.%s.%s" % (k, k2) for k2 in v] if isinstance(v, dict) else ["workload." + k]):
        if got["sources"].get(key) != "sample":
            print("%s: source %r, want 'sample'" % (key, got["sources"].get(key)), file=sys.stderr)
            bad += 1
sys.exit(1 if bad else 0)
PY

# Allocated bytes: the sum of st_blocks over distinct inodes, as find sees them.
want_alloc=$(find "$tree" -type f -printf '%i %b\n' | sort -u | awk '{s += $2 * 512} END {print s}')
assert_eq "$(json_get "$TMP/got.json" .workload.allocated_bytes)" "$want_alloc" "allocated_bytes"
[ "$(json_get "$TMP/got.json" .workload.allocated_bytes)" -lt \
  "$(json_get "$TMP/got.json" .workload.bytes_total)" ] || fail "the sparse file should make allocated < apparent"

# The preset keys the sample does not measure keep their source; a user override beats the sample.
run_status 0 "$FSTUNE" workload --json --workload smallfiles --files 5000000 --sample "$tree"
assert_eq "$(json_get "$TMP/out" '.sources["workload.access"]')" preset "access source with a sample"
assert_eq "$(json_get "$TMP/out" .workload.files_total)" 5000000 "files_total override over the sample"
assert_eq "$(json_get "$TMP/out" '.sources["workload.files_total"]')" user "files_total source"
assert_eq "$(json_get "$TMP/out" '.sources["workload.file_size_p50_bytes"]')" sample "p50 source"

# The sampler wrote nothing and followed nothing: the tree is unchanged, /etc was not counted.
[ "$(find "$tree" | wc -l)" -gt 700 ] || fail "tree changed"

# A time limit far below the walk's duration gives a partial result, status 0, and says so.
python3 -c "
import os
for d in range(50):
    p = '$TMP/wide/%d' % d
    os.makedirs(p)
    for i in range(100):
        open('%s/%d' % (p, i), 'w').close()
"
run_status 0 "$FSTUNE" workload --json --sample "$TMP/wide" --sample-time 1ms
assert_eq "$(json_get "$TMP/out" .workload.partial)" true "partial after the time limit"
[ "$(json_get "$TMP/out" .workload.files_total)" -lt 5000 ] || fail "a partial walk counted every file"
grep -q "partial" "$TMP/err" || fail "no note on stderr about the partial sample"
run_status 0 "$FSTUNE" workload --json --sample "$TMP/wide"
assert_eq "$(json_get "$TMP/out" .workload.files_total)" 5000 "files of the wide tree"
assert_eq "$(json_get "$TMP/out" .workload.files_per_dir)" 100 "files per directory of the wide tree"
assert_eq "$(json_get "$TMP/out" .workload.files_per_dir_max)" 100 "the largest directory"
assert_eq "$(json_get "$TMP/out" .workload.files_per_dir_p90)" 100 "p90 of files per directory"

# A tree deeper than the descriptors the sampler keeps open (64 levels): parents are closed and
# reopened through "..", and every level is still counted once.
deep=$TMP/deep
d=$deep
for ((i = 0; i < 150; i++)); do d=$d/l$i; done
mkdir -p "$d"
head -c 7 /dev/zero >"$d/bottom"
d=$deep
for ((i = 0; i < 150; i++)); do d=$d/l$i; head -c 3 /dev/zero >"$d/f"; done
run_status 0 "$FSTUNE" workload --json --sample "$deep"
assert_eq "$(json_get "$TMP/out" .workload.files_total)" 151 "files of the deep tree"
assert_eq "$(json_get "$TMP/out" .workload.bytes_total)" $((150 * 3 + 7)) "bytes of the deep tree"
assert_eq "$(json_get "$TMP/out" .workload.sample.dirs)" 151 "directories of the deep tree"
assert_eq "$(json_get "$TMP/out" .workload.sample.errors)" 0 "errors in the deep tree"

# Bad input: one clear line, status 2.
run_status 2 "$FSTUNE" workload --sample "$TMP/nonexistent"
grep -q "nonexistent: No such file or directory" "$TMP/err" || fail "missing sample dir message"
run_status 2 "$FSTUNE" workload --sample "$tree/sparse.img"
grep -q "not a directory" "$TMP/err" || fail "sample of a file message"
run_status 2 "$FSTUNE" workload --sample "$tree" --sample-time never
exit 0
