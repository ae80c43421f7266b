/* A trial's verdict on the report's reformat advice: each recommendation with an mkfs spec that a
 * measured candidate makes is marked confirmed or contradicted, with the numbers (trial.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/trial/trial.h"
#include "lib/xalloc.h"

/* trial.cN for the candidate that best matches `mkfs` (exact first, then fewest extra options);
 * NULL when none does. */
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
		extra = trial_spec_match(spec, mkfs);
		if (extra >= 0 && (best_extra < 0 || extra < best_extra)) {
			best = id;
			best_extra = extra;
		}
	}
	return best;
}

void trial_verify(json_t *recs, const struct facts *f)
{
	const json_t *trial = facts_get(f, "trial");
	const char *best = json_string_value(json_object_get(trial, "best"));
	const json_t *bc = best ? json_object_get(trial, best) : NULL;
	size_t i;
	json_t *rec;

	if (!json_is_object(trial) || !bc)
		return;
	json_array_foreach(recs, i, rec) {
		const json_t *mkfs = json_object_get(rec, "mkfs");
		const char *id = mkfs ? matching_candidate(trial, mkfs) : NULL;
		const json_t *c = id ? json_object_get(trial, id) : NULL;
		json_int_t rank;
		bool is_confirmed;
		char *note;

		if (!c)
			continue;
		rank = json_integer_value(json_object_get(c, "rank"));
		is_confirmed = rank == 1;
		json_object_set_new(rec, "verified", json_string(is_confirmed ? "confirmed" : "contradicted"));
		json_object_set_new(rec, "verified_by",
				    json_pack("{s:s, s:O, s:O, s:O, s:O, s:s, s:O, s:O, s:O?}", "candidate", id,
					      "spec", json_object_get(c, "spec"), "median", json_object_get(c, "median"),
					      "spread_pct", json_object_get(c, "spread_pct"), "rank",
					      json_object_get(c, "rank"), "best", best, "best_spec",
					      json_object_get(bc, "spec"), "best_median", json_object_get(bc, "median"),
					      "metric", json_object_get(c, "metric")));
		if (is_confirmed && !strcmp(id, best))
			note = xasprintf("%s ranked first: median %g %s", json_string_value(json_object_get(c, "spec")),
					 json_number_value(json_object_get(c, "median")),
					 json_string_value(json_object_get(c, "unit")) ? json_string_value(json_object_get(c, "unit")) : "");
		else if (is_confirmed)
			note = xasprintf("%s (median %g) is inside the noise of the best, %s (median %g): nothing "
					 "measured better", json_string_value(json_object_get(c, "spec")),
					 json_number_value(json_object_get(c, "median")),
					 json_string_value(json_object_get(bc, "spec")),
					 json_number_value(json_object_get(bc, "median")));
		else
			note = xasprintf("%s ranked %lld: median %g against %g for %s", json_string_value(json_object_get(c, "spec")),
					 (long long)rank, json_number_value(json_object_get(c, "median")),
					 json_number_value(json_object_get(bc, "median")),
					 json_string_value(json_object_get(bc, "spec")));
		json_object_set_new(rec, "verified_note", json_string(note));
		free(note);
	}
}
