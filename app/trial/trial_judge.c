/* What a trial's runs show (trial_run.h): each candidate's median and spread on each metric, the A/A
 * floor of each metric, the family of comparisons (each active candidate against the baseline, the
 * best against the runner-up, on every metric) with the sign test, Holm's correction over all of them
 * and the verdicts, and the ranks those verdicts give. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "app/trial/trial_run.h"
#include "lib/xalloc.h"

bool trial_is_active(const struct trial *t, size_t i)
{
	return t->cands.v[i].merged_into < 0;
}

static size_t count_active(const struct trial *t)
{
	size_t n = 0;

	for (size_t i = 0; i < t->cands.n; i++)
		n += trial_is_active(t, i);
	return n;
}

size_t trial_family_size(const struct trial *t)
{
	size_t a = count_active(t);

	return a < 2 ? 0 : t->metrics.n * ((a - 1) + (a >= 3));
}

static unsigned last_round(const struct trial *t)
{
	unsigned r = 0;

	for (size_t i = 0; i < t->cands.n; i++)
		for (size_t k = 0; k < t->cands.v[i].n_obs; k++)
			if (t->cands.v[i].obs[k].round > r)
				r = t->cands.v[i].obs[k].round;
	return r;
}

/* A candidate's value in one round: the geometric mean of its runs there (the baseline has two). */
static bool round_value(const struct trial_candidate *c, unsigned round, size_t m, double *out)
{
	double logs = 0;
	unsigned n = 0;

	for (size_t k = 0; k < c->n_obs; k++)
		if (c->obs[k].round == round && isfinite(c->obs[k].v[m]) && c->obs[k].v[m] > 0) {
			logs += log(c->obs[k].v[m]);
			n++;
		}
	if (n)
		*out = exp(logs / n);
	return n > 0;
}

/* ln(a/b) for every round both have a value of metric m; returns how many. */
static size_t paired_logs(const struct trial *t, size_t a, size_t b, size_t m, double *d)
{
	unsigned last = last_round(t);
	size_t n = 0;

	for (unsigned r = 1; r <= last; r++) {
		double va, vb;

		if (round_value(&t->cands.v[a], r, m, &va) && round_value(&t->cands.v[b], r, m, &vb))
			d[n++] = log(va / vb);
	}
	return n;
}

static void summarize(struct trial_candidate *c, size_t m)
{
	struct trial_summary *s = &c->sum[m];
	double *v = xcalloc(c->n_obs ? c->n_obs : 1, sizeof *v), lo = INFINITY, hi = -INFINITY;

	memset(s, 0, sizeof *s);
	for (size_t k = 0; k < c->n_obs; k++)
		if (isfinite(c->obs[k].v[m])) {
			v[s->n++] = c->obs[k].v[m];
			lo = fmin(lo, c->obs[k].v[m]);
			hi = fmax(hi, c->obs[k].v[m]);
		}
	if (s->n) {
		s->median = trial_median(v, s->n);
		s->spread_pct = s->median > 0 && s->n > 1 ? (hi - lo) / s->median * 100 : 0;
	}
	free(v);
}

/* The baseline against itself: the ratio of its first run of a round to its second. The floor is
 * the outer end of the 95% interval of their median (log units): how large a difference between two
 * identical filesystems this design cannot rule out. Single rounds spread wider (ratio_spread), but
 * a verdict rests on the median, which the sign test already guards against such rounds; with too
 * few rounds for an interval, the largest difference of a round stands in. */
static void control(struct trial *t, size_t m)
{
	const struct trial_candidate *c = &t->cands.v[t->baseline];
	struct trial_control *k = &t->control[m];
	double *d = xcalloc(c->n_obs ? c->n_obs : 1, sizeof *d), largest = 0;
	struct trial_sign s;

	memset(k, 0, sizeof *k);
	for (size_t i = 0; i < c->n_obs; i++) {
		if (c->obs[i].copy != 0 || !isfinite(c->obs[i].v[m]))
			continue;
		for (size_t j = 0; j < c->n_obs; j++) {
			double r;

			if (c->obs[j].copy != 1 || c->obs[j].round != c->obs[i].round || !isfinite(c->obs[j].v[m]))
				continue;
			r = c->obs[i].v[m] / c->obs[j].v[m];
			k->lo = k->n ? fmin(k->lo, r) : r;
			k->hi = k->n ? fmax(k->hi, r) : r;
			d[k->n++] = log(r);
			largest = fmax(largest, fabs(log(r)));
		}
	}
	trial_sign_test(d, k->n, 0, &s);
	k->floor = s.has_ci ? fmax(fabs(s.lo), fabs(s.hi)) : largest;
	k->floor = fmax(k->floor, log1p(TRIAL_FLOOR_MIN_PCT / 100));
	free(d);
}

bool trial_floor_allows_tie(const struct trial *t, size_t m)
{
	return t->control[m].n && t->control[m].floor <= log1p(TRIAL_TIE_FLOOR_MAX_PCT / 100);
}

static void add_comparison(struct trial *t, size_t a, size_t b, size_t m, bool is_runner_up)
{
	struct trial_comparison *c;
	double *d = xcalloc(last_round(t) + 1, sizeof *d);
	size_t n = paired_logs(t, a, b, m, d);

	c = XAPPEND(t->cmp, t->n_cmp);
	c->a = a;
	c->b = b;
	c->metric = m;
	c->is_runner_up = is_runner_up;
	trial_sign_test(d, n, t->control[m].floor, &c->sign);
	free(d);
}

static bool is_better_median(const struct trial *t, size_t m, size_t x, size_t y)
{
	double a = t->cands.v[x].sum[m].median, b = t->cands.v[y].sum[m].median;

	return t->metrics.m[m]->higher_better ? a > b : a < b;
}

/* The best and the runner-up by median among the measured candidates on metric m. */
static bool best_two(const struct trial *t, size_t m, size_t *best, size_t *second)
{
	long b = -1, s = -1;

	for (size_t i = 0; i < t->cands.n; i++) {
		if (!trial_is_active(t, i) || !t->cands.v[i].sum[m].n)
			continue;
		if (b < 0 || is_better_median(t, m, i, (size_t)b)) {
			s = b;
			b = (long)i;
		} else if (s < 0 || is_better_median(t, m, i, (size_t)s)) {
			s = (long)i;
		}
	}
	*best = (size_t)b;
	*second = (size_t)s;
	return s >= 0;
}

/* rank = 1 + the candidates measured better, directly or through a chain of verdicts. */
static void rank(struct trial *t, size_t m)
{
	size_t n = t->cands.n;
	bool *dom = xcalloc(n ? n * n : 1, sizeof *dom); /* dom[i * n + j]: i measured better than j */

	for (size_t k = 0; k < t->n_cmp; k++) {
		const struct trial_comparison *c = &t->cmp[k];

		if (c->metric != m)
			continue;
		if (c->verdict == TRIAL_BETTER)
			dom[c->a * n + c->b] = true;
		else if (c->verdict == TRIAL_WORSE)
			dom[c->b * n + c->a] = true;
	}
	for (size_t k = 0; k < n; k++)
		for (size_t i = 0; i < n; i++)
			for (size_t j = 0; j < n; j++)
				if (dom[i * n + k] && dom[k * n + j])
					dom[i * n + j] = true;
	for (size_t j = 0; j < n; j++) {
		struct trial_summary *s = &t->cands.v[j].sum[m];

		s->rank = 0;
		if (!trial_is_active(t, j) || !s->n)
			continue;
		s->rank = 1;
		for (size_t i = 0; i < n; i++)
			s->rank += dom[i * n + j];
	}
	free(dom);
}

void trial_judge(struct trial *t)
{
	double *p, *p_adj;

	free(t->cmp);
	t->cmp = NULL;
	t->n_cmp = 0;
	for (size_t m = 0; m < t->metrics.n; m++) {
		size_t best, second;

		for (size_t i = 0; i < t->cands.n; i++)
			summarize(&t->cands.v[i], m);
		control(t, m);
		for (size_t i = 0; i < t->cands.n; i++)
			if (i != t->baseline && trial_is_active(t, i))
				add_comparison(t, i, t->baseline, m, false);
		if (best_two(t, m, &best, &second) && best != t->baseline && second != t->baseline)
			add_comparison(t, best, second, m, true);
	}
	p = xcalloc(t->n_cmp ? t->n_cmp : 1, sizeof *p);
	p_adj = xcalloc(t->n_cmp ? t->n_cmp : 1, sizeof *p_adj);
	for (size_t k = 0; k < t->n_cmp; k++)
		p[k] = t->cmp[k].sign.p;
	trial_holm(p, t->n_cmp, p_adj);
	for (size_t k = 0; k < t->n_cmp; k++) {
		struct trial_comparison *c = &t->cmp[k];
		const struct trial_metric *met = t->metrics.m[c->metric];

		bool can_tie = trial_floor_allows_tie(t, c->metric);

		c->p_adjusted = p_adj[k];
		c->verdict = trial_sign_verdict(&c->sign, t->control[c->metric].floor, c->p_adjusted,
						met->higher_better);
		if (c->verdict == TRIAL_TIE && !can_tie)
			c->verdict = TRIAL_NOT_SETTLED;
		c->more_rounds = c->verdict == TRIAL_NOT_SETTLED
					 ? trial_more_rounds(&c->sign, t->n_cmp, can_tie, TRIAL_ROUNDS_MAX) : 0;
	}
	free(p);
	free(p_adj);
	for (size_t m = 0; m < t->metrics.n; m++)
		rank(t, m);
}

unsigned trial_more_rounds_needed(const struct trial *t)
{
	unsigned need = 0;

	for (size_t k = 0; k < t->n_cmp; k++)
		if (t->cmp[k].verdict == TRIAL_NOT_SETTLED && t->cmp[k].more_rounds &&
		    (!need || t->cmp[k].more_rounds < need))
			need = t->cmp[k].more_rounds;
	return need;
}

long trial_best(const struct trial *t, size_t m)
{
	long best = -1;

	for (size_t i = 0; i < t->cands.n; i++)
		if (trial_is_active(t, i) && t->cands.v[i].sum[m].rank == 1 &&
		    (best < 0 || is_better_median(t, m, i, (size_t)best)))
			best = (long)i;
	return best;
}
