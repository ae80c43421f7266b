#!/bin/bash
# The facts schema (lib/facts_schema.c) against what fstune emits: every key `fstune probe` writes on
# this machine, on a loop-mounted ext4 and on /, is in the schema with a unit (tests/base/
# test_facts_schema checks the files); `fstune probe`'s text shows the schema's units and labels; and
# doc/facts.md's key table is what `make facts-table` generates from the schema today.
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
private_mount_ns "$@"
require_loop
require_cmd jq mkfs.ext4 mount

SCHEMA_TEST="$FSTUNE_BUILDDIR/tests/base/test_facts_schema"
GEN="$FSTUNE_BUILDDIR/tests/tools/gen-facts-table"

# The generated table is current.
"$GEN" "$FSTUNE_SRCDIR/doc/facts.md" >"$TMP/facts.md" || fail "gen-facts-table failed on doc/facts.md"
diff -u "$FSTUNE_SRCDIR/doc/facts.md" "$TMP/facts.md" >&2 ||
	fail "doc/facts.md's key table is stale: run make facts-table"

make_image "$TMP/ext4.img" 128M
dev=$(attach_loop "$TMP/ext4.img" --direct-io=on)
mkfs.ext4 -q -F -b 4096 "$dev"
mnt=$(mount_tmp "$dev")
run_status 0 "$FSTUNE" probe --json "$mnt"
cp "$TMP/out" "$TMP/ext4.json"
run_status 0 "$FSTUNE" probe --json "$dev"
cp "$TMP/out" "$TMP/node.json"
# / may hold anything this machine has; what matters is that its keys are known, whatever the status
"$FSTUNE" probe --json / >"$TMP/root.json" 2>"$TMP/root.err"
[ -s "$TMP/root.json" ] || fail "fstune probe / wrote nothing: $(cat "$TMP/root.err")"
[ "$(jq -r .fs.block_size "$TMP/ext4.json")" != null ] || fail "the ext4 probe has no fs.block_size"

"$SCHEMA_TEST" "$TMP/ext4.json" "$TMP/node.json" "$TMP/root.json" ||
	fail "a key fstune probe emitted is not in the facts schema with a unit (see above)"

# The text output renders in the schema's units, with its labels.
run_status 0 "$FSTUNE" probe "$mnt"
grep -Eq '^  logical_block_size +512 B +Logical sector size$' "$TMP/out" ||
	fail "probe text: no logical_block_size in bytes with its label: $(grep logical_block "$TMP/out")"
grep -Eq '^  dirty_expire_centisecs +[0-9]+ \([^)]*\) +Dirty data written after$' "$TMP/out" ||
	fail "probe text: dirty_expire_centisecs not in 1/100 s: $(grep dirty_expire "$TMP/out")"
grep -Eq '^  inode_count +[0-9]+ +Inodes$' "$TMP/out" ||
	fail "probe text: inode_count is not a count: $(grep inode_count "$TMP/out")"
run_status 0 "$FSTUNE" probe --sources "$mnt"
grep -Eq '^  block_size +4 KiB +\[ext2fs\] +Block size$' "$TMP/out" ||
	fail "probe --sources: block_size: $(grep ' block_size' "$TMP/out")"
[ "$(grep -c ' $' "$TMP/out")" = 0 ] || fail "probe --sources writes trailing blanks"

echo "ok: $(jq -r '[paths(scalars)] | length' "$TMP/ext4.json" "$TMP/root.json" | paste -sd+ | bc) values of the ext4 and / probes are in the schema; doc/facts.md is current"
