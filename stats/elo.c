/*
 * elo.c - Elo, LOS and the GSPRT (elo.h), as fishtest and fastchess
 * compute them (../shared/docs/engines.md 3.1-3.3).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elo.h"

/*
 * The few functions of libm the statistics need, here: kifu links no
 * libm, so that a start of kifu loads no more than it must
 * (tests/cli/t0005). Each is exact to a few units in the last place
 * over the arguments the statistics give it, which is what the tests'
 * published figures ask.
 */
#define LN2 0.69314718055994530942
#define LN10 2.30258509299404568402

static double
f_sqrt(double x)
{
	double r;
	int i;

	if (!(x > 0))
		return x == 0 ? 0 : NAN;
	if (x == HUGE_VAL)
		return x;
	/* Newton from above: it falls to the root and stops there */
	r = x > 1 ? x : 1;
	for (i = 0; i < 200; i++) {
		double n = (r + x / r) / 2;

		if (n >= r)
			break;
		r = n;
	}
	return r;
}

/* ln x, x > 0: x = m 2^k with m in [sqrt(1/2), sqrt(2)), then atanh. */
static double
f_log(double x)
{
	double s, s2, term, sum;
	int k = 0, n;

	if (!(x > 0))
		return x == 0 ? -HUGE_VAL : NAN;
	if (x == HUGE_VAL)
		return x;
	while (x >= 1.4142135623730951) {
		x /= 2;
		k++;
	}
	while (x < 0.7071067811865476) {
		x *= 2;
		k--;
	}
	s = (x - 1) / (x + 1);
	s2 = s * s;
	term = s;
	sum = 0;
	for (n = 1; n < 200; n += 2) {
		double add = term / n;

		sum += add;
		if (add < 1e-18 && add > -1e-18)
			break;
		term *= s2;
	}
	return 2 * sum + k * LN2;
}

/* e^x: x = k ln 2 + r, |r| <= ln 2 / 2, Taylor on r. */
static double
f_exp(double x)
{
	double r, term = 1, sum = 1;
	long k;
	int n;

	if (x > 709)
		return HUGE_VAL;
	if (x < -745)
		return 0;
	k = (long)(x / LN2 + (x < 0 ? -0.5 : 0.5));
	r = x - (double)k * LN2;
	for (n = 1; n < 40; n++) {
		term *= r / n;
		sum += term;
		if (term < 1e-18 && term > -1e-18)
			break;
	}
	while (k > 0) {
		sum *= 2;
		k--;
	}
	while (k < 0) {
		sum /= 2;
		k++;
	}
	return sum;
}

static double
f_log10(double x)
{
	return f_log(x) / LN10;
}

/* 10^y */
static double
f_exp10(double y)
{
	return f_exp(y * LN10);
}

/*
 * erf by its Maclaurin series up to |x| 5 (the cancellation costs some
 * ten digits of the sixteen at the far end), +-1 past it (1 - erf(5) is
 * 1.5e-12).
 */
static double
f_erf(double x)
{
	double x2 = x * x, term = x, sum = x;
	int n;

	if (x > 5)
		return 1;
	if (x < -5)
		return -1;
	for (n = 1; n < 400; n++) {
		double add;

		term *= -x2 / n;
		add = term / (2 * n + 1);
		sum += add;
		if (add < 1e-20 && add > -1e-20)
			break;
	}
	return sum * 1.1283791670955126;	/* 2 / sqrt(pi) */
}

/* The 95% quantile of the normal distribution, as fastchess has it. */
#define Z95 1.959963984540054
/* 800 / ln 10: a score's t-value to normalized Elo. */
#define NELO_SCALE (800.0 / 2.302585092994046)

enum pair_class
elo_pair_class(int a, int b)
{
	int s = a + b;		/* half points, 0..4 */

	return (enum pair_class)(s < 0 ? 0 : s > 4 ? 4 : s);
}

double
elo_of_score(double x)
{
	if (x <= 0)
		return -HUGE_VAL;
	if (x >= 1)
		return HUGE_VAL;
	return -400.0 * f_log10(1.0 / x - 1.0);
}

/*
 * Fills out from a distribution over k scores a[] with counts c[]:
 * per_game scales the variance of one unit to one game (2 for pairs).
 */
static void
estimate(const double *a, const long long *c, int k, double per_game,
    struct elo_estimate *out)
{
	double n = 0, mu = 0, var = 0, sd, lo, hi, sd_game;
	int i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < k; i++)
		n += (double)c[i];
	out->n = (long long)n;
	if (n <= 0)
		return;
	for (i = 0; i < k; i++)
		mu += (double)c[i] * a[i];
	mu /= n;
	for (i = 0; i < k; i++)
		var += (double)c[i] * (a[i] - mu) * (a[i] - mu);
	var /= n;
	sd = f_sqrt(var);
	out->score = mu;
	out->elo = elo_of_score(mu);
	lo = mu - Z95 * sd / f_sqrt(n);
	hi = mu + Z95 * sd / f_sqrt(n);
	/* The interval may reach past a score of 0 or 1: then it is
	   infinite, though the estimate is not. */
	out->finite = mu > 0 && mu < 1;
	out->elo95 = out->finite ? (elo_of_score(hi) - elo_of_score(lo)) / 2 :
	    HUGE_VAL;
	if (sd > 0)
		out->los = 0.5 * (1 + f_erf((mu - 0.5) / (sd * f_sqrt(2.0 / n))));
	else
		out->los = mu > 0.5 ? 1 : mu < 0.5 ? 0 : 0.5;
	sd_game = f_sqrt(per_game * var);
	out->nelo = sd_game > 0 ? (mu - 0.5) / sd_game * NELO_SCALE : 0;
	out->nelo95 = Z95 * NELO_SCALE / f_sqrt(n * per_game);
}

void
elo_trinomial(long long w, long long d, long long l, struct elo_estimate *out)
{
	static const double a[3] = { 0, 0.5, 1 };
	long long c[3];

	c[0] = l;
	c[1] = d;
	c[2] = w;
	estimate(a, c, 3, 1, out);
	if (out->n)
		out->draw_ratio = (double)d / (double)out->n;
}

void
elo_pentanomial(const long long pairs[PAIR_NB], struct elo_estimate *out)
{
	static const double a[PAIR_NB] = { 0, 0.25, 0.5, 0.75, 1 };

	estimate(a, pairs, PAIR_NB, 2, out);
	if (out->n)
		out->draw_ratio = (double)pairs[PAIR_DD_WL] / (double)out->n;
}

/* --- the GSPRT ---------------------------------------------------------- */

int
sprt_parse(const char *text, struct sprt *out, char *err, size_t n)
{
	const char *p = text;
	int have0 = 0, have1 = 0;

	out->elo0 = out->elo1 = 0;
	out->alpha = out->beta = 0.05;
	out->model = SPRT_NORMALIZED;
	while (*p) {
		size_t klen = strcspn(p, "=,");
		const char *v;
		char *end;
		double x;

		if (p[klen] != '=') {
			snprintf(err, n, "'%.*s' is no key=value", (int)klen, p);
			return -1;
		}
		v = p + klen + 1;
		if (klen == 5 && !strncmp(p, "model", 5)) {
			size_t vlen = strcspn(v, ",");

			if (vlen == 10 && !strncmp(v, "normalized", 10))
				out->model = SPRT_NORMALIZED;
			else if (vlen == 8 && !strncmp(v, "logistic", 8))
				out->model = SPRT_LOGISTIC;
			else {
				snprintf(err, n, "model is normalized or "
				    "logistic, not '%.*s'", (int)vlen, v);
				return -1;
			}
			p = v + vlen;
		} else {
			x = strtod(v, &end);
			if (end == v || (*end && *end != ',') || !isfinite(x)) {
				snprintf(err, n, "%.*s needs a number", (int)klen,
				    p);
				return -1;
			}
			if (klen == 4 && !strncmp(p, "elo0", 4))
				out->elo0 = x, have0 = 1;
			else if (klen == 4 && !strncmp(p, "elo1", 4))
				out->elo1 = x, have1 = 1;
			else if (klen == 5 && !strncmp(p, "alpha", 5))
				out->alpha = x;
			else if (klen == 4 && !strncmp(p, "beta", 4))
				out->beta = x;
			else {
				snprintf(err, n, "unknown key '%.*s' (elo0, "
				    "elo1, alpha, beta, model)", (int)klen, p);
				return -1;
			}
			p = end;
		}
		if (*p == ',')
			p++;
	}
	if (!have0 || !have1) {
		snprintf(err, n, "elo0 and elo1 are both needed");
		return -1;
	}
	if (!(out->elo0 < out->elo1)) {
		snprintf(err, n, "elo0 must be less than elo1");
		return -1;
	}
	if (!(out->alpha > 0 && out->alpha < 0.5 && out->beta > 0 &&
	    out->beta < 0.5)) {
		snprintf(err, n, "alpha and beta must lie between 0 and 0.5");
		return -1;
	}
	return 0;
}

void
sprt_bounds(const struct sprt *s, double *lower, double *upper)
{
	*lower = f_log(s->beta / (1 - s->alpha));
	*upper = f_log((1 - s->beta) / s->alpha);
}

enum sprt_verdict
sprt_verdict(const struct sprt *s, double llr)
{
	double lo, hi;

	sprt_bounds(s, &lo, &hi);
	return llr >= hi ? SPRT_H1 : llr <= lo ? SPRT_H0 : SPRT_CONTINUE;
}

#define K_MAX 5

/*
 * The root of sum p[i] phi[i] / (1 + theta phi[i]) = 0, which decreases
 * in theta on (-1/max phi, -1/min phi): bisection, to the last bit.
 */
static double
root(const double *p, const double *phi, int k)
{
	double mx = phi[0], mn = phi[0], lo, hi;
	int i, it;

	for (i = 1; i < k; i++) {
		if (phi[i] > mx)
			mx = phi[i];
		if (phi[i] < mn)
			mn = phi[i];
	}
	if (!(mx > 0 && mn < 0))
		return 0;	/* the constraint holds already, or cannot */
	lo = -1 / mx;
	hi = -1 / mn;
	for (it = 0; it < 200; it++) {
		double mid = (lo + hi) / 2, f = 0;

		if (mid <= lo || mid >= hi)
			break;
		for (i = 0; i < k; i++)
			f += p[i] * phi[i] / (1 + mid * phi[i]);
		if (f > 0)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/* The MLE with mean s (logistic): p[i] / (1 + theta (a[i] - s)). */
static void
mle_logistic(const double *a, const double *p, int k, double s, double *q)
{
	double phi[K_MAX] = { 0 }, th;
	int i;

	for (i = 0; i < k; i++)
		phi[i] = a[i] - s;
	th = root(p, phi, k);
	for (i = 0; i < k; i++)
		q[i] = p[i] / (1 + th * phi[i]);
}

/* The MLE with t-value (mu - 1/2) / sigma = t (normalized). */
static void
mle_normalized(const double *a, const double *p, int k, double t, double *q)
{
	double phi[K_MAX] = { 0 }, qn[K_MAX];
	int i, it;

	for (i = 0; i < k; i++)
		q[i] = 1.0 / k;
	for (it = 0; it < 10; it++) {
		double mu = 0, var = 0, sd, th, change = 0;

		for (i = 0; i < k; i++)
			mu += q[i] * a[i];
		for (i = 0; i < k; i++)
			var += q[i] * (a[i] - mu) * (a[i] - mu);
		sd = f_sqrt(var);
		for (i = 0; i < k; i++) {
			double z = (a[i] - mu) / sd;

			phi[i] = a[i] - 0.5 - t / 2 * sd * (1 + z * z);
		}
		th = root(p, phi, k);
		for (i = 0; i < k; i++) {
			double d;

			qn[i] = p[i] / (1 + th * phi[i]);
			d = qn[i] > q[i] ? qn[i] - q[i] : q[i] - qn[i];
			if (d > change)
				change = d;
			q[i] = qn[i];
		}
		if (change < 1e-9)
			break;
	}
}

/* The LLR on counts c[] over the scores a[]; pairs says which t to use. */
static double
llr(const struct sprt *s, const double *a, const long long *c, int k,
    int pairs)
{
	double cnt[K_MAX], p[K_MAX], p0[K_MAX], p1[K_MAX], n = 0, sum = 0;
	int i;

	for (i = 0; i < k; i++) {
		/* fishtest's and fastchess's regularisation of zeros */
		cnt[i] = c[i] ? (double)c[i] : 1e-3;
		n += cnt[i];
	}
	for (i = 0; i < k; i++)
		p[i] = cnt[i] / n;
	if (s->model == SPRT_LOGISTIC) {
		mle_logistic(a, p, k, 1 / (1 + f_exp10(-s->elo0 / 400)), p0);
		mle_logistic(a, p, k, 1 / (1 + f_exp10(-s->elo1 / 400)), p1);
	} else {
		double f = (pairs ? 1.4142135623730951 : 1.0) / NELO_SCALE;

		mle_normalized(a, p, k, s->elo0 * f, p0);
		mle_normalized(a, p, k, s->elo1 * f, p1);
	}
	for (i = 0; i < k; i++)
		sum += p[i] * f_log(p1[i] / p0[i]);
	return n * sum;
}

double
sprt_llr_pentanomial(const struct sprt *s, const long long pairs[PAIR_NB])
{
	static const double a[PAIR_NB] = { 0, 0.25, 0.5, 0.75, 1 };
	long long n = 0;
	int i;

	for (i = 0; i < PAIR_NB; i++)
		n += pairs[i];
	return n ? llr(s, a, pairs, PAIR_NB, 1) : 0;
}

double
sprt_llr_trinomial(const struct sprt *s, long long w, long long d,
    long long l)
{
	static const double a[3] = { 0, 0.5, 1 };
	long long c[3];

	c[0] = l;
	c[1] = d;
	c[2] = w;
	return w + d + l ? llr(s, a, c, 3, 0) : 0;
}
