/* Unit tests of the facts core: every value type through a JSON round trip, hand-written files,
 * report documents as input, and every error path with its message. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "fstune/facts.h"
#include "tests/lib/check.h"

static struct facts *parse(const char *text, struct fst_error *err)
{
	fst_error_clear(err);
	return facts_from_json(text, strlen(text), "t.json", err);
}

static void test_round_trip(void)
{
	struct facts *f = facts_new(), *g;
	const char *const feats[] = {"has_journal", "extent", "dir_index"};
	struct fst_error err = FST_ERROR_INIT;
	long long i;
	double r;
	bool b;
	char *text, *again;
	enum facts_status st;
	const char *reason;

	facts_set_string(f, "host.kernel", "6.18.44", "uname");
	facts_set_int(f, "host.mem_total_bytes", 25769803776LL, "procfs");
	facts_set_bool(f, "device.rotational", true, "sysfs");
	facts_set_real(f, "bench.rand_read_4k_qd1.lat_p99_us", 123.5, "bench");
	facts_set_strings(f, "fs.features", feats, 3, "ext2fs");
	facts_set_int(f, "vm.bdi.max_ratio", 100, "sysfs");
	facts_set_string(f, "fs.label", NULL, "blkid");
	facts_set_unavailable(f, "fs.inode_count", FACTS_NEEDS_ROOT, "open %s: %s", "/dev/vda",
			      "Operation not permitted");

	text = facts_to_json(f);
	g = facts_from_json(text, strlen(text), "rt", &err);
	CHECK(g != NULL);
	if (!g) {
		fprintf(stderr, "%s\n", err.msg);
		return;
	}
	again = facts_to_json(g);
	CHECK_STR(again, text);
	CHECK(facts_get_int(g, "host.mem_total_bytes", &i) && i == 25769803776LL);
	CHECK(facts_get_bool(g, "device.rotational", &b) && b);
	CHECK(facts_get_real(g, "bench.rand_read_4k_qd1.lat_p99_us", &r) && r == 123.5);
	CHECK(json_array_size(facts_get(g, "fs.features")) == 3);
	CHECK_STR(facts_get_string(g, "host.kernel"), "6.18.44");
	CHECK_STR(facts_source(g, "device.rotational"), "sysfs");
	CHECK(!facts_has(g, "fs.label"));
	CHECK(facts_unavailable(g, "fs.inode_count", &st, &reason) && st == FACTS_NEEDS_ROOT);
	CHECK_STR(reason, "open /dev/vda: Operation not permitted");
	CHECK(facts_failed_count(g) == 0);
	/* the document starts with the schema and keeps the contract's shape */
	CHECK(strncmp(text, "{\n  \"schema\": \"fstune.facts/1\"", 30) == 0);
	free(text);
	free(again);
	facts_free(f);
	facts_free(g);
}

static void test_value_and_unavailable_exclusive(void)
{
	struct facts *f = facts_new();

	facts_set_unavailable(f, "device", FACTS_NOT_APPLICABLE, "tmpfs");
	CHECK(facts_unavailable(f, "device.rotational", NULL, NULL));
	facts_set_int(f, "fs.block_size", 4096, "ext2fs");
	facts_set_unavailable(f, "fs.block_size", FACTS_FAILED, "bad superblock");
	CHECK(!facts_has(f, "fs.block_size"));
	CHECK(facts_source(f, "fs.block_size") == NULL);
	CHECK(facts_failed_count(f) == 1);
	facts_set_int(f, "fs.block_size", 1024, "ext2fs");
	CHECK(!facts_unavailable(f, "fs.block_size", NULL, NULL));
	CHECK(facts_failed_count(f) == 0);
	facts_free(f);
}

/* A branch goes with its sources and unavailable entries, and a copied branch brings its own. */
static void test_branches(void)
{
	struct facts *f = facts_new(), *given = facts_new();

	facts_set_int(f, "workload.files_total", 5, "user");
	facts_set_unavailable(f, "workload.read_share", FACTS_FAILED, "no device");
	facts_set_int(f, "workloads_seen", 1, "user");
	facts_remove(f, "workload");
	CHECK(!facts_has(f, "workload.files_total"));
	CHECK(facts_source(f, "workload.files_total") == NULL);
	CHECK(!facts_unavailable(f, "workload.read_share", NULL, NULL));
	CHECK_STR(facts_source(f, "workloads_seen"), "user"); /* a prefix of the name is not the branch */

	facts_set_int(given, "workload.files_total", 7, "preset");
	facts_set_int(f, "workload.files_per_dir", 9, "user");
	facts_copy_branch(f, given, "workload");
	CHECK(!facts_has(f, "workload.files_per_dir"));
	CHECK(facts_source(f, "workload.files_per_dir") == NULL);
	CHECK_STR(facts_source(f, "workload.files_total"), "preset");
	facts_free(given);
	given = facts_new();
	facts_copy_branch(f, given, "workload");
	CHECK(facts_get(f, "workload") == NULL);
	CHECK(facts_source(f, "workload.files_total") == NULL);
	facts_free(f);
	facts_free(given);
}

static void test_hand_written(void)
{
	struct fst_error err;
	struct facts *f = parse("{\"fs\": {\"type\": \"ext4\", \"block_size\": 1024},\n"
				" \"workload\": {\"files_total\": 1000000}}", &err);
	long long v;

	CHECK(f != NULL);
	if (!f)
		return;
	CHECK_STR(facts_source(f, "fs.type"), "user");
	CHECK(facts_get_int(f, "workload.files_total", &v) && v == 1000000);
	CHECK(facts_source(f, "fs.nothing") == NULL);
	facts_free(f);
}

static void test_report_document(void)
{
	struct fst_error err;
	struct facts *f = parse("{\"schema\": \"fstune.report/1\", \"generated\": {},\n"
				" \"facts\": {\"schema\": \"fstune.facts/1\", \"fs\": {\"type\": \"xfs\"},"
				" \"sources\": {\"fs.type\": \"blkid\"}},\n \"recommendations\": []}", &err);

	CHECK(f != NULL);
	if (!f)
		return;
	CHECK_STR(facts_get_string(f, "fs.type"), "xfs");
	CHECK_STR(facts_source(f, "fs.type"), "blkid");
	facts_free(f);
}

static void expect_error(const char *text, const char *message)
{
	struct fst_error err;
	struct facts *f = parse(text, &err);

	CHECK(f == NULL);
	facts_free(f);
	CHECK(err.status == FST_EXIT_USAGE);
	CHECK_CONTAINS(err.msg, message);
}

static void test_errors(void)
{
	expect_error("", "t.json: empty file");
	expect_error("  \n", "empty file");
	expect_error("{\n  \"fs\": {\"type\": \"ext4\",}\n}", "t.json: line 2, column");
	expect_error("[1, 2]", "expected a JSON object of facts at the top, not a list");
	expect_error("{\"fs\": {\"block_size\": \"4096\"}}", "t.json: fs.block_size must be an integer");
	expect_error("{\"fs\": {\"features\": \"dir_index\"}}", "fs.features must be a list of strings");
	expect_error("{\"device\": {\"rotational\": 1}}", "device.rotational must be true or false");
	expect_error("{\"fs\": {\"block_size\": null}}", "fs.block_size is null");
	expect_error("{\"fs\": 3}", "top-level \"fs\" must be an object");
	expect_error("{\"vm\": {\"bdi\": 5}}", "vm.bdi must be an object");
	expect_error("{\"fs\": {\"features\": {}}}", "fs.features must be a list of strings");
	expect_error("{\"schema\": \"fstune.facts/9\"}", "unknown schema \"fstune.facts/9\"");
	expect_error("{\"schema\": \"fstune.report/1\"}", "needs a \"facts\" object");
	expect_error("{\"sources\": {\"fs.type\": 1}}", "sources.\"fs.type\" must be a string");
	expect_error("{\"unavailable\": {\"fs.type\": {\"status\": \"gone\"}}}",
		     "unavailable.\"fs.type\" needs a \"status\"");
	expect_error("{\"fs\": {\"type\": \"a\", \"type\": \"b\"}}", "duplicate object key");
	expect_error("{\"workload\": {\"tail_waste_bytes\": [1]}}",
		     "workload.tail_waste_bytes must be an object");
	expect_error("{\"x\": {\"list\": [{\"a\": 1}]}}", "x.list must be a list of plain values");
}

static void test_load_file_missing(void)
{
	struct fst_error err = FST_ERROR_INIT;

	CHECK(facts_load_file("/nonexistent/facts.json", &err) == NULL);
	CHECK_CONTAINS(err.msg, "cannot read facts file /nonexistent/facts.json: No such file");
}

static void count_leaf(const char *key, const json_t *v, void *arg)
{
	(void)key;
	(void)v;
	(*(int *)arg)++;
}

static void test_foreach(void)
{
	struct facts *f = facts_new();
	int n = 0;

	facts_set_int(f, "fs.block_size", 4096, "ext2fs");
	facts_set_int(f, "vm.bdi.max_ratio", 100, "sysfs");
	facts_set_unavailable(f, "fs.label", FACTS_NOT_FOUND, "none");
	facts_foreach(f, count_leaf, &n);
	CHECK(n == 2);
	facts_free(f);
}

int main(void)
{
	test_round_trip();
	test_value_and_unavailable_exclusive();
	test_branches();
	test_hand_written();
	test_report_document();
	test_errors();
	test_load_file_missing();
	test_foreach();
	return CHECK_DONE();
}
