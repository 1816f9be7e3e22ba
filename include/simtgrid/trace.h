/* An optional timeline trace in the Chrome trace-event JSON format, viewable
 * in Perfetto (ui.perfetto.dev) or chrome://tracing.
 *
 * A track is a dotted instance path such as "sm0.sched1": the part before the
 * first dot is the process ("sm0"), the whole path names the thread row
 * inside it ("sm0.sched1"; a path without a dot is its own process with one
 * row). Process ids and thread ids are numbered from 1 in order of first use,
 * and metadata events name and order the rows that way, so identical runs
 * give identical files. Events are written in call order.
 *
 * Tracing off costs one test: a block keeps a `trace *` that is NULL when no
 * trace was asked for and writes `if (t) trace_complete(t, ...)`. Every
 * function also accepts NULL and then does nothing. Times are microseconds
 * (the format's unit); fractions are kept, so picosecond times survive. */
#ifndef SIMTGRID_TRACE_H
#define SIMTGRID_TRACE_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct trace trace;

/* Create or truncate `path` and write the document's opening. NULL with
 * `err` set (G_FILE_ERROR, naming the path) when the file cannot be opened. */
trace *trace_open(const char *path, GError **err);

/* The id of `track`, assigned on first use; callers that emit many events
 * resolve their tracks once and use the *_on variants. Returns -1 for a NULL
 * trace or track. */
int trace_track(trace *t, const char *track);

/* A span: `name` ran on `track` from start_us for dur_us ("ph":"X"). A
 * negative duration is written as 0. */
void trace_complete(trace *t, const char *track, const char *name, double start_us,
                    double dur_us);
void trace_complete_on(trace *t, int track_id, const char *name, double start_us,
                       double dur_us);
/* An async span ("ph":"b" then "e", same id): spans that may overlap on one
 * track (memory requests in flight), which complete events must not. */
void trace_async_on(trace *t, int track_id, const char *name, uint64_t id, double start_us,
                    double end_us);
/* A block's track of overlapping spans in its own clock cycles (requests in
 * flight): resolved once, then one call per span. `t` stays NULL when there
 * is no trace or the block filter leaves the track out, so the hot path
 * costs one test. */
typedef struct trace_spans {
    trace *t;
    int track;
    double us_per_cycle;
    uint64_t next_id;
} trace_spans;
void trace_spans_init(trace_spans *s, trace *t, const char *track, double us_per_cycle);
void trace_spans_add(trace_spans *s, const char *name, uint64_t from_cycle, uint64_t to_cycle);

/* A point event on a track ("ph":"i", thread scope). */
void trace_instant(trace *t, const char *track, const char *name, double ts_us);
/* A counter sample ("ph":"C"). Chrome keys counters by process and name, so
 * the event is named "<track>.<name>" (e.g. "sm0.sched1.ready_warps"), which
 * keeps counters of different rows of one process apart. */
void trace_counter(trace *t, const char *track, const char *name, double ts_us, double value);

/* Bounds, so that a trace of a large chip stays usable: only events that
 * overlap [start_us, end_us) are written (a span that straddles a bound is
 * kept whole), and only tracks matching one of `blocks` (NULL-terminated
 * globs; a pattern also selects the tracks below it: "sm0" selects
 * "sm0.sched1"). trace_track returns -1 for a track left out, and the *_on
 * functions do nothing with -1, so a left-out block costs one test per
 * event. Set both before the first track is resolved. */
void trace_set_window(trace *t, double start_us, double end_us);
void trace_set_blocks(trace *t, char *const *blocks);

/* Write the closing, close the file and free `t`. False with `err` set when
 * any write failed (disk full...). trace_close(NULL, ...) returns true. */
bool trace_close(trace *t, GError **err);

#endif
