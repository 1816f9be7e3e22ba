/* Statistics: self-documenting counters, histograms, time series and derived
 * values, registered by each block, written as one JSON document per run.
 *
 * Blocks keep their counters as plain uint64_t fields (no indirection on the
 * hot path) and register a pointer to each once, with a name, unit and
 * description, as SST components document theirs. The registry reads the
 * values only when it writes results. */
#ifndef SIMTGRID_STATS_H
#define SIMTGRID_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct stats stats;

/* A histogram with fixed bucket bounds: bucket i counts values v with
 * lo[i] <= v <= hi[i]; values outside every bucket go to `overflow`.
 * Bucket labels are printed as "lo-hi" (or "lo" when lo == hi). */
typedef struct stats_hist {
    /* What stats_hist_add touches comes first (the header and count[], two
     * cache lines for the exact and log2 layouts); the bounds, read only
     * to search a ranges layout and to write results, last (issue 20). */
    unsigned n;            /* number of buckets (<= STATS_HIST_MAX) */
    unsigned layout;       /* how a value's bucket is found (hist.c); 0: by the bounds */
    unsigned last;         /* by the bounds: the bucket found last, tried first (hist.c) */
    uint64_t overflow;
    uint64_t samples;      /* values added */
    double sum;            /* sum of values added, for the mean */
    uint64_t count[32];
    uint64_t lo[32], hi[32];
} stats_hist;
#define STATS_HIST_MAX 32

/* Buckets [0], [1], ... [n-1]: one bucket per exact value 0..n-1. */
void stats_hist_init_exact(stats_hist *h, unsigned n);
/* Buckets given as n (lo, hi) pairs in `bounds` (2n values). */
void stats_hist_init_ranges(stats_hist *h, unsigned n, const uint64_t *bounds);
/* Power-of-two buckets: [0], [1], [2-3], [4-7], ... up to n buckets. */
void stats_hist_init_log2(stats_hist *h, unsigned n);
void stats_hist_add(stats_hist *h, uint64_t v);
void stats_hist_add_n(stats_hist *h, uint64_t v, uint64_t times);
/* Buckets must be ascending and disjoint (lo[i] <= hi[i] < lo[i+1]) and at
 * most STATS_HIST_MAX; stats_hist_init_ranges refuses other bounds (it logs
 * why and leaves 0 buckets, so every value counts as overflow). This check
 * lets a caller validate user-given bounds first: false, with the reason in
 * `why` (may be NULL), when they are not acceptable. */
bool stats_hist_ranges_valid(unsigned n, const uint64_t *bounds, char *why, size_t why_len);
/* Mean of every value added (overflow included); NaN when there are none. */
double stats_hist_mean(const stats_hist *h);
/* Label of bucket i: "lo-hi", or "lo" when lo == hi. Returns snprintf's
 * length; STATS_HIST_LABEL_MAX bytes always suffice. */
#define STATS_HIST_LABEL_MAX 48
int stats_hist_label(const stats_hist *h, unsigned i, char *buf, size_t len);

/* A time series: one value per sampling interval (appended by the block). */
typedef struct stats_series stats_series;

stats *stats_new(void);
void stats_free(stats *s);

/* `block` is a dotted instance path such as "sm3.l1d"; `name` a short key;
 * `unit` and `desc` may be NULL (written as ""). All strings are copied. The
 * registry keeps pointers to counters and histograms, which must outlive it.
 * Registering a block/name that exists replaces that entry in place (same
 * position in the output). */
void stats_counter(stats *s, const char *block, const char *name, const char *unit,
                   const char *desc, const uint64_t *value);
void stats_histogram(stats *s, const char *block, const char *name, const char *unit,
                     const char *desc, const stats_hist *h);
/* A value computed after the run (IPC, hit rate...). Later calls with the same
 * block/name replace the value. */
void stats_derived(stats *s, const char *block, const char *name, const char *unit,
                   const char *desc, double value);
/* The series is owned by the registry (freed by stats_free). */
stats_series *stats_series_new(stats *s, const char *block, const char *name, const char *unit,
                               const char *desc, double interval);
void stats_series_push(stats_series *ts, double value);
size_t stats_series_len(const stats_series *ts);
const double *stats_series_values(const stats_series *ts);

/* The run's timeline trace (simtgrid/trace.h), if one was asked for: blocks
 * take it from here when they are built, so no constructor needs a new
 * argument. NULL when there is none. The registry does not own it. */
struct trace;
void stats_set_trace(stats *s, struct trace *t);
struct trace *stats_trace(const stats *s);

/* Look-ups, for tests and derived metrics: the value of a registered counter,
 * or of a derived value; false if no such statistic. */
bool stats_get_counter(const stats *s, const char *block, const char *name, uint64_t *out);
bool stats_get_derived(const stats *s, const char *block, const char *name, double *out);
/* Sum of counter `name` over every block whose path matches `block_glob`
 * (g_pattern syntax, e.g. "sm*.l1d"). */
uint64_t stats_sum(const stats *s, const char *block_glob, const char *name);

/* JSON: an object {"blocks": {block: {name: value-or-object}}, "schema":
 * {block: {name: {"unit":..., "desc":...}}}} written with a stable key order
 * (registration order) so identical runs give identical bytes. The caller
 * writes the surrounding document; this writes one JSON value. Values:
 *   counter    123
 *   derived    1.5 (null when NaN or infinite)
 *   histogram  {"buckets": [{"range": "1-7", "count": n}, ...],
 *               "overflow": n, "samples": n, "mean": x-or-null}
 *   series     {"interval": x, "values": [v0, v1, ...]}
 * docs/statistics.md has a full example. */
void stats_write_json(const stats *s, FILE *f, int indent);
/* The same value through a caller's writer, so it nests inside a larger
 * document with correct commas and indentation (e.g. after json_key). */
struct json_writer;
void stats_write_json_to(const stats *s, struct json_writer *w);
/* CSV: one header line and one row of every counter and derived value, columns
 * named "block.name" in registration order; lines end in "\n"; a NaN or
 * infinite derived value is an empty field. */
void stats_write_csv_header(const stats *s, FILE *f);
void stats_write_csv_row(const stats *s, FILE *f);
/* One CSV field with RFC 4180 quoting (quoted only when it holds a comma,
 * quote, CR or LF; quotes doubled), for callers that prepend their own
 * columns (sweep parameters) before the header or row. */
void stats_write_csv_field(FILE *f, const char *field);

#endif
