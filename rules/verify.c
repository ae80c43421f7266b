/* A trial's verdict on one recommendation (DESIGN.md, "Recommendations": `verified`). The engine asks
 * it of every recommendation it finishes, so the report, the wizard and `rules test` see the same
 * answer, and a renderer only shows it.
 *
 * The trial facts (trial.c1, trial.c2, ... with spec and merged_into; trial.metrics, the metrics
 * measured; trial.comparisons, each {a, b, metric, ratio, ci95, verdict, ...}; trial.control, the
 * baseline) are read as any facts are: as hostile. A candidate's spec is only compared with the
 * recommendation's mkfs spec, word by word, never run: trial checks a spec before it makes it, and
 * nothing here makes anything.
 *
 * The verdict comes from the comparisons of the advice's candidate with the trial's baseline, on the
 * metrics the advice is about (those whose benchmark its evidence names; else all the trial
 * measured): contradicted when it measured worse on one, confirmed when better on one and worse on
 * none, unchanged when the same on all (capacity advice: the speed it costs or gains, never its
 * point, so better is unchanged too once all are settled); when it makes the baseline itself
 * ("keep the defaults"), contradicted when another candidate beat it, confirmed when every other was
 * settled and none did. Anything else is not settled: the note and the numbers, but no `verified`. */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fstune/trial_words.h"
#include "lib/xalloc.h"
#include "rules/internal.h"

/* A candidate spec "FS:OPTIONS" (trial's canonical form: "ext4:-b 1024") as its filesystem and its
 * option words, split at blanks. false for anything else, or a list of candidates (';'). */
static bool spec_split(const char *spec, char **fs, char ***words, size_t *n)
{
	const char *colon = strchr(spec, ':');
	char *rest, *save = NULL;

	*fs = NULL;
	*words = NULL;
	*n = 0;
	if (!colon || strpbrk(spec, ";\n"))
		return false;
	spec += strspn(spec, " \t");
	*fs = xstrndup(spec, strcspn(spec, " \t:"));
	rest = xstrdup(colon + 1);
	for (char *t = strtok_r(rest, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
		*words = xrealloc(*words, (*n + 1) * sizeof **words);
		(*words)[(*n)++] = xstrdup(t);
	}
	free(rest);
	return true;
}

/* Whether every comma item of `want` is among those of `have` (-E stride=16 is made by a candidate
 * with -E stride=16,stripe_width=64). */
static bool items_cover(const char *have, const char *want)
{
	char *dup = xstrdup(want), *save = NULL;
	bool ok = true;

	for (char *it = strtok_r(dup, ",", &save); ok && it; it = strtok_r(NULL, ",", &save)) {
		size_t n = strlen(it);
		const char *p = have;

		ok = false;
		for (; (p = strstr(p, it)) && !ok; p += n)
			ok = (p == have || p[-1] == ',') && (p[n] == ',' || !p[n]);
	}
	free(dup);
	return ok;
}

/* Whether option `flag` (with `val`; NULL: a switch) is among the candidate's words. */
static bool has_option(char *const *w, size_t n, const char *flag, const char *val)
{
	for (size_t j = 0; j < n; j++)
		if (!strcmp(w[j], flag) &&
		    (!val || (j + 1 < n && (!strcmp(w[j + 1], val) || items_cover(w[j + 1], val)))))
			return true;
	return false;
}

int rules_mkfs_match(const char *candidate_spec, const json_t *mkfs)
{
	const char *fs = json_string_value(json_object_get(mkfs, "fs"));
	const json_t *args = json_object_get(mkfs, "args");
	char *cfs, **w;
	size_t n, i, used = 0;
	int extra = -1;

	if (!spec_split(candidate_spec, &cfs, &w, &n) || !fs || strcmp(cfs, fs))
		goto out;
	for (i = 0; i < json_array_size(args); i += 2) {
		const char *flag = json_string_value(json_array_get(args, i));
		const char *val = json_string_value(json_array_get(args, i + 1));

		/* a trial leaves the target's identity out of its candidates (two filesystems, one UUID) */
		if (flag && (!strcmp(flag, "-L") || !strcmp(flag, "-U") ||
			     (!strcmp(flag, "-m") && val && !strncmp(val, "uuid=", 5))))
			continue;
		if (!flag || !has_option(w, n, flag, val))
			goto out;
		used += val ? 2 : 1;
	}
	extra = n > used ? (int)(n - used) : 0;
out:
	for (i = 0; i < n; i++)
		free(w[i]);
	free(w);
	free(cfs);
	return extra;
}

/* Whether `id` names a candidate of the trial facts: "c" and digits (the other members are the
 * trial's own: best, comparisons, control, ...). */
static bool is_candidate_key(const char *id)
{
	if (id[0] != 'c' || !id[1])
		return false;
	for (const char *p = id + 1; *p; p++)
		if (!isdigit((unsigned char)*p))
			return false;
	return true;
}

static const char *str_of(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

/* The candidate of `trial` that best makes `mkfs` (exact first, then the fewest words beyond it);
 * NULL when none does. */
static const char *matching_candidate(const json_t *trial, const json_t *mkfs)
{
	const char *best = NULL, *id;
	int best_extra = -1;
	json_t *c;

	json_object_foreach((json_t *)trial, id, c) {
		const char *spec = str_of(c, "spec");
		int extra;

		if (!is_candidate_key(id) || !json_is_object(c) || !spec)
			continue;
		extra = rules_mkfs_match(spec, mkfs);
		if (extra >= 0 && (best_extra < 0 || extra < best_extra)) {
			best = id;
			best_extra = extra;
		}
	}
	return best;
}

/* The candidate `id` was merged into, followed to the end (a cycle in forged facts ends it). */
static const char *resolve_merged(const json_t *trial, const char *id)
{
	for (int hops = 0; id && hops < 16; hops++) {
		const char *into = str_of(json_object_get(trial, id), "merged_into");

		if (!into || !is_candidate_key(into) || !json_is_object(json_object_get(trial, into)))
			return id;
		id = into;
	}
	return id;
}

static const json_t *metric_def(const json_t *trial, const char *name)
{
	size_t i;
	json_t *m;

	json_array_foreach(json_object_get(trial, "metrics"), i, m)
		if (name && str_of(m, "name") && !strcmp(str_of(m, "name"), name))
			return m;
	return NULL;
}

/* Whether the advice's evidence names the benchmark `test` (bench.<test>.*). */
static bool evidence_names(const json_t *rec, const char *test, const char *prefix)
{
	size_t i, n = test ? strlen(test) : 0;
	json_t *e;

	json_array_foreach(json_object_get(rec, "evidence"), i, e) {
		const char *key = str_of(e, "key");

		if (key && test && !strncmp(key, prefix, strlen(prefix)) && !strncmp(key + strlen(prefix), test, n) &&
		    (key[strlen(prefix) + n] == '.' || !key[strlen(prefix) + n]))
			return true;
	}
	return false;
}

/* Whether the advice is about metric `name`: its evidence names the metric's benchmark, or names none
 * of the trial's (then it is about all of them). */
static bool is_about(const json_t *rec, const json_t *trial, const char *name)
{
	size_t i;
	json_t *m;
	bool names_any = false;

	json_array_foreach(json_object_get(trial, "metrics"), i, m)
		names_any |= evidence_names(rec, str_of(m, "test"), "bench.");
	return !names_any || evidence_names(rec, str_of(metric_def(trial, name), "test"), "bench.");
}

/* Advice for space or identity, not speed: what a trial measures is only its cost. */
static bool is_capacity(const json_t *rec)
{
	static const char *const settings[] = {"mkfs.inode_ratio", "mkfs.inode_count", "mkfs.inode_size",
					       "mkfs.reserved_percent", "mkfs.label"};
	const char *setting = str_of(rec, "setting");

	for (size_t i = 0; setting && i < sizeof settings / sizeof settings[0]; i++)
		if (!strcmp(setting, settings[i]))
			return true;
	return evidence_names(rec, "tail_waste_bytes", "workload.");
}

/* The comparisons that judge the advice: its candidate against the baseline, or (`is_baseline`)
 * every candidate against it; on the metrics it is about. A new array. */
static json_t *judging(const json_t *rec, const json_t *trial, const char *id, const char *base, bool is_baseline)
{
	json_t *out = json_array(), *c;
	size_t i;

	json_array_foreach(json_object_get(trial, "comparisons"), i, c) {
		const char *a = str_of(c, "a"), *b = str_of(c, "b"), *kind = str_of(c, "kind");

		if (!json_is_object(c) || !a || !b || !str_of(c, "verdict") || strcmp(b, base) ||
		    !is_about(rec, trial, str_of(c, "metric")) || (kind && strcmp(kind, "candidate_vs_baseline")))
			continue;
		if (is_baseline || !strcmp(a, id))
			json_array_append(out, c);
	}
	return out;
}

static size_t count_verdict(const json_t *cmps, const char *verdict, const json_t **first)
{
	size_t i, n = 0;
	json_t *c;

	json_array_foreach(cmps, i, c)
		if (!strcmp(str_of(c, "verdict"), verdict) && !n++ && first)
			*first = c;
	return n;
}

/* The word and the comparison it rests on (NULL word: not settled). */
static const char *decide(const json_t *cmps, bool is_baseline, bool is_capacity_advice, const json_t **by)
{
	size_t n = json_array_size(cmps), better = count_verdict(cmps, "better", NULL);
	size_t worse = count_verdict(cmps, "worse", NULL), ties = count_verdict(cmps, "tie", NULL);
	size_t unsettled = n - better - worse - ties;

	*by = json_array_get(cmps, 0);
	if (is_baseline) {
		/* another candidate's "better" beat the baseline; its "worse" is the baseline's win */
		if (better) {
			count_verdict(cmps, "better", by);
			return "contradicted";
		}
		return n && !unsettled ? "confirmed" : NULL;
	}
	if (worse) {
		count_verdict(cmps, "worse", by);
		return "contradicted";
	}
	if (better && !is_capacity_advice) {
		count_verdict(cmps, "better", by);
		return "confirmed";
	}
	if (n && !unsettled)
		return "unchanged";
	count_verdict(cmps, "not_settled", by);
	return NULL;
}

/* The comparisons in words: "SPEC: WORDS; WORDS" (with the candidate named when they are several
 * candidates against the baseline). Caller frees. */
static char *comparisons_words(const json_t *trial, const json_t *cmps, bool name_each, const char *only_verdict)
{
	char *out = xstrdup("");
	size_t i;
	json_t *c;

	json_array_foreach(cmps, i, c) {
		char *w, *next;

		if (only_verdict && strcmp(str_of(c, "verdict"), only_verdict))
			continue;
		w = trial_comparison_words(c, metric_def(trial, str_of(c, "metric")));
		next = name_each ? xasprintf("%s%s%s (%s) %s", out, *out ? "; " : "", str_of(c, "a"),
					     str_of(json_object_get(trial, str_of(c, "a")), "spec")
						     ? str_of(json_object_get(trial, str_of(c, "a")), "spec") : "?", w)
				 : xasprintf("%s%s%s", out, *out ? "; " : "", w);
		free(w);
		free(out);
		out = next;
	}
	return out;
}

static char *verdict_note(const json_t *trial, const json_t *cmps, const char *spec, const char *base_spec,
			  bool is_baseline, const char *word)
{
	char *w, *note;

	if (!json_array_size(cmps))
		return xasprintf("%s is the trial's baseline and nothing else was compared with it", spec);
	if (is_baseline && word && !strcmp(word, "contradicted")) {
		w = comparisons_words(trial, cmps, true, "better");
		note = xasprintf("%s (the trial's baseline) was beaten beyond the A/A floor: %s", spec, w);
	} else if (is_baseline) {
		w = comparisons_words(trial, cmps, true, NULL);
		note = xasprintf("%s (the trial's baseline)%s: %s", spec,
				 word ? ": nothing beat it beyond the A/A floor" : ", not settled", w);
	} else {
		w = comparisons_words(trial, cmps, false, NULL);
		note = xasprintf("%s against %s (the trial's baseline): %s", spec, base_spec ? base_spec : "?", w);
	}
	free(w);
	return note;
}

/* Each comparison in words, one string each. */
static json_t *sentences(const json_t *trial, const json_t *cmps)
{
	json_t *out = json_array(), *c;
	size_t i;

	json_array_foreach(cmps, i, c) {
		char *w = trial_comparison_words(c, metric_def(trial, str_of(c, "metric")));
		const char *a = str_of(c, "a"), *spec = str_of(json_object_get(trial, a), "spec");

		json_array_append_new(out, json_sprintf("%s (%s): %s", a, spec ? spec : "?", w));
		free(w);
	}
	return out;
}

/* verified_by: the candidate, the baseline, the comparison the verdict rests on (its metric, unit,
 * ratio and interval), every comparison that judged it, and the primary metric's medians. */
static json_t *verified_by(const json_t *trial, const char *id, const char *base, const json_t *by,
			   const json_t *cmps)
{
	const json_t *c = json_object_get(trial, id), *m = metric_def(trial, str_of(by, "metric"));
	const char *best = str_of(trial, "best");
	json_t *o = json_pack("{s:s, s:O*, s:s, s:O*, s:O*, s:O*, s:O*}", "candidate", id, "spec",
			      json_object_get(c, "spec"), "baseline", base, "baseline_spec",
			      json_object_get(json_object_get(trial, base), "spec"), "median", json_object_get(c, "median"),
			      "rank", json_object_get(c, "rank"), "rounds", json_object_get(trial, "rounds"));

	if (by) {
		const char *what = str_of(m, "what") ? str_of(m, "what") : str_of(by, "metric");

		json_object_set_new(o, "metric", json_string(what ? what : "?"));
		if (str_of(m, "unit"))
			json_object_set(o, "unit", json_object_get(m, "unit"));
		if (json_is_number(json_object_get(by, "ratio")))
			json_object_set(o, "ratio", json_object_get(by, "ratio"));
		if (json_is_array(json_object_get(by, "ci95")))
			json_object_set(o, "ci95", json_object_get(by, "ci95"));
		json_object_set(o, "comparison_verdict", json_object_get(by, "verdict"));
	}
	if (best && json_is_object(json_object_get(trial, best))) {
		json_object_set_new(o, "best", json_string(best));
		json_object_set(o, "best_spec", json_object_get(json_object_get(trial, best), "spec"));
	}
	json_object_set(o, "comparisons", (json_t *)cmps);
	json_object_set_new(o, "sentences", sentences(trial, cmps));
	return o;
}

void rules_verify(json_t *rec, const json_t *trial)
{
	const json_t *mkfs = json_object_get(rec, "mkfs"), *by = NULL;
	const char *id = json_is_object(trial) && mkfs ? matching_candidate(trial, mkfs) : NULL;
	const char *base = str_of(json_object_get(trial, "control"), "candidate"), *word;
	json_t *cmps;
	bool is_baseline;
	char *note;

	id = resolve_merged(trial, id);
	if (!id || !base || !is_candidate_key(base) || !json_is_object(json_object_get(trial, base)))
		return;
	is_baseline = !strcmp(id, base);
	cmps = judging(rec, trial, id, base, is_baseline);
	if (!json_array_size(cmps) && !is_baseline) {
		json_decref(cmps);
		return;
	}
	word = decide(cmps, is_baseline, is_capacity(rec), &by);
	if (word)
		json_object_set_new(rec, "verified", json_string(word));
	json_object_set_new(rec, "verified_by", verified_by(trial, id, base, by, cmps));
	note = verdict_note(trial, cmps, str_of(json_object_get(trial, id), "spec"),
			    str_of(json_object_get(trial, base), "spec"), is_baseline, word);
	json_object_set_new(rec, "verified_note", json_string(note));
	free(note);
	json_decref(cmps);
}
