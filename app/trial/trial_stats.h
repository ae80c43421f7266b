/* The statistics of a trial (trial_stats.c), as pure functions of numbers, so that the unit tests
 * can check them on fixed samples: the order of the runs in a round, the sign test on paired log
 * ratios with its distribution-free interval, Holm's correction over a family of comparisons, the
 * rounds a family needs, and how many more rounds an undecided comparison would need.
 *
 * Why a sign test: it assumes nothing about the shape of the noise. On a shared host one run in ten
 * can be three times slower because another job ran; a sign test counts that round as one round,
 * where a mean (and a t interval) would move with it. The price is power: at least 6 rounds for any
 * verdict at the 5% level (2 / 2^6 < 0.05), and about log2(40·m) with Holm over m comparisons. */
#ifndef FSTUNE_APP_TRIAL_STATS_H
#define FSTUNE_APP_TRIAL_STATS_H

#include <stdbool.h>
#include <stddef.h>

/* The level of every test and interval: 5%, two-sided. */
#define TRIAL_ALPHA 0.05

/* A comparison's verdict: what `a` is against `b`. */
enum trial_verdict {
	TRIAL_NOT_SETTLED, /* neither beyond the floor nor inside it at this noise */
	TRIAL_TIE,         /* the interval lies inside the floor */
	TRIAL_BETTER,      /* the interval lies beyond the floor, and the family-corrected test agrees */
	TRIAL_WORSE,
};
const char *trial_verdict_name(enum trial_verdict v); /* "better", "worse", "tie", "not_settled" */

/* The order of the k slots of round `round` (0-based): a Williams design. Row 0 is 0, 1, k-1, 2,
 * k-2, ...; row r adds r (mod k); for odd k, rows k..2k-1 are rows 0..k-1 reversed. Every slot sits
 * in every position once in each k rounds, and (for even k, or over 2k rounds for odd k) follows
 * every other slot equally often, so a position or a carry-over effect falls on all alike. */
void trial_design_order(size_t k, unsigned round, size_t *order);

/* The sign test of paired log ratios d[0..n) (ln(a/b) per round) against a floor f >= 0 (in log
 * units): `above` rounds had d > f, `below` had d < -f. p is the two-sided p-value of "the median
 * lies beyond the floor" (2 × the binomial tail of the larger count, at most 1); `is_up` says which
 * side. The interval is the distribution-free one for the median, [d_(j), d_(n+1-j)] with the largest
 * j whose binomial tail P(X <= j-1) is at most 2.5%: at least 95% coverage; none below 6 rounds. */
struct trial_sign {
	size_t n, above, below;
	double median;    /* of d */
	double p;         /* 1 when above == below */
	bool is_up;       /* above > below */
	bool has_ci;
	double lo, hi;    /* the interval, log units */
};
void trial_sign_test(const double *d, size_t n, double floor, struct trial_sign *out);

/* The verdict of a sign test whose family-corrected p-value is `p_adjusted`: better or worse when it
 * is at most TRIAL_ALPHA and the interval lies beyond the floor on that side; a tie when the
 * interval lies inside [-f, f]; else not settled. `higher_better` orients "up". */
enum trial_verdict trial_sign_verdict(const struct trial_sign *s, double floor, double p_adjusted,
				      bool higher_better);

/* Holm's step-down correction of m p-values: p_adj[i] for p[i], each at most 1. */
void trial_holm(const double *p, size_t m, double *p_adj);

/* The fewest rounds with which a family of m comparisons can reach any verdict: the smallest n with
 * 2 / 2^n × m < TRIAL_ALPHA, i.e. n > log2(40·m); 6 for one comparison. 0 for m = 0. */
unsigned trial_min_rounds(size_t m);

/* How many more rounds an undecided comparison would need at this noise: the least N > s->n at which
 * the same shares of rounds above and below the floor would give a verdict (with `multiplier`, its
 * Holm factor) or, when `can_tie`, a tie; 0 when none up to `cap` rounds would, or s->n is 0. */
unsigned trial_more_rounds(const struct trial_sign *s, size_t multiplier, bool can_tie, unsigned cap);

/* The median of v[0..n) (n >= 1); v is reordered. */
double trial_median(double *v, size_t n);

#endif
