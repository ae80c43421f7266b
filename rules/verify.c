/* A trial's verdict on one recommendation (DESIGN.md, "Recommendations": `verified`). The engine asks
 * it of every recommendation it finishes, so the report, the wizard and `rules test` see the same
 * answer, and a renderer only shows it.
 *
 * The trial facts (trial.c1, trial.c2, ... with spec, metric, median, unit, spread_pct and rank;
 * trial.best) are read as any facts are: as hostile. A candidate's spec is only compared with the
 * recommendation's mkfs spec, word by word, never run: trial checks a spec before it makes it, and
 * nothing here makes anything. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* The ranked candidate of `trial` that best makes `mkfs` (exact first, then the fewest words beyond
 * it); NULL when none does. */
static const char *matching_candidate(const json_t *trial, const json_t *mkfs)
{
	const char *best = NULL, *id;
	int best_extra = -1;
	json_t *c;

	json_object_foreach((json_t *)trial, id, c) {
		const char *spec = json_string_value(json_object_get(c, "spec"));
		int extra;

		if (!json_is_object(c) || !spec || !json_is_integer(json_object_get(c, "rank")))
			continue;
		extra = rules_mkfs_match(spec, mkfs);
		if (extra >= 0 && (best_extra < 0 || extra < best_extra)) {
			best = id;
			best_extra = extra;
		}
	}
	return best;
}

static const char *spec_of(const json_t *c)
{
	return json_string_value(json_object_get(c, "spec"));
}

static double median_of(const json_t *c)
{
	return json_number_value(json_object_get(c, "median"));
}

/* The sentence the report shows beside the verdict: candidate `id` (`c`) against the best (`bc`). */
static char *verdict_note(const char *id, const json_t *c, const char *best, const json_t *bc)
{
	json_int_t rank = json_integer_value(json_object_get(c, "rank"));
	const char *unit = json_string_value(json_object_get(c, "unit"));

	if (rank == 1 && !strcmp(id, best))
		return xasprintf("%s ranked first: median %g %s", spec_of(c), median_of(c), unit ? unit : "");
	if (rank == 1)
		return xasprintf("%s (median %g) is inside the noise of the best, %s (median %g): nothing "
				 "measured better", spec_of(c), median_of(c), spec_of(bc), median_of(bc));
	return xasprintf("%s ranked %lld: median %g against %g for %s", spec_of(c), (long long)rank,
			 median_of(c), median_of(bc), spec_of(bc));
}

void rules_verify(json_t *rec, const json_t *trial)
{
	const char *best = json_string_value(json_object_get(trial, "best"));
	const json_t *bc = best ? json_object_get(trial, best) : NULL;
	const json_t *mkfs = json_object_get(rec, "mkfs");
	const char *id = json_is_object(trial) && bc && mkfs ? matching_candidate(trial, mkfs) : NULL;
	const json_t *c = id ? json_object_get(trial, id) : NULL;
	char *note;

	if (!c)
		return;
	/* rank 1 is shared by every candidate inside the noise of the best: nothing measured better */
	json_object_set_new(rec, "verified", json_string(json_integer_value(json_object_get(c, "rank")) == 1
							 ? "confirmed" : "contradicted"));
	json_object_set_new(rec, "verified_by",
			    json_pack("{s:s, s:O, s:O, s:O, s:O, s:s, s:O, s:O, s:O?}", "candidate", id, "spec",
				      json_object_get(c, "spec"), "median", json_object_get(c, "median"),
				      "spread_pct", json_object_get(c, "spread_pct"), "rank", json_object_get(c, "rank"),
				      "best", best, "best_spec", json_object_get(bc, "spec"), "best_median",
				      json_object_get(bc, "median"), "metric", json_object_get(c, "metric")));
	note = verdict_note(id, c, best, bc);
	json_object_set_new(rec, "verified_note", json_string(note));
	free(note);
}
