/* `fstune workload`: the workload facts alone (preset, overrides, sample, observation), without
 * probing or rules, to see what the report and the benchmarks will be told. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/cli.h"
#include "app/formats.h"
#include "app/commands/workload_cli.h"
#include "app/render/progress.h"
#include "fstune/status.h"
#include "fstune/units.h"
#include "fstune/workload.h"

static const char usage_text[] =
	"Usage: fstune workload [options] [TARGET]\n"
	"\n"
	"Show the workload facts the report, the benchmarks and trial would use: a preset and the\n"
	"overrides, what a sample of real files measured, and what an observation of TARGET's disk\n"
	"(default: the current directory's) saw. Nothing is probed or advised.\n"
	"\n";

struct workload_args {
	struct cli_common common;
	struct workload_spec spec;
	const char *target;
};

/* The common and the workload flags are all it takes. */
static int parse_args(int argc, char **argv, struct workload_args *a)
{
	char usage[4096];
	int status;

	snprintf(usage, sizeof(usage), "%s%s\n", usage_text, workload_cli_help);
	status = workload_cli_parse(argc, argv, &a->common, &(struct cli_parser){.usage = usage}, &a->spec, NULL);
	if (status != FST_EXIT_OK)
		return status;
	return cli_one_operand(argc, argv, "workload", "TARGET", &a->target);
}

static bool sample_progress(const struct workload_sample_progress *p, void *arg)
{
	char b[UNITS_BUFSZ];

	progress_update(arg, "sampling: %llu files, %llu directories, %s, %.1f s", (unsigned long long)p->files,
			(unsigned long long)p->dirs, units_bytes(b, sizeof(b), p->bytes), p->elapsed_s);
	return true;
}

static int collect(const struct workload_args *a, struct facts *f)
{
	struct workload_hooks hooks = {0};
	struct probe_target t;
	bool has_target = a->target || a->spec.observe_s > 0;
	struct progress progress;
	struct fst_error err = FST_ERROR_INIT;
	int status;

	memset(&t, 0, sizeof(t));
	if (has_target && target_resolve(a->target, &t, &err) != FST_EXIT_OK) {
		target_free(&t);
		return cli_error(&err);
	}
	progress_init(&progress, a->common.quiet);
	if (progress.is_live) {
		hooks.sample_progress = sample_progress;
		hooks.observe_tick = progress_observe_tick;
		hooks.arg = &progress;
	}
	status = workload_collect(&a->spec, has_target ? &t : NULL, f, &hooks, &err);
	progress_clear(&progress);
	if (status == FST_EXIT_USAGE)
		fst_error_print(&err);
	if (has_target)
		target_free(&t);
	return status;
}

/* Notes for people about what the numbers do not cover. */
static void warn_partial(const struct workload_args *a, const struct facts *f)
{
	long long denied = 0, errors = 0;
	bool partial = false;
	const char *first = facts_get_string(f, "workload.sample.first_error");

	if (a->common.quiet || !a->spec.sample_dir)
		return;
	facts_get_int(f, "workload.sample.denied", &denied);
	facts_get_int(f, "workload.sample.errors", &errors);
	facts_get_bool(f, "workload.partial", &partial);
	if (partial)
		fprintf(stderr, "fstune: the sample is partial (time limit or interrupted): "
				"raise --sample-time for a complete one\n");
	if (denied + errors)
		fprintf(stderr, "fstune: %lld entr%s could not be read, e.g. %s\n", denied + errors,
			denied + errors == 1 ? "y" : "ies", first ? first : "?");
}

int cmd_workload(int argc, char **argv)
{
	struct workload_args a = {.spec = WORKLOAD_SPEC_INIT};
	struct fst_output *out = NULL;
	struct facts *f = NULL;
	int status = parse_args(argc, argv, &a);

	if (status == FST_EXIT_OK)
		status = cli_common_start(&a.common, &out);
	if (status != FST_EXIT_OK) {
		cli_output_close(out, false);
		return status;
	}
	f = facts_new();
	status = collect(&a, f);
	if (status == FST_EXIT_USAGE) {
		cli_output_close(out, false);
		facts_free(f);
		return status;
	}
	warn_partial(&a, f);
	output_format_of(a.common.format)->write_facts(fst_output_stream(out), f, true);
	status = fst_exit_merge(status, cli_output_close(out, true));
	facts_free(f);
	return status;
}
