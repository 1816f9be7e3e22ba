/* Dynamic warp formation's write-back: a carrier's threads split by next
 * pc into thread groups, and where a group's threads go
 * (Fung's MASc thesis "Dynamic Warp Formation", sec. 4.2; docs/core.md
 * "Dynamic warp formation"): the PC-warp LUT's warp, older warps of the pc
 * (core.dwf_las_merge) or a new warp, on the lanes the register file
 * (core.dwf_rf) allows; and the issue cycles a `banks` warp's register
 * bank conflicts cost. The pool itself is reconv_dwf.c's. */
#include <limits.h>
#include <string.h>

#include "core/dwf_internal.h"

/* core.dwf_las_merge = any: the pool warps of LUT warp e's pc into pw[] and
 * their lanes into pocc[], oldest first, e last; returns how many. */
static unsigned older_warps(dwf_state *d, unsigned e)
{
    unsigned n = 0;
    for (uint32_t w = d->g[d->grp[e]].head; w != NONE; w = d->gnext[w])
        if (w != e) {
            d->pw[n] = w;
            d->pocc[n++] = d->mask[w];
        }
    d->pw[n] = e;
    d->pocc[n] = d->mask[e];
    return n + 1;
}

/* Lanes a thread of home lane h may take: dwf_home_lanes over the pipeline
 * lanes (core.dwf_home_lane = pipe) or the warp's slots. */
static uint32_t home_lanes(const dwf_state *d, unsigned h, bool xl)
{
    return xl ? UINT32_C(1) << h : d->hlanes[h];
}

/* Lane-aware placement of ts[0..n) among the np warps d->pocc[] (the LUT's
 * last; dwf_las_lane): lane[i] and wi[i] (np = the new warp, whose lanes go
 * to *nocc). Returns whether a thread missed the LUT's warp (a conflict). */
static bool las_place(dwf_state *d, const unsigned *ts, unsigned n, bool xl, unsigned np, bool any,
                      uint8_t *lane, unsigned *wi, uint32_t *nocc)
{
    uint32_t *occ = d->ptake;   /* working copy: lanes taken so far */
    memcpy(occ, d->pocc, np * sizeof *occ);
    *nocc = 0;
    bool miss = false;
    for (unsigned i = 0; i < n; i++) {
        unsigned h = xl ? ts[i] % d->ws : d->home[ts[i]], l;
        unsigned w = dwf_las_lane(home_lanes(d, h, xl), occ, np, any, *nocc, &l);
        if (w == np)
            *nocc |= UINT32_C(1) << l;
        else
            occ[w] |= UINT32_C(1) << l;
        miss |= w != np - 1;
        lane[i] = (uint8_t)l;
        wi[i] = w;
    }
    return miss;
}

/* Any-lane placement (ideal, banks) of the threads `want` (bit i: ts[i])
 * into a warp holding *occ: with home (core.dwf_bank_place = home) first
 * those whose home lane is free take it, then the rest the lowest free
 * lanes in order. Returns the threads left without a lane. */
static uint32_t free_fill(const dwf_state *d, const unsigned *ts, uint32_t want, uint32_t *occ,
                          bool home, uint8_t *lane)
{
    uint32_t full = d->ws >= 32 ? UINT32_MAX : (UINT32_C(1) << d->ws) - 1;
    for (uint32_t m = home ? want : 0; m; m &= m - 1) {
        unsigned i = (unsigned)__builtin_ctz(m);
        uint32_t f = home_lanes(d, d->home[ts[i]], false) & ~*occ;
        if (f) {
            lane[i] = (uint8_t)__builtin_ctz(f);
            *occ |= f & -f;
            want &= ~(UINT32_C(1) << i);
        }
    }
    for (uint32_t m = want; m && (full & ~*occ); m &= m - 1) {
        unsigned i = (unsigned)__builtin_ctz(m);
        uint32_t f = full & ~*occ;
        lane[i] = (uint8_t)__builtin_ctz(f);
        *occ |= f & -f;
        want &= ~(UINT32_C(1) << i);
    }
    return want;
}

/* las_place with the LUT's warp alone (np = 1, the thesis's rule): the same
 * lanes, thread by thread, without the per-warp arrays. Returns the threads
 * (bit i: ts[i]) that go to the new warp. */
static uint32_t las_place_lut(const dwf_state *d, const unsigned *ts, unsigned n, bool xl, uint32_t occ,
                              uint8_t *lane, uint32_t *nocc)
{
    uint32_t fresh = 0, no = 0;
    for (unsigned i = 0; i < n; i++) {
        uint32_t hl = xl ? UINT32_C(1) << (ts[i] % d->ws) : d->hlanes[d->home[ts[i]]];
        uint32_t f = hl & ~occ;
        if (f) {
            occ |= f & -f;
        } else {
            f = hl & ~no;
            fresh |= UINT32_C(1) << i;
            no |= f ? f & -f : 1;   /* dwf_las_lane: lane 0 when none is free */
        }
        lane[i] = f ? (uint8_t)__builtin_ctz(f) : 0;
    }
    *nocc = no;
    return fresh;
}

/* Threads ts[i] (bit i of `which`) join pool warp e on lane[i]: dwf_pool_add
 * for each, in order, with the warp's fields written once. */
static void pool_add_group(sm *s, dwf_state *d, unsigned e, const unsigned *ts, const uint8_t *lane,
                           uint32_t which)
{
    uint32_t m = 0, pd = d->pdmin[e];
    unsigned c = 0;
    for (uint32_t b = which; b; b &= b - 1, c++) {
        unsigned i = (unsigned)__builtin_ctz(b);
        d->tid[e][lane[i]] = (uint16_t)ts[i];
        m |= UINT32_C(1) << lane[i];
    }
    if (s->p.dwf_policy == DWF_POL_PDPRI)   /* pdmin: DPdPri's key alone */
        for (uint32_t b = which; b; b &= b - 1)
            if (d->pd[ts[__builtin_ctz(b)]] < pd)
                pd = d->pd[ts[__builtin_ctz(b)]];
    d->mask[e] |= m;
    s->ent[e].active = d->mask[e];
    if (d->grp[e] != NONE)   /* a barrier-queue warp counts in no group */
        d->cnt[d->grp[e]] += c;
    d->pdmin[e] = pd;
}

/* Inserts the n threads ts[] whose next pc is key's; false (nothing done)
 * when the pool lacks the entries it would need. */
static bool dwf_insert_group(sm *s, dwf_state *d, uint64_t key, const unsigned *ts, unsigned n, uint64_t k)
{
    bool xl = key & XLANE_KEY;
    bool las = s->p.dwf_rf == DWF_RF_LAS || xl;
    uint32_t full = d->ws >= 32 ? UINT32_MAX : (UINT32_C(1) << d->ws) - 1;
    uint32_t all = n >= 32 ? UINT32_MAX : (UINT32_C(1) << n) - 1;
    uint8_t lane[ISA_MAX_LANES];
    unsigned wi[ISA_MAX_LANES];   /* with older warps: d->pw[] index, np - 1 the LUT's, np a new one */
    d->lookups++;
    dwf_lut_entry *e = dwf_lut_lookup(&d->lut, key);
    uint32_t occ = e ? e->occ : 0, nocc = 0;
    uint32_t fresh;   /* the LUT's warp alone: the threads (bit i: ts[i]) that go to a new warp */
    unsigned np = 1;  /* the pc's pool warps placement considers, the LUT's last */
    bool miss = false;
    if (las) {
        fresh = las_place_lut(d, ts, n, xl, occ, lane, &nocc);
        miss = fresh != 0;
        if (miss && e && s->p.dwf_las_merge == DWF_MERGE_ANY && !xl) {
            np = older_warps(d, e->idx);
            las_place(d, ts, n, xl, np, true, lane, wi, &nocc);
        }
    } else {
        bool home = s->p.dwf_rf == DWF_RF_BANKS && s->p.dwf_bank_place == DWF_PLACE_HOME;
        uint32_t o = occ;
        fresh = free_fill(d, ts, all, &o, home, lane);
        free_fill(d, ts, fresh, &nocc, home, lane);
    }
    bool conflict = nocc != 0;
    unsigned need = (e ? 0 : 1) + (conflict ? 1 : 0);
    if (d->npool + need > d->pool_limit) {
        d->lookups--;   /* retried: counted when it succeeds */
        if (!e)
            d->lut.misses--;
        return false;
    }
    unsigned hw = ts[0] / d->ws;
    if (!e) {
        e = dwf_lut_insert(&d->lut, key, dwf_pool_new(s, d, key, hw, k));
    }
    unsigned old = e->idx, nw = conflict ? dwf_pool_new_in(s, d, key, hw, k, d->grp[old]) : NONE;
    if (miss) {   /* which kind: docs/core.md "Dynamic warp formation" */
        bool joined = fresh != all;
        if (np > 1) {
            joined = false;
            for (unsigned i = 0; i < n; i++)
                joined |= wi[i] == np - 1;
        }
        d->las_conflicts++;
        if ((e->occ & full) == full)
            d->las_full++;
        else if (joined)
            d->las_split++;
    }
    if (np > 1) {
        for (unsigned i = 0; i < n; i++) {
            unsigned target = wi[i] == np ? nw : wi[i] == np - 1 ? old : d->pw[wi[i]];
            dwf_pool_add(s, d, target, lane[i], ts[i]);
        }
    } else {
        if (all & ~fresh)
            pool_add_group(s, d, old, ts, lane, all & ~fresh);
        if (fresh)
            pool_add_group(s, d, nw, ts, lane, fresh);
    }
    if (nw != NONE) {   /* the LUT follows the new warp; the old one is never updated again */
        e->idx = nw;
        e->occ = nocc;
    } else {
        e->occ = d->mask[old];
    }
    if (s->p.dwf_policy == DWF_POL_MAJ)
        dwf_maj_insert(s, d, d->grp[old], k, true);
    return true;
}


/* Carrier e's lanes whose next pc is lane l's, and that pc in *pc (the two
 * next pcs of its instruction: dwf_subwarp_done). */
uint32_t dwf_next_pc_lanes(const dwf_state *d, unsigned e, unsigned l, uint32_t *pc)
{
    uint32_t m = d->mask[e], sel = d->sel[e] & m;
    if (d->tpc[e] == d->fpc[e]) {
        *pc = d->tpc[e];
        return m;
    }
    bool t = sel >> l & 1;
    *pc = t ? d->tpc[e] : d->fpc[e];
    return t ? sel : m & ~sel;
}

/* Carrier e writes back at cycle k: its thread groups, one LUT lookup each,
 * while the scheduler cycle's lookups last. Returns true when it is empty. */
bool dwf_write_back(sm *s, dwf_state *d, unsigned e, uint64_t k)
{
    const sm_entity *w = &s->ent[e];
    const isa_program *prog = sm_prog_of(s, e);
    while (d->mask[e]) {
        if (s->p.dwf_lut_lookups && !d->lookups_left) {
            d->port_waits++;
            return false;
        }
        unsigned first = (unsigned)__builtin_ctz(d->mask[e]);
        uint32_t pc, taken = dwf_next_pc_lanes(d, e, first, &pc);
        bool xl = pc < isa_program_ninst(prog) && isa_cross_lane(isa_program_inst(prog, pc));
        unsigned ts[ISA_MAX_LANES], n = 0, hw = d->tid[e][first] / d->ws;
        for (uint32_t m = taken; m; m &= m - 1) {
            unsigned l = (unsigned)__builtin_ctz(m), t = d->tid[e][l];
            if (xl && t / d->ws != hw)
                taken &= ~(UINT32_C(1) << l);
            else
                ts[n++] = t;
        }
        uint64_t key = (uint64_t)w->cta << 32 | pc;
        if (xl)
            key = XLANE_KEY | (uint64_t)hw << 32 | pc;
        d->pfull[e] = false;
        if (!dwf_insert_group(s, d, key, ts, n, k)) {
            d->pool_full++;
            d->pfull[e] = true;
            return false;
        }
        if (s->p.dwf_lut_lookups)
            d->lookups_left--;
        d->mask[e] &= ~taken;
    }
    return true;
}

/* Pipeline cycles a `banks` warp's register reads hold the issue
 * (core.dwf_bank_cost, docs/core.md "Dynamic warp formation"). lane: a
 * bank per home lane, one thread a scheduler cycle: (most threads of one
 * home lane - 1) scheduler cycles. pass: the thesis's register read stage
 * (sec. 5.1.1): simd_width banks, a thread's bank its home lane mod
 * simd_width; each pass of simd_width lanes stalls (most threads of one
 * bank in the pass - 1) cycles. */
unsigned dwf_bank_stall(const sm *s, const dwf_state *d, unsigned e)
{
    bool pass = s->p.dwf_bank_cost == DWF_BANK_PASS;
    unsigned W = pass ? s->p.simd_width : d->ws, nb = pass ? W : d->ws;
    unsigned per[ISA_MAX_LANES] = {0}, stall = 0, deg = 1;
    unsigned cur = UINT_MAX;   /* the pass being counted */
    for (uint32_t m = d->mask[e]; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m), b = d->home[d->tid[e][l]] % nb;
        if (l / W != cur) {   /* a new pass: its stall is its worst bank's */
            stall += deg - 1;
            deg = 1;
            cur = l / W;
            memset(per, 0, nb * sizeof per[0]);
        }
        if (++per[b] > deg)
            deg = per[b];
    }
    stall += deg - 1;
    return pass ? stall : stall * d->P;
}
