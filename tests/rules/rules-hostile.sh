#!/bin/bash
# Hostile rule files, each on its own beside the shipped rules: each is reported with its file,
# the shipped rules' recommendations stay byte-for-byte the same, nothing outside happens (no
# sentinel file, no command run), values with shell metacharacters stay one quoted argument, and
# terminal escapes never reach the output.
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
require_cmd luac5.4 jq

hostile=$FSTUNE_SRCDIR/tests/rules/hostile
engine_test=$FSTUNE_BUILDDIR/tests/rules/test_engine
sentinel=/tmp/fstune-rules-sentinel
rm -f "$sentinel"
# Short limits keep the runaway files fast; the pattern and loop files must still be stopped. The
# wall-clock limit stays the default: on a loaded machine (load 8 on 2 cores) the memory bombs took
# over 2 s of wall time to reach the 16 MiB cap, and a shorter limit stopped them first.
export FSTUNE_RULES_INSN_BUDGET=2000000 FSTUNE_RULES_TIMEOUT_MS=5000 FSTUNE_RULES_MEM_BYTES=16777216

luac5.4 -o "$TMP/bytecode.lua" "$hostile/bytecode.src"

# The hostile rules that differ from each other in one line of check() are rows of this table
# (name, expectation, that line), written in the frame they share; the others are files in
# $hostile. Each case is still a file of its own when the engine and the CLI run it.
cases=$TMP/hostile
mkdir "$cases"
cp "$hostile"/*.lua "$cases/"
while IFS='|' read -r name expect body; do
	{
		printf -- '-- expect: %s\n\nlocal function check(facts)\n  %s\nend\n' "$expect" "$body"
		printf 'return { id = "h_%s", title = "hostile", description = "a hostile rule for the sandbox tests",\n' "$name"
		printf '  sources = { "tests/rules/hostile" }, settings = {}, needs = {}, check = check,\n'
		printf '  tests = { { name = "runs check", facts = { fs = { type = "ext4" } }, expect = {} } } }\n'
	} >"$cases/$name.lua"
done <<'EOF'
bad_confidence|error field confidence|return { { name = "x", severity = "info", confidence = 1.5, title = "t", rationale = "r" } }
bad_severity|error field severity|return { { name = "x", severity = "urgent", confidence = 0.5, title = "t", rationale = "r" } }
collectgarbage|error global 'collectgarbage'|collectgarbage("stop")
debug_lib|error global 'debug'|debug.sethook()
dofile|error global 'dofile'|dofile("/etc/passwd")
facts_rawset|error table expected|rawset(facts, "fs", { type = "xfs" })
facts_write|error facts are read-only|facts.fs.type = "xfs"
gc_loop|error __gc metamethods are not allowed|setmetatable({}, { __gc = function() while true do end end })
io_open|error global 'io'|io.open("/tmp/fstune-rules-sentinel", "w"):write("x")
load_text|error global 'load'|return load("return 1")()
loop|error instruction budget|while true do end
os_execute|error global 'os'|os.execute("touch /tmp/fstune-rules-sentinel")
pattern|error wall-clock limit|return { string.find(string.rep('a', 3000), '.-.-.-b') }
print|error global 'print'|print("hello from a rule")
random|error field 'random'|return math.random(6)
require|error global 'require'|require("os").execute("touch /tmp/fstune-rules-sentinel")
runtime|error attempt to index a nil value|return facts.nothing.here
string_dump|error field 'dump'|return string.dump(check)
EOF
# A snapshot of the shipped rules, so that the baseline and every run see the same files.
mkdir "$TMP/builtin"
cp "$FSTUNE_RULES_BUILTIN"/*.lua "$TMP/builtin/"
mkdir "$TMP/dump"
cd "$TMP"
"$engine_test" "$FSTUNE_SRCDIR/tests/rules/facts-server.json" "$TMP/builtin" "$sentinel" \
	"$TMP/dump" "$cases"/*.lua "$TMP/bytecode.lua" >"$TMP/engine.log" 2>&1 ||
	{ cat "$TMP/engine.log" >&2; fail "hostile rules: $(grep -c FAIL "$TMP/engine.log") failure(s)"; }
[ ! -e "$sentinel" ] || fail "a rule created $sentinel"

# The shell_meta recommendations: run the engine's commands with stubs that print their
# arguments one per line; the value and the mount point must arrive as single arguments, and the
# command substitution inside them must not run.
dump=$TMP/dump/shell_meta.lua.json
[ -s "$dump" ] || fail "no dump of shell_meta.lua"
label_cmd=$(jq -r '.recommendations[] | select(.id == "h_shell_meta.label") | .apply[0]' "$dump")
mount_cmd=$(jq -r '.recommendations[] | select(.id == "h_shell_meta.noatime") | .apply[0]' "$dump")
mkfs_cmd=$(jq -r '.mkfs[] | select(.fs == "ext4") | .command' "$dump")
stubs='mkfs.ext4() { printf "<%s>\n" "$@"; }; mount() { printf "<%s>\n" "$@"; }'
got=$(bash -c "$stubs; $label_cmd")
# A reformat's apply is the one merged command, with the block size of the filesystem found kept.
want=$(printf '%s\n' '<-L>' "<\$(touch x)'\";#>" '<-E>' '<stride=16,stripe_width=64>' '<-b>' '<4096>' \
	'</dev/nvme0n1p1>')
assert_eq "$got" "$want" "label argument"
got=$(bash -c "$stubs; $mount_cmd")
want=$(printf '%s\n' '<-o>' '<remount,noatime>' '</srv/a b;touch x>')
assert_eq "$got" "$want" "mount point argument"
[ ! -e "$TMP/x" ] || fail "a command substitution in a rule's value ran"
assert_eq "$mkfs_cmd" "mkfs.ext4 -L '\$(touch x)'\\''\";#' -E stride=16,stripe_width=64 -b 4096 /dev/nvme0n1p1" \
	"merged mkfs command"
if LC_ALL=C grep -q $'\x1b' "$dump"; then fail "an escape character reached the output"; fi
assert_eq "$(jq -r '.recommendations[] | select(.id == "h_shell_meta.label") | .title' "$dump")" \
	"label [31mred[2J" "title with escapes stripped"

# Through the CLI: the hostile directory as a whole, every file reported, status 1.
cp "$cases"/*.lua "$TMP/bytecode.lua" "$TMP/dump/"
run_status 1 "$FSTUNE" rules test "$TMP/dump"
for f in "$cases"/*.lua "$TMP/bytecode.lua"; do
	b=$(basename "$f")
	head -n 1 "$f" | grep -q 'expect: clean' && continue
	grep -q "^FAIL $TMP/dump/$b " "$TMP/out" || fail "rules test does not report $b"
done
grep -Eq '^[0-9]+ passed, [0-9]+ failed$' "$TMP/out" || fail "no closing line"
[ ! -e "$sentinel" ] || fail "a rule created $sentinel"

# As root, group- or world-writable rule files and directories are refused.
if [ "$(id -u)" = 0 ]; then
	mkdir "$TMP/ww"
	cp "$FSTUNE_SRCDIR/tests/rules/broken/ok.lua" "$TMP/ww/"
	chmod o+w "$TMP/ww/ok.lua"
	run_status 1 "$FSTUNE" rules test "$TMP/ww"
	grep -q "refused: file $TMP/ww/ok.lua is writable by group or others" "$TMP/out" ||
		fail "world-writable file not refused: $(cat "$TMP/out")"
	chmod o-w "$TMP/ww/ok.lua"
	chmod g+w "$TMP/ww"
	run_status 1 "$FSTUNE" rules test "$TMP/ww"
	grep -q "refused: directory $TMP/ww is writable" "$TMP/out" ||
		fail "group-writable directory not refused: $(cat "$TMP/out")"
fi
exit 0
