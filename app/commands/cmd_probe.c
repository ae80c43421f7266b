/* `fstune probe`: resolve TARGET, run every probe, and print the facts (text, JSON or Markdown). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "app/cli.h"
#include "app/formats.h"
#include "app/session/session.h"
#include "fstune/status.h"

static const char usage_text[] =
	"Usage: fstune probe [options] [TARGET]\n"
	"\n"
	"Show what fstune detects about TARGET, without changing anything: the host, the kernel's\n"
	"writeback settings, the block device and its queue. TARGET is a directory (the filesystem\n"
	"holding it and the device under that; default: the current directory), a block device, or a\n"
	"filesystem image file. Facts that cannot be found are listed with the reason.\n"
	"\n"
	"Options:\n"
	"  --sources                    show where each value came from (sysfs, procfs, udev, ...)\n"
	"\n";

struct probe_args {
	struct cli_common common;
	const char *target;
	bool show_sources;
};

static int parse_args(int argc, char **argv, struct probe_args *a)
{
	static const struct option opts[] = {
		CLI_FLAG("sources", struct probe_args, show_sources),
		{NULL, 0, NULL, 0},
	};
	int status = cli_parse(argc, argv, &a->common,
			       &(struct cli_parser){.opts = opts, .usage = usage_text, .arg = a});

	if (status != FST_EXIT_OK)
		return status;
	return cli_one_operand(argc, argv, "probe", "TARGET", &a->target);
}

static bool render(const struct probe_args *a, const struct facts *f, FILE *out)
{
	output_format_of(a->common.format)->write_facts(out, f, a->show_sources || a->common.verbose);
	return !ferror(out);
}

int cmd_probe(int argc, char **argv)
{
	struct probe_args a = {0};
	struct fst_error err = FST_ERROR_INIT;
	struct fst_output *out = NULL;
	struct session *s = NULL;
	int status = parse_args(argc, argv, &a);

	if (status == FST_EXIT_OK)
		status = cli_common_start(&a.common, &out);
	if (status == FST_EXIT_OK && !(s = session_from_target(a.target, &err)))
		status = cli_error(&err);
	if (status == FST_EXIT_OK) {
		if (a.common.target_os)
			session_set_target_os(s, a.common.target_os);
		status = cli_output_close(out, render(&a, s->facts, fst_output_stream(out)));
		out = NULL;
		if (status == FST_EXIT_OK) {
			size_t failed = facts_failed_count(s->facts);

			status = session_status(s, false);
			if (failed && !a.common.quiet)
				fprintf(stderr, "fstune: %zu fact%s could not be probed (status failed)\n",
					failed, failed == 1 ? "" : "s");
		}
	}
	cli_output_close(out, false);
	session_free(s);
	return status;
}
