/* ORACLE reconvergence's alignment (Fung's DWF thesis, section 3.3): the
 * threads of a warp know their whole dynamic pc sequences (traces); a warp
 * schedule is a sequence of columns {pc, lanes} that contains every lane's
 * trace in order, one issue per column. The fewest columns is the shortest
 * common supersequence of the traces, which the thesis approaches with
 * repeated Needleman-Wunsch alignments; here the lanes are merged one by one
 * in lane order, each by a longest-common-subsequence alignment (NW with
 * match = 1, mismatch and gap = 0) against the columns so far. Barriers cut
 * the traces into segments aligned separately, so every lane's k-th barrier
 * lands in one column (a warp cannot pass its barrier before all its threads
 * reach it). Each segment keeps the shortest of three schedules: that
 * alignment (only when its tables fit in max_cells cells), the schedule
 * PDOM itself would issue (so an oracle never issues more than PDOM), and
 * majority merging (each column takes the pc that the most unfinished lanes
 * have next, a barrier only when no other pc is left). */
#ifndef SIMTGRID_CORE_ORACLE_ALIGN_H
#define SIMTGRID_CORE_ORACLE_ALIGN_H

#include <glib.h>
#include <stdint.h>

#include "simtgrid/isa.h"

typedef struct oracle_col {
    uint32_t pc;
    uint32_t mask;
} oracle_col;

typedef struct oracle_align_stats {
    uint64_t segments;     /* segments aligned */
    uint64_t chosen[3];    /* of which scheduled by: LCS alignment, PDOM, majority merging */
} oracle_align_stats;

/* Appends the columns of lanes `lanes` (trace[l], len[l] pcs each; lanes
 * with len 0 are ignored) to `out` (a GArray of oracle_col). is_bar[pc] is
 * nonzero for barrier instructions; `prog` gives the PDOM schedule its
 * branches and post-dominators (NULL: no PDOM candidate). */
void oracle_align(const uint32_t *const *trace, const uint32_t *len, uint32_t lanes,
                  const isa_program *prog, const uint8_t *is_bar, uint64_t max_cells, GArray *out,
                  oracle_align_stats *st);

#endif
