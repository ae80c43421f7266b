#!/bin/bash
# Bad input: random bytes, an empty file, truncated images, superblocks with absurd fields or a bad
# checksum. Never a crash (the sanitized build aborts on any memory error): no filesystem is status 0
# with fs unavailable as not_found; a filesystem whose superblock cannot be believed is status 3
# with the keys failed and the reason. A btrfs superblock is judged as btrfs-progs judges it: bytes_used
# above total_bytes is read, under 6 nodes refused.
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
. "$FSTUNE_SRCDIR/tests/lib/fs.sh"
require_cmd mkfs.ext2 mkfs.xfs mkfs.btrfs btrfs jq python3 blkid

# patch FILE OFFSET HEX-BYTES: overwrite bytes in place ("\x00\x05").
patch() { printf "$3" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none; }

# expect_status WANT FILE: probe FILE, keep the JSON in FILE.json
expect_status() {
	run_status "$1" "$FSTUNE" probe "$2" --format json
	cp "$TMP/out" "$2.json"
}

# Random bytes from a fixed seed: fresh ones from /dev/urandom now and then hold a short magic that
# libblkid rightly takes for a signature (a 2-byte magic matches 1 time in 65,536), failing the test
# by chance. These 4 MiB hold none, as blkid -p confirms below.
python3 -c 'import random, sys; random.seed(20261201); sys.stdout.buffer.write(random.randbytes(4194304))' >"$TMP/random.img"
! blkid -p "$TMP/random.img" >/dev/null 2>&1 || fail "the seeded random image holds a signature: $(blkid -p "$TMP/random.img")"
expect_status 0 "$TMP/random.img"
want "$TMP/random.img.json" .unavailable.fs.status '"not_found"'
want "$TMP/random.img.json" '.fs // null' null

: >"$TMP/empty.img"
expect_status 0 "$TMP/empty.img"
want "$TMP/empty.img.json" .unavailable.fs.status '"not_found"'

# A disk image with a DOS partition table and nothing else: say to give a partition.
make_image "$TMP/pt.img" 64M
patch "$TMP/pt.img" 446 '\x00\x00\x00\x00\x83\x00\x00\x00\x00\x08\x00\x00\x00\x00\x01\x00'
patch "$TMP/pt.img" 510 '\x55\xaa'
expect_status 0 "$TMP/pt.img"
want "$TMP/pt.img.json" .unavailable.fs.status '"not_found"'
want "$TMP/pt.img.json" '.unavailable.fs.reason | test("dos partition table")' true

# ext2: a whole one, cut inside its superblock, cut after it, and one with an absurd block size.
make_image "$TMP/ext2.img" 16M
mkfs.ext2 -q -F "$TMP/ext2.img" >/dev/null
head -c 1500 "$TMP/ext2.img" >"$TMP/ext2-cut-sb.img"
expect_status 0 "$TMP/ext2-cut-sb.img"
want "$TMP/ext2-cut-sb.img.json" .unavailable.fs.status '"not_found"'

head -c 300000 "$TMP/ext2.img" >"$TMP/ext2-cut.img"
expect_status 3 "$TMP/ext2-cut.img"
want "$TMP/ext2-cut.img.json" '.unavailable["fs.size_bytes"].status' '"failed"'
want "$TMP/ext2-cut.img.json" '.unavailable["fs.size_bytes"].reason | test("truncated")' true
want "$TMP/ext2-cut.img.json" .fs.block_size 1024

cp --sparse=always "$TMP/ext2.img" "$TMP/ext2-bs.img"
patch "$TMP/ext2-bs.img" $((1024 + 0x18)) '\x20' # s_log_block_size = 32
expect_status 3 "$TMP/ext2-bs.img"
want "$TMP/ext2-bs.img.json" .fs.type '"ext2"'
want "$TMP/ext2-bs.img.json" '.unavailable["fs.block_size"].status' '"failed"'
want "$TMP/ext2-bs.img.json" '.unavailable["fs.block_size"].reason | test("corrupt")' true

# XFS: absurd stripe, a bad checksum, a cut image.
make_image "$TMP/xfs.img" 1G
mkfs.xfs -q -f "$TMP/xfs.img" >/dev/null
cp --sparse=always "$TMP/xfs.img" "$TMP/xfs-stripe.img"
patch "$TMP/xfs-stripe.img" 184 '\x00\x00\x00\x05\x00\x00\x00\x07' # sb_unit 5, sb_width 7
expect_status 3 "$TMP/xfs-stripe.img"
want "$TMP/xfs-stripe.img.json" '.unavailable["fs.block_size"].reason | test("stripe width 7")' true

cp --sparse=always "$TMP/xfs.img" "$TMP/xfs-csum.img"
patch "$TMP/xfs-csum.img" 108 'X' # sb_fname: sane, but the CRC no longer matches
expect_status 3 "$TMP/xfs-csum.img"
want "$TMP/xfs-csum.img.json" '.unavailable["fs.block_size"].reason | test("checksum")' true

head -c 2097152 "$TMP/xfs.img" >"$TMP/xfs-cut.img"
expect_status 3 "$TMP/xfs-cut.img"
want "$TMP/xfs-cut.img.json" '.unavailable["fs.size_bytes"].reason | test("truncated")' true
want "$TMP/xfs-cut.img.json" .fs.block_size 4096

# btrfs: a node size of 3, and a cut inside its superblock.
make_image "$TMP/btrfs.img" 256M
mkfs.btrfs -q -f "$TMP/btrfs.img" >/dev/null 2>&1
cp --sparse=always "$TMP/btrfs.img" "$TMP/btrfs-node.img"
patch "$TMP/btrfs-node.img" $((65536 + 0x94)) '\x03\x00\x00\x00'
"$FSTUNE" probe "$TMP/btrfs-node.img" --format json >"$TMP/btrfs-node.json" && st=0 || st=$?
case $st in
0) want "$TMP/btrfs-node.json" .unavailable.fs.status '"not_found"' ;; # a libblkid that checks CRCs
3) want "$TMP/btrfs-node.json" '.unavailable["fs.node_size"].reason | test("node size 3")' true ;;
*) fail "btrfs with node size 3: status $st, want 0 or 3" ;;
esac

# set_btrfs_u64 FILE OFFSET VALUE: a superblock field rewritten with its crc32c made right again, so
# that the superblock is one btrfs-progs and libblkid believe.
set_btrfs_u64() {
	python3 - "$@" <<'PY'
import struct, sys
path, off, value = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
table = []
for i in range(256):
    c = i
    for _ in range(8):
        c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
    table.append(c)
with open(path, "r+b") as f:
    f.seek(65536)
    sb = bytearray(f.read(4096))
    sb[off:off + 8] = struct.pack("<Q", value)
    crc = 0xFFFFFFFF
    for b in sb[32:]:
        crc = table[(crc ^ b) & 0xFF] ^ (crc >> 8)
    sb[0:4] = struct.pack("<I", crc ^ 0xFFFFFFFF)
    sb[4:32] = bytes(28)
    f.seek(65536)
    f.write(sb)
PY
}
BTRFS_TOTAL_BYTES=$((0x70)) BTRFS_BYTES_USED=$((0x78))

# bytes_used above total_bytes: btrfs-progs opens it (its check, as the kernel's, is bytes_used of at
# least 6 nodes), and so does the probe.
total=$(btrfs inspect-internal dump-super "$TMP/btrfs.img" | awk '$1 == "total_bytes" { print $2 }')
cp --sparse=always "$TMP/btrfs.img" "$TMP/btrfs-used.img"
set_btrfs_u64 "$TMP/btrfs-used.img" $BTRFS_BYTES_USED $((total + 1048576))
btrfs inspect-internal dump-super "$TMP/btrfs-used.img" >"$TMP/dump.txt" 2>&1 ||
	fail "btrfs-progs refuses the superblock: $(cat "$TMP/dump.txt")"
grep -q '^csum[[:space:]].*\[match\]' "$TMP/dump.txt" || fail "the rewritten superblock's checksum: $(grep ^csum "$TMP/dump.txt")"
grep -q "^bytes_used[[:space:]]*$((total + 1048576))\$" "$TMP/dump.txt" || fail "bytes_used not rewritten"
expect_status 0 "$TMP/btrfs-used.img"
want "$TMP/btrfs-used.img.json" .fs.device_count 1
want "$TMP/btrfs-used.img.json" .fs.node_size 16384

# bytes_used under 6 nodes, as btrfs-progs rejects it: every key it would have given is unavailable
# with the reason, fs.device_count too.
cp --sparse=always "$TMP/btrfs.img" "$TMP/btrfs-few.img"
set_btrfs_u64 "$TMP/btrfs-few.img" $BTRFS_BYTES_USED 4096
expect_status 3 "$TMP/btrfs-few.img"
for k in fs.device_count fs.node_size fs.size_bytes; do
	want "$TMP/btrfs-few.img.json" ".unavailable[\"$k\"].status" '"failed"'
	want "$TMP/btrfs-few.img.json" ".unavailable[\"$k\"].reason | test(\"4096 bytes used is less than 6 nodes\")" true
done

head -c 66000 "$TMP/btrfs.img" >"$TMP/btrfs-cut.img"
expect_status 0 "$TMP/btrfs-cut.img"
want "$TMP/btrfs-cut.img.json" .unavailable.fs.status '"not_found"'
echo "ok"
