#!/bin/bash
# `report --scripts DIR` on bad input, and the scripts of every facts fixture: a file, a path whose
# parent is missing or a file, a read-only filesystem and a directory the user may not write are
# usage errors (2) named before anything is probed, with nothing written; a missing DIR whose parent
# exists is made (0700); the scripts made from each fixture in
# tests/facts (devices, RAID, FreeBSD, offline and reformat advice) pass sh -n and shellcheck,
# replace the scripts an earlier run wrote and leave no temporary beside them.
. "${FSTUNE_SRCDIR:?run the tests through make check}/tests/lib/common.sh" || exit 99
private_mount_ns "$@"
require_root
require_cmd jq shellcheck

FACTS=$FSTUNE_SRCDIR/tests/facts
R=("$FSTUNE" report --no-system-rules --facts "$FACTS/nvme-bfq.json")

# usage_error WHAT NEEDLE: status 2 already checked; the message names NEEDLE, stdout is empty.
usage_error() {
	grep -q "^fstune: " "$TMP/err" || fail "$1: stderr does not start with 'fstune: ': $(cat "$TMP/err")"
	grep -qF -- "$2" "$TMP/err" || fail "$1: the message does not say '$2': $(cat "$TMP/err")"
	[ ! -s "$TMP/out" ] || fail "$1: a report was written although the scripts could not be"
}

touch "$TMP/file"
run_status 2 "${R[@]}" --scripts "$TMP/file"
usage_error "--scripts FILE" "--scripts $TMP/file: not a directory"
# A missing directory is made, 0700, as mkdir makes it: its parent must exist (no -p).
run_status 2 "${R[@]}" --scripts "$TMP/nosuch/dir"
usage_error "--scripts MISSING/DIR" "--scripts $TMP/nosuch/dir: its parent $TMP/nosuch: No such file or directory"
[ ! -e "$TMP/nosuch" ] || fail "--scripts MISSING/DIR made its parent"
run_status 2 "${R[@]}" --scripts "$TMP/file/dir"
usage_error "--scripts FILE/DIR" "--scripts $TMP/file/dir: its parent $TMP/file is not a directory"
run_status 0 "${R[@]}" --scripts "$TMP/new/"
[ "$(stat -c %a "$TMP/new")" = 700 ] || fail "--scripts NEW made it with mode $(stat -c %a "$TMP/new")"
[ "$(ls -A "$TMP/new")" = "$(printf 'apply.sh\nrevert.sh')" ] || fail "--scripts NEW holds $(ls -A "$TMP/new")"
(cd "$TMP" && run_status 0 "${R[@]}" --scripts here) || fail "--scripts NAME in the current directory"
[ -f "$TMP/here/apply.sh" ] || fail "--scripts NAME: no $TMP/here/apply.sh"

mkdir "$TMP/ro"
mount -t tmpfs -o ro,size=1m tmpfs "$TMP/ro" || fail "mount a read-only tmpfs"
on_exit "umount -l $TMP/ro"
run_status 2 "${R[@]}" --scripts "$TMP/ro"
usage_error "--scripts READ-ONLY" "--scripts $TMP/ro: cannot write there: Read-only file system"
run_status 2 "${R[@]}" --scripts "$TMP/ro/new"
usage_error "--scripts READ-ONLY/NEW" "--scripts $TMP/ro/new: cannot make it in $TMP/ro: Read-only file system"

# Every fixture: scripts that parse and that shellcheck finds nothing in, whatever was advised.
n=0
for f in "$FACTS"/*.json; do
	d=$TMP/s-$(basename "$f" .json)
	mkdir "$d"
	echo 'an earlier run' >"$d/apply.sh"
	st=0
	"$FSTUNE" report --no-system-rules --facts "$f" --quiet --scripts "$d" >/dev/null 2>"$TMP/err" || st=$?
	[ "$st" = 0 ] || [ "$st" = 1 ] || [ "$st" = 3 ] || fail "$f: status $st: $(cat "$TMP/err")"
	[ "$(ls -A "$d")" = "$(printf 'apply.sh\nrevert.sh')" ] || fail "$f: the directory holds $(ls -A "$d")"
	! grep -q 'an earlier run' "$d/apply.sh" || fail "$f: apply.sh of the earlier run was not replaced"
	for s in apply.sh revert.sh; do
		sh -n "$d/$s" || fail "$f: sh -n $s"
		shellcheck "$d/$s" >"$TMP/sc" 2>&1 || fail "$f: shellcheck $s: $(head -c 2000 "$TMP/sc")"
		[ "$(stat -c %a "$d/$s")" = 700 ] || fail "$f: $s has mode $(stat -c %a "$d/$s")"
	done
	# Every command the report would have the admin run stands in apply.sh, as a step or a comment.
	while IFS= read -r cmd; do
		grep -qF -- "$cmd" "$d/apply.sh" || fail "$f: apply.sh lacks '$cmd'"
	done < <("$FSTUNE" report --no-system-rules --facts "$f" --format json 2>/dev/null |
		jq -r '.recommendations[] | select(.accepted == null) | .apply[]')
	n=$((n + 1))
done
[ "$n" -ge 5 ] || fail "only $n fixtures"
# A directory the user may not write in (root may write anywhere, so as nobody).
require_nobody
mkdir -m 755 "$TMP/theirs"
cp "$FACTS/nvme-bfq.json" "$TMP/facts.json"
chmod 644 "$TMP/facts.json"
run_status 2 as_nobody \
	"$FSTUNE" report --no-system-rules --facts "$TMP/facts.json" --scripts "$TMP/theirs"
usage_error "--scripts NOT-MINE" "--scripts $TMP/theirs: cannot write there: Permission denied"
[ -z "$(ls -A "$TMP/theirs")" ] || fail "--scripts NOT-MINE wrote $(ls -A "$TMP/theirs")"

echo "--scripts makes a missing directory, refuses a file, a missing parent, a read-only or foreign directory; $n fixtures give clean scripts"
