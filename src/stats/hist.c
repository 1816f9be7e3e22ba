/* Fixed-bucket histograms. stats_hist_add sits on hot paths (latency of every
 * access, active lanes of every issue), so it finds the bucket without a scan
 * for the two common layouts and never allocates.
 *
 * Invariant kept by every init function: buckets are ascending and disjoint.
 * Then a bucket that contains v is the only one that does, so a guessed index
 * that checks out is the answer, and other layouts can binary-search the
 * low bounds. */
#include "simtgrid/stats.h"

#include <glib.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

/* stats_hist.layout: the exact and log2 initialisers' buckets are found by
 * arithmetic alone, without reading the bounds (a histogram sits in the
 * per-SM state that every issue cycle touches: issue 20). Zero (ranges, or
 * a zeroed histogram) searches the bounds. The bucket that holds a value is
 * unique (buckets are disjoint), so every layout finds the same one. */
enum { HIST_SEARCH = 0, HIST_EXACT, HIST_LOG2 };

static void hist_reset(stats_hist *h, unsigned n)
{
    memset(h, 0, sizeof *h);
    h->n = n;
}

void stats_hist_init_exact(stats_hist *h, unsigned n)
{
    if (n > STATS_HIST_MAX)
        n = STATS_HIST_MAX;
    hist_reset(h, n);
    for (unsigned i = 0; i < n; i++)
        h->lo[i] = h->hi[i] = i;
    h->layout = HIST_EXACT;
}

/* Bucket 0 holds 0; bucket i >= 1 holds [2^(i-1), 2^i - 1], i.e. every value
 * whose bit width is i. */
void stats_hist_init_log2(stats_hist *h, unsigned n)
{
    if (n > STATS_HIST_MAX)
        n = STATS_HIST_MAX;
    hist_reset(h, n);
    for (unsigned i = 1; i < n; i++) {
        h->lo[i] = UINT64_C(1) << (i - 1);
        h->hi[i] = (UINT64_C(1) << i) - 1;
    }
    h->layout = HIST_LOG2;
}

bool stats_hist_ranges_valid(unsigned n, const uint64_t *bounds, char *why, size_t why_len)
{
    char dummy[1];
    if (!why) {
        why = dummy;
        why_len = sizeof dummy;
    }
    if (n > STATS_HIST_MAX) {
        snprintf(why, why_len, "%u buckets given, at most %d allowed", n, STATS_HIST_MAX);
        return false;
    }
    if (n > 0 && !bounds) {
        snprintf(why, why_len, "%u buckets given but no bounds", n);
        return false;
    }
    for (unsigned i = 0; i < n; i++) {
        uint64_t lo = bounds[2 * i], hi = bounds[2 * i + 1];
        if (lo > hi) {
            snprintf(why, why_len, "bucket %u: low bound %" PRIu64 " above high bound %" PRIu64,
                     i, lo, hi);
            return false;
        }
        if (i > 0 && lo <= bounds[2 * i - 1]) {
            snprintf(why, why_len,
                     "bucket %u: starts at %" PRIu64 ", expected above the previous bucket's "
                     "high bound %" PRIu64 " (buckets must be ascending and disjoint)",
                     i, lo, bounds[2 * i - 1]);
            return false;
        }
    }
    if (why_len > 0)
        why[0] = '\0';
    return true;
}

void stats_hist_init_ranges(stats_hist *h, unsigned n, const uint64_t *bounds)
{
    char why[160];
    if (!stats_hist_ranges_valid(n, bounds, why, sizeof why)) {
        g_critical("stats_hist_init_ranges: %s; histogram left with no buckets", why);
        hist_reset(h, 0);
        return;
    }
    hist_reset(h, n);
    for (unsigned i = 0; i < n; i++) {
        h->lo[i] = bounds[2 * i];
        h->hi[i] = bounds[2 * i + 1];
    }
}

static inline unsigned bit_width(uint64_t v)
{
    return v ? 64u - (unsigned)__builtin_clzll(v) : 0u;
}

/* Index of the bucket holding v, or h->n for overflow. */
static inline unsigned hist_search(const stats_hist *h, uint64_t v)
{
    unsigned n = h->n;
    if (h->layout == HIST_EXACT)   /* [0], [1], ... [n-1] */
        return v < n ? (unsigned)v : n;
    if (h->layout == HIST_LOG2) {  /* bucket i: the values of bit width i */
        unsigned g = bit_width(v);
        return g < n ? g : n;
    }
    if (n == 0 || v > h->hi[n - 1])
        return n;
    if (v < n && h->lo[v] == v && h->hi[v] == v)        /* exact layout */
        return (unsigned)v;
    unsigned g = bit_width(v);                          /* log2 layout */
    if (g < n && h->lo[g] <= v && v <= h->hi[g])
        return g;
    /* Ranges: branch-free binary search for the last bucket starting at or
     * below v (a conditional move per step, so random values cost no branch
     * mispredictions); then v must lie within that bucket. */
    unsigned base = 0, len = n;
    while (len > 1) {
        unsigned half = len / 2;
        base = h->lo[base + half] <= v ? base + half : base;
        len -= half;
    }
    return h->lo[base] <= v && v <= h->hi[base] ? base : n;
}

/* hist_search, trying first the bucket a ranges layout found last: the SM
 * adds the same lane count (a full warp) at most issues. Buckets are
 * disjoint, so a bucket that holds v is the answer. */
static inline unsigned hist_find(stats_hist *h, uint64_t v)
{
    if (h->layout != HIST_SEARCH)
        return hist_search(h, v);
    unsigned c = h->last;
    if (c < h->n && h->lo[c] <= v && v <= h->hi[c])
        return c;
    unsigned i = hist_search(h, v);
    if (i < h->n)
        h->last = i;
    return i;
}

void stats_hist_add_n(stats_hist *h, uint64_t v, uint64_t times)
{
    unsigned i = hist_find(h, v);
    if (i < h->n)
        h->count[i] += times;
    else
        h->overflow += times;
    h->samples += times;
    h->sum += (double)v * (double)times;
}

/* stats_hist_add_n(h, v, 1) without the call ((double)v * 1.0 is (double)v
 * exactly): the SM adds an idle cycle's lanes every cycle (issue 20). */
void stats_hist_add(stats_hist *h, uint64_t v)
{
    unsigned i = hist_find(h, v);
    if (i < h->n)
        h->count[i]++;
    else
        h->overflow++;
    h->samples++;
    h->sum += (double)v;
}

double stats_hist_mean(const stats_hist *h)
{
    return h->samples ? h->sum / (double)h->samples : NAN;
}

int stats_hist_label(const stats_hist *h, unsigned i, char *buf, size_t len)
{
    if (i >= h->n)
        return snprintf(buf, len, "overflow");
    if (h->lo[i] == h->hi[i])
        return snprintf(buf, len, "%" PRIu64, h->lo[i]);
    return snprintf(buf, len, "%" PRIu64 "-%" PRIu64, h->lo[i], h->hi[i]);
}
