/* Benchmark figures against the hardware's own limits (bench_results_judge in bench.h): a rate above
 * what the link can carry, or than a rotating disk can do, is not the device's; a loop device without
 * direct I/O goes through the host's page cache. Each limit is a hard physical bound (the link's
 * payload, one revolution of the fastest spindle made), not a typical figure, and a figure is flagged
 * only when even the low end of its 95% interval is above it. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"
#include "fstune/bench.h"
#include "fstune/units.h"

#define SRC "bench"

/* What the device facts say about the hardware under the figures. */
struct view {
	const char *transport;
	bool is_rotational;  /* device.rotational is true */
	bool is_bare_metal;  /* host.virtualization is "none": the link and the medium are the hardware's */
	bool is_credible;    /* the rotational claim: a disk bus on bare metal, no RAID behind it */
	bool is_protected;   /* device.write_cache_protected: flushes may end in a protected cache */
	bool is_loop_cached; /* a loop device without direct I/O */
	long long link_mbps, lanes;
};

static void view_read(const struct facts *d, struct view *v)
{
	/* a USB bridge reports rotational for flash too (the kernel's default without the VPD page) */
	static const char *const disk_buses[] = {"sata", "sas", "scsi"};
	const char *virt = facts_get_string(d, "host.virtualization");
	bool b = false;
	size_t i;

	memset(v, 0, sizeof *v);
	v->transport = facts_get_string(d, "device.transport");
	if (!v->transport)
		v->transport = "unknown";
	v->is_rotational = facts_get_bool(d, "device.rotational", &b) && b;
	v->is_bare_metal = virt && !strcmp(virt, "none");
	for (i = 0; i < sizeof disk_buses / sizeof disk_buses[0]; i++)
		if (!strcmp(v->transport, disk_buses[i]))
			v->is_credible = v->is_rotational && v->is_bare_metal;
	if (facts_get_bool(d, "device.topology_hidden", &b) && b)
		v->is_credible = false; /* a RAID volume: several spindles behind one name */
	v->is_protected = facts_get_bool(d, "device.write_cache_protected", &b) && b;
	v->is_loop_cached = !strcmp(v->transport, "loop") && facts_get_bool(d, "device.loop_direct_io", &b) && !b;
	if (!facts_get_int(d, "device.link_speed_mbps", &v->link_mbps))
		v->link_mbps = 0;
	if (!facts_get_int(d, "device.link_lanes", &v->lanes) || v->lanes < 1)
		v->lanes = 1;
}

/* The most payload the device's link can carry, bytes/s, and where that comes from; 0 when no cap
 * applies (a VM's disk is what the hypervisor makes of it; an unknown link). */
static double link_cap(const struct view *v, char *src, size_t len)
{
	double mbps = (double)v->link_mbps, lane = mbps / (double)v->lanes;

	if (!v->is_bare_metal)
		return 0;
	if (!strcmp(v->transport, "usb") && v->link_mbps == 480) {
		snprintf(src, len, "a USB 2.0 high-speed link (device.link_speed_mbps 480) carries at most 13 bulk "
			 "packets of 512 bytes per 125 us microframe (USB 2.0 specification, 5.8.4)");
		return 13.0 * 512 * 8000;
	}
	if (!strcmp(v->transport, "usb") && v->link_mbps == 12) {
		snprintf(src, len, "a USB full-speed link (device.link_speed_mbps 12) carries at most 19 bulk "
			 "packets of 64 bytes per 1 ms frame (USB 2.0 specification, 5.8.4)");
		return 19.0 * 64 * 1000;
	}
	if (!strcmp(v->transport, "usb") && v->link_mbps >= 5000) {
		bool is_gen1 = v->link_mbps == 5000;

		snprintf(src, len, "a USB %s link (device.link_speed_mbps %lld) carries at most its signalling rate "
			 "less its %s encoding", is_gen1 ? "3.x 5 Gb/s" : "3.x SuperSpeed+", v->link_mbps,
			 is_gen1 ? "8b/10b" : "128b/132b");
		return mbps * 1e6 / 8 * (is_gen1 ? 0.8 : 128.0 / 132);
	}
	if (!strcmp(v->transport, "sata")) {
		if (v->link_mbps > 0)
			snprintf(src, len, "a %.1f Gb/s SATA link (device.link_speed_mbps %lld) carries at most its "
				 "signalling rate less its 8b/10b encoding", mbps / 1000, v->link_mbps);
		else
			snprintf(src, len, "SATA's fastest link, 6.0 Gb/s less its 8b/10b encoding, carries at most "
				 "that (the link speed itself was not found)");
		return (v->link_mbps > 0 ? mbps : 6000) * 1e6 / 8 * 0.8;
	}
	if (!strcmp(v->transport, "nvme") && v->link_mbps > 0) {
		bool is_130 = lane >= 8000; /* PCIe 3.0 on: 128b/130b; before: 8b/10b */

		snprintf(src, len, "a PCIe link of %lld lane%s at %.1f GT/s (device.link_speed_mbps %lld) carries at "
			 "most its signalling rate less its %s encoding", v->lanes, v->lanes == 1 ? "" : "s",
			 lane / 1000, v->link_mbps, is_130 ? "128b/130b" : "8b/10b");
		return mbps * 1e6 / 8 * (is_130 ? 128.0 / 130 : 0.8);
	}
	return 0;
}

/* The most I/Os per second a rotating disk can do in this test, and why; 0 when none is known (a
 * drive's write cache takes plain writes at any rate until it is full). 15,000 rpm, the fastest
 * spindles made, turn once in 4 ms. */
static double rotation_cap(const struct bench_test_def *def, bool is_protected, char *src, size_t len)
{
	if (def->is_fsync && is_protected)
		return 0;
	if (def->is_fsync && def->pattern == BENCH_PATTERN_APPEND) {
		snprintf(src, len, "a rotating disk commits an append once per revolution at most (the next sector "
			 "has passed under the head by the time the next write comes): 250 a second at 15,000 rpm, "
			 "the fastest spindles made");
		return 250;
	}
	if (def->is_fsync) {
		snprintf(src, len, "a rotating disk puts a sector on the platter half a revolution later on average: "
			 "500 commits a second at 15,000 rpm, the fastest spindles made");
		return 500;
	}
	if (def->is_write || def->pattern != BENCH_PATTERN_RANDOM)
		return 0;
	if (def->queue_depth == 1) {
		snprintf(src, len, "a random read waits half a revolution on average, 2 ms at 15,000 rpm (the "
			 "fastest spindles made): 500 a second; the limit allows twice that for the drive's cache "
			 "over the span (fstune's own margin)");
		return 1000;
	}
	snprintf(src, len, "with %u reads queued a rotating disk serves the nearest first, but turns at most "
		 "15,000 rpm (the fastest spindles made) and settles its heads for each; the limit allows 12 "
		 "reads per 4 ms revolution (fstune's own, generous margin)", def->queue_depth);
	return 3000;
}

static void set_flag(struct facts *f, const char *test, const char *flag, const char *why, json_t *notes)
{
	char *k = xasprintf("bench.%s.%s", test, flag), *kr = xasprintf("bench.%s.%s_reason", test, flag);

	facts_set_bool(f, k, true, SRC);
	if (!facts_get_string(f, kr))
		facts_set_string(f, kr, why, SRC);
	if (notes)
		json_array_append_new(notes, json_sprintf("%s: %s: %s", test, flag, why));
	free(k);
	free(kr);
}

/* A loop device without direct I/O: its backing file goes through the host's page cache, so reads
 * may never reach a disk and plain writes end in memory; an fsync still reaches the backing file's
 * storage (the loop driver syncs the file on a flush). */
static void judge_loop(struct facts *f, const struct bench_test_def *def, json_t *notes)
{
	if (def->is_fsync)
		return;
	set_flag(f, def->name, "cache_suspect",
		 def->is_write ? "the loop device writes its backing file through the host's page cache "
				 "(loop_direct_io off): the writes ended in memory, not on a disk"
			       : "the loop device reads its backing file through the host's page cache "
				 "(loop_direct_io off): a read may never reach a disk", notes);
}

static void judge_limit(struct facts *f, const struct bench_test_def *def, double limit, const char *what,
			const char *src, json_t *notes)
{
	double iops = bench_figure(f, def->name, "iops"), ci = bench_figure(f, def->name, "ci95_pct");
	double low = iops * (1 - (isnan(ci) ? 0 : fmin(ci, 100)) / 100);
	char why[768], r1[UNITS_BUFSZ], r2[UNITS_BUFSZ], sz[UNITS_BUFSZ];
	char *k = xasprintf("bench.%s.implausible", def->name);
	bool is_flagged = facts_get(f, k) != NULL;

	free(k);
	if (!(limit > 0) || !(low > limit) || is_flagged)
		return;
	snprintf(why, sizeof why, "%.0f IOPS (%s) is beyond %s: at most %.0f IOPS (%s) of %s, as %s; a cache "
		 "answered, not the device", iops, units_rate(r1, sizeof r1, iops * def->io_size), what, limit,
		 units_rate(r2, sizeof r2, limit * def->io_size), units_bytes(sz, sizeof sz, def->io_size), src);
	set_flag(f, def->name, "implausible", why, notes);
	k = xasprintf("bench.%s.implausible_limit", def->name);
	facts_set_real(f, k, round(limit * 1000) / 1000, SRC);
	free(k);
}

/* A rotational flag the figures contradict, where it is not credible anyway (a virtual disk, a loop
 * device, a VM): the flag is what is wrong, so the claim is recorded, not the figure. */
static void judge_claim(struct facts *f, const struct bench_test_def *def, const struct view *v, double limit)
{
	double iops = bench_figure(f, def->name, "iops");
	bool is_driver = !strcmp(v->transport, "loop") || v->is_bare_metal;
	char why[512];

	if (!(iops > limit) || facts_get(f, "bench.rotational_claim"))
		return;
	snprintf(why, sizeof why, "%s measured %.0f IOPS, and a rotating disk does at most %.0f there (15,000 rpm, "
		 "the fastest spindles made): device.rotational is the %s%s's flag, not the medium's", def->name, iops,
		 limit, is_driver ? v->transport : "hypervisor", is_driver ? " driver" : "");
	facts_set_string(f, "bench.rotational_claim.contradicted_by", def->name, SRC);
	facts_set_string(f, "bench.rotational_claim.reason", why, SRC);
}

void bench_results_judge(struct facts *f, const struct facts *device, json_t *notes)
{
	struct view v;
	size_t i;

	view_read(device, &v);
	for (i = 0; i < bench_n_tests; i++) {
		const struct bench_test_def *def = &bench_tests[i];
		char src[400];
		double cap;

		if (def->pattern == BENCH_PATTERN_FILES || isnan(bench_figure(f, def->name, "iops")))
			continue;
		if (v.is_loop_cached)
			judge_loop(f, def, notes);
		cap = link_cap(&v, src, sizeof src);
		if (cap > 0)
			judge_limit(f, def, cap / def->io_size, "what the link can carry", src, notes);
		if (!v.is_rotational || !(cap = rotation_cap(def, v.is_protected, src, sizeof src)))
			continue;
		if (v.is_credible)
			judge_limit(f, def, cap, "a rotating disk", src, notes);
		else
			judge_claim(f, def, &v, cap);
	}
}
