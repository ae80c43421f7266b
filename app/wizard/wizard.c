/* `fstune` with no command: the wizard's options, then its session (the same struct session as
 * `fstune report`, so both render the same run, state.c) and the loop until the admin quits. */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "app/cli.h"
#include "app/wizard/ui.h"
#include "app/wizard/ui_int.h"
#include "app/commands/accepted_cli.h"
#include "app/commands/bench_cli.h"
#include "app/commands/rules_cli.h"
#include "app/commands/workload_cli.h"
#include "lib/xalloc.h"
#include "fstune/clock.h"
#include "fstune/debug.h"
#include "fstune/status.h"

enum {
	OPT_FACTS = CLI_OPT_COMMAND_BASE,
	OPT_RULES_DIR,
	OPT_NO_SYSTEM_RULES, /* OPT_RULES_DIR + 1, as RULES_CLI_OPTIONS has it */
	OPT_ACCEPT,
	OPT_ACCEPTED, /* OPT_ACCEPT + 1, as ACCEPTED_CLI_OPTIONS has it */
	OPT_PARAM_BASE, /* then one per benchmark parameter */
};

static const char usage_text[] =
	"Usage: fstune [options] [TARGET]\n"
	"\n"
	"The wizard: pick a device, a filesystem or a directory, choose the workload, see what was\n"
	"detected and the recommendations with their evidence and commands, and save the report.\n"
	"Given a TARGET (a directory, a block device or an image file), it opens on that one.\n"
	"It needs a terminal; for scripts use 'fstune report'. Press ? on any screen for its keys.\n"
	"\n"
	"Options:\n"
	"  --facts FILE                 run on facts saved earlier; nothing is probed\n"
	"  --rules-dir DIR              also load the rule files in DIR, last (repeatable)\n"
	"  --no-system-rules            do not load /etc/fstune/rules.d\n"
	"  --accept ID                  mark finding ID accepted in the report (repeatable)\n"
	"  --accepted FILE              read the accepted findings from FILE instead of\n"
	"                               /etc/fstune/accepted.conf (also $FSTUNE_ACCEPTED)\n"
	"  --sysroot DIR                read /sys and /proc from DIR (a captured machine)\n"
	"  --target-os linux|freebsd    advise for this operating system\n"
	"  --workload NAME              the preset the Workload step starts on; the overrides of\n"
	"                               'fstune report' (--file-size, --files, --files-per-dir,\n"
	"                               --access, --io-size, --io-mode, --[no-]sync-heavy) apply\n"
	"                               on top of whichever preset is chosen\n"
	"  --runtime S, --warmup S, --size BYTES, --engine E, --busy-check S, --tests LIST\n"
	"                               how the Benchmarks step measures, as for 'fstune report'\n"
	"  -h, --help                   this help\n"
	"\n"
	"Environment: NO_COLOR (set and not empty) turns colour off; a locale that is not UTF-8\n"
	"draws lines in ASCII.\n";

#define usage_error(...) cli_usage_error(NULL, __VA_ARGS__)

struct wizard_args {
	struct cli_common common;
	const char *facts;
	const char *target;      /* the TARGET operand; NULL: the admin picks one */
	struct rules_options ro; /* --rules-dir, --no-system-rules */
	struct accepted_cli acc;  /* --accept IDs, then the file's entries; --accepted FILE */
	struct workload_spec spec; /* --workload and its overrides */
	struct bench_config cfg;   /* the benchmark parameters */
};

/* A benchmark parameter (1), or not one (0), or a bad value (FST_EXIT_USAGE said, -1). */
static int bench_option(struct wizard_args *a, int opt)
{
	const struct bench_param *p = bench_cli_param(opt, OPT_PARAM_BASE);
	struct fst_error err = FST_ERROR_INIT;

	if (!p)
		return 0;
	if (bench_param_set(&a->cfg, p, optarg, &err) != FST_EXIT_OK) {
		usage_error("%s", err.msg);
		return -1;
	}
	return 1;
}

static int parse_options(int argc, char **argv, struct wizard_args *a, const struct option *opts)
{
	int opt;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		int handled = workload_option(&a->spec, opt, optarg);

		if (handled == 0)
			handled = bench_option(a, opt);
		if (handled == 0)
			handled = rules_cli_option(&a->ro, opt, OPT_RULES_DIR, optarg);
		if (handled == 0)
			handled = accepted_cli_option(&a->acc, opt, OPT_ACCEPT, optarg, NULL);
		if (handled < 0)
			return FST_EXIT_USAGE;
		if (handled > 0)
			continue;
		switch (opt) {
		case CLI_OPT_FORMAT:
		case CLI_OPT_JSON:
		case CLI_OPT_OUTPUT:
		case CLI_OPT_QUIET:
			return usage_error("the wizard writes its report from its Save screen; "
					   "for --format, --json, --output and --quiet use 'fstune report'");
		case 'h':
		case CLI_OPT_HELP:
			/* Not cli_common_option's help: it would list --format and --output, which the
			 * wizard refuses. */
			fputs(usage_text, stdout);
			exit(FST_EXIT_OK);
		case OPT_FACTS:
			a->facts = optarg;
			continue;
		case '?':
			cli_try_help(NULL);
			return FST_EXIT_USAGE;
		default:
			break;
		}
		switch (cli_common_option(&a->common, opt, optarg, usage_text)) {
		case 1:
			continue;
		case 0:
			return usage_error("unexpected option");
		default:
			return FST_EXIT_USAGE;
		}
	}
	return FST_EXIT_OK;
}

static int parse_args(int argc, char **argv, struct wizard_args *a)
{
	static const struct option fixed[] = {
		CLI_COMMON_OPTIONS,
		WORKLOAD_CLI_OPTIONS,
		{"facts", required_argument, NULL, OPT_FACTS},
		RULES_CLI_OPTIONS(OPT_RULES_DIR),
		ACCEPTED_CLI_OPTIONS(OPT_ACCEPT),
	};
	/* the Benchmarks step chooses the suite, so the suite parameter is left out */
	struct option *opts = bench_cli_options(fixed, sizeof fixed / sizeof fixed[0], OPT_PARAM_BASE, false);
	int status = parse_options(argc, argv, a, opts);

	free(opts);
	if (status != FST_EXIT_OK)
		return status;
	if (optind + 1 < argc)
		return usage_error("one TARGET at most, not '%s' and '%s'", argv[optind], argv[optind + 1]);
	if (optind < argc)
		a->target = argv[optind];
	if (a->target && a->facts)
		return usage_error("--facts %s and TARGET %s: the saved facts are the target; give one of them",
				   a->facts, a->target);
	if (a->spec.sample_dir || a->spec.observe_s > 0)
		return usage_error("the wizard samples and observes from its Workload step; on the command "
				   "line use 'fstune report --sample DIR' or '--observe S'");
	for (size_t i = 0; i < a->ro.n_rules_dirs; i++) {
		struct stat st;

		if (stat(a->ro.rules_dirs[i], &st) != 0 || !S_ISDIR(st.st_mode))
			return usage_error("--rules-dir %s: %s", a->ro.rules_dirs[i],
					   errno ? strerror(errno) : "not a directory");
	}
	return FST_EXIT_OK;
}

static void wizard_free(struct ui_wizard *w)
{
	ui_prompt_free(w);
	ui_custom_free(w);
	ui_wizard_drop_session(w);
	inventory_free(&w->targets);
	ui_lines_clear(&w->detected.content);
	ui_lines_clear(&w->detail.content);
	ui_lines_clear(&w->trial.content);
	report_model_free(w->advice_model);
	free(w->advice_rows);
}

static void args_free(struct wizard_args *a)
{
	rules_cli_free(&a->ro);
	accepted_free(a->acc.accepted);
}

/* The accepted findings, read before the terminal is taken: a bad entry is said as report says it. */
static int load_accepted(struct wizard_args *a)
{
	struct fst_error err = FST_ERROR_INIT;

	if (accepted_cli_load(&a->acc, a->ro.no_system_rules, &err) == FST_EXIT_OK)
		return FST_EXIT_OK;
	fst_error_print(&err);
	return FST_EXIT_USAGE;
}

int ui_wizard_main(int argc, char **argv)
{
	struct wizard_args a = {.spec = WORKLOAD_SPEC_INIT, .acc.accepted = accepted_new()};
	struct ui_wizard w = {.status = FST_EXIT_OK};
	int status;

	bench_config_init(&a.cfg);
	status = parse_args(argc, argv, &a);

	if (status == FST_EXIT_OK)
		status = cli_common_apply(&a.common);
	if (status == FST_EXIT_OK)
		status = load_accepted(&a);
	if (status != FST_EXIT_OK) {
		args_free(&a);
		return status;
	}
	w.facts_file = a.facts;
	w.target_os = a.common.target_os;
	w.is_verbose = a.common.verbose;
	w.spec = a.spec;
	w.wl_spec = a.spec;
	w.bench_cfg = a.cfg;
	w.rules_opt = a.ro;
	w.accepted = a.acc.accepted;
	/* A bad facts file or TARGET is named before the terminal check: it is the more useful error. */
	if (a.facts) {
		if (!ui_wizard_open_session(&w, NULL, a.facts)) {
			fprintf(stderr, "fstune: %s\n", w.message);
			args_free(&a);
			return FST_EXIT_USAGE;
		}
		inventory_from_facts(&w.targets, w.session->facts, a.facts);
	}
	if (a.target && !ui_wizard_open_target(&w, a.target)) {
		fprintf(stderr, "fstune: %s\n", w.message);
		args_free(&a);
		return FST_EXIT_USAGE;
	}
	if ((status = ui_term_require_tty()) != FST_EXIT_OK) {
		wizard_free(&w);
		args_free(&a);
		return status;
	}
	ui_term_start();
	if (!a.facts) {
		double t0 = fst_clock_s();

		inventory_scan(&w.targets); /* after initscr: the glyphs depend on the locale check */
		w.has_idle_work = true;
		DBG(DEBUG_UI, "target scan: %zu rows in %.1f ms", w.targets.n, (fst_clock_s() - t0) * 1e3);
	}
	w.screen = a.target ? UI_SCR_WORKLOAD : UI_SCR_TARGET;
	ui_loop_run(&w);
	ui_term_stop();
	status = w.status;
	wizard_free(&w);
	args_free(&a);
	return status;
}
