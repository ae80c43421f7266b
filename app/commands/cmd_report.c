/* `fstune report`: the non-interactive advisor. Probe a TARGET (or read saved facts), run the
 * benchmark step, evaluate the rules, and write the report in text, Markdown or JSON. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/commands/accepted_cli.h"
#include "app/commands/bench_cli.h"
#include "app/commands/rules_cli.h"
#include "app/cli.h"
#include "app/formats.h"
#include "app/render/progress.h"
#include "app/render/report_render.h"
#include "app/render/scripts.h"
#include "app/session/session.h"
#include "app/commands/workload_cli.h"
#include "fstune/bench.h"
#include "fstune/status.h"
#include "fstune/workload.h"

enum {
	OPT_BENCH = CLI_OPT_COMMAND_BASE,
	OPT_RULES_DIR,
	OPT_NO_SYSTEM_RULES, /* OPT_RULES_DIR + 1, as RULES_CLI_OPTIONS has it */
	OPT_FAIL_ON,
	OPT_ACCEPT,
	OPT_ACCEPTED, /* OPT_ACCEPT + 1, as ACCEPTED_CLI_OPTIONS has it */
	OPT_PARAM_BASE, /* the benchmark parameter table's options follow, one per entry */
};

static const char usage_text[] =
	"Usage: fstune report [options] [TARGET]\n"
	"\n"
	"Probe TARGET (a directory, a block device or a filesystem image; default: the current\n"
	"directory), evaluate the rules on its facts and write the recommendations with their evidence\n"
	"and the commands to apply and revert them.\n"
	"\n"
	"Options:\n"
	"  --facts FILE                 evaluate facts saved earlier (probe --format json, a report\n"
	"                               in JSON, or a hand-written file; - reads standard input);\n"
	"                               nothing is probed\n"
	"  --bench none|quick|full      the benchmarks to run before the rules (default: quick on a\n"
	"                               filesystem you can write to from a terminal; none without a\n"
	"                               terminal (cron, ssh, Ansible) or where it cannot run; fstune(1))\n"
	"  --rules-dir DIR              also load the rule files in DIR, last (repeatable)\n"
	"  --no-system-rules            do not load /etc/fstune/rules.d\n"
	"  --fail-on warn|critical      exit 1 when a recommendation of this severity or higher is made\n"
	"  --strict                     exit 3 when a rule file has an error, 2 when the --facts file\n"
	"                               has keys or groups the schema does not know\n"
	"  --accept ID                  mark finding ID accepted: shown, but not counted by\n"
	"                               --fail-on (repeatable)\n"
	"  --format openmetrics         (also) metrics for node_exporter's textfile collector\n"
	"  --format html                (also) one page for a browser, with the benchmark charts\n"
	"  --accepted FILE              read the accepted findings from FILE instead of\n"
	"                               /etc/fstune/accepted.conf (also $FSTUNE_ACCEPTED)\n"
	"  --scripts DIR                also write DIR/apply.sh and DIR/revert.sh: the changes as a\n"
	"                               reviewed shell script, and the script that takes them back\n"
	"  --trial FILE                 a trial's result (fstune trial --json): the reformat advice it\n"
	"                               measured is marked confirmed, contradicted or unchanged\n"
	"\n"
	"Benchmark parameters (as for 'fstune bench'; they imply --bench quick unless --bench says):\n";

struct report_args {
	struct cli_common common;
	const char *target;
	const char *facts;
	enum session_bench bench;
	bool has_bench;           /* --bench was given */
	const char *bench_param;  /* the first benchmark parameter given (for messages); NULL: none */
	struct bench_config cfg;  /* the benchmark parameters */
	struct workload_spec spec; /* the workload flags */
	struct rules_options ro;  /* --rules-dir, --no-system-rules */
	const char *fail_on; /* "warn", "critical" or NULL */
	bool is_strict;
	struct accepted_cli acc; /* --accept IDs, then the file's entries; --accepted FILE */
	const char *scripts_dir; /* --scripts DIR; NULL: no scripts */
	const char *trial;       /* --trial FILE; NULL: none */
	struct progress progress; /* while the workload is sampled or observed and the benchmarks run */
};

#define usage_error(...) cli_usage_error("report", __VA_ARGS__)

static int parse_bench(struct report_args *a, const char *arg)
{
	if (strcmp(arg, "none") == 0)
		a->bench = SESSION_BENCH_NONE;
	else if (strcmp(arg, "quick") == 0)
		a->bench = SESSION_BENCH_QUICK;
	else if (strcmp(arg, "full") == 0)
		a->bench = SESSION_BENCH_FULL;
	else
		return usage_error("unknown --bench '%s': use none, quick or full", arg);
	a->has_bench = true;
	return FST_EXIT_OK;
}

/* Checks of the flags against each other, once all are known. */
static int check_combinations(struct report_args *a)
{
	if (a->facts && a->target)
		return usage_error("--facts and TARGET '%s' exclude each other: nothing is probed with --facts",
				   a->target);
	if (a->facts && a->bench != SESSION_BENCH_NONE)
		return usage_error("--facts %s: benchmarks need a TARGET, so only --bench none goes with --facts",
				   a->facts);
	if (a->facts && a->bench_param)
		return usage_error("--facts %s: --%s is a benchmark parameter, and benchmarks need a TARGET",
				   a->facts, a->bench_param);
	/* The sample and the observation measure this machine; a facts file describes another (or an
	 * earlier) one, so mixing them would put two machines in one report. */
	if (a->facts && a->spec.sample_dir)
		return usage_error("--facts %s: --sample measures files on this machine and goes with a TARGET; "
				   "sample with 'fstune workload --sample DIR --json' and merge the keys into the file",
				   a->facts);
	if (a->facts && a->spec.observe_s > 0)
		return usage_error("--facts %s: --observe watches a live disk and needs a TARGET", a->facts);
	if (a->common.sysroot && a->bench != SESSION_BENCH_NONE)
		return usage_error("--sysroot: benchmarks measure the live machine; a captured one cannot be "
				   "benchmarked: use --bench none");
	if (a->common.sysroot && a->bench_param)
		return usage_error("--sysroot: --%s is a benchmark parameter; a captured machine cannot be "
				   "benchmarked", a->bench_param);
	if (a->has_bench && a->bench == SESSION_BENCH_NONE && a->bench_param)
		return usage_error("--%s is a benchmark parameter, and --bench none runs no benchmarks",
				   a->bench_param);
	if (a->scripts_dir) {
		struct fst_error err = FST_ERROR_INIT;

		if (scripts_check_dir(a->scripts_dir, &err) != FST_EXIT_OK)
			return usage_error("%s", err.msg);
	}
	return FST_EXIT_OK;
}

/* One option of report's own (not common, not workload, not a benchmark parameter). */
static int own_option(void *arg, int opt, const char *value)
{
	struct report_args *a = arg;
	int rc = accepted_cli_option(&a->acc, opt, OPT_ACCEPT, value, "report");

	if (rc != 0)
		return rc < 0 ? FST_EXIT_USAGE : FST_EXIT_OK;
	if (rules_cli_option(&a->ro, opt, OPT_RULES_DIR, value))
		return FST_EXIT_OK;
	switch (opt) {
	case OPT_BENCH:
		if (parse_bench(a, value) != FST_EXIT_OK)
			return FST_EXIT_USAGE;
		break;
	case OPT_FAIL_ON:
		if (strcmp(value, "warn") != 0 && strcmp(value, "critical") != 0)
			return usage_error("unknown --fail-on '%s': use warn or critical", value);
		a->fail_on = value;
		break;
	default:
		return usage_error("unexpected option");
	}
	return FST_EXIT_OK;
}

static int parse_args(int argc, char **argv, struct report_args *a)
{
	static const struct option opts[] = {
		{"bench", required_argument, NULL, OPT_BENCH},
		CLI_STRING("facts", struct report_args, facts),
		RULES_CLI_OPTIONS(OPT_RULES_DIR),
		{"fail-on", required_argument, NULL, OPT_FAIL_ON},
		CLI_FLAG("strict", struct report_args, is_strict),
		CLI_STRING("scripts", struct report_args, scripts_dir),
		CLI_STRING("trial", struct report_args, trial),
		ACCEPTED_CLI_OPTIONS(OPT_ACCEPT),
		{NULL, 0, NULL, 0},
	};
	/* report names the suite with --bench quick|full, so the suite parameter is left out. */
	const struct bench_cli_command cmd = {
		.name = "report", .opts = opts, .param_base = OPT_PARAM_BASE, .usage_head = usage_text,
		.cfg = &a->cfg, .first_param = &a->bench_param, .own = own_option, .arg = a,
	};
	int status = bench_cli_parse(argc, argv, &cmd, &a->common, &a->spec, NULL);

	if (status == FST_EXIT_OK)
		status = cli_one_operand(argc, argv, "report", "TARGET", &a->target);
	if (status != FST_EXIT_OK)
		return status;
	return check_combinations(a);
}

static bool sample_progress(const struct workload_sample_progress *p, void *arg)
{
	progress_update(arg, "sampling: %llu files, %llu directories, %.1f s", (unsigned long long)p->files,
			(unsigned long long)p->dirs, p->elapsed_s);
	return true;
}

static void say(void *arg, enum session_say kind, const char *msg)
{
	struct report_args *a = arg;

	progress_clear(&a->progress);
	if (kind == SESSION_SAY_ERROR)
		fprintf(stderr, "fstune: %s\n", msg);
	else if (kind == SESSION_SAY_WARNING)
		fprintf(stderr, "fstune: warning: %s\n", msg);
	else if (!a->common.quiet)
		fprintf(stderr, "fstune: note: %s\n", msg);
}

#define NOT_ON_TERMINAL "not on a terminal: nothing was written; --bench quick to measure"

/* Run from cron, a systemd unit, Ansible or ssh without a terminal: the default writes nothing on the
 * target (as tuned and Lynis are read-only unless asked), so no benchmark runs unless --bench says.
 * Where the default is none anyway (saved facts, a read-only mount...), its own reason stands. */
static bool is_unattended(void)
{
	return !isatty(STDIN_FILENO) && !isatty(STDOUT_FILENO);
}

/* Builds the session through the pipeline, the accepted findings read first (a bad entry is said
 * before anything is measured). Returns as session_run does. */
static int make_session(struct report_args *a, struct session **out, struct fst_error *err)
{
	struct workload_hooks hooks = {0};
	struct session_plan plan = {
		.target = a->target,
		.facts_path = a->facts,
		.strict_facts = a->is_strict,
		.target_os = a->common.target_os,
		.is_verbose = a->common.verbose,
		.workload = &a->spec,
		.workload_hooks = &hooks,
		/* A benchmark parameter alone asks for benchmarks: quick with those parameters. */
		.bench = a->has_bench ? a->bench : a->bench_param ? SESSION_BENCH_QUICK : SESSION_BENCH_NONE,
		.bench_is_default = !a->has_bench && !a->bench_param,
		.bench_default_none_why = is_unattended() ? NOT_ON_TERMINAL : NULL,
		.bench_none_why = "--bench none was given",
		.bench_cfg = &a->cfg,
		.rules = &a->ro,
		.trial_path = a->trial,
		.accepted = a->acc.accepted,
		.say = say,
		.arg = a,
	};
	int status;

	*out = NULL;
	if (accepted_cli_load(&a->acc, a->ro.no_system_rules, err) != FST_EXIT_OK)
		return FST_EXIT_USAGE;
	progress_init(&a->progress, a->common.quiet);
	if (a->progress.is_live) {
		hooks.sample_progress = sample_progress;
		hooks.observe_tick = progress_observe_tick;
		hooks.arg = &a->progress;
		a->cfg.progress = bench_cli_progress;
		a->cfg.progress_arg = &a->progress;
	}
	a->cfg.stop = NULL; /* bench_stop_flag(), set by the pipeline's handlers */
	status = session_run(&plan, out, err);
	progress_clear(&a->progress);
	return status;
}

/* The status of a finished run: partial (3) beats a met threshold (1). */
static int run_status(const struct report_args *a, const struct session *s)
{
	int status = session_status(s, a->is_strict);

	if (a->fail_on && session_count_failing(s, a->fail_on) > 0)
		status = fst_exit_merge(status, FST_EXIT_THRESHOLD);
	if (!a->common.quiet) {
		size_t nerr = session_rule_errors(s);

		if (nerr)
			fprintf(stderr, "fstune: %zu rule error%s, listed in the report%s\n", nerr,
				nerr == 1 ? "" : "s", a->is_strict ? " (--strict: status 3)" : "");
		if (facts_failed_count(s->facts))
			fprintf(stderr, "fstune: %zu fact%s could not be probed (status failed): the report is partial\n",
				facts_failed_count(s->facts), facts_failed_count(s->facts) == 1 ? "" : "s");
	}
	return status;
}

/* --scripts DIR: apply.sh and revert.sh beside the report. */
static int write_scripts(const struct report_args *a, const struct session *s)
{
	struct fst_error err = FST_ERROR_INIT;

	if (!a->scripts_dir)
		return FST_EXIT_OK;
	if (scripts_write(a->scripts_dir, s, &err) != FST_EXIT_OK) {
		fst_warn("--scripts: %s", err.msg);
		return FST_EXIT_USAGE;
	}
	if (!a->common.quiet)
		fprintf(stderr, "fstune: wrote %s/apply.sh and %s/revert.sh\n", a->scripts_dir, a->scripts_dir);
	return FST_EXIT_OK;
}

int cmd_report(int argc, char **argv)
{
	struct report_args a = {.bench = SESSION_BENCH_NONE, .spec = WORKLOAD_SPEC_INIT, .acc.accepted = accepted_new(),
				.common.scope = CLI_SCOPE_REPORT};
	struct fst_error err = FST_ERROR_INIT;
	struct fst_output *out = NULL;
	struct session *s = NULL;
	int status, pre = FST_EXIT_OK;

	bench_config_init(&a.cfg);
	status = parse_args(argc, argv, &a);
	if (status == FST_EXIT_OK)
		status = cli_common_start(&a.common, &out);
	if (status == FST_EXIT_OK) {
		pre = make_session(&a, &s, &err);
		if (!s) {
			if (pre < 128 || !a.common.quiet)
				fst_error_print(&err);
			status = pre;
		}
	}
	/* A signal during the benchmarks, or after them while the rules ran: the output is discarded
	 * and the process ends by the signal, as DESIGN.md says. */
	if (status >= 128 || (s && *bench_stop_flag())) {
		cli_output_close(out, false);
		session_free(s);
		rules_cli_free(&a.ro);
		accepted_free(a.acc.accepted);
		bench_stop_reraise();
		return status >= 128 ? status : 128 + *bench_stop_flag();
	}
	if (status == FST_EXIT_OK) {
		bool is_written;

		is_written = output_format_of(a.common.format)->write_report(s, fst_output_stream(out)) == 0;
		status = cli_output_close(out, is_written);
		out = NULL;
		if (status == FST_EXIT_OK)
			status = write_scripts(&a, s);
		if (status == FST_EXIT_OK)
			status = fst_exit_merge(pre, run_status(&a, s));
	}
	cli_output_close(out, false);
	session_free(s);
	rules_cli_free(&a.ro);
	accepted_free(a.acc.accepted);
	return status;
}
