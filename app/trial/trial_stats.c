/* The statistics of a trial (trial_stats.h): pure functions of numbers. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "app/trial/trial_stats.h"

const char *trial_verdict_name(enum trial_verdict v)
{
	switch (v) {
	case TRIAL_BETTER:
		return "better";
	case TRIAL_WORSE:
		return "worse";
	case TRIAL_TIE:
		return "tie";
	case TRIAL_NOT_SETTLED:
	default:
		return "not_settled";
	}
}

void trial_design_order(size_t k, unsigned round, size_t *order)
{
	size_t shift, j;
	bool is_reversed;

	if (!k)
		return;
	round %= (unsigned)(k % 2 ? 2 * k : k);
	shift = round % k;
	is_reversed = round >= k;
	for (j = 0; j < k; j++) {
		/* the first row: 0, 1, k-1, 2, k-2, ... */
		size_t first = j == 0 ? 0 : j % 2 ? (j + 1) / 2 : k - j / 2;

		order[is_reversed ? k - 1 - j : j] = (first + shift) % k;
	}
}

/* P(X >= k) for X ~ Binomial(n, 1/2). */
static double tail_at_least(size_t n, size_t k)
{
	double c = 1, sum = 0; /* C(n, i), from i = 0 */

	for (size_t i = 0; i <= n; i++) {
		if (i >= k)
			sum += c;
		c = c * (double)(n - i) / (double)(i + 1);
	}
	return sum / pow(2, (double)n);
}

/* The largest j >= 1 with P(X <= j-1) <= 2.5% (the order statistic of a 95% interval), 0 if none. */
static size_t ci_rank(size_t n)
{
	size_t j = 0;

	while (j + 1 <= n / 2 && tail_at_least(n, n - j) <= TRIAL_ALPHA / 2)
		j++;
	return j;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double trial_median(double *v, size_t n)
{
	qsort(v, n, sizeof *v, cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void trial_sign_test(const double *d, size_t n, double floor, struct trial_sign *out)
{
	double *s;
	size_t j;

	memset(out, 0, sizeof *out);
	out->n = n;
	out->p = 1;
	if (!n)
		return;
	for (size_t i = 0; i < n; i++) {
		out->above += d[i] > floor;
		out->below += d[i] < -floor;
	}
	s = malloc(n * sizeof *s);
	if (!s)
		abort();
	memcpy(s, d, n * sizeof *s);
	out->median = trial_median(s, n);
	if (out->above != out->below) {
		out->is_up = out->above > out->below;
		out->p = fmin(1, 2 * tail_at_least(n, out->is_up ? out->above : out->below));
	}
	j = ci_rank(n);
	if (j) {
		out->has_ci = true;
		out->lo = s[j - 1];
		out->hi = s[n - j];
	}
	free(s);
}

enum trial_verdict trial_sign_verdict(const struct trial_sign *s, double floor, double p_adjusted,
				      bool higher_better)
{
	if (!s->has_ci)
		return TRIAL_NOT_SETTLED;
	if (p_adjusted <= TRIAL_ALPHA && s->is_up && s->lo > floor)
		return higher_better ? TRIAL_BETTER : TRIAL_WORSE;
	if (p_adjusted <= TRIAL_ALPHA && !s->is_up && s->hi < -floor)
		return higher_better ? TRIAL_WORSE : TRIAL_BETTER;
	if (s->lo >= -floor && s->hi <= floor)
		return TRIAL_TIE;
	return TRIAL_NOT_SETTLED;
}

struct ranked_p {
	double p;
	size_t i;
};

static int cmp_p(const void *a, const void *b)
{
	const struct ranked_p *x = a, *y = b;

	return x->p < y->p ? -1 : x->p > y->p ? 1 : (x->i > y->i) - (x->i < y->i);
}

void trial_holm(const double *p, size_t m, double *p_adj)
{
	struct ranked_p *r;
	double running = 0;

	if (!m)
		return;
	r = malloc(m * sizeof *r);
	if (!r)
		abort();
	for (size_t i = 0; i < m; i++)
		r[i] = (struct ranked_p){p[i], i};
	qsort(r, m, sizeof *r, cmp_p);
	/* the k-th smallest (0-based) is multiplied by m - k; adjusted values never decrease */
	for (size_t k = 0; k < m; k++) {
		running = fmax(running, fmin(1, (double)(m - k) * r[k].p));
		p_adj[r[k].i] = running;
	}
	free(r);
}

unsigned trial_min_rounds(size_t m)
{
	unsigned n = 1;

	if (!m)
		return 0;
	while (pow(2, (double)n) <= 2 * (double)m / TRIAL_ALPHA)
		n++;
	return n;
}

unsigned trial_more_rounds(const struct trial_sign *s, size_t multiplier, bool can_tie, unsigned cap)
{
	double up = s->n ? (double)s->above / (double)s->n : 0, down = s->n ? (double)s->below / (double)s->n : 0;

	/* no paired round yet (a percentile no run could give): nothing to extrapolate from */
	if (!s->n)
		return 0;
	for (unsigned n = (unsigned)s->n + 1; n <= cap; n++) {
		size_t a = (size_t)lround(up * n), b = (size_t)lround(down * n), hi = a > b ? a : b;
		size_t j = ci_rank(n);

		if (!j)
			continue;
		/* a verdict: the test passes and the interval clears the floor on that side */
		if (a != b && 2 * tail_at_least(n, hi) * (double)multiplier <= TRIAL_ALPHA && n - hi <= j - 1)
			return n - (unsigned)s->n;
		/* a tie: fewer than j rounds beyond the floor on either side */
		if (can_tie && a <= j - 1 && b <= j - 1)
			return n - (unsigned)s->n;
	}
	return 0;
}
