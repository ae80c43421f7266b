/* `fstune bench`: run the micro-benchmarks on TARGET and print a table, the bench.* facts as JSON, or
 * the equivalent fio command lines. The options come from the parameter table (bench.h). */
#include "config.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/commands/bench_cli.h"
#include "app/render/bench_table.h"
#include "app/render/facts_render.h"
#include "app/render/progress.h"
#include "app/cli.h"
#include "app/commands/workload_cli.h"
#include "fstune/bench.h"
#include "fstune/probe.h"
#include "fstune/status.h"
#include "fstune/units.h"
#include "fstune/workload.h"

enum {
	OPT_QUICK = CLI_OPT_COMMAND_BASE,
	OPT_FULL,
	OPT_PARAM_BASE, /* the parameter table's options follow, one per entry */
};

static const char usage_head[] =
	"Usage: fstune bench [options] [TARGET]\n"
	"\n"
	"Measure the storage under TARGET with short, honest micro-benchmarks: random and sequential\n"
	"reads and writes at queue depth 1 and 32, and the cost of fdatasync. TARGET is a directory\n"
	"(default: the current one; a scratch directory is created in it and removed afterwards), a\n"
	"mounted block device (its mount point is used), or an unmounted block device (read tests\n"
	"only, nothing is written). Direct I/O is used where the filesystem supports it; the 'direct'\n"
	"column says whether the numbers are the device's (yes), may include the page cache (no,\n"
	"unverified), or are RAM (memory).\n"
	"\n"
	"Options:\n"
	"  --quick                      the quick suite (default): 5 tests, at most about 6 s\n"
	"  --full                       every test with the file tests, at most about 45 s\n"
	"  --fio-commands               print the equivalent fio command lines; run nothing\n"
	"  --clean                      remove the scratch directories that killed runs left in TARGET;\n"
	"                               run nothing\n";

struct bench_args {
	struct cli_common common;
	struct bench_config cfg;
	struct workload_spec spec; /* the workload flags: they will size the file benchmarks */
	bool has_workload;         /* a workload flag was given: workload.* facts are collected too */
	const char *target;
	bool fio_commands;
	bool clean;
};

#define usage_error(...) cli_usage_error("bench", __VA_ARGS__)

static int own_option(void *arg, int opt, const char *value)
{
	struct bench_args *a = arg;

	(void)value;
	if (opt != OPT_QUICK && opt != OPT_FULL)
		return usage_error("unexpected option");
	a->cfg.suite = opt == OPT_QUICK ? BENCH_SUITE_QUICK : BENCH_SUITE_FULL;
	return FST_EXIT_OK;
}

static int parse_args(int argc, char **argv, struct bench_args *a)
{
	static const struct option opts[] = {
		{"quick", no_argument, NULL, OPT_QUICK},
		{"full", no_argument, NULL, OPT_FULL},
		CLI_FLAG("fio-commands", struct bench_args, fio_commands),
		CLI_FLAG("clean", struct bench_args, clean),
		{NULL, 0, NULL, 0},
	};
	const struct bench_cli_command cmd = {
		.name = "bench", .opts = opts, .param_base = OPT_PARAM_BASE, .is_bench = true,
		.usage_head = usage_head, .cfg = &a->cfg, .own = own_option, .arg = a,
	};
	int status = bench_cli_parse(argc, argv, &cmd, &a->common, &a->spec, &a->has_workload);

	if (status == FST_EXIT_OK)
		status = cli_one_operand(argc, argv, "bench", "TARGET", &a->target);
	if (status != FST_EXIT_OK)
		return status;
	if (a->common.sysroot)
		return usage_error("--sysroot: benchmarks measure the live machine; a captured one cannot be "
				   "benchmarked");
	if (a->clean && a->fio_commands)
		return usage_error("--clean and --fio-commands: choose one");
	return FST_EXIT_OK;
}

/* The directory a run writes under: TARGET itself, or a mounted device's mount point. */
static const char *bench_dir(const struct probe_target *t)
{
	return t->kind == TARGET_DIRECTORY ? t->path : t->is_mounted ? t->mount_point : NULL;
}

/* Removes one leftover and says so (or why not). Returns FST_EXIT_OK or FST_EXIT_PARTIAL. */
static int remove_leftover(const json_t *l, bool quiet)
{
	const char *path = json_string_value(json_object_get(l, "path"));
	char size[UNITS_BUFSZ];
	int r = bench_leftover_remove(path);

	units_bytes(size, sizeof size, (uint64_t)json_integer_value(json_object_get(l, "bytes")));
	if (r < 0) {
		fst_warn("could not remove %s: %s", path, strerror(-r));
		return FST_EXIT_PARTIAL;
	}
	if (!quiet)
		fprintf(stderr, "fstune: removed %s (%s, left %sby %s run %lld)\n", path, size,
			json_is_true(json_object_get(l, "empty")) ? "empty " : "",
			json_is_true(json_object_get(l, "empty")) ? "ended" : "killed",
			(long long)json_integer_value(json_object_get(l, "pid")));
	return FST_EXIT_OK;
}

/* Leftovers of killed runs: reported; on a terminal, offered for removal. */
static void offer_leftovers(const struct probe_target *t, bool quiet)
{
	const char *dir = bench_dir(t);
	json_t *left, *l;
	size_t i;

	if (!dir || !isatty(STDIN_FILENO) || !isatty(STDERR_FILENO) || quiet)
		return;
	left = bench_leftovers_find(dir);
	json_array_foreach(left, i, l) {
		char answer[16] = "", size[UNITS_BUFSZ];

		units_bytes(size, sizeof size, (uint64_t)json_integer_value(json_object_get(l, "bytes")));
		if (json_is_true(json_object_get(l, "empty")))
			fprintf(stderr, "fstune: %s was left behind empty by an ended benchmark run (its filesystem "
				"was unmounted under it, or it was killed before it wrote). Remove it? [y/N] ",
				json_string_value(json_object_get(l, "path")));
		else
			fprintf(stderr, "fstune: %s (%s) was left behind by a killed benchmark run. Remove it? [y/N] ",
				json_string_value(json_object_get(l, "path")), size);
		if (fgets(answer, sizeof answer, stdin) && (answer[0] == 'y' || answer[0] == 'Y'))
			remove_leftover(l, quiet);
	}
	json_decref(left);
}

/* `bench --clean`: removes every leftover under TARGET without asking (for scripts and cron). */
static int clean_leftovers(const struct probe_target *t, bool quiet)
{
	const char *dir = bench_dir(t);
	int status = FST_EXIT_OK;
	json_t *left, *l;
	size_t i;

	if (!dir) {
		fst_warn("%s is not a directory nor a mounted device: no scratch directory can be under it", t->path);
		return FST_EXIT_USAGE;
	}
	left = bench_leftovers_find(dir);
	if (!json_array_size(left) && !quiet)
		fprintf(stderr, "fstune: no scratch directory of a killed run under %s\n", dir);
	json_array_foreach(left, i, l)
		status = fst_exit_merge(status, remove_leftover(l, quiet));
	json_decref(left);
	return status;
}

static int render(const struct bench_args *a, const struct facts *f, FILE *out)
{
	if (a->common.format == CLI_FORMAT_JSON) {
		facts_render_json(out, f, true);
		return ferror(out) ? -1 : 0;
	}
	return bench_table_write(out, f, a->common.format == CLI_FORMAT_MARKDOWN, true);
}

/* `bench --fio-commands`: the fio command lines of the suite, run nothing; `out` is closed. */
static int fio_commands(const struct bench_args *a, const struct probe_target *t, struct fst_output *out)
{
	struct fst_error err = FST_ERROR_INIT;
	json_t *lines, *line;
	size_t i;
	int status = bench_fio_commands(t, &a->cfg, &lines, &err);

	if (status != FST_EXIT_OK)
		fst_error_print(&err);
	json_array_foreach(lines, i, line)
		fprintf(fst_output_stream(out), "%s\n", json_string_value(line));
	json_decref(lines);
	return fst_exit_merge(status, cli_output_close(out, status == FST_EXIT_OK));
}

/* Runs the suite on TARGET (with the workload facts when a workload flag was given) and writes what
 * it measured; `out` is closed. Returns the status; *is_cancelled when a signal stopped the run,
 * which the caller re-raises once everything is freed. */
static int measure(const struct bench_args *a, const struct probe_target *t, struct fst_output *out,
		   bool *is_cancelled)
{
	struct fst_error err = FST_ERROR_INIT;
	struct bench_result res = {0};
	struct bench_config cfg = a->cfg;
	struct progress progress;
	struct facts *f = facts_new();
	int status = FST_EXIT_OK, wstatus = FST_EXIT_OK;

	offer_leftovers(t, a->common.quiet);
	bench_stop_install();
	progress_init(&progress, a->common.quiet);
	if (progress.is_live) {
		cfg.progress = bench_cli_progress;
		cfg.progress_arg = &progress;
	}
	/* the workload facts travel with the results (the file benchmarks are sized by them) */
	if (a->has_workload && (wstatus = workload_collect(&a->spec, t, f, NULL, &err)) == FST_EXIT_USAGE) {
		fst_error_print(&err);
		status = wstatus;
	}
	if (status == FST_EXIT_OK) {
		fst_error_clear(&err);
		status = bench_run(t, &cfg, f, &res, &err);
		progress_clear(&progress);
		*is_cancelled = status >= 128;
		for (size_t i = 0; !*is_cancelled && !a->common.quiet && i < json_array_size(res.notes); i++)
			fprintf(stderr, "fstune: note: %s\n", json_string_value(json_array_get(res.notes, i)));
		if (*is_cancelled ? !a->common.quiet : status != FST_EXIT_OK)
			fst_error_print(&err);
	}
	if (!*is_cancelled && (status == FST_EXIT_OK || status == FST_EXIT_PARTIAL)) {
		/* a failed test is marked failed in the facts and absent from the table's numbers */
		int w = render(a, f, fst_output_stream(out));

		status = fst_exit_merge(fst_exit_merge(status, wstatus), cli_output_close(out, w == 0));
		out = NULL;
	}
	cli_output_close(out, false);
	bench_result_free(&res);
	facts_free(f);
	return status;
}

int cmd_bench(int argc, char **argv)
{
	struct bench_args a = {.spec = WORKLOAD_SPEC_INIT};
	struct fst_error err = FST_ERROR_INIT;
	struct probe_target t;
	struct fst_output *out = NULL;
	bool is_cancelled = false;
	int status;

	memset(&t, 0, sizeof t);
	bench_config_init(&a.cfg);
	status = parse_args(argc, argv, &a);
	if (status != FST_EXIT_OK)
		return status;
	if (target_resolve(a.target, &t, &err) != FST_EXIT_OK)
		return cli_error(&err);
	if (!(out = cli_output_open(&a.common)))
		status = FST_EXIT_USAGE;
	else if (a.clean)
		status = clean_leftovers(&t, a.common.quiet);
	else if (a.fio_commands)
		status = fio_commands(&a, &t, out), out = NULL;
	else
		status = measure(&a, &t, out, &is_cancelled), out = NULL;
	cli_output_close(out, false);
	target_free(&t);
	if (is_cancelled)
		bench_stop_reraise(); /* returns when cancelled without a signal */
	return status;
}
