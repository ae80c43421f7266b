#!/bin/bash
# The Ansible collection fstune.storage (contrib/ansible) with Debian's ansible-core: ansible-doc renders
# the module and the role; fleet-report.yml runs end to end on three hosts with
# ansible_connection=local, each pointed at another machine's facts file, lays down an admin rule,
# fetches the reports and ends with fstune compare (with one host, a note instead); the module's check mode, its failure with fstune's
# message and status, and --fail-on new-warn through the playbook. Nothing under /etc is touched: the
# package is not installed, the rules and reports go to the test's own directories.
. "${FSTUNE_SRCDIR:?run the tests through make check}/tests/lib/common.sh" || exit 99
require_cmd jq
command -v ansible-playbook >/dev/null 2>&1 && command -v ansible-doc >/dev/null 2>&1 ||
	skip "needs ansible-playbook and ansible-doc (Debian package ansible-core)"

C=$FSTUNE_SRCDIR/contrib/ansible
mkdir -p "$TMP/collections/ansible_collections/fstune" "$TMP/home" "$TMP/reports"
ln -s "$C" "$TMP/collections/ansible_collections/fstune/storage"
export ANSIBLE_COLLECTIONS_PATH=$TMP/collections ANSIBLE_HOME=$TMP/home ANSIBLE_LOCAL_TEMP=$TMP/home/tmp \
	ANSIBLE_REMOTE_TEMP=$TMP/home/remote ANSIBLE_NOCOLOR=1 ANSIBLE_RETRY_FILES_ENABLED=0 \
	ANSIBLE_PYTHON_INTERPRETER=/usr/bin/python3 ANSIBLE_DEPRECATION_WARNINGS=0 HOME=$TMP/home
unset ANSIBLE_CONFIG

# ansible-doc renders the module and the role's argument spec.
run_status 0 ansible-doc fstune.storage.fstune_report
for word in OPTIONS EXAMPLES "RETURN VALUES" "check mode" bench rules_dirs; do
	grep -q -- "$word" "$TMP/out" || fail "ansible-doc fstune_report shows no '$word'"
done
run_status 0 ansible-doc -t role fstune.storage.fstune
grep -q fstune_rules_d "$TMP/out" || fail "ansible-doc -t role shows no fstune_rules_d"

F=$FSTUNE_SRCDIR/tests
cat >"$TMP/inventory.yml" <<EOF
all:
  vars:
    ansible_connection: local
    fstune_install_package: false
    fstune_binary: "$FSTUNE"
    fstune_no_system_rules: true
    fstune_fetch_dir: "$TMP/reports"
    fstune_rules:
      - name: threshold_for_tests
        src: "$F/facts/rules-threshold/threshold_for_tests.lua"
  hosts:
    db1:
      fstune_facts: "$F/servers/nvme-database.json"
      fstune_state_dir: "$TMP/hosts/db1"
      fstune_rules_d: "$TMP/hosts/db1/rules.d"
    db2:
      fstune_facts: "$F/facts/nvme-bfq.json"
      fstune_state_dir: "$TMP/hosts/db2"
      fstune_rules_d: "$TMP/hosts/db2/rules.d"
      fstune_accepted_file: "$TMP/hosts/db2/accepted.conf"
      fstune_accepted:
        - "mount.fstrim_timer  # the SAN trims"
    files:
      fstune_facts: "$F/servers/hdd-raid-fileserver.json"
      fstune_state_dir: "$TMP/hosts/files"
      fstune_rules_d: "$TMP/hosts/files/rules.d"
EOF

run_status 0 ansible-playbook -i "$TMP/inventory.yml" "$C/playbooks/fleet-report.yml" \
	-e fstune_compare_binary="$FSTUNE"
cp "$TMP/out" "$TMP/play.log"
grep -q 'failed=0' "$TMP/play.log" || fail "the playbook failed: $(cat "$TMP/play.log")"
for h in db1 db2 files; do
	[ -f "$TMP/hosts/$h/rules.d/threshold_for_tests.lua" ] || fail "$h: the admin rule was not laid down"
	[ -f "$TMP/hosts/$h/report.json" ] || fail "$h: no report kept on the host"
	r=$TMP/reports/$h.json
	[ -f "$r" ] || fail "$h: no report fetched to the controller"
	assert_eq "$(jq -r .schema "$r")" fstune.report/1 "$h: the fetched report"
	assert_eq "$(jq -r '.generated.facts_file' "$r")" "$(grep -A1 "^    $h:" "$TMP/inventory.yml" | sed -n 's/.*fstune_facts: "\(.*\)"/\1/p')" \
		"$h: the facts file the report read"
done
# The admin rule ran: its warn on ext4 is in the ext4 hosts' reports.
jq -e '.recommendations[] | select(.id == "threshold_for_tests.ext4_seen")' "$TMP/reports/db2.json" >/dev/null ||
	fail "db2: the admin rule laid down by the role made no finding"
# The accepted line reached db2's report.
assert_eq "$(jq -r '.recommendations[] | select(.id == "mount.fstrim_timer") | .accepted.why' "$TMP/reports/db2.json")" \
	"the SAN trims" "db2: the accepted finding"
# The play ends with fstune compare of the three, db1 the baseline. All three ran on this machine, so
# the hosts in the reports are one: the columns are named by file, <inventory_hostname>.json.
[ -f "$TMP/reports/fleet-compare.md" ] || fail "no fleet-compare.md"
grep -q '^- \*\*db1\.json\*\*: ' "$TMP/reports/fleet-compare.md" || fail "compare: db1 is not a column: $(head "$TMP/reports/fleet-compare.md")"
grep -q '"msg": "\*\*Summary: ' "$TMP/play.log" || fail "the play shows no compare summary: $(cat "$TMP/play.log")"
"$FSTUNE" compare --json "$TMP/reports/db1.json" "$TMP/reports/db2.json" "$TMP/reports/files.json" >"$TMP/cmp.json"
assert_eq "$(jq -r '[.reports[].label] | join(" ")' "$TMP/cmp.json")" "db1.json db2.json files.json" "hosts in the comparison"

# --fail-on new-warn: db2 has bfq on NVMe, db1 (the baseline) does not.
run_status 2 ansible-playbook -i "$TMP/inventory.yml" "$C/playbooks/fleet-report.yml" \
	-e fstune_compare_binary="$FSTUNE" -e fstune_compare_fail_on=new-warn
grep -q 'fstune compare --fail-on new-warn: a host has a finding the baseline lacks' "$TMP/out" ||
	fail "--fail-on new-warn did not fail the play: $(cat "$TMP/out")"

# One host: the report is fetched, and the comparison is skipped with a note rather than failing.
sed '/^    db2:/,$d' "$TMP/inventory.yml" >"$TMP/one.yml"
run_status 0 ansible-playbook -i "$TMP/one.yml" "$C/playbooks/fleet-report.yml" -e fstune_compare_binary="$FSTUNE"
grep -q 'failed=0' "$TMP/out" || fail "one host: the playbook failed: $(cat "$TMP/out")"
grep -q "one host (db1): nothing to compare; its report is $TMP/reports/db1.json" "$TMP/out" ||
	fail "one host: no note on the skipped comparison: $(cat "$TMP/out")"

# The module alone: check mode returns the report and runs no benchmark.
run_status 0 ansible -i "$TMP/inventory.yml" db1 --check -m fstune.storage.fstune_report \
	-a "fstune=$FSTUNE facts=$F/servers/nvme-database.json no_system_rules=true"
grep -q '"schema": "fstune.report/1"' "$TMP/out" || fail "check mode returned no report: $(cat "$TMP/out")"
grep -q '"changed": false' "$TMP/out" || fail "the module reported a change"
mkdir "$TMP/target"
run_status 0 ansible -i "$TMP/inventory.yml" db1 --check -m fstune.storage.fstune_report \
	-a "fstune=$FSTUNE target=$TMP/target bench=quick no_system_rules=true"
tr -d ' \n' <"$TMP/out" | grep -q '"--bench","none"' || fail "check mode did not turn the benchmarks off: $(cat "$TMP/out")"
[ -z "$(ls -A "$TMP/target")" ] || fail "check mode left files in the target: $(ls -A "$TMP/target")"
# A failure carries fstune's message and status.
run_status 2 ansible -i "$TMP/inventory.yml" db1 -m fstune.storage.fstune_report \
	-a "fstune=$FSTUNE facts=$TMP/no-such-facts.json no_system_rules=true"
grep -q "no-such-facts.json" "$TMP/out" || fail "the failure does not name the file: $(cat "$TMP/out")"
grep -q '"rc": 2' "$TMP/out" || fail "the failure does not carry status 2: $(cat "$TMP/out")"

if command -v ansible-lint >/dev/null 2>&1; then
	(cd "$C" && run_status 0 ansible-lint --offline -q plugins roles playbooks) ||
		fail "ansible-lint: $(cat "$TMP/out" "$TMP/err")"
fi
echo "the collection's module, role and fleet playbook work end to end with ansible-core"
