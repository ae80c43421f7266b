/* fstune's entry point: the command table and the top-level usage. */
#include "config.h"

#include <locale.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "app/cli.h"
#include "app/commands/cmd_apply.h"
#include "app/wizard/ui.h"
#include "fstune/debug.h"
#include "fstune/status.h"

static const struct cli_command commands[] = {
	{"probe", "show the detected facts of a directory, device or image", cmd_probe},
	{"bench", "run the I/O micro-benchmarks and show their results", cmd_bench},
	{"report", "probe, measure, evaluate the rules and report (for scripts)", cmd_report},
	{"rules", "list, show and test the rule scripts", cmd_rules},
	{"workload", "show the workload facts from a preset, a sample or an observation", cmd_workload},
	{"compare", "compare the JSON reports of two runs or of many hosts", cmd_compare},
	{"trial", "make candidate filesystems on a scratch device or image and rank them", cmd_trial},
	{"apply", "make the runtime, online and remount changes, journaled and verified", cmd_apply},
	{"undo", "take back a run of apply from its journal", cmd_undo},
	{"history", "list the journals of apply and whether each was undone", cmd_history},
};

static void usage(FILE *out)
{
	fprintf(out, "Usage: fstune [--facts FILE] [--sysroot DIR] [TARGET]   (the wizard, on a terminal)\n"
		     "       fstune COMMAND [OPTIONS] [TARGET]\n\n"
		     "A filesystem and disk tuning advisor: it probes the disk and filesystem under\n"
		     "TARGET (a directory, a block device or an image file; default: the current\n"
		     "directory), measures, and recommends settings with the evidence behind them.\n\n"
		     "Commands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].summary);
	fprintf(out, "\nRun 'fstune COMMAND --help' for a command's options; see fstune(1).\n");
}

/* A word where a command would be that names a path (as `ncdu DIR` takes one): the wizard opens on
 * it. A command's name wins; ./probe is the directory. */
static bool is_target(const char *arg)
{
	struct stat st;

	return strchr(arg, '/') || stat(arg, &st) == 0;
}

int main(int argc, char **argv)
{
	setlocale(LC_ALL, "");
	debug_init();
	if (argc < 2 || argv[1][0] == '-') {
		if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
			usage(stdout);
			return FST_EXIT_OK;
		}
		if (argc >= 2 && (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0)) {
			printf("fstune %s\n", PACKAGE_VERSION);
			return FST_EXIT_OK;
		}
		return ui_wizard_main(argc, argv);
	}
	if (strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return FST_EXIT_OK;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(argv[1], commands[i].name) == 0)
			return commands[i].run(argc - 1, argv + 1);
	if (is_target(argv[1]))
		return ui_wizard_main(argc, argv);
	fprintf(stderr, "fstune: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return FST_EXIT_USAGE;
}
