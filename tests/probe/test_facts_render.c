/* Unit test of the facts renderers (app/render/facts_render.h): values in the facts schema's units,
 * exact byte counts beside rounded sizes, labels, grouping by branch, unavailable entries and
 * sources. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "app/render/facts_render.h"
#include "tests/lib/check.h"

static void check_value(const char *key, json_t *v, const char *want)
{
	char *got = facts_render_value(key, v);

	CHECK_STR(got, want);
	free(got);
	json_decref(v);
}

/* Renders with `fn` into a string; caller frees. */
static char *render(void (*fn)(FILE *, const struct facts *, bool), const struct facts *f,
		    bool sources)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	fn(out, f, sources);
	fclose(out);
	return buf;
}

int main(void)
{
	struct facts *f = facts_new();
	char *text;
	const char *const sched[] = {"none", "mq-deadline"};

	check_value("device.size_bytes", json_integer(240057409536LL), "223.6 GiB (240057409536 B)");
	check_value("device.logical_block_size", json_integer(4096), "4 KiB");
	check_value("device.alignment_offset", json_integer(0), "0 B");
	check_value("device.discard_granularity", json_integer(512), "512 B");
	check_value("device.read_ahead_kb", json_integer(128), "128 KiB");
	check_value("vm.dirty_ratio", json_integer(20), "20%");
	check_value("vm.dirty_expire_centisecs", json_integer(3000), "3000 (30 s)");
	check_value("vm.dirtytime_expire_seconds", json_integer(43200), "43200 s (12 h)");
	check_value("workload.tail_waste_bytes.u32k", json_integer(139755), "136.5 KiB (139755 B)");
	check_value("workload.sample.elapsed_s", json_real(0.31144), "311 ms");
	check_value("device.nr_requests", json_integer(1023), "1023");
	check_value("device.rotational", json_true(), "yes");
	check_value("host.container", json_false(), "no");
	check_value("device.write_cache", json_string("write back"), "write back");
	check_value("bench.x.bw_bytes_per_s", json_real(812e6), "812 MB/s");
	check_value("device.schedulers", json_pack("[ss]", "none", "bfq"), "none, bfq");
	check_value("device.members", json_array(), "(none)");
	/* units no key suffix says: the schema's */
	check_value("bench.x.cpu_us_per_io", json_real(12.34), "12.3 \xc2\xb5s");
	check_value("bench.busy_check.seconds", json_real(1.25), "1.25 s");
	check_value("bench.smallfile.tps", json_real(11875.9), "11.9k/s");
	check_value("vm.bdi.max_ratio_fine", json_integer(1000000), "1000000 (100%)");
	check_value("fs.inode_count", json_integer(65536), "65536");
	{
		char *t = facts_render_unavailable("needs_root", "open /dev/vda: Permission denied");

		CHECK_STR(t, "needs root: open /dev/vda: Permission denied");
		free(t);
		t = facts_render_unavailable("not_found", "");
		CHECK_STR(t, "not found");
		free(t);
		t = facts_render_unavailable(NULL, NULL);
		CHECK_STR(t, "unavailable");
		free(t);
	}

	facts_set_string(f, "host.kernel", "6.18.44", "uname");
	facts_set_int(f, "device.size_bytes", 1 << 30, "sysfs");
	facts_set_strings(f, "device.schedulers", sched, 2, "sysfs");
	facts_set_int(f, "vm.bdi.max_ratio", 100, "sysfs");
	facts_set_unavailable(f, "device.model", FACTS_NOT_FOUND, "not in sysfs for vda");
	facts_set_unavailable(f, "fs", FACTS_NOT_APPLICABLE, "image file");

	text = render(facts_render_text, f, true);
	CHECK_CONTAINS(text, "host\n  kernel ");
	CHECK_CONTAINS(text, "6.18.44  ");
	CHECK_CONTAINS(text, "[uname]  Kernel release\n");
	CHECK_CONTAINS(text, "\ndevice\n");
	CHECK_CONTAINS(text, "  size_bytes     1 GiB              [sysfs]  Device size\n");
	CHECK_CONTAINS(text, "  model          (not found: not in sysfs for vda)\n");
	CHECK_CONTAINS(text, "  bdi.max_ratio  100%               [sysfs]  Largest share of the dirty "
			     "limit\n");
	CHECK_CONTAINS(text, "\nfs\n  (not applicable: image file)\n");
	/* Branches keep document order; the unavailable-only branch comes last. */
	CHECK(text && strstr(text, "host\n") < strstr(text, "device\n"));
	CHECK(text && strstr(text, "\nvm\n") < strstr(text, "\nfs\n"));
	free(text);

	text = render(facts_render_text, f, false);
	CHECK(text && !strstr(text, "[sysfs]"));
	CHECK_CONTAINS(text, "  size_bytes     1 GiB              Device size\n");
	free(text);

	text = render(facts_render_markdown, f, true);
	CHECK_CONTAINS(text, "### device\n\n| fact | value | source |\n|---|---|---|\n");
	CHECK_CONTAINS(text, "| schedulers | none, mq-deadline | sysfs |\n");
	CHECK_CONTAINS(text, "| model | *unavailable:* not found: not in sysfs for vda |  |\n");
	CHECK_CONTAINS(text, "### fs\n\n| fact | value | source |\n|---|---|---|\n| (all) | *unavailable:* not applicable: image file |  |\n");
	free(text);

	facts_free(f);
	return CHECK_DONE();
}
