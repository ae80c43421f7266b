/* A trial's comparison in words (trial_words.h). */
#include "config.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "fstune/trial_words.h"
#include "lib/xalloc.h"

static const char *str(const json_t *o, const char *key, const char *def)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : def;
}

static double num(const json_t *v)
{
	return json_is_number(v) ? json_number_value(v) : NAN;
}

char *trial_comparison_words(const json_t *c, const json_t *metric)
{
	const char *what = str(metric, "what", str(c, "metric", "?")), *verdict = str(c, "verdict", "?");
	bool higher = strcmp(str(metric, "better", "higher"), "lower") != 0;
	const json_t *ci = json_object_get(c, "ci95");
	double r = num(json_object_get(c, "ratio")), lo, hi, speed, s_lo, s_hi;
	char range[64] = "no 95% interval below 6 rounds";

	lo = num(json_array_get(ci, 0));
	hi = num(json_array_get(ci, 1));
	/* as a speed: above 1 is faster, whatever the unit's direction */
	speed = higher ? r : 1 / r;
	s_lo = higher ? lo : 1 / hi;
	s_hi = higher ? hi : 1 / lo;
	if (!strcmp(verdict, "better") || !strcmp(verdict, "worse")) {
		bool faster = speed >= 1;

		return xasprintf("%s %.2fx %s (%.2f-%.2f)", what, faster ? speed : 1 / speed, faster ? "faster" : "slower",
				 faster ? s_lo : 1 / s_hi, faster ? s_hi : 1 / s_lo);
	}
	if (isfinite(s_lo) && isfinite(s_hi))
		snprintf(range, sizeof range, "%.2f-%.2f as a speed ratio", s_lo, s_hi);
	if (!strcmp(verdict, "tie"))
		return xasprintf("%s the same within the floor of %.1f%% (%s)", what, num(json_object_get(c, "floor_pct")), range);
	/* a figure no run could give both of them (a percentile a run had too few samples for): there
	 * is nothing to extrapolate more rounds from, and the floor is not what stands in the way */
	if (json_is_integer(json_object_get(c, "rounds")) && json_integer_value(json_object_get(c, "rounds")) == 0)
		return xasprintf("%s not measured: no round gave the figure for both (a percentile needs enough "
				 "samples in a run; a longer --runtime gives more)", what);
	if (json_integer_value(json_object_get(c, "more_rounds")) > 0)
		return xasprintf("%s not settled (%s): about %lld more rounds would be needed at this noise", what,
				 range, (long long)json_integer_value(json_object_get(c, "more_rounds")));
	if (num(json_object_get(c, "floor_pct")) > TRIAL_WORDS_TIE_FLOOR_MAX_PCT)
		return xasprintf("%s not settled (%s): the baseline against itself differed by up to %.1f%%, too "
				 "much to call them the same; more rounds, longer runs or a quieter host would narrow it", what, range,
				 num(json_object_get(c, "floor_pct")));
	return xasprintf("%s not settled (%s): more rounds would not settle it at this noise (the difference "
			 "is about the size of the floor)", what, range);
}
