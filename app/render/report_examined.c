/* The "what was examined" part of the report model: the input, host, device, filesystem, writeback
 * settings, workload, what was measured, and every fact that could not be found, as labelled lines. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/render/facts_render.h"
#include "app/render/report_build.h"
#include "app/render/report_render.h"
#include "lib/xalloc.h"
#include "fstune/bench.h"
#include "fstune/units.h"

typedef void (*emit_fn)(const char *label, const char *text, void *arg);

/* Builds one line from "label: value" pairs of the facts that are present, joined by ", ". */
struct line {
	char *buf;
	size_t len;
	FILE *m;
	bool is_empty;
};

static void line_open(struct line *l)
{
	l->buf = NULL;
	l->len = 0;
	l->is_empty = true;
	l->m = open_memstream(&l->buf, &l->len);
	if (!l->m)
		abort();
}

static void line_text(struct line *l, const char *text)
{
	fprintf(l->m, "%s%s", l->is_empty ? "" : ", ", text);
	l->is_empty = false;
}

/* Adds "<prefix><value><suffix>" when `key` is present. */
static void line_fact(struct line *l, const struct session *s, const char *key, const char *prefix,
		      const char *suffix)
{
	const json_t *v = facts_get(s->facts, key);
	char *t;

	if (!v)
		return;
	t = report_fact_value(key, v);
	fprintf(l->m, "%s%s%s%s", l->is_empty ? "" : ", ", prefix, t, suffix);
	l->is_empty = false;
	free(t);
}

static void line_size(struct line *l, const struct session *s, const char *key, const char *prefix,
		      const char *suffix)
{
	long long v;
	char ub[UNITS_BUFSZ];

	if (!facts_get_int(s->facts, key, &v) || v < 0)
		return;
	fprintf(l->m, "%s%s%s%s", l->is_empty ? "" : ", ", prefix, units_bytes(ub, sizeof(ub), (uint64_t)v),
		suffix);
	l->is_empty = false;
}

/* One fact of a line, as "<prefix><value><suffix>", a size in bytes or the value as it renders. */
struct line_item {
	const char *key, *prefix, *suffix;
	bool is_size;
};

/* Adds every item whose fact is present, in order. */
static void line_items(struct line *l, const struct session *s, const struct line_item *items, size_t n)
{
	for (size_t i = 0; i < n; i++)
		(items[i].is_size ? line_size : line_fact)(l, s, items[i].key, items[i].prefix, items[i].suffix);
}

#define LINE_ITEMS(l, s, items) line_items((l), (s), (items), sizeof(items) / sizeof((items)[0]))

/* Emits the line (as `label`, or as a continuation when `label` is "") unless it is empty. */
static void line_emit(struct line *l, const char *label, emit_fn fn, void *arg)
{
	fclose(l->m);
	if (!l->is_empty)
		fn(label, l->buf, arg);
	free(l->buf);
}

static bool branch_unavailable(const struct session *s, const char *branch, emit_fn fn, void *arg,
			       const char *label)
{
	enum facts_status st;
	const char *reason = NULL;
	const json_t *un = json_object_get(json_object_get(s->facts->doc, "unavailable"), branch);
	char *t;

	if (!un || !facts_unavailable(s->facts, branch, &st, &reason))
		return false;
	t = facts_render_unavailable(facts_status_name(st), reason);
	fn(label, t, arg);
	free(t);
	return true;
}

static void examined_input(const struct session *s, emit_fn fn, void *arg)
{
	static const char *const kinds[] = {"directory", "block device", "image file"};
	char *t;

	if (s->origin == SESSION_FROM_FILE) {
		char *unknown = json_array_size(s->facts_warnings) ? session_join_messages(s->facts_warnings)
								  : NULL;

		t = xasprintf("facts read from %s (nothing was probed)%s%s",
			      strcmp(s->facts_path, "-") == 0 ? "standard input" : s->facts_path,
			      unknown ? "; not understood, so ignored: " : "", unknown ? unknown : "");
		free(unknown);
	} else {
		const struct probe_target *pt = s->target;
		enum facts_status st;
		/* A regular file is taken for an image until blkid looks; without a signature it is not one. */
		bool is_plain = pt->kind == TARGET_IMAGE && !facts_get(s->facts, "fs") &&
				facts_unavailable(s->facts, "fs", &st, NULL) && st == FACTS_NOT_FOUND;

		t = xasprintf("%s (%s)", pt->path ? pt->path : pt->arg ? pt->arg : ".",
			      is_plain ? "a file without a filesystem"
				       : kinds[pt->kind <= TARGET_IMAGE ? pt->kind : 0]);
	}
	fn("Input", t, arg);
	free(t);
}

static void examined_host(const struct session *s, emit_fn fn, void *arg)
{
	struct line l;
	bool b;

	line_open(&l);
	line_fact(&l, s, "host.os", "", "");
	line_fact(&l, s, "host.kernel", "kernel ", "");
	line_fact(&l, s, "host.virtualization", "virtualization ", "");
	if (facts_get_bool(s->facts, "host.container", &b) && b)
		line_text(&l, "in a container");
	line_size(&l, s, "host.mem_total_bytes", "", " RAM");
	line_fact(&l, s, "host.cpus", "", " CPUs");
	line_fact(&l, s, "host.target_os", "advice for ", "");
	line_emit(&l, "Host", fn, arg);
}

static const struct line_item queue_items[] = {
	{"device.scheduler", "scheduler ", "", false},
	{"device.read_ahead_kb", "read-ahead ", "", false},
	{"device.nr_requests", "nr_requests ", "", false},
	{"device.logical_block_size", "logical block ", "", false},
	{"device.physical_block_size", "physical block ", "", false},
	{"device.write_cache", "write cache ", "", false},
};

static void examined_device(const struct session *s, emit_fn fn, void *arg)
{
	struct line l;
	bool rot;
	long long v;

	if (branch_unavailable(s, "device", fn, arg, "Device"))
		return;
	if (!facts_get(s->facts, "device")) {
		fn("Device", s->origin == SESSION_FROM_FILE ? "not described" : "nothing found", arg);
		return;
	}
	line_open(&l);
	line_fact(&l, s, "device.path", "", "");
	if (!facts_has(s->facts, "device.path"))
		line_fact(&l, s, "device.name", "", "");
	{
		const char *name = facts_get_string(s->facts, "device.name");
		const char *disk = facts_get_string(s->facts, "device.disk");

		if (disk && (!name || strcmp(name, disk) != 0))
			line_fact(&l, s, "device.disk", "on disk ", "");
	}
	line_fact(&l, s, "device.model", "", "");
	line_fact(&l, s, "device.transport", "", "");
	if (facts_get_bool(s->facts, "device.rotational", &rot))
		line_text(&l, rot ? "rotational" : "non-rotational");
	line_size(&l, s, "device.size_bytes", "", "");
	line_emit(&l, "Device", fn, arg);

	line_open(&l);
	LINE_ITEMS(&l, s, queue_items);
	line_emit(&l, "", fn, arg);

	line_open(&l);
	line_fact(&l, s, "device.md_level", "md ", "");
	line_size(&l, s, "device.md_chunk_bytes", "chunk ", "");
	line_fact(&l, s, "device.md_data_disks", "", " data disks");
	line_fact(&l, s, "device.members", "members ", "");
	if (facts_get_int(s->facts, "device.optimal_io_size", &v) && v > 0)
		line_size(&l, s, "device.optimal_io_size", "optimal I/O ", "");
	line_emit(&l, "", fn, arg);
}

/* "member of the btrfs mounted on /srv (2 devices)": the device is in use although no mount names it. */
static void member_text(struct line *l, const struct session *s)
{
	const char *type = facts_get_string(s->facts, "fs.member_of.type");
	const char *mp = facts_get_string(s->facts, "fs.member_of.mount_point");
	const json_t *devs = facts_get(s->facts, "fs.member_of.devices");
	size_t n = json_array_size(devs);
	char *t;

	if (!type)
		return;
	t = xasprintf("member of the %s %s%s (%zu device%s)", type, mp ? "mounted on " : "open in the kernel, "
		      "mounted in no namespace visible here", mp ? mp : "", n, n == 1 ? "" : "s");
	line_text(l, t);
	free(t);
}

static void examined_fs(const struct session *s, emit_fn fn, void *arg)
{
	struct line l;
	long long size, avail;

	if (branch_unavailable(s, "fs", fn, arg, "Filesystem"))
		return;
	if (!facts_get(s->facts, "fs")) {
		enum facts_status st;
		const char *reason = NULL;
		char *t = NULL;

		/* Say why, as the leaf lines of "Not known" leave out what does not apply. */
		if (facts_unavailable(s->facts, "fs.type", &st, &reason))
			t = facts_render_unavailable(facts_status_name(st), reason);
		fn("Filesystem", t ? t : s->origin == SESSION_FROM_FILE ? "not described" : "nothing found", arg);
		free(t);
		return;
	}
	line_open(&l);
	line_fact(&l, s, "fs.type", "", "");
	line_fact(&l, s, "fs.mount_point", "mounted on ", "");
	member_text(&l, s);
	line_size(&l, s, "fs.block_size", "block ", "");
	if (facts_get_int(s->facts, "fs.fragment_size", &size) &&
	    facts_get_int(s->facts, "fs.block_size", &avail) && size != avail)
		line_size(&l, s, "fs.fragment_size", "fragment/cluster ", "");
	line_size(&l, s, "fs.size_bytes", "", "");
	if (facts_get_int(s->facts, "fs.size_bytes", &size) && size > 0 &&
	    facts_get_int(s->facts, "fs.free_bytes", &avail) && avail >= 0) {
		char *t = xasprintf("%.0f%% free", 100.0 * (double)avail / (double)size);

		line_text(&l, t);
		free(t);
	}
	line_emit(&l, "Filesystem", fn, arg);

	line_open(&l);
	line_fact(&l, s, "fs.mount_options", "mount options ", "");
	line_emit(&l, "", fn, arg);
	line_open(&l);
	line_fact(&l, s, "fs.features", "features ", "");
	line_emit(&l, "", fn, arg);
}

static const struct line_item writeback_items[] = {
	{"vm.dirty_expire_centisecs", "expire ", "", false},
	{"vm.dirty_writeback_centisecs", "writeback ", "", false},
	{"vm.bdflush", "bdflush ", "", false},
};

static const struct line_item freebsd_items[] = {
	{"freebsd.nbuf", "nbuf ", "", false},
	{"freebsd.dirhash_maxmem_bytes", "dirhash_maxmem ", "", true},
	{"freebsd.vmiodirenable", "vmiodirenable ", "", false},
	{"freebsd.newfs_block_size", "newfs -b ", "", true},
	{"freebsd.newfs_fragment_size", "newfs -f ", "", true},
};

static void examined_writeback(const struct session *s, emit_fn fn, void *arg)
{
	struct line l;
	long long v;

	line_open(&l);
	/* The kernel uses the bytes form when it is set (writing one zeroes the other). */
	if (facts_get_int(s->facts, "vm.dirty_bytes", &v) && v > 0)
		line_size(&l, s, "vm.dirty_bytes", "dirty_bytes ", "");
	else
		line_fact(&l, s, "vm.dirty_ratio", "dirty_ratio ", "");
	if (facts_get_int(s->facts, "vm.dirty_background_bytes", &v) && v > 0)
		line_size(&l, s, "vm.dirty_background_bytes", "dirty_background_bytes ", "");
	else
		line_fact(&l, s, "vm.dirty_background_ratio", "dirty_background_ratio ", "");
	LINE_ITEMS(&l, s, writeback_items);
	line_emit(&l, "Writeback", fn, arg);

	line_open(&l);
	LINE_ITEMS(&l, s, freebsd_items);
	line_emit(&l, "FreeBSD", fn, arg);
}

static const struct line_item workload_items[] = {
	{"workload.profile", "profile ", "", false},
	{"workload.access", "", " access", false},
	{"workload.io_mode", "", " I/O", false},
	{"workload.io_size_bytes", "", " requests", true},
	{"workload.files_total", "", " files", false},
	{"workload.files_per_dir", "", " files per directory (median)", false},
	{"workload.file_size_p50_bytes", "median file ", "", true},
};

static void examined_workload(const struct session *s, emit_fn fn, void *arg)
{
	struct line l;

	if (branch_unavailable(s, "workload", fn, arg, "Workload"))
		return;
	line_open(&l);
	LINE_ITEMS(&l, s, workload_items);
	if (l.is_empty && facts_get(s->facts, "workload"))
		line_text(&l, "described (see the facts)");
	if (l.is_empty)
		line_text(&l, "not described");
	line_emit(&l, "Workload", fn, arg);
}

/* The benchmark tests under bench.*, in the bench layer's table order: only names the bench layer
 * knows as tests (bench.parameters, bench.busy_check and bench.rotational_claim are about the run,
 * not measurements). */
static void measured_tests(const struct session *s, struct line *l)
{
	const json_t *bench = facts_get(s->facts, "bench");
	size_t i;

	for (i = 0; i < bench_n_tests; i++)
		if (json_is_object(json_object_get(bench, bench_tests[i].name)))
			line_text(l, bench_tests[i].name);
	/* a hand-written or newer file may carry a test this build does not know: shown, not hidden */
	{
		const char *name;
		json_t *v;

		json_object_foreach((json_t *)bench, name, v)
			if (json_is_object(v) && !bench_test_find(name) && strcmp(name, "parameters") != 0 &&
			    strcmp(name, "busy_check") != 0 && strcmp(name, "rotational_claim") != 0)
				line_text(l, name);
	}
}

/* Tests whose threads waited for a CPU long enough to be inside their latencies. */
static void measured_cpu_wait(const struct session *s, emit_fn fn, void *arg)
{
	struct line l;
	size_t i;

	line_open(&l);
	for (i = 0; i < bench_n_tests; i++) {
		char *key = xasprintf("bench.%s.cpu_wait_pct", bench_tests[i].name);
		double pct;

		if (facts_get_real(s->facts, key, &pct) && pct > BENCH_CPU_WAIT_NOTE_PCT) {
			char *t = xasprintf("%s %.0f%%", bench_tests[i].name, pct);

			line_text(&l, t);
			free(t);
		}
		free(key);
	}
	fclose(l.m);
	if (!l.is_empty) {
		char *t = xasprintf("the benchmark waited for a CPU (share of the run): %s; other work competed, "
				    "and the latencies include that wait", l.buf);

		fn("", t, arg);
		free(t);
	}
	free(l.buf);
}

/* Tests the run chose not to do on this target (an unmounted device: read tests only), by reason. */
static void measured_skipped(const struct session *s, emit_fn fn, void *arg)
{
	const json_t *un = json_object_get(s->facts->doc, "unavailable"), *e;
	json_t *groups = json_object(), *names;
	const char *key;

	json_object_foreach((json_t *)un, key, e) {
		const char *reason = json_string_value(json_object_get(e, "reason"));
		const char *status = json_string_value(json_object_get(e, "status"));

		if (strncmp(key, "bench.", 6) != 0 || !bench_test_find(key + 6) || !status ||
		    strcmp(status, "not_applicable") != 0)
			continue;
		names = json_object_get(groups, reason ? reason : "not applicable");
		if (!names) {
			names = json_array();
			json_object_set_new(groups, reason ? reason : "not applicable", names);
		}
		json_array_append_new(names, json_string(key + 6));
	}
	json_object_foreach(groups, key, names) {
		char *t = report_fact_value("", names), *text = xasprintf("not measured: %s (%s)", t, key);

		fn("", text, arg);
		free(t);
		free(text);
	}
	json_decref(groups);
}

/* The "parameters used" block of the run that produced the bench.* facts. */
static void measured_parameters(const struct session *s, emit_fn fn, void *arg)
{
	const json_t *params = facts_get(s->facts, "bench.parameters");
	const char *name;
	json_t *v;
	struct line l;

	if (!json_is_object(params))
		return;
	line_open(&l);
	json_object_foreach((json_t *)params, name, v) {
		char *key = xasprintf("bench.parameters.%s", name), *t;

		if (json_is_string(v) && !*json_string_value(v)) {
			free(key);
			continue; /* an empty --tests: the suite's */
		}
		t = report_fact_value(key, v);
		fprintf(l.m, "%s%s %s", l.is_empty ? "" : ", ", name, t);
		l.is_empty = false;
		free(t);
		free(key);
	}
	line_emit(&l, "Parameters", fn, arg);
}

static void examined_measured(const struct session *s, emit_fn fn, void *arg)
{
	struct line l;
	bool busy;

	line_open(&l);
	measured_tests(s, &l);
	if (l.is_empty) {
		line_emit(&l, "", fn, arg);
		if (s->bench_refusal) {
			char *t = xasprintf("nothing: the benchmarks were refused: %s", s->bench_refusal);

			fn("Measured", t, arg);
			free(t);
		} else {
			char *t = xasprintf("nothing: %s", s->origin == SESSION_FROM_FILE
							    ? "the facts hold no benchmark results"
							    : s->bench_skipped ? s->bench_skipped : "no benchmarks were run");

			fn("Measured", t, arg);
			free(t);
		}
	} else {
		line_emit(&l, "Measured", fn, arg);
	}
	if (facts_get_bool(s->facts, "bench.busy_check.busy", &busy)) {
		const char *dev = facts_get_string(s->facts, "bench.busy_check.device");
		char *t = xasprintf("%s was %s before the benchmarks", dev ? dev : "the device",
				    busy ? "busy (other I/O competed with the measurement)" : "idle");

		fn("", t, arg);
		free(t);
	}
	measured_cpu_wait(s, fn, arg);
	measured_skipped(s, fn, arg);
	measured_parameters(s, fn, arg);
}

/* Facts looked for and not found, one line per (status, reason) followed by its keys: a denied
 * superblock read makes a dozen keys unknown for one reason. Leaves that do not apply are left out; whole
 * branches were shown on their own line. */
static void examined_unknown(const struct session *s, emit_fn fn, void *arg)
{
	const json_t *un = json_object_get(s->facts->doc, "unavailable"), *e;
	json_t *groups = json_object(), *keys;
	const char *key, *label = "Not known";

	json_object_foreach((json_t *)un, key, e) {
		enum facts_status st = FACTS_FAILED;
		char *u;

		if (!strcmp(key, "device") || !strcmp(key, "fs") || !strcmp(key, "workload"))
			continue;
		if (!facts_status_parse(json_string_value(json_object_get(e, "status")), &st))
			st = FACTS_FAILED;
		if (st == FACTS_NOT_APPLICABLE)
			continue;
		u = facts_render_unavailable(facts_status_name(st),
					     json_string_value(json_object_get(e, "reason")));
		keys = json_object_get(groups, u);
		if (!keys) {
			keys = json_array();
			json_object_set_new(groups, u, keys);
		}
		json_array_append_new(keys, json_string(key));
		free(u);
	}
	json_object_foreach(groups, key, keys) {
		char *t = report_fact_value("", keys), *line = xasprintf("%s; %s", key, t);

		fn(label, line, arg);
		label = "";
		free(t);
		free(line);
	}
	json_decref(groups);
}

static void add_line(const char *label, const char *text, void *arg)
{
	struct report_model *m = arg;

	m->examined = report_vec_grow(m->examined, m->n_examined, sizeof(*m->examined));
	m->examined[m->n_examined++] = (struct report_line){xstrdup(label), xstrdup(text)};
}

void report_examined_build(struct report_model *m, const struct session *s)
{
	examined_input(s, add_line, m);
	examined_host(s, add_line, m);
	examined_device(s, add_line, m);
	examined_fs(s, add_line, m);
	examined_writeback(s, add_line, m);
	examined_workload(s, add_line, m);
	examined_measured(s, add_line, m);
	examined_unknown(s, add_line, m);
}
