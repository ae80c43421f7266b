/* `fstune trial`: make each candidate filesystem on a scratch device or a preallocated image, measure
 * the workload's metrics on it, round after round in a balanced order with the baseline as its own
 * A/A control, and say which differences the statistics support (the 1999 experiment, automated; the
 * design and the statistics are app/trial/trial_run.h's). The safety checks come first; everything the
 * trial made is removed on every exit path, a signal's included (then the results of the rounds done
 * are written, marked partial, and the process ends by that signal). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "app/commands/bench_cli.h"
#include "app/cli.h"
#include "app/formats.h"
#include "app/render/progress.h"
#include "app/session/session.h"
#include "app/trial/trial_record.h"
#include "app/trial/trial_run.h"
#include "app/commands/workload_cli.h"
#include "lib/xalloc.h"
#include "fstune/scratch.h"
#include "fstune/status.h"
#include "fstune/units.h"
#include "fstune/workload.h"

#define IMAGE_MIN (1ull << 30) /* mkfs.xfs refuses under 300 MB, and with a stripe set 512 MiB is too small */

enum {
	OPT_SIZE_IMAGE = CLI_OPT_COMMAND_BASE,
	OPT_REPEAT,
	OPT_TIME_BUDGET,
	OPT_PARAM_BASE, /* the benchmark parameter table's options follow */
};

static const char usage_text[] =
	"Usage: fstune trial (--device DEV | --image FILE [--size SIZE]) [options]\n"
	"       fstune trial --clean\n"
	"\n"
	"Settle a filesystem question by experiment: make each candidate filesystem with the real mkfs\n"
	"on a scratch device or on an image (preallocated, on a loop device with direct I/O), measure the\n"
	"workload's metrics on it in a private mount namespace, round after round in a balanced order,\n"
	"with the first candidate (the baseline) twice a round as its own A/A control. A candidate is\n"
	"better or worse than the baseline only when the 95% interval of its per-round ratio lies beyond\n"
	"the A/A noise floor and the sign test, corrected by Holm over every comparison, agrees; else it\n"
	"is a tie or not settled. Needs root.\n"
	"\n"
	"Options:\n"
	"  --device DEV                 a scratch block device: its data is destroyed. Refused unless it has\n"
	"                               no signature, is not mounted, not swap, has no holders and opens\n"
	"                               with O_EXCL; then type its name, or pass --destroy-data=DEV\n"
	"  --destroy-data DEV           the confirmation for --device, without a prompt\n"
	"  --image FILE                 make this image file (it must not exist; removed afterwards)\n"
	"  --size SIZE                  the image's size, at least 1G (default 1G)\n"
	"  --candidates SPEC            'FS:MKFS OPTIONS;...', e.g. 'ext4:;ext4:-b 1024;xfs:'; the first is\n"
	"                               the baseline (default: the mkfs defaults, the rules' reformat\n"
	"                               advice and the workload's usual questions); only the mkfs tool's\n"
	"                               own options\n"
	"  --repeat N                   exactly N rounds (default: the fewest the comparisons need for a\n"
	"                               verdict, then more while one could still be settled)\n"
	"  --time-budget S              start no run that would end past S seconds (default 600; 0: none)\n"
	"  --workload-from FILE         the workload described in a facts or report file (its workload.*\n"
	"                               facts), instead of the workload options\n"
	"  --clean                      remove what a killed trial left (image, mount point, loop device)\n"
	"  --no-system-rules            default candidates: do not load /etc/fstune/rules.d\n"
	"\n"
	"Benchmark parameters (for the workloads measured by the benchmarks; see fstune bench):\n";

struct trial_args {
	struct cli_common common;
	struct workload_spec spec;
	struct bench_config cfg;
	const char *device, *image, *candidates, *destroy, *workload_from;
	uint64_t image_size;
	bool image_size_given;
	unsigned repeat; /* 0: the family's minimum, then adaptive */
	double budget_s;
	bool no_system_rules;
	bool clean;
	struct progress progress; /* a line per run */
};

#define usage_error(...) cli_usage_error("trial", __VA_ARGS__)

static int parse_own(void *arg_, int opt, const char *arg)
{
	struct trial_args *a = arg_;
	char *end;
	unsigned long n;

	switch (opt) {
	case OPT_SIZE_IMAGE:
		a->image_size_given = true;
		if (!units_parse_size(arg, &a->image_size))
			return usage_error("--size '%s': a size such as 1G or 2048M", arg);
		break;
	case OPT_REPEAT:
		errno = 0;
		n = strtoul(arg, &end, 10);
		if (errno || *end || n < 1 || n > 100 || arg[0] == '-')
			return usage_error("--repeat '%s': a number of rounds from 1 to 100", arg);
		a->repeat = (unsigned)n;
		break;
	case OPT_TIME_BUDGET:
		if (!units_parse_seconds(arg, &a->budget_s) || a->budget_s < 0)
			return usage_error("--time-budget '%s': seconds, such as 600 or 10m; 0 for none", arg);
		break;
	default:
		return usage_error("unexpected option");
	}
	return FST_EXIT_OK;
}

static int parse_args(int argc, char **argv, struct trial_args *a)
{
	static const struct option opts[] = {
		CLI_STRING("device", struct trial_args, device),
		CLI_STRING("image", struct trial_args, image),
		/* before the benchmark parameters, so it wins over their --size (the test span, automatic here) */
		{"size", required_argument, NULL, OPT_SIZE_IMAGE},
		CLI_STRING("candidates", struct trial_args, candidates),
		{"repeat", required_argument, NULL, OPT_REPEAT},
		{"time-budget", required_argument, NULL, OPT_TIME_BUDGET},
		CLI_STRING("destroy-data", struct trial_args, destroy),
		CLI_STRING("workload-from", struct trial_args, workload_from),
		CLI_FLAG("clean", struct trial_args, clean),
		CLI_FLAG("no-system-rules", struct trial_args, no_system_rules),
		{NULL, 0, NULL, 0},
	};
	/* the span is automatic, the device is the trial's own, the tests follow the workload */
	static const char *const skip[] = {"size", "busy-check", "tests", NULL};
	const struct bench_cli_command cmd = {
		.name = "trial", .opts = opts, .param_base = OPT_PARAM_BASE, .usage_head = usage_text,
		.skip = skip, .tests_refused = "a trial's tests follow the workload (--workload)",
		.cfg = &a->cfg, .own = parse_own, .arg = a,
	};
	bool has_workload = false;
	int status = bench_cli_parse(argc, argv, &cmd, &a->common, &a->spec, &has_workload);

	if (status != FST_EXIT_OK)
		return status;
	if (optind < argc)
		return usage_error("'%s': trial takes no TARGET; name it with --device or --image", argv[optind]);
	if (a->clean && (a->device || a->image || a->candidates))
		return usage_error("--clean removes what killed trials left and runs no trial: give it alone");
	if (a->clean)
		return FST_EXIT_OK;
	if (a->workload_from && has_workload)
		return usage_error("--workload-from %s describes the workload: leave out the workload options",
				   a->workload_from);
	if (!!a->device == !!a->image)
		return usage_error("name the scratch space: --device DEV or --image FILE (one of them)");
	if (a->image_size_given && !a->image)
		return usage_error("--size is the image's size and goes with --image");
	if (a->destroy && !a->device)
		return usage_error("--destroy-data goes with --device");
	if (a->image && a->image_size < IMAGE_MIN)
		return usage_error("--size: at least 1G (mkfs.xfs refuses under 300 MB, and with a stripe "
				   "set 512 MiB is too small)");
	if (a->common.sysroot)
		return usage_error("--sysroot: a trial measures the live machine");
	if (a->spec.observe_s > 0)
		return usage_error("--observe: a trial measures its own scratch filesystem; observe with "
				   "'fstune workload --observe S' and pass the findings as overrides");
	return FST_EXIT_OK;
}

/* Whether what the admin typed names the device: its path as given, a path to the same node, or its
 * kernel name alone ("sdb"). */
static bool names_device(const char *typed, const char *device)
{
	char *r1 = realpath(device, NULL), *r2 = realpath(typed, NULL);
	const char *base = r1 ? strrchr(r1, '/') + 1 : NULL;
	bool ok = !strcmp(typed, device) || (r1 && r2 && !strcmp(r1, r2)) ||
		  (base && !strchr(typed, '/') && !strcmp(typed, base));

	free(r1);
	free(r2);
	return ok;
}

/* The admin's confirmation for --device: --destroy-data naming the same device, or its name typed on
 * a terminal. FST_EXIT_OK or FST_EXIT_REFUSED naming the check. */
static int confirm_device(const struct trial_args *a, struct fst_error *err)
{
	char line[256] = "";

	if (a->destroy && names_device(a->destroy, a->device))
		return FST_EXIT_OK;
	if (!a->destroy && isatty(STDIN_FILENO) && isatty(STDERR_FILENO)) {
		fprintf(stderr, "fstune: every byte on %s will be overwritten. Type its name (%s) to go on: ",
			a->device, a->device);
		if (fgets(line, sizeof line, stdin)) {
			line[strcspn(line, "\n")] = '\0';
			if (*line && names_device(line, a->device))
				return FST_EXIT_OK;
		}
	}
	if (!a->destroy && !isatty(STDIN_FILENO))
		return fst_error_set(err, FST_EXIT_REFUSED, "--device %s: refused (check: confirmation): no "
				     "terminal to type the device's name on; pass --destroy-data=%s", a->device,
				     a->device);
	return fst_error_set(err, FST_EXIT_REFUSED, "--device %s: refused (check: confirmation): '%s' is "
			     "not the device's name", a->device, a->destroy ? a->destroy : line);
}

static bool has_program(const char *name)
{
	const char *path = getenv("PATH");
	char *dup = xstrdup(path && *path ? path : "/usr/sbin:/usr/bin:/sbin:/bin"), *save = NULL;
	bool found = false;

	for (char *d = strtok_r(dup, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
		char *p = xasprintf("%s/%s", d, name);

		found = access(p, X_OK) == 0;
		free(p);
	}
	free(dup);
	return found;
}

/* The rules' merged mkfs commands for this scratch device and workload, as candidates. */
static void candidates_from_rules(struct trial *t, bool no_system_rules)
{
	struct fst_error err = FST_ERROR_INIT;
	struct rules_options ro = {.no_system_rules = no_system_rules};
	struct session_plan plan = {.target = t->scratch.dev, .workload_described = t->workload, .rules = &ro};
	struct session *s;
	json_t *m;
	size_t i;

	session_run(&plan, &s, &err);
	if (s) {
		json_array_foreach(s->result.mkfs, i, m) {
			const char *fs = json_string_value(json_object_get(m, "fs"));
			json_t *from = json_object_get(m, "from");
			char *origin = xstrdup("rules:");
			size_t k;
			json_t *id;

			json_array_foreach(from, k, id) {
				char *next = xasprintf("%s%s%s", origin, k ? "," : "", json_string_value(id));

				free(origin);
				origin = next;
			}
			if (fs && trial_candidates_add_args(&t->cands, fs, json_object_get(m, "args"), origin, &err) !=
					  FST_EXIT_OK) {
				json_array_append_new(t->notes, json_sprintf("the rules' mkfs advice %s was not tried: %s",
									     origin, err.msg));
				fst_error_clear(&err);
			}
			free(origin);
		}
	}
	fst_error_clear(&err);
	session_free(s);
}

/* The defaults: ext4's mkfs defaults first (the baseline), the rules' advice, the workload's usual
 * questions, and xfs's defaults. */
static void default_candidates(struct trial *t, bool no_system_rules)
{
	const char *profile = json_string_value(facts_get(t->workload, "workload.profile"));
	long long per_dir = 0;
	struct fst_error err = FST_ERROR_INIT;

	trial_candidates_parse("ext4:", "default", &t->cands, &err);
	candidates_from_rules(t, no_system_rules);
	facts_get_int(t->workload, "workload.files_per_dir", &per_dir);
	if (profile && (!strcmp(profile, "smallfiles") || !strcmp(profile, "source-tree")))
		trial_candidates_parse("ext4:-b 1024;ext4:-b 2048;ext4:-b 4096", "workload", &t->cands, &err);
	if (per_dir >= 10000)
		trial_candidates_parse("ext4:-O ^dir_index", "workload", &t->cands, &err);
	trial_candidates_parse("xfs:", "default", &t->cands, &err);
	fst_error_clear(&err);
}

/* Drops candidates whose mkfs is not installed, with a note. */
static void drop_missing_tools(struct trial *t)
{
	size_t i = 0;

	while (i < t->cands.n) {
		char *prog = xasprintf("mkfs.%s", t->cands.v[i].fs);

		if (has_program(prog)) {
			i++;
		} else {
			json_array_append_new(t->notes, json_sprintf("%s not tried: %s is not installed",
								     t->cands.v[i].spec, prog));
			trial_candidates_remove(&t->cands, i);
		}
		free(prog);
	}
}

/* One line per run on stderr, on a terminal or not: which run, and what it measured. */
static void run_done(void *arg, const struct trial *t, const struct trial_candidate *c, const json_t *run)
{
	const json_t *values = json_object_get(run, "values");
	const char *err = json_string_value(json_object_get(run, "error"));
	long long round = (long long)json_integer_value(json_object_get(run, "round"));
	char *measured = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&measured, &len);

	for (size_t i = 0; m && i < t->metrics.n && !err; i++) {
		const json_t *v = json_object_get(values, t->metrics.m[i]->name);

		if (json_is_number(v))
			fprintf(m, " %s %.4g %s", t->metrics.m[i]->name, json_number_value(v), t->metrics.m[i]->unit);
	}
	if (m)
		fclose(m);
	progress_done(arg, "trial: round %lld of %u%s, c%zu %s:%s%s%s (%.1f s)", round, t->rounds_planned,
		      round > t->rounds_planned ? " (added)" : "", (size_t)(c - t->cands.v) + 1, c->spec,
		      measured ? measured : "", err ? " failed: " : "", err ? err : "",
		      json_number_value(json_object_get(run, "run_s")));
	free(measured);
}

static void add_caveats(struct trial *t, const char *image)
{
	if (!t->is_device) {
		struct statvfs sv;
		char *dir = xstrdup(image), *slash = strrchr(dir, '/');

		if (slash)
			*slash = '\0';
		json_array_append_new(t->caveats, json_string(
			"the image sits on another filesystem, whose allocation is in these numbers: a verdict "
			"holds for filesystems made on such an image; only --device measures the disk itself"));
		if (!t->scratch.is_loop_direct)
			json_array_append_new(t->caveats, json_string(
				"the loop device could not use direct I/O on the image's filesystem: the host's "
				"page cache is in these numbers"));
		if (statvfs(slash ? (*dir ? dir : "/") : ".", &sv) == 0 && (uint64_t)sv.f_bavail * sv.f_frsize < (1ull << 30))
			json_array_append_new(t->caveats, json_string("the image's filesystem has little free space left"));
		free(dir);
	}
	if (t->scratch.record_status < 0)
		json_array_append_new(t->caveats, json_sprintf(
			"no record of the scratch space could be kept in /run/fstune (%s): if this trial is killed, "
			"the next one cannot name what it left", strerror(-t->scratch.record_status)));
	json_array_append_new(t->caveats, json_string(
		"a fresh filesystem is the optimistic case: no aging, no fragmentation, an empty journal"));
}

/* What killed trials left, named (on stderr too), so that `fstune trial --clean` is known. */
static void name_leftovers(struct trial *t, bool quiet)
{
	json_t *left = trial_record_leftovers(), *rec;
	size_t i;

	json_array_foreach(left, i, rec) {
		char *what = trial_record_describe(rec);

		json_array_append_new(t->notes, json_sprintf("%s: fstune trial --clean removes it", what));
		if (!quiet)
			fprintf(stderr, "fstune: %s: fstune trial --clean removes it\n", what);
		free(what);
	}
	json_decref(left);
}

static int prepare_image(struct trial_args *a, struct trial *t, struct fst_error *err)
{
	struct statvfs sv;
	char *dir = xstrdup(a->image), *slash = strrchr(dir, '/');
	int st;

	if (slash)
		slash[slash == dir] = '\0';
	st = statvfs(slash ? dir : ".", &sv);
	free(dir);
	if (st == 0 && (uint64_t)sv.f_bavail * sv.f_frsize < a->image_size + (256ull << 20))
		return fst_error_set(err, FST_EXIT_REFUSED, "--image %s: refused: %llu bytes free there, "
				     "the image needs %llu and 256 MiB must stay free", a->image,
				     (unsigned long long)sv.f_bavail * sv.f_frsize,
				     (unsigned long long)a->image_size);
	return trial_scratch_image(&t->scratch, a->image, a->image_size, err);
}

static int prepare_device(struct trial_args *a, struct trial *t, struct fst_error *err)
{
	uint64_t size = 0;
	int fd, st;

	if ((st = scratch_device_check(a->device, err)) != FST_EXIT_OK)
		return st;
	if ((st = confirm_device(a, err)) != FST_EXIT_OK)
		return st;
	fd = open(a->device, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || ioctl(fd, BLKGETSIZE64, &size) < 0)
		size = 0;
	if (fd >= 0)
		close(fd);
	if (size < IMAGE_MIN)
		return fst_error_set(err, FST_EXIT_REFUSED, "--device %s: refused: %llu bytes; a trial needs "
				     "at least 1 GiB (mkfs.xfs and striped layouts)", a->device,
				     (unsigned long long)size);
	trial_scratch_set_device(&t->scratch, a->device, size);
	return FST_EXIT_OK;
}

/* Everything between the checks and the measurement. Returns the status; the scratch space is cleaned
 * by the caller. */
static int prepare(struct trial_args *a, struct trial *t, struct fst_error *err)
{
	int st;

	name_leftovers(t, a->common.quiet);
	if (a->device && (st = prepare_device(a, t, err)) != FST_EXIT_OK)
		return st;
	if ((st = trial_scratch_namespace(err)) != FST_EXIT_OK)
		return st;
	if (a->image && (st = prepare_image(a, t, err)) != FST_EXIT_OK)
		return st;
	if (!t->cands.n)
		default_candidates(t, a->no_system_rules);
	drop_missing_tools(t);
	if (!t->cands.n)
		return fst_error_set(err, FST_EXIT_USAGE, "no candidate can be made: no mkfs tool is installed");
	for (size_t i = 0; i < t->cands.n; i++)
		if (t->cands.v[i].stripped)
			json_array_append_new(t->notes, json_sprintf(
				"c%zu %s: the target's identity (%s) is left out: two filesystems with one UUID cannot "
				"both be mounted", i + 1, t->cands.v[i].spec, t->cands.v[i].stripped));
	add_caveats(t, a->image ? a->image : "");
	return FST_EXIT_OK;
}

/* `fstune trial --clean`: what killed trials left, removed where it is still what they made. */
static int clean(void)
{
	json_t *left = trial_record_leftovers(), *rec;
	int status = FST_EXIT_OK;
	size_t i;

	if (!json_array_size(left))
		printf("nothing to clean: no killed trial left anything on record\n");
	json_array_foreach(left, i, rec) {
		char *what = trial_record_describe(rec);

		printf("%s\n", what);
		free(what);
		if (trial_record_clean(rec, stdout))
			status = FST_EXIT_PARTIAL;
	}
	json_decref(left);
	return status;
}

/* The workload: --workload-from's facts, or the workload options. */
static int describe_workload(const struct trial_args *a, struct facts *wl, struct fst_error *err)
{
	struct facts *f;

	if (!a->workload_from)
		return workload_collect(&a->spec, NULL, wl, NULL, err);
	if (!(f = facts_load_file(a->workload_from, err)))
		return err->status;
	if (!json_is_object(facts_get(f, "workload")))
		fst_error_set(err, FST_EXIT_USAGE, "--workload-from %s: no workload.* facts in it (write them with "
			      "fstune workload --json)", a->workload_from);
	else
		facts_copy_branch(wl, f, "workload");
	facts_free(f);
	return err->msg[0] ? err->status : FST_EXIT_OK;
}

/* The trial's result: the document, rendered; the exit status merged with the writer's. */
static int write_result(const struct trial_args *a, struct trial *t, struct fst_output *out, int status)
{
	json_t *doc = trial_document(t);
	int w = output_format_of(a->common.format)->write_trial(doc, fst_output_stream(out));

	json_decref(doc);
	return fst_exit_merge(status, cli_output_close(out, w == 0));
}

static void setup(struct trial_args *a, struct trial *t)
{
	trial_metrics_for(t->workload, &t->metrics);
	t->cfg = a->cfg;
	t->repeat = a->repeat;
	t->budget_s = a->budget_s;
	t->is_device = a->device != NULL;
	t->target = a->device ? a->device : a->image;
	t->stop = bench_stop_flag();
	progress_init(&a->progress, a->common.quiet);
	t->progress = run_done;
	t->progress_arg = &a->progress;
}

/* The rounds and what they cost, said before they start. */
static void say_plan(const struct trial_args *a, const struct trial *t)
{
	if (a->common.quiet)
		return;
	fprintf(stderr, "trial: %zu candidate%s, %zu comparison%s on %zu metrics: %u rounds %s\n", t->cands.n,
		t->cands.n == 1 ? "" : "s", trial_family_size(t), trial_family_size(t) == 1 ? "" : "s", t->metrics.n,
		t->repeat ? t->repeat : t->rounds_min ? t->rounds_min : 3,
		t->repeat ? "(--repeat)" : "at least (the fewest that can reach a verdict), more while one could settle");
}

int cmd_trial(int argc, char **argv)
{
	struct trial_args a = {.spec = WORKLOAD_SPEC_INIT, .image_size = IMAGE_MIN, .budget_s = 600};
	struct fst_error err = FST_ERROR_INIT;
	struct fst_output *out = NULL;
	struct trial t;
	bool is_measured = false; /* the rounds started (a failed setup has nothing to show) */
	int status;

	memset(&t, 0, sizeof t);
	trial_scratch_init(&t.scratch);
	t.notes = json_array();
	t.caveats = json_array();
	bench_config_init(&a.cfg);
	status = parse_args(argc, argv, &a);
	if (status == FST_EXIT_OK && a.candidates)
		status = trial_candidates_parse(a.candidates, "--candidates", &t.cands, &err);
	if (status == FST_EXIT_OK && geteuid() != 0)
		status = fst_error_set(&err, FST_EXIT_REFUSED, "trial needs root: it makes filesystems, loop "
				       "devices and mounts");
	if (status == FST_EXIT_OK && a.clean) {
		trial_free(&t);
		return clean();
	}
	t.workload = facts_new();
	if (status == FST_EXIT_OK)
		status = describe_workload(&a, t.workload, &err);
	if (status == FST_EXIT_OK && !(out = cli_output_open(&a.common)))
		status = FST_EXIT_USAGE;
	if (status == FST_EXIT_OK) {
		setup(&a, &t);
		bench_stop_install();
		status = prepare(&a, &t, &err);
	}
	if (status == FST_EXIT_OK && !*t.stop) {
		trial_tree_plan_from(t.workload, t.scratch.size_bytes, &t.plan);
		is_measured = true;
		status = trial_resolve(&t, &err);
		say_plan(&a, &t);
		if (status == FST_EXIT_OK)
			status = trial_measure(&t, &err);
		else
			t.is_partial = true;
	}
	trial_scratch_cleanup(&t.scratch);
	if (is_measured && (status == FST_EXIT_OK || status == FST_EXIT_PARTIAL || t.is_partial)) {
		bool is_signal = status >= 128;
		int w;

		if (status == FST_EXIT_PARTIAL && !a.common.quiet)
			fprintf(stderr, "fstune: some runs failed; see the notes\n");
		if (is_signal)
			json_array_append_new(t.notes, json_sprintf("interrupted by signal %d after %u complete rounds: "
								    "these results are partial", status - 128, t.rounds_done));
		w = write_result(&a, &t, out, is_signal ? FST_EXIT_OK : status);
		out = NULL;
		if (!is_signal)
			status = w;
	} else if (err.msg[0]) { /* a flag error or an unopenable --output is said already */
		fst_error_print(&err);
	}
	cli_output_close(out, false);
	if (status >= 128 || (t.stop && *t.stop)) {
		int sig = status >= 128 ? status : 128 + *t.stop;

		trial_free(&t);
		bench_stop_reraise();
		return sig; /* cancelled without a signal */
	}
	trial_free(&t);
	return status;
}
