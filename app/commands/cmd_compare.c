/* `fstune compare A.json B.json [...]`: two runs of one host, or many hosts, side by side: the
 * options, then the reports read, the comparison model built (compare_model.c) and written. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "app/commands/accepted_cli.h"
#include "app/cli.h"
#include "app/formats.h"
#include "app/render/compare.h"
#include "app/session/accepted.h"
#include "lib/xalloc.h"
#include "fstune/error.h"
#include "fstune/status.h"

enum {
	OPT_FAIL_ON = CLI_OPT_COMMAND_BASE,
	OPT_ACCEPT,
	OPT_ACCEPTED, /* OPT_ACCEPT + 1, as ACCEPTED_CLI_OPTIONS has it */
};

static const char usage_text[] =
	"Usage: fstune compare [options] REPORT.json REPORT.json [REPORT.json...]\n"
	"\n"
	"Compare the JSON reports (fstune report --format json) of two runs of one host or of many\n"
	"hosts: findings and facts side by side, what differs first. The first report is the\n"
	"baseline: a finding it lacks is new, one it has and a later report lacks is gone.\n"
	"\n"
	"Options:\n"
	"  --fail-on new-warn|new-critical\n"
	"                               exit 1 when a later report has a finding of this severity or\n"
	"                               higher that the baseline lacks (accepted ones do not count)\n"
	"  --hosts                      every host in its own column (the grid), also for more than\n"
	"                               8 reports, where text and Markdown summarise the fleet\n"
	"  --bench                      compare the benchmark figures too: a later figure outside the\n"
	"                               baseline's 95% interval and its own is faster or slower\n"
	"  --accept ID                  treat finding ID as accepted in every report (repeatable)\n"
	"  --accepted FILE              apply the accepted findings of FILE to every report's facts\n"
	"                               (also $FSTUNE_ACCEPTED); marks already in a report stay\n"
	"  --format html                (also) one page for a browser\n"
	"\n";

struct compare_args {
	struct cli_common common;
	const char *fail_on;       /* "warn", "critical" or NULL */
	bool all_hosts;            /* --hosts: the grid whatever the number of reports */
	bool bench;                /* --bench: the benchmark figures compared with their intervals */
	struct accepted_cli acc;   /* --accept IDs, then the file's entries; --accepted FILE */
	char **files;              /* borrowed argv strings */
	size_t n_files;
};

#define usage_error(...) cli_usage_error("compare", __VA_ARGS__)

static int own_option(void *arg, int opt, const char *value)
{
	struct compare_args *a = arg;
	int rc = accepted_cli_option(&a->acc, opt, OPT_ACCEPT, value, "compare");

	if (rc != 0)
		return rc < 0 ? FST_EXIT_USAGE : FST_EXIT_OK;
	if (opt != OPT_FAIL_ON)
		return usage_error("unexpected option");
	if (strcmp(value, "new-warn") != 0 && strcmp(value, "new-critical") != 0)
		return usage_error("unknown --fail-on '%s': use new-warn or new-critical", value);
	a->fail_on = value + strlen("new-");
	return FST_EXIT_OK;
}

static int parse_args(int argc, char **argv, struct compare_args *a)
{
	static const struct option opts[] = {
		{"fail-on", required_argument, NULL, OPT_FAIL_ON},
		CLI_FLAG("hosts", struct compare_args, all_hosts),
		CLI_FLAG("bench", struct compare_args, bench),
		ACCEPTED_CLI_OPTIONS(OPT_ACCEPT),
		{NULL, 0, NULL, 0},
	};
	int status = cli_parse(argc, argv, &a->common,
			       &(struct cli_parser){.opts = opts, .usage = usage_text, .own = own_option, .arg = a});

	if (status != FST_EXIT_OK)
		return status;
	a->files = argv + optind;
	a->n_files = (size_t)(argc - optind);
	if (a->n_files < 2)
		return usage_error("compare needs two reports or more (fstune report --format json), got %zu",
				   a->n_files);
	return FST_EXIT_OK;
}

/* Loads the reports and applies the accepted findings. Returns FST_EXIT_OK or prints and returns 2. */
static int load_inputs(struct compare_args *a, struct compare_input *in)
{
	struct fst_error err = FST_ERROR_INIT;

	/* not this machine's /etc/fstune/accepted.conf: each report carries the marks of its own host's */
	if (accepted_cli_load(&a->acc, true, &err) != FST_EXIT_OK) {
		fst_error_print(&err);
		return FST_EXIT_USAGE;
	}
	for (size_t i = 0; i < a->n_files; i++) {
		if (compare_input_load(&in[i], a->files[i], &err) != FST_EXIT_OK) {
			fst_error_print(&err);
			return FST_EXIT_USAGE;
		}
		if (!accepted_is_empty(a->acc.accepted))
			accepted_mark(a->acc.accepted, in[i].recs, in[i].facts);
	}
	return FST_EXIT_OK;
}

int cmd_compare(int argc, char **argv)
{
	struct compare_args a = {.acc.accepted = accepted_new(), .common.scope = CLI_SCOPE_REPORTS};
	struct fst_output *out = NULL;
	struct compare_input *in = NULL;
	json_t *model = NULL;
	int status;
	size_t i;

	status = parse_args(argc, argv, &a);
	if (status == FST_EXIT_OK) {
		in = xcalloc(a.n_files, sizeof(*in));
		status = load_inputs(&a, in);
	}
	if (status == FST_EXIT_OK && !(out = cli_output_open(&a.common)))
		status = FST_EXIT_USAGE;
	if (status == FST_EXIT_OK) {
		const struct compare_options o = {.fail_on = a.fail_on, .all_hosts = a.all_hosts, .with_bench = a.bench};
		int w;

		model = compare_model_new(in, a.n_files, &o);
		w = output_format_of(a.common.format)->write_compare(model, fst_output_stream(out));
		status = cli_output_close(out, w == 0);
		if (status == FST_EXIT_OK && a.fail_on &&
		    json_integer_value(json_object_get(json_object_get(model, "summary"), "new_failing")) > 0)
			status = FST_EXIT_THRESHOLD;
	}
	json_decref(model);
	for (i = 0; in && i < a.n_files; i++)
		json_decref(in[i].doc);
	free(in);
	accepted_free(a.acc.accepted);
	return status;
}
