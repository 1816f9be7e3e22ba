/* Miss status holding registers: a fully associative table of in-flight
 * lines, each with up to `merge` requesters waiting for it.
 *
 * Life of an entry (Wang's memory-divergence dissertation, section 1.1.2):
 *   allocate     a miss to a line with no entry; the first requester joins.
 *   add          later accesses to the same line merge (a pending hit), or
 *                widen the sectors requested (a sector miss on it).
 *   fill         data for some sectors arrives; every requester whose
 *                sectors are now all there becomes ready, in arrival order.
 *                Once every requested sector is in, the entry stops taking
 *                merges (a later access allocates a fresh entry).
 *   pop_ready    the owner takes ready requesters one at a time (one per
 *                cycle through the fill port, or all at once); the entry is
 *                freed when its data is complete AND its last requester has
 *                been taken: "freed when the response returns and all merged
 *                accesses have been serviced".
 *
 * Fixed arrays sized at creation: nothing is allocated per access.
 * Occupancy is kept as a cycle-weighted histogram: every change of the
 * in-use count at cycle `now` charges the elapsed cycles to the previous
 * count, so bucket k counts the cycles with k entries in use. The hot path
 * only bumps a per-count cycle total; mshr_occupancy_flush (called by
 * cache_finish at the end of a run) writes the histogram from it. */
#ifndef SIMTGRID_MEM_MSHR_H
#define SIMTGRID_MEM_MSHR_H

#include <stdbool.h>
#include <stdint.h>

#include "simtgrid/stats.h"

#define MSHR_MAX_ENTRIES 4096
#define MSHR_MAX_MERGE 256

/* One waiting access: the caller's id (echoed back), the sectors it needs,
 * and who issued it. */
typedef struct mshr_requester {
    uint32_t id;
    uint32_t sectors;
    uint16_t warp;
} mshr_requester;

/* What the first requester of an entry tells a cache that allocates on fill:
 * who caused the miss (the evictor, for the miss taxonomy), its PC and the
 * stack position hint its line should be inserted at. */
typedef struct mshr_origin {
    uint16_t warp;
    int16_t insert_pos;    /* -1: the policy's default */
    uint32_t pc;
} mshr_origin;

typedef struct mshr_table mshr_table;

/* NULL when entries is outside 1..MSHR_MAX_ENTRIES or merge outside
 * 1..MSHR_MAX_MERGE. `merge` counts every requester of an entry, the first
 * included (GPGPU-Sim's "A:32:8": 32 entries of up to 8 accesses). */
mshr_table *mshr_new(unsigned entries, unsigned merge);
void mshr_free(mshr_table *m);

/* The entry still waiting for `line`, or -1 (entries whose data is complete
 * and that only wait to be drained are not found). */
int mshr_find(const mshr_table *m, uint64_t line);
/* Room for one more requester in entry e. */
bool mshr_can_merge(const mshr_table *m, int e);
/* Sectors requested from below for entry e. */
uint32_t mshr_pending(const mshr_table *m, int e);
const mshr_origin *mshr_origin_of(const mshr_table *m, int e);
unsigned mshr_in_use(const mshr_table *m);
unsigned mshr_capacity(const mshr_table *m);
static inline bool mshr_has_free(const mshr_table *m)
{
    return mshr_in_use(m) < mshr_capacity(m);
}

/* A new entry for `line` requesting `sectors`, with its first requester;
 * -1 when the table is full. */
int mshr_allocate(mshr_table *m, uint64_t line, uint32_t sectors, const mshr_requester *rq,
                  const mshr_origin *origin, uint64_t now);
/* Join entry e (which must have room: mshr_can_merge), also requesting
 * `new_sectors` from below (0 for a pure pending hit). A requester whose
 * sectors have already all arrived is ready at once. */
void mshr_add(mshr_table *m, int e, const mshr_requester *rq, uint32_t new_sectors);
/* Data for `sectors` of `line` arrived. Returns how many requesters became
 * ready (0 also when no entry waits for the line). *complete (may be NULL)
 * says whether every requested sector is now in. */
unsigned mshr_fill(mshr_table *m, uint64_t line, uint32_t sectors, bool *complete,
                   uint64_t now);
/* The oldest ready requester (fill order, then arrival order), with its
 * line; false when none. Frees the entry after its last one. */
bool mshr_pop_ready(mshr_table *m, mshr_requester *out, uint64_t *line, uint64_t now);
unsigned mshr_ready_count(const mshr_table *m);

/* Cycle-weighted occupancy: buckets of in-use counts (exact 0..entries when
 * that fits in a stats_hist, else 31 equal ranges below `entries` and one
 * bucket for "all in use"). */
const stats_hist *mshr_occupancy(const mshr_table *m);
/* Charges the cycles up to `now` and rewrites the histogram from the
 * totals (call at the end of a run, before results are written). */
void mshr_occupancy_flush(mshr_table *m, uint64_t now);
/* The occupancy record as it stands (mshr_occupancy_save writes
 * mshr_occupancy_words words), and a flush as if the record were still the
 * one saved: for a block that ran past the end of the run and holds its
 * statistics back (issue 20, l2slice_hold.c). The entries themselves are
 * not touched. */
size_t mshr_occupancy_words(const mshr_table *m);
void mshr_occupancy_save(const mshr_table *m, uint64_t *buf);
void mshr_occupancy_flush_saved(mshr_table *m, const uint64_t *buf, uint64_t now);

#endif
