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

/* The lanes a thread of home lane h may take in a lane-aware warp of ws
 * lanes (core.dwf_home_lane): slot (W = ws) just h; pipe (W = simd_width)
 * every lane of its pipeline lane h mod W, i.e. h mod W, + W, + 2W, ...
 * (GPGPU-Sim 2.1's dwf.cc, update_warp: lane = bank + k * pipeline width). */
static inline uint32_t dwf_home_lanes(unsigned h, unsigned W, unsigned ws)
{
    uint32_t m = 0;
    for (unsigned l = h % W; l < ws; l += W)
        m |= UINT32_C(1) << l;
    return m;
}

/* Where one thread that may take `lanes` goes among the n >= 1 pool warps of
 * its pc holding occ[0..n-1], oldest first, the LUT's warp last: the index
 * of the warp (n = a new warp) and in *lane its lowest free lane there
 * (the new warp's lanes in *nocc). The thesis's rule (any = false): a
 * free lane of the LUT's warp, else the new warp (the conflict vector CNF
 * of sec. 4.2). any = true (its "more aggressive approach", not evaluated):
 * the older warps' free lanes, oldest first, before a new warp. The caller
 * marks the lane taken, thread by thread. */
static inline unsigned dwf_las_lane(uint32_t lanes, const uint32_t *occ, unsigned n, bool any, uint32_t nocc,
                                    unsigned *lane)
{
    uint32_t f = lanes & ~occ[n - 1];
    unsigned w = n - 1;
    for (unsigned i = 0; !f && any && i + 1 < n; i++)
        if ((f = lanes & ~occ[i]))
            w = i;
    if (!f) {
        f = lanes & ~nocc;
        w = n;
    }
    *lane = f ? (unsigned)__builtin_ctz(f) : 0;
    return w;
}

#endif
