/* `fstune trial`: make each candidate filesystem on a scratch device or a preallocated image, run the
 * workload's measurement on it, and rank the candidates by measurement (the 1999 experiment,
 * automated). The safety checks come first; everything the trial made is removed on every exit path,
 * a signal's included (then the process ends by that signal). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "app/commands/bench_cli.h"
#include "app/cli.h"
#include "app/session/session.h"
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
	"\n"
	"Settle a filesystem question by experiment: make each candidate filesystem with the real mkfs\n"
	"on a scratch device or on an image (preallocated, on a loop device with direct I/O), run the\n"
	"workload's measurement on it in a private mount namespace, unmount and mount again for the\n"
	"cold-cache part, repeat in ABAB order, and rank the candidates by median with the spread.\n"
	"Differences inside the noise are said so and not ranked. Needs root.\n"
	"\n"
	"Options:\n"
	"  --device DEV                 a scratch block device: its data is destroyed. Refused unless it has\n"
	"                               no signature, is not mounted, not swap, has no holders and opens\n"
	"                               with O_EXCL; then type its name, or pass --destroy-data=DEV\n"
	"  --destroy-data DEV           the confirmation for --device, without a prompt\n"
	"  --image FILE                 make this image file (it must not exist; removed afterwards)\n"
	"  --size SIZE                  the image's size, at least 1G (default 1G)\n"
	"  --candidates SPEC            'FS:MKFS OPTIONS;...', e.g. 'ext4:-b 1024;ext4:-b 4096;xfs:'\n"
	"                               (default: the rules' reformat advice, the mkfs defaults and the\n"
	"                               workload's usual questions); only the mkfs tool's own options\n"
	"  --repeat N                   rounds: every candidate is made and measured N times (default 3)\n"
	"  --time-budget S              start no run that would end past S seconds (default 900; 0: none)\n"
	"  --no-system-rules            default candidates: do not load /etc/fstune/rules.d\n"
	"\n"
	"Benchmark parameters (for the workloads measured by the benchmarks; see fstune bench):\n";

struct trial_args {
	struct cli_common common;
	struct workload_spec spec;
	struct bench_config cfg;
	const char *device, *image, *candidates, *destroy;
	uint64_t image_size;
	bool image_size_given;
	unsigned repeat;
	double budget_s;
	bool no_system_rules;
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
	int status = bench_cli_parse(argc, argv, &cmd, &a->common, &a->spec, NULL);

	if (status != FST_EXIT_OK)
		return status;
	if (optind < argc)
		return usage_error("'%s': trial takes no TARGET; name it with --device or --image", argv[optind]);
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

/* The defaults: the rules' advice, each mkfs's defaults, and the workload's usual questions. */
static void default_candidates(struct trial *t, bool no_system_rules)
{
	const char *profile = json_string_value(facts_get(t->workload, "workload.profile"));
	long long per_dir = 0;
	struct fst_error err = FST_ERROR_INIT;
	const char *fixed = "ext4:;xfs:";

	candidates_from_rules(t, no_system_rules);
	facts_get_int(t->workload, "workload.files_per_dir", &per_dir);
	if (profile && (!strcmp(profile, "smallfiles") || !strcmp(profile, "source-tree")))
		trial_candidates_parse("ext4:-b 1024;ext4:-b 2048;ext4:-b 4096", "workload", &t->cands, &err);
	if (per_dir >= 10000)
		trial_candidates_parse("ext4:-O ^dir_index", "workload", &t->cands, &err);
	trial_candidates_parse(fixed, "default", &t->cands, &err);
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

static void progress_line(void *arg, unsigned round, unsigned rounds, const struct trial_candidate *c)
{
	(void)arg;
	fprintf(stderr, "\r\033[Ktrial: round %u of %u: %s", round, rounds, c->spec);
	fflush(stderr);
}

static void add_caveats(struct trial *t, const char *image)
{
	if (!t->is_device) {
		struct statvfs sv;
		char *dir = xstrdup(image), *slash = strrchr(dir, '/');

		if (slash)
			*slash = '\0';
		json_array_append_new(t->caveats, json_string(
			"an image on another filesystem cannot settle sub-4K block-size questions: the host "
			"filesystem's allocation intervenes; only --device measures the disk itself"));
		if (!t->scratch.is_loop_direct)
			json_array_append_new(t->caveats, json_string(
				"the loop device could not use direct I/O on the image's filesystem: the host's "
				"page cache is in these numbers"));
		if (statvfs(slash ? (*dir ? dir : "/") : ".", &sv) == 0 && (uint64_t)sv.f_bavail * sv.f_frsize < (1ull << 30))
			json_array_append_new(t->caveats, json_string("the image's filesystem has little free space left"));
		free(dir);
	}
	json_array_append_new(t->caveats, json_string(
		"a fresh filesystem is the optimistic case: no aging, no fragmentation, an empty journal"));
}

/* Everything between the checks and the output. Returns the status; the scratch space is cleaned by
 * the caller. */
static int prepare(struct trial_args *a, struct trial *t, struct fst_error *err)
{
	int st;

	if (a->device) {
		int fd;
		uint64_t size = 0;

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
	}
	if ((st = trial_scratch_namespace(err)) != FST_EXIT_OK)
		return st;
	if (a->image) {
		struct statvfs sv;
		char *dir = xstrdup(a->image), *slash = strrchr(dir, '/');

		if (slash)
			slash[slash == dir] = '\0';
		st = statvfs(slash ? dir : ".", &sv);
		free(dir);
		if (st == 0 && (uint64_t)sv.f_bavail * sv.f_frsize < a->image_size + (256ull << 20))
			return fst_error_set(err, FST_EXIT_REFUSED, "--image %s: refused: %llu bytes free there, "
					     "the image needs %llu and 256 MiB must stay free", a->image,
					     (unsigned long long)sv.f_bavail * sv.f_frsize,
					     (unsigned long long)a->image_size);
		if ((st = trial_scratch_image(&t->scratch, a->image, a->image_size, err)) != FST_EXIT_OK)
			return st;
	}
	if (!t->cands.n)
		default_candidates(t, a->no_system_rules);
	drop_missing_tools(t);
	if (!t->cands.n)
		return fst_error_set(err, FST_EXIT_USAGE, "no candidate can be made: no mkfs tool is installed");
	add_caveats(t, a->image ? a->image : "");
	return FST_EXIT_OK;
}

static int render(const struct trial_args *a, const struct trial *t, const struct facts *f, FILE *out)
{
	switch (a->common.format) {
	case CLI_FORMAT_JSON:
		return trial_write_json(t, f, out);
	case CLI_FORMAT_MARKDOWN:
		return trial_write_markdown(t, out);
	case CLI_FORMAT_TEXT:
	default:
		return trial_write_text(t, out);
	}
}

int cmd_trial(int argc, char **argv)
{
	struct trial_args a = {.spec = WORKLOAD_SPEC_INIT, .image_size = IMAGE_MIN, .repeat = 3, .budget_s = 900};
	struct fst_error err = FST_ERROR_INIT;
	struct cli_output *out = NULL;
	struct trial t;
	struct facts *f = NULL;
	bool is_measured = false; /* the rounds ran (a failed setup has nothing to show) */
	int status;

	memset(&t, 0, sizeof t);
	trial_scratch_init(&t.scratch);
	t.notes = json_array();
	t.caveats = json_array();
	bench_config_init(&a.cfg);
	a.cfg.busy_check_s = 0; /* the scratch filesystem is the trial's own: nothing else uses it */
	status = parse_args(argc, argv, &a);
	if (status == FST_EXIT_OK && a.candidates)
		status = trial_candidates_parse(a.candidates, "--candidates", &t.cands, &err);
	if (status == FST_EXIT_OK && geteuid() != 0)
		status = fst_error_set(&err, FST_EXIT_REFUSED, "trial needs root: it makes filesystems, loop "
				       "devices and mounts");
	t.workload = facts_new();
	if (status == FST_EXIT_OK)
		status = workload_collect(&a.spec, NULL, t.workload, NULL, &err);
	if (status == FST_EXIT_OK && !(out = cli_output_open(&a.common)))
		status = FST_EXIT_USAGE;
	if (status == FST_EXIT_OK) {
		long long io = 0;

		facts_get_int(t.workload, "workload.io_size_bytes", &io);
		t.metric = trial_metric_for(json_string_value(facts_get(t.workload, "workload.profile")), (uint64_t)io);
		t.cfg = a.cfg;
		t.repeat = a.repeat;
		t.budget_s = a.budget_s;
		t.is_device = a.device != NULL;
		t.target = a.device ? a.device : a.image;
		t.stop = bench_stop_flag();
		if (!a.common.quiet && isatty(STDERR_FILENO))
			t.progress = progress_line;
		bench_stop_install();
		status = prepare(&a, &t, &err);
	}
	if (status == FST_EXIT_OK && !*t.stop) {
		trial_tree_plan_from(t.workload, t.scratch.size_bytes, &t.plan);
		is_measured = true;
		status = trial_measure(&t, &err);
		if (t.progress)
			fputs("\r\033[K", stderr);
	}
	trial_scratch_cleanup(&t.scratch);
	if (status >= 128 || (t.stop && *t.stop)) {
		cli_output_close(out, false);
		trial_free(&t);
		bench_stop_reraise();
		return status >= 128 ? status : 128 + *t.stop; /* cancelled without a signal */
	}
	if (is_measured && (status == FST_EXIT_OK || status == FST_EXIT_PARTIAL)) {
		int w;

		if (status == FST_EXIT_PARTIAL && !a.common.quiet)
			fprintf(stderr, "fstune: some runs failed; see the notes\n");
		if (t.rounds_done <= 1)
			json_array_append_new(t.caveats, json_string(
				"one run per candidate: the spread is unknown, so differences under 5% count as noise"));
		trial_rank(&t);
		f = facts_new();
		{
			char *js = facts_to_json(t.workload);
			struct facts *copy = facts_from_json(js, strlen(js), "workload", &err);

			free(js);
			if (copy) {
				facts_free(f);
				f = copy;
			}
		}
		trial_to_facts(&t, f);
		w = render(&a, &t, f, cli_output_stream(out));
		status = fst_exit_merge(status, cli_output_close(out, w == 0));
		out = NULL;
	} else if (err.msg[0]) { /* a flag error or an unopenable --output is said already */
		fst_error_print(&err);
	}
	cli_output_close(out, false);
	facts_free(f);
	trial_free(&t);
	return status;
}
