/* The benchmark parameters as command-line options (bench_cli.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/commands/bench_cli.h"
#include "app/render/progress.h"
#include "app/commands/workload_cli.h"
#include "fstune/status.h"
#include "fstune/units.h"
#include "lib/xalloc.h"

struct option *bench_cli_options(const struct option *fixed, size_t n_fixed, int val_base,
				 bool with_suite)
{
	struct option *opts = xcalloc(n_fixed + bench_n_params + 1, sizeof *opts);
	size_t i, n = n_fixed;

	memcpy(opts, fixed, n_fixed * sizeof *fixed);
	for (i = 0; i < bench_n_params; i++) {
		if (!with_suite && bench_params[i].type == BENCH_PARAM_SUITE)
			continue;
		opts[n].name = bench_params[i].name;
		opts[n].has_arg = required_argument;
		opts[n].val = val_base + (int)i;
		n++;
	}
	return opts;
}

const struct bench_param *bench_cli_param(int opt, int val_base)
{
	if (opt < val_base || opt >= val_base + (int)bench_n_params)
		return NULL;
	return &bench_params[opt - val_base];
}

static void params_help(FILE *out, const char *const *skip)
{
	for (size_t i = 0; i < bench_n_params; i++) {
		const struct bench_param *p = &bench_params[i];
		bool is_skipped = p->type == BENCH_PARAM_SUITE;
		char opt[64];

		for (size_t k = 0; skip && skip[k]; k++)
			is_skipped = is_skipped || !strcmp(skip[k], p->name);
		if (is_skipped)
			continue;
		snprintf(opt, sizeof opt, "--%s %s", p->name, p->arg);
		fprintf(out, "  %-28s %s (default %s)\n", opt, p->help, *p->def ? p->def : "none");
	}
}

static char *usage_build(const char *head, const char *const *skip, bool with_tests)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	if (!out)
		abort();
	fputs(head, out);
	params_help(out, skip);
	if (with_tests) {
		fputs("\nTests (quick suite marked *):\n", out);
		for (size_t i = 0; i < bench_n_tests; i++)
			fprintf(out, "  %-20s %s %s\n", bench_tests[i].name,
				bench_tests[i].suites & BENCH_SUITE_QUICK ? "*" : " ", bench_tests[i].summary);
	}
	fprintf(out, "\n%s\n", workload_cli_help);
	fclose(out);
	return text;
}

/* A benchmark parameter, else the command's own option. */
static int param_option(void *arg, int opt, const char *value)
{
	const struct bench_cli_command *cmd = arg;
	const struct bench_param *p = bench_cli_param(opt, cmd->param_base);
	struct fst_error err = FST_ERROR_INIT;

	if (!p)
		return cmd->own(cmd->arg, opt, value);
	if (p->type == BENCH_PARAM_TESTS && cmd->tests_refused)
		return cli_usage_error(cmd->name, "--tests: %s", cmd->tests_refused);
	if (bench_param_set(cmd->cfg, p, value, &err) != FST_EXIT_OK)
		return cli_usage_error(cmd->name, "%s", err.msg);
	if (cmd->first_param && !*cmd->first_param)
		*cmd->first_param = p->name;
	return FST_EXIT_OK;
}

int bench_cli_parse(int argc, char **argv, const struct bench_cli_command *cmd, struct cli_common *c,
		    struct workload_spec *w, bool *has_workload)
{
	struct option *opts = bench_cli_options(cmd->opts, cli_options_count(cmd->opts), cmd->param_base,
						cmd->is_bench);
	char *usage = usage_build(cmd->usage_head, cmd->skip, cmd->is_bench);
	int status = workload_cli_parse(argc, argv, c,
					&(struct cli_parser){.opts = opts, .usage = usage, .own = param_option,
							     .arg = (void *)cmd, .fields = cmd->arg},
					w, has_workload);

	free(opts);
	free(usage);
	return status;
}

bool bench_cli_progress(void *arg, const char *test, double fraction, const struct bench_live *live)
{
	char rate[32] = "", p50[UNITS_BUFSZ], p99[UNITS_BUFSZ], lat[160] = "";

	if (live->rate > 0 && !strcmp(test, "layout"))
		snprintf(rate, sizeof rate, "  %8.0f MB/s", live->rate / 1e6);
	else if (live->rate > 0)
		snprintf(rate, sizeof rate, "  %8.0f IOPS", live->rate);
	if (live->p50_us > 0)
		snprintf(lat, sizeof lat, "  p50 %s", units_duration_us(p50, sizeof p50, live->p50_us, false));
	if (live->p99_us > 0)
		snprintf(lat + strlen(lat), sizeof lat - strlen(lat), "  p99 %s",
			 units_duration_us(p99, sizeof p99, live->p99_us, false));
	progress_update(arg, "%-22s %3.0f%%%s%s", test, fraction * 100, rate, lat);
	return true;
}
