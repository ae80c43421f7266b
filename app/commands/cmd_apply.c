/* `fstune apply`: the runtime, online and remount changes of a fresh report (or of a saved one whose
 * values are still what it saw), each journaled, made, and verified; see app/apply/. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/commands/accepted_cli.h"
#include "app/commands/rules_cli.h"
#include "app/apply/apply.h"
#include "app/apply/apply_cli.h"
#include "app/cli.h"
#include "app/commands/cmd_apply.h"
#include "app/commands/workload_cli.h"
#include "app/session/session.h"
#include "fstune/bench.h"
#include "fstune/status.h"
#include "fstune/workload.h"
#include "lib/xalloc.h"
#include "fstune/utf8.h"

enum {
	OPT_ONLY = CLI_OPT_COMMAND_BASE,
	OPT_CLASS,
	OPT_RULES_DIR,
	OPT_NO_SYSTEM_RULES, /* OPT_RULES_DIR + 1, as RULES_CLI_OPTIONS has it */
	OPT_ACCEPT,
	OPT_ACCEPTED, /* OPT_ACCEPT + 1, as ACCEPTED_CLI_OPTIONS has it */
	APPLY_CLI_OPT_BASE, /* --root, --live, --dry-run (apply_cli.h) */
};

static const char usage_text[] =
	"Usage: fstune apply [options] [TARGET]\n"
	"\n"
	"Make the runtime, online and remount changes the rules recommend for TARGET (default: the\n"
	"current directory), each written first to an undo journal, then made with the commands the\n"
	"report shows, its persistent form installed (a sysctl.d line, a udev rule, an fstab option),\n"
	"and verified by probing it again; a change that does not take rolls back the whole run (status\n"
	"3). Offline, reboot and reformat advice is shown, never run, and so is a finding the admin\n"
	"accepted (accepted.conf, --accept), unless --only names it. fstune undo takes a run back.\n"
	"\n"
	"Options:\n"
	"  --report FILE                apply a saved report (report --format json) after checking\n"
	"                               that every value is still what it saw, on the host it names\n"
	"  --facts FILE                 evaluate the rules on saved facts; TARGET (default: the\n"
	"                               facts' mount point or device) is probed to check the values\n"
	"  --only ID,...                only these recommendations (ids as the report shows them)\n"
	"  --class runtime,online,remount  only these classes (default: all three)\n"
	"  --yes                        no confirmation prompt (needed when not on a terminal)\n"
	"  --host-wide                  inside a container: make the changes the whole host shares\n"
	"                               too (vm.* sysctls, the disk's queue and bdi: every tenant's);\n"
	"                               without it they are refused (status 4)\n"
	"  --accept ID                  keep finding ID as it is (repeatable)\n"
	"  --accepted FILE              read the accepted findings from FILE instead of\n"
	"                               /etc/fstune/accepted.conf (also $FSTUNE_ACCEPTED)\n"
	"  --rules-dir DIR              also load the rule files in DIR, last (repeatable)\n"
	"  --no-system-rules            do not load /etc/fstune/rules.d\n"
	APPLY_CLI_HELP
	"\n";

struct apply_args {
	struct cli_common common;
	struct apply_cli ac;
	struct workload_spec spec;
	bool has_workload;
	const char *target, *report, *facts;
	json_t *only;      /* array of ids, or NULL */
	unsigned classes;
	bool is_yes;
	bool is_host_wide; /* --host-wide: the admin owns the host the container runs on */
	struct rules_options ro; /* --rules-dir, --no-system-rules */
	struct accepted_cli acc; /* --accept IDs, then the file's entries; --accepted FILE */
};

#define usage_error(...) cli_usage_error("apply", __VA_ARGS__)

static int own_option(void *arg, int opt, const char *value)
{
	struct apply_args *a = arg;
	struct fst_error err = FST_ERROR_INIT;
	int rc = apply_cli_option(&a->ac, opt, APPLY_CLI_OPT_BASE, value, "apply");

	if (rc == 0)
		rc = accepted_cli_option(&a->acc, opt, OPT_ACCEPT, value, "apply");
	if (rc != 0)
		return rc < 0 ? FST_EXIT_USAGE : FST_EXIT_OK;
	if (rules_cli_option(&a->ro, opt, OPT_RULES_DIR, value))
		return FST_EXIT_OK;
	switch (opt) {
	case OPT_ONLY: {
		char *copy = xstrdup(value), *save = NULL;

		if (!a->only)
			a->only = json_array();
		for (char *w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save))
			json_array_append_new(a->only, fst_json_text(w));
		free(copy);
		break;
	}
	case OPT_CLASS:
		if (apply_class_parse(value, &a->classes, &err) != FST_EXIT_OK)
			return usage_error("%s", err.msg);
		break;
	default:
		return usage_error("unexpected option");
	}
	return FST_EXIT_OK;
}

static int parse_args(int argc, char **argv, struct apply_args *a)
{
	static const struct option opts[] = {
		APPLY_CLI_OPTIONS(APPLY_CLI_OPT_BASE),
		CLI_STRING("report", struct apply_args, report),
		CLI_STRING("facts", struct apply_args, facts),
		{"only", required_argument, NULL, OPT_ONLY},
		{"class", required_argument, NULL, OPT_CLASS},
		CLI_FLAG("yes", struct apply_args, is_yes),
		CLI_FLAG("host-wide", struct apply_args, is_host_wide),
		RULES_CLI_OPTIONS(OPT_RULES_DIR),
		ACCEPTED_CLI_OPTIONS(OPT_ACCEPT),
		{NULL, 0, NULL, 0},
	};
	char *usage = xasprintf("%s%s\n", usage_text, workload_cli_help);
	int status = workload_cli_parse(argc, argv, &a->common,
					&(struct cli_parser){.opts = opts, .usage = usage, .own = own_option, .arg = a},
					&a->spec, &a->has_workload);

	free(usage);
	if (status == FST_EXIT_OK)
		status = cli_one_operand(argc, argv, "apply", "TARGET", &a->target);
	if (status != FST_EXIT_OK)
		return status;
	if (a->report && a->facts)
		return usage_error("--report and --facts exclude each other");
	if ((a->report || a->facts) && a->has_workload)
		return usage_error("--%s: the workload is the one the file describes; workload flags go with a "
				   "fresh report of TARGET", a->report ? "report" : "facts");
	if (a->report && (a->ro.n_rules_dirs || a->ro.no_system_rules))
		return usage_error("--report: the report's recommendations are applied as they are; --rules-dir "
				   "and --no-system-rules go with a fresh report or --facts");
	return apply_cli_check(&a->ac, &a->common, "apply");
}

/* A fresh report of TARGET, or the rules on a facts file: the session, evaluated. */
static struct session *evaluate(struct apply_args *a, struct fst_error *err)
{
	/* no benchmarks: what apply changes rests on the probed values, which it checks again after */
	struct session_plan plan = {.target = a->target, .facts_path = a->facts, .workload = &a->spec, .rules = &a->ro,
				    .accepted = a->acc.accepted};
	struct session *s;

	session_run(&plan, &s, err);
	if (s && session_rule_errors(s) && !a->common.quiet)
		fprintf(stderr, "fstune: note: %zu rule error%s (fstune report lists them): what those rules would "
			"advise is not in this plan\n", session_rule_errors(s), session_rule_errors(s) == 1 ? "" : "s");
	return s;
}

/* A saved report: its recommendations, if it was made on this host. */
static json_t *load_report(const char *path, const char **target, struct fst_error *err)
{
	json_error_t jerr;
	json_t *doc = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
	const json_t *gen;
	const char *host, *schema;

	if (!doc) {
		fst_error_set(err, FST_EXIT_USAGE, "--report %s: line %d: %s", path, jerr.line, jerr.text);
		return NULL;
	}
	gen = json_object_get(doc, "generated");
	host = json_string_value(json_object_get(gen, "host"));
	schema = json_string_value(json_object_get(doc, "schema"));
	if (!schema || strcmp(schema, "fstune.report/1") || !json_is_array(json_object_get(doc, "recommendations"))) {
		fst_error_set(err, FST_EXIT_USAGE, "--report %s: not a fstune.report/1 document with recommendations "
			      "(write one with fstune report --format json)", path);
	} else if (!host || strcmp(host, journal_host())) {
		fst_error_set(err, FST_EXIT_REFUSED, "--report %s was made on host %s, and this is %s: its values and "
			      "devices are another machine's; make a report here", path, host ? host : "(unnamed)",
			      journal_host());
	} else {
		const json_t *facts = json_object_get(doc, "facts");

		/* a report made from a facts file names no target: the one its facts describe */
		if (!*target)
			*target = json_string_value(json_object_get(gen, "target"));
		if (!*target)
			*target = json_string_value(json_object_get(json_object_get(facts, "fs"), "mount_point"));
		if (!*target)
			*target = json_string_value(json_object_get(json_object_get(facts, "device"), "path"));
		return doc;
	}
	json_decref(doc);
	return NULL;
}

/* The target a saved file's changes act on, for the re-probe: TARGET, else what the facts name. */
static const char *facts_target(const struct apply_args *a, const struct session *s)
{
	const char *mp = facts_get_string(s->facts, "fs.mount_point");

	return a->target ? a->target : mp ? mp : facts_get_string(s->facts, "device.path");
}

/* One prompt per disruption class on a terminal (*is_asked set); the changes of a class not
 * confirmed are dropped. */
static int confirm(const struct apply_args *a, json_t *plan, bool *is_asked, struct fst_error *err)
{
	static const char *const classes[] = {"runtime", "online", "remount"};
	char *line = NULL;
	size_t cap = 0;

	if (a->is_yes || a->ac.env.is_dry_run || json_array_size(plan) == 0)
		return FST_EXIT_OK;
	if (!isatty(STDIN_FILENO))
		return fst_error_set(err, FST_EXIT_REFUSED, "not on a terminal, so nobody can confirm: pass --yes to "
				     "apply %zu change%s (see them first with --dry-run)", json_array_size(plan),
				     json_array_size(plan) == 1 ? "" : "s");
	for (size_t k = 0; k < 3; k++) {
		size_t i, n = 0;
		json_t *c;

		json_array_foreach(plan, i, c)
			if (!strcmp(json_string_value(json_object_get(c, "disruption")), classes[k])) {
				char *old = apply_value_text(json_object_get(c, "old")), *new = apply_value_text(json_object_get(c, "new"));

				fprintf(stderr, "  %s: %s -> %s   %s\n", json_string_value(json_object_get(c, "setting")), old,
					new, json_string_value(json_array_get(json_object_get(c, "apply"), 0)));
				free(old);
				free(new);
				n++;
			}
		if (!n)
			continue;
		*is_asked = true;
		fprintf(stderr, "Apply %s change%s of class %s%s? [y/N] ", n == 1 ? "this" : "these", n == 1 ? "" : "s",
			classes[k], !strcmp(classes[k], "remount") ? " (the filesystem is remounted)" : "");
		if (getline(&line, &cap, stdin) < 0 || (line[0] != 'y' && line[0] != 'Y')) {
			for (i = json_array_size(plan); i-- > 0;)
				if (!strcmp(json_string_value(json_object_get(json_array_get(plan, i), "disruption")), classes[k]))
					json_array_remove(plan, i);
			fprintf(stderr, "fstune: %s changes skipped\n", classes[k]);
		}
	}
	free(line);
	return FST_EXIT_OK;
}

/* After a prompt, which may have waited long: the target probed again, under the lock, and every
 * value still the one the plan was made from (else refused); *facts become the new ones. */
static int probe_again(json_t *plan, struct facts **facts, const char *target, struct fst_error *err)
{
	struct facts *now = target ? apply_probe(target, err) : NULL;
	int status;

	if (!now)
		return target ? FST_EXIT_REFUSED : FST_EXIT_OK;
	status = apply_plan_check_current(plan, now, false, err);
	facts_free(*facts);
	*facts = now;
	return status;
}

static void show_not_run(const json_t *shown, FILE *log)
{
	size_t i;
	json_t *e;

	json_array_foreach(shown, i, e)
		apply_log(log, "not run: %s (%s): %s", json_string_value(json_object_get(e, "id")),
			  json_string_value(json_object_get(e, "disruption")), json_string_value(json_object_get(e, "why")));
}

/* The run's record; the paths are bytes from the machine and the command line (journal_set_bytes). */
static json_t *run_record(const struct apply_args *a, const char *target, const struct facts *facts)
{
	const char *kind = a->report ? "report" : a->facts ? "facts" : "probe";
	json_t *run = json_pack("{s:s, s:s, s:s}", "host", journal_host(), "started", journal_now(), "fstune",
				PACKAGE_VERSION);
	json_t *from = json_pack("{s:s}", "kind", kind);

	journal_set_bytes(run, "target", target);
	journal_set_bytes(from, "path", a->report ? a->report : a->facts);
	json_object_set_new(run, "from", from);
	journal_set_bytes(run, "root", a->ac.env.root);
	json_object_set_new(run, "identity", apply_identity(facts));
	json_object_set_new(run, "live", json_boolean(a->ac.env.is_live));
	json_object_set_new(run, "state", json_string("running"));
	return run;
}

/* A saved report's (or facts file's) plan against the target probed now: the device and mount point
 * its commands name are the target's, here, and each value is still the one it was made from. */
static int check_saved(json_t *plan, const json_t *report, const struct session *s, const struct facts *now,
		       struct fst_error *err)
{
	struct facts *saved = facts_new();
	int status;

	if (report && json_is_object(json_object_get(report, "facts"))) {
		json_decref(saved->doc);
		saved->doc = json_incref(json_object_get(report, "facts"));
	}
	status = apply_plan_check_names(plan, report ? saved : s->facts, now, err);
	if (status == FST_EXIT_OK)
		status = apply_plan_check_current(plan, now, true, err);
	facts_free(saved);
	return status;
}

/* Everything between the arguments and the engine: the recommendations, the facts the changes act
 * on (probed now), the plan. Returns the status; *plan and *facts set on FST_EXIT_OK. */
static int prepare(struct apply_args *a, json_t **plan, json_t **shown, struct facts **facts, char **target,
		   struct fst_error *err)
{
	struct session *s = NULL;
	json_t *report = NULL;
	const json_t *recs;
	const char *t = a->target;
	int status;

	if (accepted_cli_load(&a->acc, a->ro.no_system_rules, err) != FST_EXIT_OK)
		return err->status;
	if (a->report) {
		if (!(report = load_report(a->report, &t, err)))
			return err->status;
		/* the marks the report was saved with stay; today's accepted findings are added */
		accepted_mark(a->acc.accepted, json_object_get(report, "recommendations"), json_object_get(report, "facts"));
		recs = json_object_get(report, "recommendations");
	} else {
		if (!(s = evaluate(a, err)))
			return err->status != FST_EXIT_OK ? err->status : FST_EXIT_USAGE;
		recs = s->result.recommendations;
		t = a->facts ? facts_target(a, s) : s->target->path;
	}
	status = apply_plan_build(recs, a->only, a->classes, plan, shown, err);
	if (status == FST_EXIT_OK && (a->report || a->facts)) {
		*facts = t ? apply_probe(t, err) : NULL;
		if (!*facts)
			status = t ? FST_EXIT_USAGE : fst_error_set(err, FST_EXIT_USAGE, "name the TARGET the changes are for");
		else
			status = check_saved(*plan, report, s, *facts, err);
	} else if (status == FST_EXIT_OK) {
		*facts = s->facts;
		s->facts = facts_new(); /* the facts outlive the session */
	}
	/* --root DIR alone writes files under DIR for another system, and changes nothing here */
	if (status == FST_EXIT_OK)
		status = apply_plan_check_host_wide(*plan, *facts, a->is_host_wide || !a->ac.env.is_live, err);
	*target = t ? realpath(t, NULL) : NULL;
	if (!*target && t)
		*target = xstrdup(t);
	json_decref(report);
	session_free(s);
	return status;
}

static int finish(const struct apply_args *a, json_t *plan, json_t *shown, const char *journal)
{
	struct fst_output *out = cli_output_open(&a->common);
	FILE *fp;
	size_t i;
	json_t *c;

	if (!out)
		return FST_EXIT_USAGE;
	fp = fst_output_stream(out);
	if (a->common.format == CLI_FORMAT_JSON) {
		json_t *doc = json_pack("{s:s?, s:b, s:O, s:O}", "journal", journal, "dry_run", a->ac.env.is_dry_run,
					"changes", plan, "not_run", shown);

		json_dumpf(doc, fp, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		fputc('\n', fp);
		json_decref(doc);
	} else if (!a->common.quiet) {
		json_array_foreach(plan, i, c) {
			char *old = apply_value_text(json_object_get(c, "old")), *new = apply_value_text(json_object_get(c, "new"));

			fprintf(fp, "%-12s %-34s %s -> %s\n", a->ac.env.is_dry_run ? "dry-run" : json_string_value(json_object_get(c, "state")),
				json_string_value(json_object_get(c, "setting")), old, new);
			free(old);
			free(new);
		}
		if (journal)
			fprintf(fp, "journal: %s\n", journal);
	}
	return cli_output_close(out, true);
}

int cmd_apply(int argc, char **argv)
{
	struct apply_args a = {.spec = WORKLOAD_SPEC_INIT, .classes = APPLY_CLASS_ALL, .acc.accepted = accepted_new()};
	struct fst_error err = FST_ERROR_INIT;
	json_t *plan = NULL, *shown = NULL;
	struct facts *facts = NULL;
	char *target = NULL, *journal = NULL;
	FILE *log;
	bool is_asked = false;
	int lock = -1, status = parse_args(argc, argv, &a);

	log = a.common.quiet ? NULL : a.common.format == CLI_FORMAT_JSON ? stderr : stdout;
	/* the lock before the probe: a second apply must see what the first changed, not plan the
	 * same change from the same old values and journal them as its own */
	if (status == FST_EXIT_OK && !a.ac.env.is_dry_run && (lock = journal_lock(a.ac.env.root, log, &err)) < 0)
		status = err.status;
	if (status == FST_EXIT_OK)
		status = prepare(&a, &plan, &shown, &facts, &target, &err);
	if (status == FST_EXIT_OK) {
		show_not_run(shown, log);
		a.ac.env.target = target;
		status = confirm(&a, plan, &is_asked, &err);
	}
	if (status == FST_EXIT_OK && is_asked && json_array_size(plan))
		status = probe_again(plan, &facts, target, &err);
	if (status == FST_EXIT_OK && json_array_size(plan) == 0)
		apply_log(log, "nothing to apply");
	else if (status == FST_EXIT_OK)
		status = apply_run(plan, run_record(&a, target, facts), facts, &a.ac.env, log, &journal, &err);
	if (lock >= 0)
		close(lock);
	if (status != FST_EXIT_OK && status < 128 && err.msg[0])
		fst_error_print(&err);
	if (status == FST_EXIT_OK || status == FST_EXIT_PARTIAL || status >= 128) {
		int written = finish(&a, plan, shown, journal);

		if (status < 128)
			status = fst_exit_merge(status, written);
	}
	json_decref(plan);
	json_decref(shown);
	json_decref(a.only);
	facts_free(facts);
	rules_cli_free(&a.ro);
	accepted_free(a.acc.accepted);
	free(target);
	free(journal);
	apply_cli_free(&a.ac);
	if (status >= 128)
		bench_stop_reraise();
	return status;
}
