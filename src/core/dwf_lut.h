/* The PC-warp LUT of dynamic warp formation (Fung's MASc thesis "Dynamic
 * Warp Formation", section 4.2, Fig. 4.3b): key (CTA, pc) -> {IDX, OCC},
 * IDX the warp being formed for that pc in the warp pool and OCC the lanes
 * it already holds. Set-associative with LRU replacement (set = pc mod sets,
 * the hash H of the thesis is not given); `sets = 1, ways = N` with N large
 * is the infinite LUT. A miss or an evicted entry starts a new warp. Pure
 * data structure, tested alone (test/core/test_dwf.c). */
#ifndef SIMTGRID_CORE_DWF_LUT_H
#define SIMTGRID_CORE_DWF_LUT_H

#include <stdbool.h>
#include <stdint.h>

typedef struct dwf_lut_entry {
    bool valid;
    uint64_t key;      /* cta << 32 | pc */
    unsigned idx;      /* warp-pool entry being formed */
    uint32_t occ;      /* lanes it holds */
    uint64_t used;     /* LRU stamp */
} dwf_lut_entry;

typedef struct dwf_lut {
    dwf_lut_entry *e;
    unsigned sets, ways;
    uint64_t stamp;
    uint64_t misses, evictions;
} dwf_lut;

void dwf_lut_init(dwf_lut *l, unsigned sets, unsigned ways);
void dwf_lut_free(dwf_lut *l);
/* The entry of key, or NULL (a miss, counted). */
dwf_lut_entry *dwf_lut_lookup(dwf_lut *l, uint64_t key);
/* Installs key -> idx with OCC 0, evicting the set's LRU entry if full. */
dwf_lut_entry *dwf_lut_insert(dwf_lut *l, uint64_t key, unsigned idx);
/* The entry pointing at pool warp idx is dropped (the warp issued). */
void dwf_lut_invalidate(dwf_lut *l, uint64_t key, unsigned idx);

/* Lane-aware insertion (thesis section 4.2, the insertion rule): a thread
 * group on lanes `req` meets the LUT warp holding `occ`. The conflict vector
 * CNF = req & occ goes to a new warp, the rest joins the LUT warp. */
static inline uint32_t dwf_las_conflicts(uint32_t req, uint32_t occ) { return req & occ; }

/* Where a lane-aware group on lanes `req` goes among the n >= 1 pool warps
 * of its pc holding occ[0..n-1], oldest first, the LUT's warp last:
 * take[i] gets the lanes joining warp i, and the lanes returned start a
 * new warp. The thesis's rule (any = false, n = 1): the lanes free in the
 * LUT's warp join it, CNF starts the new warp. any = true (its "more
 * aggressive approach", not evaluated): CNF first takes the older warps'
 * free lanes, oldest first. */
static inline uint32_t dwf_las_place(uint32_t req, const uint32_t *occ, unsigned n, bool any, uint32_t *take)
{
    uint32_t left = dwf_las_conflicts(req, occ[n - 1]);
    take[n - 1] = req & ~left;
    for (unsigned i = 0; i + 1 < n; i++) {
        take[i] = any ? left & ~occ[i] : 0;
        left &= ~take[i];
    }
    return left;
}

#endif
