/* Unit test of the facts schema (lib/facts_schema.h): every row has a unit and a label and is reached
 * by its own keys (no row shadowed by an earlier one); the units renderers take from it. With facts
 * files as arguments (tests/base/facts-schema.sh passes what `fstune probe --format json` wrote), also
 * that every key in them is in the schema with a unit. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "fstune/facts.h"
#include "lib/facts_schema.h"
#include "tests/lib/check.h"

/* The row's key with each "*" made a segment no named row uses. */
static void instance_of(const char *pattern, char *buf, size_t len)
{
	size_t n = 0;

	for (const char *p = pattern; *p && n + 8 < len; p++) {
		if (*p == '*') {
			memcpy(buf + n, "zz_any", 6);
			n += 6;
		} else {
			buf[n++] = *p;
		}
	}
	buf[n] = '\0';
}

static void test_rows(void)
{
	size_t n = facts_schema_size();

	CHECK(n > 100);
	for (size_t i = 0; i < n; i++) {
		const struct facts_key_info *k = facts_schema_at(i);
		char key[256];

		if (k->unit == UNITS_UNSET || !k->label || !*k->label) {
			fprintf(stderr, "schema row %s has no unit or no label\n", k->key);
			check_failures++;
		}
		instance_of(k->key, key, sizeof(key));
		if (facts_schema_find(key) != k) {
			fprintf(stderr, "schema row %s is shadowed by %s (a named row goes before its pattern)\n",
				k->key, facts_schema_find(key) ? facts_schema_find(key)->key : "nothing");
			check_failures++;
		}
		/* a subtree's unit says so; a scalar's never does */
		CHECK((k->type == FACTS_T_OBJECT) == (k->unit == UNITS_TREE));
		if ((k->type == FACTS_T_STRING || k->type == FACTS_T_STRLIST) && k->unit != UNITS_TEXT) {
			fprintf(stderr, "schema row %s is text with unit %s\n", k->key, units_name(k->unit));
			check_failures++;
		}
	}
	CHECK(facts_schema_at(n) == NULL);
	CHECK(facts_schema_find("fs.tpye") == NULL);
	CHECK(facts_schema_unit("fs.tpye") == UNITS_PLAIN);
}

/* Units that no key suffix says, and patterns. */
static void test_units(void)
{
	char b[UNITS_BUFSZ];

	CHECK(facts_schema_unit("vm.dirtytime_expire_seconds") == UNITS_SECONDS);
	CHECK(facts_schema_unit("workload.tail_waste_bytes.u32k") == UNITS_BYTES);
	CHECK(facts_schema_unit("device.read_ahead_kb") == UNITS_KIB);
	CHECK(facts_schema_unit("workload.read_share") == UNITS_SHARE);
	CHECK(facts_schema_unit("workload.share_under_4k") == UNITS_SHARE);
	CHECK(facts_schema_unit("bench.seq_read_1m.bw_bytes_per_s") == UNITS_BYTES_PER_S);
	CHECK(facts_schema_unit("bench.seq_read_1m.cpu_us_per_io") == UNITS_US);
	CHECK(facts_schema_unit("bench.busy_check.seconds") == UNITS_SECONDS);
	CHECK(facts_schema_unit("bench.parameters.runtime_s") == UNITS_SECONDS);
	CHECK(facts_schema_unit("bench.smallfile.tps") == UNITS_PER_S);
	CHECK(facts_schema_unit("device.alignment_offset") == UNITS_BYTES);
	CHECK(facts_schema_unit("vm.bdi.max_ratio_fine") == UNITS_PPM);
	CHECK(facts_schema_unit("fs.inode_count") == UNITS_COUNT);
	CHECK(facts_schema_unit("fs.features") == UNITS_TEXT);
	CHECK_STR(facts_schema_find("device.logical_block_size")->label, "Logical sector size");
	CHECK_STR(facts_schema_find("bench.rand_read_4k_qd1.lat_p99_us")->key, "bench.*.lat_p99_us");
	CHECK_STR(units_value(b, sizeof(b), UNITS_PPM, 1000000, true), "1000000 (100%)");
	CHECK_STR(units_value(b, sizeof(b), UNITS_COUNT, 1023, true), "1023");
	CHECK_STR(units_name(UNITS_SHARE), "fraction 0..1");
}

struct walk {
	const char *file;
	const struct facts *f;
};

static void check_key(const char *key, const json_t *value, void *arg)
{
	struct walk *w = arg;
	const struct facts_key_info *k = facts_schema_find(key);

	(void)value;
	if (!k || k->unit == UNITS_UNSET) {
		fprintf(stderr, "%s: %s is not in the facts schema with a unit\n", w->file, key);
		check_failures++;
	}
}

static void test_file(const char *path)
{
	struct fst_error err = FST_ERROR_INIT;
	struct facts *f = facts_load_file(path, &err);
	struct walk w = {path, f};
	const char *key;
	json_t *v;

	if (!f) {
		fprintf(stderr, "%s: %s\n", path, err.msg);
		check_failures++;
		return;
	}
	facts_foreach(f, check_key, &w);
	/* the keys a probe looked for and could not find are its keys too; a whole branch is not a key */
	json_object_foreach(json_object_get(f->doc, "unavailable"), key, v)
		if (strchr(key, '.'))
			check_key(key, v, &w);
	facts_free(f);
}

int main(int argc, char **argv)
{
	test_rows();
	test_units();
	for (int i = 1; i < argc; i++)
		test_file(argv[i]);
	return CHECK_DONE();
}
