/* Statistics saved before each cycle a block runs past the earliest
 * possible end of the run (issue 20; docs/des.md, "The L2 slice holds its
 * statistics back"). A block that runs ahead past its stop bound saves its
 * statistics (a fixed number of words) before such a cycle, forgets the
 * copies the engine's time has passed, and at the end of the run puts
 * back the first copy made after the end, if any: every statistic then
 * holds its value as of the end, as if the block had stepped. Copies are
 * made in cycle order. */
#ifndef SIMTGRID_MEM_SNAPS_H
#define SIMTGRID_MEM_SNAPS_H

#include <stddef.h>
#include <stdint.h>

typedef struct snaps {
    uint64_t *buf;    /* per copy: its cycle, then `words` words */
    size_t words;
    unsigned head, n, cap;
} snaps;

void snaps_init(snaps *s, size_t words);
void snaps_free(snaps *s);
/* Room for the copy of the statistics as they stand before `cycle` runs. */
uint64_t *snaps_push(snaps *s, uint64_t cycle);
/* Forgets the copies made before cycles up to `cycle`: the run ends no
 * sooner. */
void snaps_drop(snaps *s, uint64_t cycle);
/* The first copy made before a cycle after `cycle` (the run's last), or
 * NULL: none was run after it. */
const uint64_t *snaps_after(const snaps *s, uint64_t cycle);

#endif
