/* The rule engine: loads rule files in DESIGN.md's order and evaluates them on facts, each file in
 * its own sandbox in its own short-lived child process.
 *
 * WHAT THE SANDBOX GUARANTEES (for any rule file, however hostile):
 *  - A rule cannot reach the machine through Lua: only string, table, math (without random), utf8,
 *    the safe base functions and the `fstune` helper module exist. There is no io, os, package,
 *    require, debug, load, loadfile, dofile, collectgarbage, string.dump, print or warn. Chunks are
 *    loaded as text only (luaL_loadbufferx mode "t"): a precompiled bytecode file is refused.
 *  - Facts are a read-only userdata proxy with a locked metatable: plain writes raise, rawset does
 *    not accept userdata, getmetatable returns "locked".
 *  - One lua_State per rule file and per run, in a forked child: no state, global or string
 *    metatable change survives into another rule (or into the next vector of the same rule).
 *  - Resource limits: a capped allocator (FSTUNE_RULES_MEM_BYTES, 64 MiB); an instruction budget
 *    (FSTUNE_RULES_INSN_BUDGET, 20 M) that stays exhausted - once spent, the count hook fires on every
 *    instruction and raises again, so pcall cannot swallow it; a wall-clock limit
 *    (FSTUNE_RULES_TIMEOUT_MS, 5 s) enforced by SIGKILL of the child, which also stops what the hook
 *    cannot see (a pathological pattern running inside C, a loop with hooks off). __gc metamethods are
 *    refused by setmetatable, because finalizers run with hooks off.
 *  - The child resets the parent's signal handlers, dies with the parent (PR_SET_PDEATHSIG), closes
 *    every inherited descriptor but its answer pipe, and runs with RLIMIT_NOFILE and RLIMIT_FSIZE 0.
 *  - Nothing a rule returns is trusted: the parent validates every field, every value against the
 *    setting table, strips control characters from every string, and builds all commands itself,
 *    shell-quoted. Any failure is an error of that rule with its file (and line where Lua gives one);
 *    every other rule still runs.
 *  - Control characters are stripped from rule text before loading; as root, a rule file or rule
 *    directory writable by group or others is refused.
 *
 * WHAT IT DOES NOT GUARANTEE:
 *  - It is not a security boundary against a kernel or Lua interpreter bug: the child is an ordinary
 *    process of the same user (no seccomp, no namespaces). Root runs rules as root.
 *  - It does not judge advice: a rule within the limits can still recommend a bad value inside the
 *    setting's valid range. Review third-party rules like any other admin script.
 *  - A rule can waste up to the limits above (CPU seconds, memory) before it is stopped.
 *  - Determinism is by construction (no clock, no random, no I/O), not proven: tostring() of a
 *    table shows an address, which a rule could branch on.
 *  - File checks are on the file and its directory, not on every ancestor directory, and not on the
 *    owner. */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/xalloc.h"
#include "fstune/clock.h"
#include "fstune/debug.h"
#include "rules/internal.h"
#include "rules/meta.h"

#ifndef FSTUNE_RULESDIR
#define FSTUNE_RULESDIR "/usr/share/fstune/rules"
#endif
#ifndef FSTUNE_RULES_D
#define FSTUNE_RULES_D "/etc/fstune/rules.d"
#endif

/* An error entry with the loader's fix command, when it has one, as its "fix" member. */
static json_t *load_error_entry(const char *rule, const char *file, const struct rules_load_msg *m)
{
	json_t *e = rules_error_entry(rule, file, 0, m->text);

	if (m->fix[0])
		json_object_set_new(e, "fix", json_string(m->fix));
	return e;
}

static json_t *answer_error(const char *id, const char *path, const json_t *answer)
{
	const json_t *e = json_object_get(answer, "error");
	const char *msg = json_string_value(json_object_get(e, "message"));
	char *clean = xstrdup(msg ? msg : "unknown error");
	json_t *entry;

	rules_strip_controls(clean, strlen(clean));
	entry = rules_error_entry(id, path, (int)json_integer_value(json_object_get(e, "line")), clean);
	free(clean);
	return entry;
}

struct load_batch {
	struct rule_file **files; /* the files to load, read already */
	const struct rules_limits *lim;
};

static json_t *child_load(void *arg, size_t i)
{
	const struct load_batch *b = arg;

	return sandbox_load(b->files[i], b->lim);
}

/* Reads every file, runs all their chunks in one child batch, validates the tables. */
static void load_paths(struct rules_set *set, char **paths, size_t n, const struct rules_limits *lim)
{
	size_t first = set->n_files, n_read = 0;
	struct load_batch b = {xcalloc(n + 1, sizeof(struct rule_file *)), lim};
	struct rules_load_msg lm;
	char msg[512];
	json_t *answers;
	double t0;

	set->files = xrealloc(set->files, (set->n_files + n + 1) * sizeof(*set->files));
	for (size_t i = 0; i < n; i++) {
		struct rule_file *rf = &set->files[set->n_files++];

		if (rules_read_file(paths[i], rf, &lm))
			n_read++;
		else
			rf->error = load_error_entry(rules_file_id(rf), rf->path, &lm);
	}
	for (size_t i = first, k = 0; i < set->n_files; i++)
		if (!set->files[i].error)
			b.files[k++] = &set->files[i];
	t0 = fst_clock_s();
	answers = rules_run_batch(n_read, child_load, &b, lim);
	DBG(DEBUG_RULES, "loaded %zu rule files in %.1f ms", n_read, (fst_clock_s() - t0) * 1e3);
	for (size_t k = 0; k < n_read; k++) {
		struct rule_file *rf = b.files[k];
		const json_t *answer = json_array_get(answers, k);
		json_t *meta = json_object_get(answer, "meta");

		if (json_object_get(answer, "error")) {
			rf->error = answer_error(rules_file_id(rf), rf->path, answer);
		} else if (rules_validate_meta(meta, json_is_true(json_object_get(answer, "has_check")),
					       msg, sizeof(msg))) {
			rf->meta = json_incref(meta);
			DBG(DEBUG_RULES, "loaded %s from %s", rules_file_id(rf), rf->path);
		} else {
			rf->error = rules_error_entry(rules_file_id(rf), rf->path, 0, msg);
		}
	}
	for (size_t i = first; i < set->n_files; i++)
		if (set->files[i].error)
			json_array_append(set->errors, set->files[i].error);
	json_decref(answers);
	free(b.files);
}

/* A later file with the same id replaces an earlier one, and the report says so. */
static void mark_replacements(struct rules_set *set)
{
	for (size_t i = 0; i < set->n_files; i++) {
		struct rule_file *rf = &set->files[i];

		if (!rf->meta)
			continue;
		for (size_t j = i + 1; j < set->n_files; j++) {
			const struct rule_file *later = &set->files[j];

			if (later->meta && !strcmp(rules_file_id(rf), rules_file_id(later))) {
				rf->is_replaced = true;
				free(rf->replaced_by);
				rf->replaced_by = xstrdup(later->path);
			}
		}
		if (rf->is_replaced)
			json_array_append_new(set->notices,
					      json_pack("{s:s, s:s, s:s}", "rule", rules_file_id(rf), "file",
							rf->replaced_by, "replaces", rf->path));
	}
}

/* A directory of rule files. One that cannot be read is an error of the set, unless it is optional
 * (then silently empty); `hint` (or NULL) says what the directory is for and how to provide it. */
static void load_dir(struct rules_set *set, const char *dir, bool optional, const char *hint,
		     const struct rules_limits *lim)
{
	struct rules_load_msg lm;
	size_t n, used;
	char **names = rules_list_dir(dir, &n, &lm);

	if (!names) {
		used = strlen(lm.text);
		/* the hint says how to provide a missing directory, not how to make one safe */
		if (hint && !lm.fix[0])
			snprintf(lm.text + used, sizeof(lm.text) - used, " (%s)", hint);
		if (!optional)
			json_array_append_new(set->errors, load_error_entry("", dir, &lm));
		return;
	}
	load_paths(set, names, n, lim);
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

static bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The built-in rules: $FSTUNE_RULES_BUILTIN, else the installed directory; but the binary that
 * `./build.sh && ./fstune` runs from its build tree has nothing installed yet, and takes the source
 * tree's rules, as `make check` does. An installed copy is never at the build tree's path. */
static const char *builtin_rules_dir(void)
{
#if defined(FSTUNE_UNINSTALLED_BINARY) && defined(FSTUNE_SOURCE_RULESDIR)
	char self[PATH_MAX], built[PATH_MAX];
#endif
	const char *env = getenv("FSTUNE_RULES_BUILTIN");

	if (env && *env)
		return env;
#if defined(FSTUNE_UNINSTALLED_BINARY) && defined(FSTUNE_SOURCE_RULESDIR)
	if (realpath("/proc/self/exe", self) && realpath(FSTUNE_UNINSTALLED_BINARY, built) &&
	    !strcmp(self, built))
		return FSTUNE_SOURCE_RULESDIR;
#endif
	return FSTUNE_RULESDIR;
}

struct rules_set *rules_load(const struct rules_options *opt, struct fst_error *err)
{
	struct rules_set *set = xcalloc(1, sizeof(*set));
	struct rules_limits lim;
	const char *path = getenv("FSTUNE_RULES_PATH");

	rules_limits_get(&lim);
	set->errors = json_array();
	set->notices = json_array();
	for (size_t i = 0; i < opt->n_rules_dirs; i++)
		if (access(opt->rules_dirs[i], R_OK | X_OK) != 0) {
			fst_error_set(err, FST_EXIT_USAGE,
				      "--rules-dir %s: not a readable directory; give a directory of *.lua rule files",
				      opt->rules_dirs[i]);
			rules_set_free(set);
			return NULL;
		}
	if (opt->n_paths > 0) {
		for (size_t i = 0; i < opt->n_paths; i++) {
			if (access(opt->paths[i], R_OK) != 0) {
				fst_error_set(err, FST_EXIT_USAGE, "%s: no such rule file or directory",
					      opt->paths[i]);
				rules_set_free(set);
				return NULL;
			}
			if (is_dir(opt->paths[i])) {
				load_dir(set, opt->paths[i], false, NULL, &lim);
			} else {
				char *one = (char *)opt->paths[i];

				load_paths(set, &one, 1, &lim);
			}
		}
		mark_replacements(set);
		return set;
	}
	load_dir(set, builtin_rules_dir(), false,
		 "the built-in rules: `make install` puts them there, or FSTUNE_RULES_BUILTIN names "
		 "their directory", &lim);
	if (!opt->no_system_rules)
		load_dir(set, FSTUNE_RULES_D, true, NULL, &lim);
	if (path && *path) {
		char *dup = xstrdup(path), *save = NULL;

		for (char *d = strtok_r(dup, ":", &save); d; d = strtok_r(NULL, ":", &save))
			load_dir(set, d, true, NULL, &lim);
		free(dup);
	}
	for (size_t i = 0; i < opt->n_rules_dirs; i++)
		load_dir(set, opt->rules_dirs[i], false, NULL, &lim);
	mark_replacements(set);
	return set;
}

void rules_set_free(struct rules_set *set)
{
	if (!set)
		return;
	for (size_t i = 0; i < set->n_files; i++) {
		free(set->files[i].path);
		free(set->files[i].text);
		free(set->files[i].replaced_by);
		json_decref(set->files[i].meta);
		json_decref(set->files[i].error);
	}
	free(set->files);
	json_decref(set->errors);
	json_decref(set->notices);
	free(set);
}

json_t *rules_missing_needs(const json_t *meta, const struct facts *facts)
{
	json_t *missing = json_array();
	size_t i;
	json_t *k;

	json_array_foreach(json_object_get(meta, "needs"), i, k) {
		const json_t *v = facts_get(facts, json_string_value(k));

		if (!v || json_is_null(v))
			json_array_append(missing, k);
	}
	return missing;
}

/* "needs fs.features (needs_root: open /dev/sda: Permission denied), bench.metadata" */
static char *missing_reason(const json_t *missing, const struct facts *facts)
{
	char *out = xstrdup("needs");
	size_t i;
	json_t *k;

	json_array_foreach(missing, i, k) {
		const char *key = json_string_value(k), *reason = NULL;
		enum facts_status st;
		char *next;

		if (facts_unavailable(facts, key, &st, &reason))
			next = xasprintf("%s%s %s (%s%s%s)", out, i ? "," : "", key, facts_status_name(st),
					 reason && *reason ? ": " : "", reason ? reason : "");
		else
			next = xasprintf("%s%s %s", out, i ? "," : "", key);
		free(out);
		out = next;
	}
	return out;
}

bool rules_needs_met(const struct rule_file *rf, const struct facts *facts, json_t *not_evaluated)
{
	json_t *missing = rules_missing_needs(rf->meta, facts);
	bool ok = json_array_size(missing) == 0;

	if (!ok && not_evaluated) {
		char *reason = missing_reason(missing, facts);

		json_array_append_new(not_evaluated,
				      json_pack("{s:s, s:s, s:s, s:O}", "rule", rules_file_id(rf), "file",
						rf->path, "reason", reason, "missing", missing));
		free(reason);
	}
	json_decref(missing);
	return ok;
}

struct check_batch {
	const struct check_job *jobs;
	const struct rules_limits *lim;
};

static json_t *child_check(void *arg, size_t i)
{
	const struct check_batch *b = arg;

	return sandbox_check(b->jobs[i].rf, b->jobs[i].facts, b->lim);
}

json_t *rules_check_batch(const struct check_job *jobs, size_t n, const struct rules_limits *lim)
{
	struct check_batch b = {jobs, lim};

	return rules_run_batch(n, child_check, &b, lim);
}

void rules_finish_answer(const struct rule_file *rf, const json_t *answer, const struct facts *facts,
			 json_t *recs, json_t *errors)
{
	if (json_object_get(answer, "error"))
		json_array_append_new(errors, answer_error(rules_file_id(rf), rf->path, answer));
	else
		rules_finish_recommendations(rf, json_object_get(answer, "recommendations"), facts, recs,
					     errors);
}

static int severity_rank(const json_t *rec)
{
	static const char *const order[] = {"critical", "warn", "suggest", "info"};
	const char *s = json_string_value(json_object_get(rec, "severity"));

	for (int i = 0; i < 4; i++)
		if (s && !strcmp(s, order[i]))
			return i;
	return 4;
}

static int cmp_rec(const void *a, const void *b)
{
	const json_t *x = *(json_t *const *)a, *y = *(json_t *const *)b;
	int d = severity_rank(x) - severity_rank(y);

	return d ? d : strcmp(json_string_value(json_object_get(x, "id")),
			      json_string_value(json_object_get(y, "id")));
}

static json_t *sorted_recs(json_t *recs)
{
	size_t n = json_array_size(recs);
	json_t **v = xcalloc(n + 1, sizeof(*v)), *out = json_array();

	for (size_t i = 0; i < n; i++)
		v[i] = json_array_get(recs, i);
	qsort(v, n, sizeof(*v), cmp_rec);
	for (size_t i = 0; i < n; i++)
		json_array_append(out, v[i]);
	free(v);
	return out;
}

void rules_evaluate(const struct rules_set *set, const struct facts *facts, struct rules_result *out)
{
	struct rules_limits lim;
	json_t *recs = json_array(), *answers;
	struct check_job *jobs;
	size_t n = 0;
	double t0;

	rules_limits_get(&lim);
	out->n_loaded = 0;
	out->not_evaluated = json_array();
	out->errors = json_deep_copy(set->errors);
	out->notices = json_deep_copy(set->notices);
	jobs = xcalloc(set->n_files + 1, sizeof(*jobs));
	for (size_t i = 0; i < set->n_files; i++) {
		const struct rule_file *rf = &set->files[i];

		if (rf->meta && !rf->is_replaced)
			out->n_loaded++;
		if (rf->meta && !rf->is_replaced && rules_needs_met(rf, facts, out->not_evaluated))
			jobs[n++] = (struct check_job){rf, facts};
	}
	t0 = fst_clock_s();
	answers = rules_check_batch(jobs, n, &lim);
	DBG(DEBUG_RULES, "evaluated %zu rule files in %.1f ms", n, (fst_clock_s() - t0) * 1e3);
	for (size_t k = 0; k < n; k++)
		rules_finish_answer(jobs[k].rf, json_array_get(answers, k), facts, recs, out->errors);
	json_decref(answers);
	free(jobs);
	out->recommendations = sorted_recs(recs);
	out->mkfs = rules_merge_mkfs(out->recommendations, facts);
	json_decref(recs);
}

void rules_result_free(struct rules_result *r)
{
	if (!r)
		return;
	json_decref(r->recommendations);
	json_decref(r->mkfs);
	json_decref(r->not_evaluated);
	json_decref(r->errors);
	json_decref(r->notices);
	memset(r, 0, sizeof(*r));
}

json_t *rules_describe(const struct rules_set *set)
{
	json_t *out = json_array();

	for (size_t i = 0; i < set->n_files; i++) {
		const struct rule_file *rf = &set->files[i];
		json_t *d;

		if (!rf->meta)
			continue;
		d = json_deep_copy(rf->meta);
		json_object_set_new(d, "file", json_string(rf->path));
		if (rf->is_replaced)
			json_object_set_new(d, "replaced_by", json_string(rf->replaced_by));
		json_array_append_new(out, d);
	}
	return out;
}

const json_t *rules_load_errors(const struct rules_set *set)
{
	return set->errors;
}

const json_t *rules_load_notices(const struct rules_set *set)
{
	return set->notices;
}
