#!/bin/bash
# The sampler's boundaries, which need root: an unreadable directory and an unlistable one (sampled
# as the unprivileged user nobody, through setpriv) are counted as denied and the walk goes on; a
# tmpfs mounted inside the tree (in a private mount namespace) is not descended, nor is a file
# bind-mounted from it.
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
"$FSTUNE" workload --help >/dev/null 2>&1 || skip "this fstune does not list the workload command yet"
private_mount_ns "$@"
require_root
require_cmd setpriv jq

chmod 755 "$TMP"
tree=$TMP/tree
mkdir -p "$tree/open" "$tree/secret" "$tree/listonly" "$tree/mnt"
head -c 100 /dev/zero >"$tree/open/a"
head -c 200 /dev/zero >"$tree/secret/b"
head -c 300 /dev/zero >"$tree/secret/c"
head -c 400 /dev/zero >"$tree/listonly/d"
head -c 500 /dev/zero >"$tree/listonly/e"
chmod 700 "$tree/secret"   # nobody may not open it
chmod 744 "$tree/listonly" # nobody may list it but not stat what is in it
mount -t tmpfs -o size=4m tmpfs "$tree/mnt"
on_exit "umount -l '$tree/mnt'"
for i in 1 2 3 4 5 6 7 8 9 10; do head -c 5000 /dev/zero >"$tree/mnt/x$i"; done
# A file of the tmpfs bind-mounted over a file of the tree: on another filesystem, so not counted.
: >"$tree/open/bound"
mount --bind "$tree/mnt/x1" "$tree/open/bound"
on_exit "umount -l '$tree/open/bound'"

# As root: everything but the mounted tmpfs.
run_status 0 "$FSTUNE" workload --json --sample "$tree"
assert_eq "$(json_get "$TMP/out" .workload.files_total)" 5 "files seen by root"
assert_eq "$(json_get "$TMP/out" .workload.bytes_total)" 1500 "bytes seen by root"
assert_eq "$(json_get "$TMP/out" .workload.sample.mounts_skipped)" 2 "the tmpfs and the bound file skipped"
assert_eq "$(json_get "$TMP/out" .workload.sample.denied)" 0 "nothing denied to root"
assert_eq "$(json_get "$TMP/out" .workload.file_size_max_bytes)" 500 "no file of the tmpfs counted"

# As nobody: secret/ cannot be opened (1 denied), listonly/'s two files cannot be stat-ed (2 denied);
# neither stops the walk, and the status stays 0.
run_status 0 as_nobody \
	"$FSTUNE" workload --json --sample "$tree"
assert_eq "$(json_get "$TMP/out" .workload.files_total)" 1 "files seen by nobody"
assert_eq "$(json_get "$TMP/out" .workload.bytes_total)" 100 "bytes seen by nobody"
assert_eq "$(json_get "$TMP/out" .workload.sample.denied)" 3 "entries denied to nobody"
assert_eq "$(json_get "$TMP/out" .workload.sample.mounts_skipped)" 2 "the mounts skipped as nobody"
json_get "$TMP/out" .workload.sample.first_error | grep -q "Permission denied" ||
	fail "first_error does not say what was denied"
grep -q "could not be read" "$TMP/err" || fail "no note on stderr about the unreadable entries"

# Sampling the mount point itself measures that filesystem (the root is never skipped).
run_status 0 "$FSTUNE" workload --json --sample "$tree/mnt"
assert_eq "$(json_get "$TMP/out" .workload.files_total)" 10 "files of the tmpfs itself"
assert_eq "$(json_get "$TMP/out" .workload.tail_waste_bytes.u4k)" $((10 * (8192 - 5000))) "tail waste u4k"
exit 0
