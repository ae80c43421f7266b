/* The workload flags on the command line (workload_cli.h); the values are parsed by the probes'
 * workload_spec_set_* functions so the wizard's form accepts exactly the same input. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "app/commands/workload_cli.h"
#include "fstune/error.h"

const char workload_cli_help[] =
	"Workload options (what will live on the filesystem):\n"
	"  --workload NAME        a preset: smallfiles (mail, maildir, caches), source-tree (build\n"
	"                         servers), database (random page I/O), largefiles (media, backups,\n"
	"                         images) or general (the default when nothing is said)\n"
	"  --file-size MIN-MAX    file sizes, uniform between MIN and MAX (e.g. 500-10000, 1k-64k)\n"
	"  --files N              number of files\n"
	"  --files-per-dir N      files in a typical directory\n"
	"  --access random|sequential|mixed\n"
	"                         how the application reads and writes\n"
	"  --io-size BYTES        its typical request, a multiple of 512 (e.g. 8k)\n"
	"  --io-mode direct|buffered|mmap\n"
	"                         how it does I/O\n"
	"  --sync-heavy, --no-sync-heavy\n"
	"                         whether it waits for fsync on its critical path\n"
	"  --sample DIR           measure the files under DIR (read-only, one filesystem)\n"
	"  --sample-time S        stop sampling after S seconds, result marked partial (default 300)\n"
	"  --observe S            watch the target's disk for S seconds: read share, request size,\n"
	"                         queue depth, busy share of the running workload\n";

int workload_option(struct workload_spec *w, int opt, const char *arg)
{
	struct fst_error err = FST_ERROR_INIT;
	struct stat st;
	int rc;

	switch (opt) {
	case WORKLOAD_OPT_WORKLOAD: rc = workload_spec_set_preset(w, arg, &err); break;
	case WORKLOAD_OPT_FILE_SIZE: rc = workload_spec_set_file_size(w, arg, &err); break;
	case WORKLOAD_OPT_FILES: rc = workload_spec_set_files(w, arg, &err); break;
	case WORKLOAD_OPT_FILES_PER_DIR: rc = workload_spec_set_files_per_dir(w, arg, &err); break;
	case WORKLOAD_OPT_ACCESS: rc = workload_spec_set_access(w, arg, &err); break;
	case WORKLOAD_OPT_IO_SIZE: rc = workload_spec_set_io_size(w, arg, &err); break;
	case WORKLOAD_OPT_IO_MODE: rc = workload_spec_set_io_mode(w, arg, &err); break;
	case WORKLOAD_OPT_SYNC_HEAVY: w->sync_heavy = 1; return 1;
	case WORKLOAD_OPT_NO_SYNC_HEAVY: w->sync_heavy = 0; return 1;
	case WORKLOAD_OPT_SAMPLE_TIME: rc = workload_spec_set_sample_time(w, arg, &err); break;
	case WORKLOAD_OPT_OBSERVE: rc = workload_spec_set_observe(w, arg, &err); break;
	case WORKLOAD_OPT_SAMPLE:
		/* Checked now so that a typo fails before any probe or benchmark runs. */
		if (stat(arg, &st) != 0)
			rc = fst_error_set(&err, FST_EXIT_USAGE, "--sample %s: %s", arg, strerror(errno));
		else if (!S_ISDIR(st.st_mode))
			rc = fst_error_set(&err, FST_EXIT_USAGE,
					   "--sample %s: not a directory; give the directory whose files "
					   "to sample", arg);
		else {
			w->sample_dir = arg;
			rc = FST_EXIT_OK;
		}
		break;
	default:
		return 0;
	}
	if (rc != FST_EXIT_OK) {
		fst_error_print(&err);
		return -1;
	}
	return 1;
}

/* The command's parser, and where the workload flags go. */
struct workload_parse {
	const struct cli_parser *cmd;
	struct workload_spec *w;
	bool *has_workload;
};

static int workload_own(void *arg, int opt, const char *value)
{
	const struct workload_parse *wp = arg;
	int rc = workload_option(wp->w, opt, value);

	if (rc > 0 && wp->has_workload)
		*wp->has_workload = true;
	if (rc != 0)
		return rc < 0 ? FST_EXIT_USAGE : FST_EXIT_OK;
	return wp->cmd->own(wp->cmd->arg, opt, value);
}

int workload_cli_parse(int argc, char **argv, struct cli_common *c, const struct cli_parser *p,
		       struct workload_spec *w, bool *has_workload)
{
	static const struct option workload[] = {WORKLOAD_CLI_OPTIONS, {NULL, 0, NULL, 0}};
	struct workload_parse wp = {p, w, has_workload};
	struct cli_parser both = {cli_options_join(workload, p->opts), p->usage, workload_own, &wp,
				  p->fields ? p->fields : p->arg};
	int status = cli_parse(argc, argv, c, &both);

	free((void *)both.opts);
	return status;
}
