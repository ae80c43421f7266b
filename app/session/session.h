/* The session: everything one run of fstune produced (the target, its facts with the workload and
 * the benchmark results, the loaded rules and their result with the accepted findings marked),
 * shared by `fstune report`, the wizard, trial and apply, and read as it is by every renderer. */
#ifndef FSTUNE_APP_SESSION_H
#define FSTUNE_APP_SESSION_H

#include <jansson.h>
#include <stdbool.h>

#include "app/session/accepted.h"
#include "fstune/bench.h"
#include "fstune/error.h"
#include "fstune/facts.h"
#include "fstune/probe.h"
#include "fstune/rules.h"
#include "fstune/workload.h"

/* Which benchmark suite a run asks for (`report --bench none|quick|full`): the bench layer's suites. */
enum session_bench {
	SESSION_BENCH_NONE,
	SESSION_BENCH_QUICK,
	SESSION_BENCH_FULL,
};

enum session_origin {
	SESSION_FROM_TARGET, /* facts probed from a TARGET in this run */
	SESSION_FROM_FILE,   /* facts read from a file: nothing was probed */
};

struct session {
	enum session_origin origin;
	struct probe_target *target; /* the resolved TARGET; NULL for SESSION_FROM_FILE */
	char *facts_path;            /* the --facts FILE; NULL for SESSION_FROM_TARGET */
	json_t *facts_warnings;      /* the file's keys the schema does not know, as messages
					("unknown key fs.tpye"); NULL for SESSION_FROM_TARGET */
	struct facts *facts;         /* never NULL once created; benchmark results land in bench.* */
	struct facts *given_workload; /* the workload branch the facts came with (a file's own description;
					 none for a probed TARGET): each workload step starts from it */
	bool is_workload_described;  /* a workload step ran: the next one starts again from given_workload */
	enum session_bench bench;    /* the suite that ran (SESSION_BENCH_NONE: none); the parameters
					it used are the facts' bench.parameters */
	json_t *bench_notes;         /* array of strings the bench layer wants read; NULL: none ran */
	char *bench_refusal;         /* why the benchmarks asked for did not run (refused); NULL: they ran */
	char *bench_skipped;         /* why none ran although none was refused: the default's reason,
					"--bench none", saved facts; NULL: they ran or were refused */
	struct rules_set *rules;     /* NULL until session_load_rules */
	struct rules_result result;  /* all NULL members until session_evaluate */
	bool is_evaluated;           /* session_evaluate has filled `result` */
	bool is_verbose;             /* --verbose: renderers also show what only hand-written facts
					could change */
	struct accepted *accepted;   /* the findings the admin accepted, marked at each evaluation;
					borrowed (the front end's, it outlives the session); NULL: none */
	json_t *accepted_stale;      /* accepted entries no loaded rule can make ({"id", "by", "reason"}),
					as of the last evaluation; NULL when none */
};

/* Resolves TARGET (NULL: the current directory) and runs every probe on it. Returns NULL with `err`
 * set (FST_EXIT_USAGE for a target that cannot be resolved). A probe that fails is a fact, not an
 * error: see session_status(). */
struct session *session_from_target(const char *target, struct fst_error *err);

/* Reads facts saved earlier (`probe --format json`, a `fstune.report/1` document, or a hand-written
 * file). Returns NULL with `err` set (FST_EXIT_USAGE): by the facts core, naming the file, the line or
 * the key; or when the file has neither a "device" nor an "fs" group, so nothing could be judged.
 * Unknown keys and groups are not errors: they are in s->facts_warnings. */
struct session *session_from_facts_file(const char *path, struct fst_error *err);

/* Overrides host.target_os ("linux" or "freebsd"; validated by the caller), source "user". */
void session_set_target_os(struct session *s, const char *target_os);

/* The workload step, after probing and before the benchmarks (they size the file tests): describes
 * the workload with `spec` on top of the workload the facts came with, so a second call replaces
 * what the first described. On a TARGET: preset, sample, overrides, observation (workload_collect,
 * with `hooks` for progress; may be NULL). On saved facts nothing is measured: a spec that says
 * nothing keeps the file's description, a preset replaces it, overrides alone refine it (a file
 * describing no workload gets the implicit general preset under them). When the rules are loaded
 * they are evaluated again. Returns workload_collect's status (FST_EXIT_USAGE: the sample directory
 * cannot be opened; FST_EXIT_PARTIAL: the observation failed), err set. */
int session_describe_workload(struct session *s, const struct workload_spec *spec,
			      const struct workload_hooks *hooks, struct fst_error *err);

/* The benchmark step, run between probing (and the workload, which sizes the file tests) and the
 * rules: runs `bench`'s suite on the TARGET with `cfg` (its parameters, progress and stop flag; NULL:
 * the defaults; cfg->suite and cfg->tests are taken as given unless cfg->tests is empty, then the suite
 * is `bench`'s). Results land in bench.* (source "bench"), the parameters used in bench.parameters,
 * the notes in s->bench_notes. SESSION_BENCH_NONE does nothing and returns FST_EXIT_OK.
 *
 * Returns bench_run's status: FST_EXIT_OK; FST_EXIT_USAGE (no TARGET, an image file, a bad test list;
 * err set: the run stops); FST_EXIT_REFUSED (nothing ran: no space, read-only; err set; the report can
 * still be written); FST_EXIT_PARTIAL (a test failed, marked `failed` in the facts; err set); 128+n
 * when stopped by signal n, after the bench layer removed its scratch directory (the caller cleans up
 * and calls bench_stop_reraise). Signal handlers are the caller's (bench_stop_install). */
int session_bench(struct session *s, enum session_bench bench, const struct bench_config *cfg,
		  struct fst_error *err);

/* The default suite for a TARGET when --bench is not given: quick where bench_can_run says the default
 * quick suite can run, else none, with the reason in s->bench_skipped (also for saved facts, a
 * captured machine, an image). Never a refusal: a benchmark the admin did not ask for is skipped. */
enum session_bench session_bench_default(struct session *s);

/* Records why no benchmark ran (`--bench none`, a default skipped); replaces an earlier reason. */
void session_bench_skip(struct session *s, const char *why);

/* Loads the rule files (built-in, /etc, $FSTUNE_RULES_PATH, --rules-dir). Returns FST_EXIT_OK, or
 * FST_EXIT_USAGE with `err` set (a --rules-dir that does not exist). Load errors of single files are
 * not failures here: they appear in the result's `errors`. */
int session_load_rules(struct session *s, const struct rules_options *opt, struct fst_error *err);

/* Evaluates the loaded rules on the facts (again, if called twice: the wizard re-evaluates after
 * the workload, the benchmarks or a trial change the facts), then marks the findings s->accepted
 * accepts and lists its stale entries in s->accepted_stale. A trial's verdicts (`verified`) are the
 * engine's, from the trial.* facts. Needs session_load_rules first. */
void session_evaluate(struct session *s);

/* Counts of the result, for thresholds and summaries. */
size_t session_count_severity_at_least(const struct session *s, const char *severity);
size_t session_rule_errors(const struct session *s);
/* The same count without the findings marked accepted (accepted.h): what --fail-on looks at. */
size_t session_count_failing(const struct session *s, const char *severity);

/* Severity order: info 0, suggest 1, warn 2, critical 3; -1 for anything else. */
int session_severity_rank(const char *severity);

/* The strings of a JSON array joined by ", " (facts_warnings in a message). Caller frees. */
char *session_join_messages(const json_t *messages);

/* Whether no rule could run at all: none loaded, and loading reported errors (e.g. the built-in
 * rules refused as writable by group). An empty rule set without errors is not this. */
bool session_no_rule_ran(const struct session *s);

/* Whether the facts were written by hand: read from a file, and some value has source "user" (a
 * saved probe records a probe's source for each value). */
bool session_facts_are_hand_written(const struct session *s);

/* The status of the finished run (DESIGN.md): FST_EXIT_PARTIAL when a fact has status `failed`,
 * when no rule could run at all, or when `strict` and a rule had an error; else FST_EXIT_OK. Thresholds are the caller's. */
int session_status(const struct session *s, bool strict);

void session_free(struct session *s);

/* ---- The pipeline (session_run.c): the steps above in their order, for every front end ---- */

enum session_say {
	SESSION_SAY_NOTE,    /* worth reading; a quiet run may drop it */
	SESSION_SAY_WARNING, /* a facts file's key the schema does not know */
	SESSION_SAY_ERROR,   /* a step failed and the run went on (partial, refused) */
};

/* One run, as a front end asks for it. Zero-initialised: probe the current directory, no workload
 * step, no benchmarks, no rules. */
struct session_plan {
	const char *target;                     /* the TARGET to probe (NULL: the current directory) */
	const char *facts_path;                 /* or saved facts to read: nothing is probed */
	bool strict_facts;                      /* a facts file's unknown keys are a usage error */
	const char *target_os;                  /* overrides host.target_os; NULL: as probed */
	bool is_verbose;                        /* renderers also show what only hand-written facts change */
	const struct workload_spec *workload;   /* NULL: no workload step */
	const struct workload_hooks *workload_hooks;
	const struct facts *workload_described; /* or a workload described earlier, copied in as the
						   step's result (trial describes it once for all) */
	enum session_bench bench;               /* the suite asked for */
	bool bench_is_default;                  /* none asked for: the TARGET's default (session_bench_default) */
	const char *bench_none_why;             /* SESSION_BENCH_NONE asked for: the reason to record */
	const struct bench_config *bench_cfg;   /* NULL: the defaults; the stop handlers are installed
						   (bench_stop_install) before the benchmarks run */
	const struct rules_options *rules;      /* NULL: the rules are not loaded nor evaluated */
	struct accepted *accepted;              /* the findings the admin accepted (accepted_cli_load),
						   marked at each evaluation; borrowed: it must outlive
						   the session. NULL: none */
	void (*say)(void *arg, enum session_say kind, const char *msg);
	void *arg;
};

/* Runs the plan: the session (probed or read), the facts file's warnings, the workload, the
 * benchmarks, the rules and the accepted findings (a stale entry said as a note). Returns the status so far with *out set: FST_EXIT_OK, or FST_EXIT_PARTIAL /
 * FST_EXIT_REFUSED from steps after which the run goes on (said as SESSION_SAY_ERROR). Or, with *out
 * NULL: a usage error (err set, not said), or 128+n when a signal stopped the benchmarks (nothing
 * left behind; the caller calls bench_stop_reraise). */
int session_run(const struct session_plan *p, struct session **out, struct fst_error *err);

#endif
