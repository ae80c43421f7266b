#!/bin/bash
# report --format html, compare --format html and the wizard's Save in HTML, opened in a real browser
# (headless Chromium, Debian package chromium): every page is strict UTF-8, balanced, self-contained
# and inert (tests/lib/html_check.py lint: no script, nothing fetched); the DOM Chromium builds holds
# every finding's id, title and commands, the benchmark bars with their intervals and the
# small-versus-large curve, a flagged figure's mark beside its bar; a fleet's comparison is its
# summary, each finding's host count the model's; screenshots at 1280 and 390 pixels are not blank
# and the page is never wider than the window (both checks shown to catch a blank and an overflowing page first). Hostile
# text (a rule's title of markup, control bytes, bytes that are not UTF-8, a bidi override) stays text.
. "${FSTUNE_SRCDIR:?run the tests through make check}/tests/lib/common.sh" || exit 99
. "$FSTUNE_SRCDIR/tests/lib/report.sh" || exit 99
. "$FSTUNE_SRCDIR/tests/lib/tmux.sh" || exit 99
. "$FSTUNE_SRCDIR/tests/lib/ui.sh" || exit 99
require_cmd jq python3
require_tmux
command -v chromium >/dev/null 2>&1 || skip "needs chromium (Debian package chromium) to render the pages"
CHECK=$FSTUNE_SRCDIR/tests/lib/html_check.py

# browser ARGS...: headless Chromium with a profile of its own (root in a container: no sandbox)
browser() {
	timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$TMP/chromium" \
		"$@" 2>>"$TMP/chromium.log"
}
# dom FILE: the DOM Chromium built from the page, serialized
dom() { browser --dump-dom "file://$1" || fail "chromium --dump-dom $1: $(tail -n 3 "$TMP/chromium.log")"; }
# overflow FILE WIDTH: how many pixels the page is wider than a window WIDTH pixels wide (0: none),
# measured by a script added to a copy (the page itself has none); leaves that DOM in $TMP/dom.html
overflow() {
	sed 's|</body>|<script>document.body.setAttribute("data-overflow", String(document.documentElement.scrollWidth - document.documentElement.clientWidth))</script></body>|' \
		"$1" >"$TMP/measure.html"
	browser --window-size="$2,900" --dump-dom "file://$TMP/measure.html" >"$TMP/dom.html"
	sed -n 's/.*data-overflow="\(-\{0,1\}[0-9]*\)".*/\1/p' "$TMP/dom.html"
}
# ink FILE WIDTH: the share of a WIDTHx700 screenshot's pixels that are not background
ink() {
	local w h share colours
	browser --window-size="$2,700" --screenshot="$TMP/shot.png" "file://$1" >/dev/null ||
		fail "chromium --screenshot $1: $(tail -n 3 "$TMP/chromium.log")"
	read -r w h share colours < <(python3 "$CHECK" png "$TMP/shot.png")
	[ "$w" = "$2" ] || fail "screenshot of $1 at $2 px is $w px wide"
	echo "$share"
}
lint() { python3 "$CHECK" lint "$1" >"$TMP/lint" || fail "$2: $(cat "$TMP/lint")"; }
# rendered FILE WHAT: lint clean; at 390 and 1280 px not blank and no wider than the window; the DOM
# Chromium built at 1280 px is left in $TMP/dom.html
rendered() {
	lint "$1" "$2"
	for width in 390 1280; do
		share=$(ink "$1" "$width")
		awk -v s="$share" 'BEGIN { exit !(s > 0.01) }' || fail "$2 at $width px looks blank (ink $share)"
		o=$(overflow "$1" "$width")
		[ "$o" = 0 ] || fail "$2 at $width px: the page is ${o:-?} px wider than the window"
	done
}

# The checks catch what they look for: a blank page, a page wider than a phone, markup left open.
printf '<!DOCTYPE html>\n<html><body><div style="width:2000px">wide</div></body></html>\n' >"$TMP/wide.html"
o=$(overflow "$TMP/wide.html" 390)
[ "${o:-0}" -gt 0 ] || fail "the overflow check misses a 2000 px wide block: '$o'"
printf '<!DOCTYPE html>\n<html><body></body></html>\n' >"$TMP/blank.html"
share=$(ink "$TMP/blank.html" 390)
awk -v s="$share" 'BEGIN { exit !(s <= 0.01) }' || fail "the blank check sees ink on a blank page: $share"
printf '<!DOCTYPE html>\n<html><body><p><b>x</p></body></html>\n' >"$TMP/open.html"
! python3 "$CHECK" lint "$TMP/open.html" >/dev/null || fail "lint passes a page with <b> left open"

# Every facts file: the page lints and holds each finding, its id in a <code> of its own.
for facts in $(report_facts_files); do
	report_run "$facts" json >"$TMP/r.json" || true
	report_run "$facts" html >"$TMP/r.html" || true
	lint "$TMP/r.html" "$facts"
	grep -q '<h2>What was examined</h2>' "$TMP/r.html" || fail "$facts: no What was examined"
	while read -r id; do
		grep -qF "<code>$id</code>" "$TMP/r.html" || fail "$facts: finding $id is not in the page"
	done < <(jq -r '.recommendations[].id' "$TMP/r.json")
	n=$(jq '.recommendations | length' "$TMP/r.json")
	assert_eq "$(grep -c '<article class="rec ' "$TMP/r.html")" "$n" "$facts: one article per finding"
	# with --verbose, every rule not evaluated, as the JSON lists them
	report_run "$facts" html --verbose >"$TMP/r.html" || true
	while read -r rule; do
		grep -qF "<dt>$rule</dt>" "$TMP/r.html" || fail "$facts: rule not evaluated $rule is not in the page"
	done < <(jq -r '.not_evaluated[].rule' "$TMP/r.json")
done

# One report in full: the text report's commands, each in a <code> of its own, and its rationale.
report_run nvme-bfq.json json >"$TMP/nvme.json"
report_run nvme-bfq.json html >"$TMP/nvme.html"
rendered "$TMP/nvme.html" "nvme-bfq report"
python3 - "$TMP/nvme.json" "$TMP/dom.html" <<'EOF' || fail "nvme-bfq: the DOM lacks a title, rationale or command"
import html, json, sys
report, page = json.load(open(sys.argv[1])), html.unescape(open(sys.argv[2]).read())
for r in report["recommendations"]:
    for text in [r["title"], r["rationale"]] + [c for c in r.get("apply", []) + r.get("revert", []) if isinstance(c, str)]:
        if text not in page and "<code>%s</code>" % text not in page:
            sys.exit("missing: %r" % text)
EOF

# Benchmark results of the full suite: a bar per test with its interval, the curve's two lines.
jq '.bench = {
	"rand_read_1k_qd1": {"iops": 9100, "ci95_pct": 2.5, "lat_p50_us": 100},
	"rand_read_2k_qd1": {"iops": 9000, "ci95_pct": 2.0, "lat_p50_us": 102},
	"rand_read_4k_qd1": {"iops": 8800, "ci95_pct": 1.5, "lat_p50_us": 105, "lat_p99_us": 300, "direct": "yes",
		"cache_suspect": true, "cache_suspect_reason": "p50 below what the device can do"},
	"rand_read_8k_qd1": {"iops": 8000, "ci95_pct": 1.1, "lat_p50_us": 116},
	"rand_read_16k_qd1": {"iops": 6500, "ci95_pct": 3.0, "lat_p50_us": 140},
	"rand_read_64k_qd1": {"iops": 2500, "bw_bytes_per_s": 163840000, "ci95_pct": 2.2, "lat_p50_us": 380},
	"seq_read_1m": {"iops": 1500, "bw_bytes_per_s": 1572864000, "ci95_pct": 0.8},
	"fsync_4k_overwrite": {"iops": 900, "lat_p99_us": 2400},
	"seq_write_1m": {"iops": 900, "bw_bytes_per_s": 943718400, "ci95_pct": 1.0, "direct": "yes", "implausible": true,
		"implausible_reason": "above what the interface carries",
		"burst": {"burst_rate": 2e9, "burst_bytes": 1073741824, "sustained_rate": 9e8}},
	"smallfile": {"tps": 400, "create_per_s": 1500.5, "ci95_pct": 4.0}}' \
	"$FSTUNE_SRCDIR/tests/facts/nvme-bfq.json" >"$TMP/bench.json"
report_run "$TMP/bench.json" html >"$TMP/bench.html"
rendered "$TMP/bench.html" "benchmark report"
assert_eq "$(grep -c '<rect class="bar"' "$TMP/dom.html")" 10 "a bar per test"
assert_eq "$(grep -o '<path class="ci"' "$TMP/dom.html" | wc -l)" 15 "an interval per bar and curve point that has one"
# a flagged figure carries the text table's marks beside its bar's label, and no other bar does
grep -qF 'rand_read_4k_qd1 <tspan class="flag">cache?</tspan>' "$TMP/dom.html" || fail "no cache? beside rand_read_4k_qd1's bar"
grep -qF 'seq_write_1m <tspan class="flag">implausible burst</tspan>' "$TMP/dom.html" ||
	fail "no 'implausible burst' beside seq_write_1m's bar"
assert_eq "$(grep -c 'class="flag"' "$TMP/dom.html")" 2 "marks on the flagged bars only"
report_run "$TMP/bench.json" text | grep -q '^seq_write_1m .* yes implausible burst$' || fail "the text table's marks moved"
assert_eq "$(grep -c '<path class="line"' "$TMP/dom.html")" 2 "the curve's IOPS and latency lines"
for caption in "Random and fsync I/O" "Sequential throughput" "File operations" "IOPS by request size" \
	"Median latency by request size"; do
	grep -qF "<figcaption>$caption</figcaption>" "$TMP/dom.html" || fail "no chart '$caption'"
done
grep -qF '8800 IOPS ± 1.5%' "$TMP/dom.html" || fail "the 4k bar's value and interval"
grep -qF '1573 MB/s ± 0.8%' "$TMP/dom.html" || fail "seq_read_1m's bar in MB/s"
report_run "$TMP/bench.json" text | sed -n '/^Benchmark results/,/^Recommendations/p' | sed -n '3,7p' >"$TMP/table"
while IFS= read -r line; do
	grep -qF -- "$line" "$TMP/dom.html" || fail "the text report's bench line is not in the page: $line"
done <"$TMP/table"
# the quick suite's one 4 KiB read is no curve
jq '.bench |= {rand_read_4k_qd1, seq_read_1m}' "$TMP/bench.json" >"$TMP/quick.json"
report_run "$TMP/quick.json" html >"$TMP/quick.html"
! grep -q 'class="line"' "$TMP/quick.html" || fail "a curve from one point"

# Hostile text: a rule whose title, rationale and command are markup, control bytes, bytes that are
# not UTF-8 and a right-to-left override; a device name with quotes and ampersands.
mkdir "$TMP/rules"
cat >"$TMP/rules/hostile.lua" <<'EOF'
return {
	id = "hostile", title = "hostile text", description = "Markup in every field.", sources = {"tests"},
	settings = {}, needs = {"fs.type"},
	check = function(facts)
		return {{name = "markup", severity = "warn", confidence = 1,
			title = "</h4><script>alert(1)</script><img src=x onerror=alert(2)>\1\226\128\174tail",
			rationale = "]]></style><a href='javascript:alert(3)'>x</a> & \"q\"",
			evidence = {"fs.type"}}}
	end,
	tests = {},
}
EOF
jq '.device.name = "<b>nvme&0\"</b>" | .fs.mount_point = "/srv/<i>x</i>"' "$FSTUNE_SRCDIR/tests/facts/nvme-bfq.json" >"$TMP/hostile-facts.json"
st=0
"$FSTUNE" report --no-system-rules --rules-dir "$TMP/rules" --facts "$TMP/hostile-facts.json" --format html \
	-o "$TMP/hostile.html" 2>"$TMP/err" || st=$?
[ "$st" = 0 ] || [ "$st" = 1 ] || fail "hostile report: status $st: $(cat "$TMP/err")"
grep -q 'hostile' "$TMP/hostile.html" || fail "the hostile rule made no finding: $(cat "$TMP/err")"
lint "$TMP/hostile.html" "hostile report"
dom "$TMP/hostile.html" >"$TMP/dom.html"
for bad in '<script' '<img' "<a href='javascript" '<b>nvme' '<i>x'; do
	! grep -qF "$bad" "$TMP/dom.html" || fail "hostile text became markup: $bad"
done
grep -qF '&lt;script&gt;alert(1)&lt;/script&gt;' "$TMP/dom.html" || fail "the markup title is not shown as text"
grep -qF '\u{202e}tail' "$TMP/dom.html" || fail "the bidi override is not shown escaped"
grep -qF '&lt;b&gt;nvme&amp;0"&lt;/b&gt;' "$TMP/dom.html" || fail "the device name is not shown as text"
grep -qF '<title>fstune report: /srv/&lt;i&gt;x&lt;/i&gt;</title>' "$TMP/dom.html" || fail "the mount point in the title"

# A real report on a real filesystem: two tests of the quick suite, measured here.
mkdir "$TMP/target"
st=0
"$FSTUNE" report --no-system-rules --tests rand_read_4k_qd1,seq_read_1m --runtime 0.2 --warmup 0.05 --busy-check 0.1 \
	--format json -o "$TMP/live.json" --quiet "$TMP/target" 2>"$TMP/err" || st=$?
[ "$st" = 0 ] || [ "$st" = 3 ] || fail "live report: status $st: $(cat "$TMP/err")"
jq '.facts' "$TMP/live.json" >"$TMP/live-facts.json"
run_status 0 "$FSTUNE" report --no-system-rules --facts "$TMP/live-facts.json" --format html -o "$TMP/live.html"
dom "$TMP/live.html" >"$TMP/dom.html"
measured=$(jq '[.facts.bench | to_entries[] | select(.value | type == "object" and (has("iops") or has("tps")))] | length' "$TMP/live.json")
[ "$measured" -gt 0 ] || fail "the live report measured nothing: $(jq -c .facts.bench "$TMP/live.json")"
assert_eq "$(grep -c '<rect class="bar"' "$TMP/dom.html")" "$measured" "a bar per measured test of the live run"

# compare --format html: three hosts' reports, every finding's id and each report's cell.
for f in healthy-default nvme-bfq xfs-md-raid; do
	report_run "$f.json" json >"$TMP/$f.json" || true
done
(cd "$TMP" && "$FSTUNE" compare --json healthy-default.json nvme-bfq.json xfs-md-raid.json >compare.json) || true
(cd "$TMP" && "$FSTUNE" compare --format html -o compare.html healthy-default.json nvme-bfq.json xfs-md-raid.json) || true
rendered "$TMP/compare.html" "compare"
while read -r id; do
	grep -qF "<code>$id</code>" "$TMP/dom.html" || fail "compare: finding $id is not in the DOM"
done < <(jq -r '.findings[].id' "$TMP/compare.json")
grep -qF '<span class="sev sev-2">warn</span>' "$TMP/dom.html" || fail "compare: the bfq finding's warn cell"
grep -qF "$(jq -r '"Summary: \(.summary.new) new"' "$TMP/compare.json")" "$TMP/dom.html" || fail "compare: no summary"

# compare --format html of a fleet: 40 reports give the summary (as the text form does), each finding's
# row with its id, title, severity badge and host count as the model has them; every differing
# setting and the groups; with --bench and figures in the reports, the benchmark rows.
"$FSTUNE_SRCDIR/tests/lib/make-fleet.sh" "$FSTUNE" 40 "$TMP/fleet" >/dev/null
(cd "$TMP/fleet" && "$FSTUNE" compare --json host*.json >../fleet.json) || true
(cd "$TMP/fleet" && "$FSTUNE" compare --format html -o ../fleet.html host*.json) || true
assert_eq "$(jq -r .view "$TMP/fleet.json")" summary "the view of 40 reports"
rendered "$TMP/fleet.html" "compare of 40 hosts"
! grep -q '<th>host0040</th>' "$TMP/dom.html" || fail "compare of 40 hosts: a column per host"
python3 - "$TMP/fleet.json" "$TMP/dom.html" <<'EOF2' || fail "compare of 40 hosts: the page's summary is not the model's"
import html, json, re, sys
model, page = json.load(open(sys.argv[1])), open(sys.argv[2]).read()
def section(name):
    m = re.search(r'<section id="%s">(.*?)</section>' % name, page, re.S)
    if not m:
        sys.exit("no section %s" % name)
    return [[html.unescape(re.sub(r"<[^>]*>", " ", c)).split() for c in re.findall(r"<td>(.*?)</td>", row, re.S)]
            for row in re.findall(r"<tr>(.*?)</tr>", m.group(1), re.S)][1:]
fleet = model["fleet"]
rows = section("fleet-findings")
if len(rows) != len(fleet["findings"]) or not rows:
    sys.exit("%d finding rows for %d findings" % (len(rows), len(fleet["findings"])))
for f, r in zip(fleet["findings"], rows):
    if r[0][0] != f["id"] or " ".join(r[0][1:]) != " ".join(f["title"].split()):
        sys.exit("row %r is not finding %s" % (r[0], f["id"]))
    if r[2] != [str(f["hosts"])] or r[4] != [f["status"]]:
        sys.exit("%s: hosts %r status %r, the model says %d %s" % (f["id"], r[2], r[4], f["hosts"], f["status"]))
    if len(f["by_severity"]) == 1 and '<span class="sev sev-' not in page.split("<code>%s</code>" % f["id"])[1].split("</tr>")[0]:
        sys.exit("%s: no severity badge" % f["id"])
settings = section("fleet-settings")
if [s[0][0] for s in settings] != [s["key"] for s in fleet["settings"]] or not settings:
    sys.exit("settings rows %r" % [s[0] for s in settings])
groups = section("fleet-groups")
if [g[0] for g in groups] != [[str(g["hosts"])] for g in fleet["groups"][:len(groups)]] or not groups:
    sys.exit("group rows %r" % [g[0] for g in groups])
EOF2
grep -qF "$(jq -r '"Summary: \(.summary.new) new"' "$TMP/fleet.json")" "$TMP/dom.html" || fail "compare of 40 hosts: no summary"
# the text form's host counts are the page's
(cd "$TMP/fleet" && "$FSTUNE" compare host*.json >../fleet.txt) || true
jq -r '.fleet.findings[0] | "\(.id) \(.hosts)"' "$TMP/fleet.json" | {
	read -r id hosts
	grep -qE "^  $id +[a-z]+ +$hosts " "$TMP/fleet.txt" || fail "the text form's row of $id"
}
mkdir "$TMP/fleet-bench"
for f in "$TMP"/fleet/host*.json; do
	i=${f##*host}
	i=${i%.json}
	jq --argjson i "$((10#$i))" '.facts.bench = {"rand_read_4k_qd1": {"iops": (9000 + ($i % 3) * 1500), "ci95_pct": 2.0},
		"seq_read_1m": {"iops": 1500, "bw_bytes_per_s": 1572864000, "ci95_pct": 0.8}}' "$f" >"$TMP/fleet-bench/${f##*/}"
done
(cd "$TMP/fleet-bench" && "$FSTUNE" compare --bench --json host*.json >../fleet-bench.json) || true
(cd "$TMP/fleet-bench" && "$FSTUNE" compare --bench --format html -o ../fleet-bench.html host*.json) || true
rendered "$TMP/fleet-bench.html" "compare --bench of 40 hosts"
jq -r '.bench[] | "\(.test) \(.metric)"' "$TMP/fleet-bench.json" >"$TMP/bench-rows"
[ -s "$TMP/bench-rows" ] || fail "compare --bench of 40 hosts: no benchmark rows in the model"
while read -r row; do
	grep -qF "<td><code>$row</code></td>" "$TMP/dom.html" || fail "compare --bench: no row $row"
done <"$TMP/bench-rows"
grep -qF '<td>1573 MB/s ±0.8%</td>' "$TMP/dom.html" || fail "compare --bench: the baseline's figure with its interval"
slower=$(jq '[.bench[] | select(.test == "rand_read_4k_qd1" and .metric == "iops") | .reports[1:][] | select(.verdict == "slower")] | length' "$TMP/fleet-bench.json")
[ "$slower" -gt 0 ] || fail "compare --bench: the fleet's slower hosts are not in the model"
grep -qF "<td><code>rand_read_4k_qd1 iops</code></td><td>10.5k/s ±2.0%</td><td>$(jq '[.bench[] | select(.test == "rand_read_4k_qd1" and .metric == "iops") | .reports[1:][] | select(.verdict == "faster")] | length' "$TMP/fleet-bench.json")</td><td>$slower</td>" "$TMP/dom.html" ||
	fail "compare --bench: rand_read_4k_qd1's faster and slower counts"

# The wizard's Save writes the same page as fstune report on the saved facts.
ui_open_target 80 24 nvme0n1p2 --facts "$FSTUNE_SRCDIR/tests/facts/nvme-bfq.json"
tmux_keys Enter
tmux_wait "Detected:"
ui_detected_to_advice
ui_save json "$TMP/wizard.json"
ui_save html "$TMP/wizard.html"
tmux_keys q
assert_eq "$(tmux_wait_exit)" 0 "the wizard's exit status after q"
ui_assert_no_sanitizer_report
tmux_ kill-server
lint "$TMP/wizard.html" "the wizard's page"
dom "$TMP/wizard.html" >"$TMP/dom.html"
while read -r id; do
	grep -qF "<code>$id</code>" "$TMP/dom.html" || fail "wizard: finding $id is not in the DOM"
done < <(jq -r '.recommendations[].id' "$TMP/wizard.json")

# Other commands refuse the format.
run_status 2 "$FSTUNE" probe --format html "$TMP/target"
grep -q -- "--format html is for 'fstune report' and 'fstune compare' only" "$TMP/err" || fail "probe: $(cat "$TMP/err")"
echo "the HTML report, comparison and Save render in Chromium with their findings, charts and commands"
