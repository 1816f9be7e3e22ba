/* Dynamic warp formation (Fung's MASc thesis "Dynamic Warp Formation:
 * Exploiting Thread Scheduling for Efficient MIMD Control Flow on SIMD
 * Graphics Hardware", UBC 2008, chapter 4 [T]; docs/core.md "Dynamic warp
 * formation").
 *
 * Every entity is a warp-pool entry: a pc and up to warp_size threads of one
 * CTA, each on a lane. A pool warp is formed at write-back, issued once as a
 * single sub-warp of the formation hook (sm_issue_formed.c), and then is the
 * carrier of its threads through the pipeline (and the memory system) until
 * their write-back, where the threads split by next pc into at most two
 * thread groups (the warp update registers A and B, [T] Fig. 4.3a) that go
 * through the PC-warp LUT (dwf_lut.h) into pool warps; the carrier is then
 * freed. The issue policy (core.dwf_policy) picks the pool warp through the
 * reconv_ops.pick hook:
 *   maj    DMaj: drain the Majority Entry's pc, then the max-heap's root
 *          (dwf_heap.h; limited: core.dwf_heap_entries entries, an MHeap LUT,
 *          one swap per cycle and no issue while the heap rebalances);
 *   min    DMin: the pc with the fewest threads in the pool;
 *   time   DTime: pool warps in formation order;
 *   pc     DPC: the smallest pc;
 *   pdpri  DPdPri: the fewest post-dominators passed (a thread's count goes
 *          up when it reaches the reconvergence pc of a conditional branch,
 *          or of any branch: core.dwf_pdpri_count, [interp]).
 * Register file (core.dwf_rf): las, a thread only on its home lane with the
 * CNF/OCC insertion rule of [T] 4.2; ideal, any free lane; banks, any lane
 * (core.dwf_bank_place: the lowest free one, or its home lane first), and
 * threads sharing a register bank hold the issue port (core.dwf_bank_cost:
 * m - 1 scheduler cycles for m threads of one home lane, or the thesis's
 * per-pass register read stall, [T] 5.1.1). A home lane (core.dwf_home_lane)
 * is a slot of the warp (tid mod N) or a pipeline lane, whose register bank
 * serves any of the warp's N / simd_width slots on it ([T] 4.1, ch. 7; the
 * thesis's simulator, GPGPU-Sim 2.1's dwf.cc). Thread swizzling
 * (core.dwf_swizzle, _map): home slot xor 1 in odd warps ([T] 4.1) or
 * rotated by the warp index (GPGPU-Sim 2.1's regfile_hash).
 *
 * Cross-lane instructions (ballot, vote, shfl, ...) are not in the thesis's
 * PISA: so that their results are the static warp's, their pool warps are
 * formed per hardware warp on the threads' original lanes and issue when
 * they hold every live thread of it (or when nothing else can move).
 *
 * The state is dwf_internal.h's; the write-back's thread groups, where a
 * group's threads go (the LUT's warp, older warps, a new warp, on which
 * lanes) and what a `banks` warp's bank conflicts cost are dwf_place.c's. */
#include <string.h>

#include "core/dwf_internal.h"
#include "simtgrid/bits.h"

static unsigned dwf_capacity(const core_params *p) { return p->max_threads + 2; }

static void *dwf_create(sm *s)
{
    dwf_state *d = g_new0(dwf_state, 1);
    const core_params *p = &s->p;
    unsigned n = s->nent_cap, nt = p->max_warps * p->warp_size;
    d->ws = p->warp_size;
    for (unsigned h = 0; h < d->ws; h++)
        d->hlanes[h] = dwf_home_lanes(h, p->dwf_home_lane == DWF_HOME_PIPE ? p->simd_width : d->ws, d->ws);
    d->P = s->passes_port ? s->passes_port : 1;
    d->est = g_new0(uint8_t, n);
    d->parked = g_new0(bool, n);
    d->pfull = g_new0(bool, n);
    d->barw = g_new0(bool, n);
    d->tid = g_malloc0(n * sizeof *d->tid);
    d->mask = g_new0(uint32_t, n);
    d->gnext = g_new0(uint32_t, n);
    d->gprev = g_new0(uint32_t, n);
    d->grp = g_new0(uint32_t, n);
    d->pdmin = g_new0(uint32_t, n);
    d->seq = g_new0(uint64_t, n);
    d->key = g_new0(uint64_t, n);
    d->tpc = g_new0(uint32_t, n);
    d->fpc = g_new0(uint32_t, n);
    d->sel = g_new0(uint32_t, n);
    d->pw = g_new0(uint32_t, n);
    d->pocc = g_new0(uint32_t, n);
    d->ptake = g_new0(uint32_t, n);
    d->home = g_new0(uint8_t, nt);
    d->thr = g_new0(isa_thread *, nt);
    d->pd = g_new0(uint32_t, nt);
    d->live = g_new0(unsigned, p->max_warps);
    d->g = g_new0(dgroup, n);
    d->cnt = g_new0(uint32_t, n);
    d->gpc = g_new0(uint32_t, n);
    d->hpos = g_new0(int, n);
    d->gfree = g_new(uint32_t, n);
    for (unsigned i = 0; i < n; i++)
        d->gfree[i] = n - 1 - i;
    d->ngfree = n;
    d->gmap = g_hash_table_new(g_direct_hash, g_direct_equal);
    d->pool = g_new(uint32_t, n);
    d->ppos = g_new0(uint32_t, n);
    d->flight = g_new(uint32_t, n);
    d->bq = g_new(uint32_t, n);
    d->pool_limit = p->dwf_pool_entries ? p->dwf_pool_entries : n;
    if (p->dwf_lut_entries)
        dwf_lut_init(&d->lut, p->dwf_lut_entries / p->dwf_lut_assoc, p->dwf_lut_assoc);
    else
        dwf_lut_init(&d->lut, 1, n);
    d->window = UINT64_MAX;
    dwf_heap_init(&d->heap, n);
    d->heap.tie = p->dwf_heap_tie == DWF_TIE_PC ? d->gpc : NULL;
    d->maj = NONE;
    d->spill = g_new(uint32_t, n);
    d->msets = p->dwf_mheap_lut_entries / p->dwf_mheap_lut_assoc;
    d->mset = g_new0(unsigned, d->msets);
    d->ipdoms = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free);
    return d;
}

static void dwf_destroy(void *state)
{
    dwf_state *d = state;
    g_free(d->est);
    g_free(d->parked);
    g_free(d->pfull);
    g_free(d->barw);
    g_free(d->tid);
    g_free(d->mask);
    g_free(d->gnext);
    g_free(d->gprev);
    g_free(d->grp);
    g_free(d->pdmin);
    g_free(d->seq);
    g_free(d->key);
    g_free(d->tpc);
    g_free(d->fpc);
    g_free(d->sel);
    g_free(d->pw);
    g_free(d->pocc);
    g_free(d->ptake);
    g_free(d->home);
    g_free(d->thr);
    g_free(d->pd);
    g_free(d->live);
    g_free(d->g);
    g_free(d->cnt);
    g_free(d->gpc);
    g_free(d->hpos);
    g_free(d->gfree);
    g_hash_table_destroy(d->gmap);
    g_free(d->pool);
    g_free(d->ppos);
    g_free(d->flight);
    g_free(d->bq);
    dwf_lut_free(&d->lut);
    dwf_heap_free(&d->heap);
    g_free(d->spill);
    g_free(d->mset);
    g_hash_table_destroy(d->ipdoms);
    g_free(d);
}

/* ---- helpers ------------------------------------------------------------- */

static isa_thread *thread_of(const dwf_state *d, unsigned t)
{
    return d->thr[t];   /* s->hw[t / ws].lane[t % ws], cached at warp start */
}

/* Bitmap of the pcs that DPdPri counts as post-dominators: the
 * reconvergence points of the conditional branches (any = false: the only
 * branches that can diverge, [T] 4.3) or of every branch (any = true: an
 * unconditional branch's target too). One setting per run, so the cache is
 * keyed by the program alone. */
static const uint8_t *ipdoms_of(dwf_state *d, const isa_program *prog, bool any)
{
    uint8_t *b = g_hash_table_lookup(d->ipdoms, prog);
    if (b)
        return b;
    uint32_t n = isa_program_ninst(prog);
    b = g_new0(uint8_t, n + 1);
    for (uint32_t pc = 0; pc < n; pc++) {
        const isa_inst *in = isa_program_inst(prog, pc);
        if (in->op == ISA_OP_BRA && in->reconv < n && (any || in->guard != ISA_PRED_NONE))
            b[in->reconv] = 1;
    }
    g_hash_table_insert(d->ipdoms, (gpointer)prog, b);
    return b;
}

static uint32_t group_of(dwf_state *d, uint64_t key, bool create)
{
    gpointer v = g_hash_table_lookup(d->gmap, (gpointer)(uintptr_t)(key + 1));
    if (v)
        return (uint32_t)GPOINTER_TO_UINT(v) - 1;
    if (!create)
        return NONE;
    uint32_t g = d->gfree[--d->ngfree];
    d->g[g] = (dgroup){.used = true, .key = key, .head = NONE, .tail = NONE};
    d->cnt[g] = 0;
    d->gpc[g] = (uint32_t)key;
    d->hpos[g] = -1;
    d->ng++;
    g_hash_table_insert(d->gmap, (gpointer)(uintptr_t)(key + 1), GUINT_TO_POINTER(g + 1));
    return g;
}

static void group_release(dwf_state *d, uint32_t g)
{
    if (d->cnt[g] || d->g[g].head != NONE || d->hpos[g] != -1 || g == d->maj)
        return;
    g_hash_table_remove(d->gmap, (gpointer)(uintptr_t)(d->g[g].key + 1));
    d->g[g].used = false;
    d->ng--;
    d->gfree[d->ngfree++] = g;
}

/* One swap per pipeline cycle on a port (core.dwf_heap_ports); a pop holds
 * them all. */
static void heap_busy_add(sm *s, dwf_state *d, uint64_t k, unsigned swaps, bool pop)
{
    d->heap_swaps += swaps;
    unsigned n = s->p.dwf_heap_ports;
    d->heap_busy = pop ? dwf_heap_ports_pop(d->hport, n, k, swaps) : dwf_heap_ports_insert(d->hport, n, k, swaps);
}

/* DMaj: group g's count grew; keep the heap in order ([T] Fig. 4.5 INSERT). */
void dwf_maj_insert(sm *s, dwf_state *d, uint32_t g, uint64_t k, bool count)
{
    if (g == d->maj || d->hpos[g] == -2)
        return;
    bool limited = !s->p.dwf_heap_infinite;
    if (d->hpos[g] >= 0) {
        unsigned sw = dwf_heap_raise(&d->heap, g, d->cnt, d->hpos);
        if (limited)
            heap_busy_add(s, d, k, sw, false);
        return;
    }
    unsigned set = (uint32_t)d->g[g].key % d->msets;
    if (limited && (d->heap.n >= s->p.dwf_heap_entries || d->mset[set] >= s->p.dwf_mheap_lut_assoc)) {
        d->hpos[g] = -2;   /* overflow: waits for an entry ([T] proposes spilling to memory) */
        d->spill[d->nspill++] = g;
        d->heap_spills += count;
        return;
    }
    if (limited)
        d->mset[set]++;
    unsigned sw = dwf_heap_push(&d->heap, g, d->cnt, d->hpos);
    if (limited)
        heap_busy_add(s, d, k, sw, false);
    if (d->heap.n > d->heap_max)
        d->heap_max = d->heap.n;
}

/* Spilled groups take freed heap entries in spill order. */
static void maj_unspill(sm *s, dwf_state *d, uint64_t k)
{
    /* in place: a group still without room is appended again at or below i */
    unsigned n = d->nspill;
    d->nspill = 0;
    for (unsigned i = 0; i < n; i++) {
        uint32_t g = d->spill[i];
        d->hpos[g] = -1;
        dwf_maj_insert(s, d, g, k, false);
    }
}

/* A new pool warp for key at cycle k, on hw warp hw's entity bookkeeping. */
/* A pool entry for key at cycle k, in no group yet. */
static unsigned pool_entry(sm *s, dwf_state *d, uint64_t key, unsigned hw, uint64_t k)
{
    unsigned e = sm_entity_new(s, hw, -1);
    s->ent[e].pc = (uint32_t)key;
    s->ent[e].active = 0;
    s->ent[e].ready_at = k;
    d->est[e] = E_POOL;
    d->mask[e] = 0;
    d->seq[e] = d->nseq++;
    d->key[e] = key;
    d->pdmin[e] = UINT32_MAX;
    d->grp[e] = NONE;
    d->parked[e] = false;
    d->ppos[e] = d->npool;
    d->pool[d->npool++] = e;
    if (d->npool > d->pool_max)
        d->pool_max = d->npool;
    return e;
}

uint32_t dwf_pool_new(sm *s, dwf_state *d, uint64_t key, unsigned hw, uint64_t k)
{
    return dwf_pool_new_in(s, d, key, hw, k, NONE);
}

uint32_t dwf_pool_new_in(sm *s, dwf_state *d, uint64_t key, unsigned hw, uint64_t k, uint32_t g)
{
    unsigned e = pool_entry(s, d, key, hw, k);
    if (g == NONE)
        g = group_of(d, key, true);
    d->grp[e] = g;
    /* DMaj issues only the Majority Entry's warps: the others leave the
     * scheduler (no status to compute each cycle) until their pc is chosen */
    d->parked[e] = s->p.dwf_policy == DWF_POL_MAJ && g != d->maj;
    if (d->parked[e])
        sm_sched_leave(s, e, s->status[e]);
    d->gnext[e] = NONE;
    d->gprev[e] = d->g[g].tail;
    if (d->g[g].tail != NONE)
        d->gnext[d->g[g].tail] = e;
    else
        d->g[g].head = e;
    d->g[g].tail = e;
    return e;
}

static void remove_at(uint32_t *a, unsigned *n, uint32_t v)
{
    for (unsigned i = 0; i < *n; i++)
        if (a[i] == v) {
            memmove(&a[i], &a[i + 1], (*n - i - 1) * sizeof a[0]);
            (*n)--;
            return;
        }
}

/* Pool warp e issues: it leaves the pool, its group and the LUT (or the
 * barrier queue), and becomes the carrier of its threads. */
static void pool_issue(dwf_state *d, unsigned e)
{
    uint32_t g = d->grp[e];
    if (g == NONE) {
        remove_at(d->bq, &d->nbq, e);
    } else {
        if (d->gprev[e] != NONE)
            d->gnext[d->gprev[e]] = d->gnext[e];
        else
            d->g[g].head = d->gnext[e];
        if (d->gnext[e] != NONE)
            d->gprev[d->gnext[e]] = d->gprev[e];
        else
            d->g[g].tail = d->gprev[e];
        d->cnt[g] -= (uint32_t)sg_popcount32(d->mask[e]);
        dwf_lut_invalidate(&d->lut, d->key[e], e);
    }
    uint32_t last = d->pool[--d->npool];   /* no order: every pick compares seq */
    d->pool[d->ppos[e]] = last;
    d->ppos[last] = d->ppos[e];
    d->est[e] = E_FLIGHT;
    d->flight[d->nflight++] = e;
    if (g != NONE && g != d->maj)
        group_release(d, g);
}

/* ---- write-back: a carrier's thread groups into the pool ([T] 4.2) -------- */

/* core.dwf_barrier_lut = bypass: carrier e, released from a barrier,
 * becomes a pool warp of its own on its lanes, without a LUT lookup and in
 * no group (DMaj's heap does not count it), at the end of the barrier
 * queue, whose warps issue first (GPGPU-Sim 2.1's dwf.cc, the thesis's
 * simulator: update_warp_at_barrier gives each thread group that reaches
 * a barrier a warp of its own in its CTA's barrier queue, and issue_warp
 * issues that queue's warps before the policy's once the barrier is
 * released). Returns 0 when done, 1 when the pool is full (retried), 2
 * when e cannot take this path (its threads disagree on the next pc, or it
 * is a cross-lane instruction's: the LUT's path). */
static int bar_write_back(sm *s, dwf_state *d, unsigned e, uint64_t k)
{
    unsigned first = (unsigned)__builtin_ctz(d->mask[e]);
    uint32_t pc;
    if (dwf_next_pc_lanes(d, e, first, &pc) != d->mask[e])
        return 2;
    const isa_program *prog = sm_prog_of(s, e);
    if (pc < isa_program_ninst(prog) && isa_cross_lane(isa_program_inst(prog, pc)))
        return 2;
    if (d->npool + 1 > d->pool_limit) {
        d->pool_full++;
        d->pfull[e] = true;
        return 1;
    }
    d->pfull[e] = false;
    unsigned w = pool_entry(s, d, (uint64_t)s->ent[e].cta << 32 | pc, d->tid[e][first] / d->ws, k);
    for (uint32_t m = d->mask[e]; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        dwf_pool_add(s, d, w, l, d->tid[e][l]);
    }
    d->bq[d->nbq++] = w;
    d->mask[e] = 0;
    return 0;
}

static void sample(sm *s, dwf_state *d, uint64_t k)
{
    (void)s;
    if (!d->sampled) {
        d->sampled = true;
        d->first_k = d->last_k = k;
    }
    uint64_t dt = k - d->last_k;
    d->pool_area += dt * d->npool;
    d->heap_area += dt * d->heap.n;
    d->pcs_area += dt * d->ng;
    d->last_k = k;
}

/* The first cycle the heap's rebalancing can cost an issue ([T] 4.4.3,
 * Fig. 4.5: a stall is a moment the scheduler wants a warp and the heap is
 * not balanced): not before the issue port is free (a pop's sift-down
 * mostly ends within the P cycles of the issue that popped) nor before a
 * pool warp is ready, and not twice for the same cycle. Until the heap is
 * balanced no pool warp issues, so the port stays as it is now. */
static uint64_t heap_stall_from(const sm *s, const dwf_state *d, uint64_t k)
{
    uint64_t from = d->heap_counted > k ? d->heap_counted : k, port = UINT64_MAX, ready = UINT64_MAX;
    for (unsigned i = 0; i < s->p.schedulers; i++)
        if (s->sc[i].port_free < port)
            port = s->sc[i].port_free;
    for (unsigned i = 0; i < d->npool; i++)
        if (s->ent[d->pool[i]].ready_at < ready)
            ready = s->ent[d->pool[i]].ready_at;
    if (port > from)
        from = port;
    return ready > from ? ready : from;
}

static void dwf_before_cycle(sm *s, uint64_t k)
{
    dwf_state *d = s->rc_state;
    sample(s, d, k);
    if (k / d->P != d->window) {
        d->window = k / d->P;
        d->lookups_left = s->p.dwf_lut_lookups;
    }
    for (unsigned i = 0; i < d->nflight;) {
        unsigned e = d->flight[i];
        sm_entity *w = &s->ent[e];
        if (w->at_barrier || w->mem_wait || w->ready_at > k) {
            i++;
            continue;
        }
        int bar = d->barw[e] ? bar_write_back(s, d, e, k) : 2;
        if (bar == 2)
            d->barw[e] = false;
        if (bar == 0 || (bar == 2 && dwf_write_back(s, d, e, k))) {
            d->barw[e] = false;
            memmove(&d->flight[i], &d->flight[i + 1], (d->nflight - i - 1) * sizeof d->flight[0]);
            d->nflight--;
            d->est[e] = E_FREE;
            sm_entity_free(s, e);
        } else {
            /* the rest waits for the next scheduler cycle's lookups or a free entry */
            w->ready_at = bar == 2 && s->p.dwf_lut_lookups && !d->lookups_left ? (d->window + 1) * d->P : k + 1;
            i++;
        }
    }
    if (d->ng > d->pcs_max)
        d->pcs_max = d->ng;
    /* A rebalancing heap holds the issue ([T] Fig. 4.5): the pool warps wait
     * until it is done, which also tells the SM when to wake up; a released
     * barrier's warps do not (the simulator issues them before the heap). */
    if (d->heap_busy > k && d->npool) {
        uint64_t from = heap_stall_from(s, d, k);
        if (d->heap_busy > from)
            d->heap_stalls += d->heap_busy - from;
        d->heap_counted = d->heap_busy;
        for (unsigned i = 0; i < d->npool; i++)
            if (d->grp[d->pool[i]] != NONE && s->ent[d->pool[i]].ready_at < d->heap_busy)
                s->ent[d->pool[i]].ready_at = d->heap_busy;
    }
}

/* ---- issue ---------------------------------------------------------------- */

/* A cross-lane pool warp issues once it holds its hw warp's live threads. */
static bool eligible(const dwf_state *d, unsigned e)
{
    if (!(d->key[e] & XLANE_KEY))
        return true;
    unsigned hw = (unsigned)(d->key[e] >> 32 & 0xffff);
    return (unsigned)sg_popcount32(d->mask[e]) == d->live[hw];
}

/* Nothing in flight can change the pool: every carrier waits at a barrier
 * or for a free pool entry. */
static bool stuck(const sm *s, const dwf_state *d)
{
    for (unsigned i = 0; i < d->nflight; i++)
        if (!s->ent[d->flight[i]].at_barrier && !d->pfull[d->flight[i]])
            return false;
    return true;
}

/* Lexicographic priority of pool warp e (smaller first) under DMin, DTime,
 * DPC, DPdPri. */
static void prio(const sm *s, const dwf_state *d, unsigned e, uint64_t p[3])
{
    uint64_t pc = s->ent[e].pc;
    p[2] = d->seq[e];
    switch (s->p.dwf_policy) {
    case DWF_POL_MIN: p[0] = d->cnt[d->grp[e]]; p[1] = pc; break;
    case DWF_POL_PC: p[0] = pc; p[1] = 0; break;
    case DWF_POL_PDPRI: p[0] = d->pdmin[e]; p[1] = pc; break;
    default: p[0] = 0; p[1] = 0; break;   /* DTime: formation order */
    }
}

static bool before(const uint64_t a[3], const uint64_t b[3])
{
    for (unsigned i = 0; i < 3; i++)
        if (a[i] != b[i])
            return a[i] < b[i];
    return false;
}

static int pick_ordered(sm *s, dwf_state *d, bool relax, const uint8_t *status)
{
    int best = -1;
    uint64_t bp[3] = {0}, p[3];
    for (unsigned i = 0; i < d->npool; i++) {
        unsigned e = d->pool[i];
        if (status[e] != WS_READY || (!relax && !eligible(d, e)))
            continue;
        prio(s, d, e, p);
        if (best < 0 || before(p, bp)) {
            best = (int)e;
            memcpy(bp, p, sizeof bp);
        }
    }
    return best;
}

static int pick_maj(sm *s, dwf_state *d, uint64_t k, bool relax, uint64_t *wake, uint8_t *status,
                    const sched_view *v)
{
    bool limited = !s->p.dwf_heap_infinite;
    if (d->maj == NONE || d->g[d->maj].head == NONE) {
        if (d->maj != NONE) {
            uint32_t old = d->maj;
            d->maj = NONE;
            group_release(d, old);
        }
        if (d->nspill)
            maj_unspill(s, d, k);
        if (!d->heap.n)
            return -1;
        uint32_t g;
        unsigned sw = dwf_heap_pop(&d->heap, d->cnt, d->hpos, &g);
        if (limited) {
            d->mset[(uint32_t)d->g[g].key % d->msets]--;
            heap_busy_add(s, d, k, sw, true);
        }
        d->maj = g;
        if (d->nspill)
            maj_unspill(s, d, k);
        for (uint32_t e = d->g[g].head; e != NONE; e = d->gnext[e]) {
            if (!d->parked[e])
                continue;
            sm_sched_state *q = &s->sc[s->ent[e].sched];
            sched_add(&q->s, v, e, -1);
            sm_members_add(s, q, e);
            d->parked[e] = false;
            /* both copies, the actor's (this runs in it) and the SM's:
             * nothing to report */
            status[e] = s->status[e] = sm_entity_status(s, e, k, wake);
        }
    }
    for (uint32_t e = d->g[d->maj].head; e != NONE; e = d->gnext[e])
        if (status[e] == WS_READY && (relax || eligible(d, e)))
            return (int)e;
    return -1;
}

/* The issue policy's pick, in the scheduler actor (reconv_ops.pick). One
 * scheduler per SM (checked, core_params.c): its actor's status copy holds
 * every pool warp's, and DMaj's unpark writes the copy of the right actor. */
static int dwf_pick(sm *s, unsigned sc, uint64_t k, uint64_t *wake, uint8_t *status,
                    const sched_view *v)
{
    (void)sc;
    dwf_state *d = s->rc_state;
    if (!d->npool)
        return -1;
    for (unsigned i = 0; i < d->nbq; i++)   /* bypass: a released barrier's warps first */
        if (status[d->bq[i]] == WS_READY)
            return (int)d->bq[i];
    bool maj = s->p.dwf_policy == DWF_POL_MAJ;
    int e = maj ? pick_maj(s, d, k, false, wake, status, v) : pick_ordered(s, d, false, status);
    if (e < 0 && stuck(s, d))
        e = maj ? pick_maj(s, d, k, true, wake, status, v) : pick_ordered(s, d, true, status);
    return e;
}


static const sm_subwarp *dwf_form(sm *s, unsigned e, uint64_t k, unsigned *n, unsigned *threads)
{
    (void)k;
    dwf_state *d = s->rc_state;
    sm_subwarp *sw = &d->sw;
    pool_issue(d, e);
    sw->mask = d->mask[e];
    sw->at = 0;
    for (uint32_t m = sw->mask; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        sw->lane[l] = thread_of(d, d->tid[e][l]);
    }
    d->bank_extra = s->p.dwf_rf == DWF_RF_BANKS ? dwf_bank_stall(s, d, e) : 0;
    d->issued++;
    *n = 1;
    *threads = (unsigned)sg_popcount32(sw->mask);
    return sw;
}

static void dwf_subwarp_done(sm *s, unsigned e, unsigned i, const isa_exec_out *o, uint64_t issued,
                             uint64_t done)
{
    (void)i, (void)issued, (void)done;
    dwf_state *d = s->rc_state;
    uint32_t pc = s->ent[e].pc, gone = o->exited & d->mask[e];
    for (uint32_t m = gone; m; m &= m - 1)
        d->live[d->tid[e][__builtin_ctz(m)] / d->ws]--;
    d->mask[e] &= ~gone;
    /* isa_lane_next_pc's two pcs: taken lanes to tpc, the others to fpc */
    d->tpc[e] = isa_next_pc(o->inst, pc, true);
    d->fpc[e] = isa_next_pc(o->inst, pc, false);
    d->sel[e] = o->taken & d->mask[e];
    if (s->p.dwf_policy != DWF_POL_PDPRI)
        return;
    const uint8_t *ip = ipdoms_of(d, sm_prog_of(s, e), s->p.dwf_pdpri_count == DWF_PD_ANY);
    for (uint32_t m = d->mask[e]; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        if (ip[d->sel[e] >> l & 1 ? d->tpc[e] : d->fpc[e]])
            d->pd[d->tid[e][l]]++;
    }
}

static void dwf_after_issue(sm *s, unsigned e, uint32_t pc, const isa_exec_out *o)
{
    (void)o;
    dwf_state *d = s->rc_state;
    if (!d->mask[e]) {
        remove_at(d->flight, &d->nflight, e);
        d->est[e] = E_FREE;
        sm_entity_free(s, e);
        return;
    }
    s->ent[e].active = d->mask[e];
    d->barw[e] = s->p.dwf_barrier_lut == DWF_BAR_BYPASS &&
                 isa_program_inst(sm_prog_of(s, e), pc)->cls == ISA_CLASS_BARRIER;
    if (d->bank_extra) {   /* register-bank conflict: every lane waits ([T] Fig. 4.2c) */
        s->sc[s->ent[e].sched].port_free += d->bank_extra;
        s->ent[e].ready_at += d->bank_extra;
        d->bank_cycles += d->bank_extra;
    }
}

/* Hardware warp hw starts: its threads form one pool warp at pc 0 on their
 * home lanes (swizzled: lane xor 1 in odd warps, [T] 4.2). */
static void dwf_warp_start(sm *s, unsigned hw, uint64_t cycle)
{
    dwf_state *d = s->rc_state;
    const sm_hw *h = &s->hw[hw];
    d->live[hw] = (unsigned)sg_popcount32(h->lanes);
    unsigned e = dwf_pool_new(s, d, (uint64_t)h->cta << 32, hw, cycle);
    for (uint32_t m = h->lanes; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m), t = hw * d->ws + l;
        unsigned tid = h->lane[l]->tid_linear;
        unsigned home = tid % d->ws;
        if (s->p.dwf_swizzle && s->p.dwf_swizzle_map == DWF_SWZ_ROTATE)
            home = (home + tid / d->ws) % d->ws;
        else if (s->p.dwf_swizzle && d->ws % 2 == 0 && (tid / d->ws) % 2)
            home ^= 1;
        d->home[t] = (uint8_t)home;
        d->thr[t] = h->lane[l];
        d->pd[t] = 0;
        dwf_pool_add(s, d, e, s->p.dwf_rf == DWF_RF_LAS ? home : l, t);
    }
    if (s->p.dwf_policy == DWF_POL_MAJ)
        dwf_maj_insert(s, d, d->grp[e], cycle, true);
}

static void dwf_stats(sm *s, stats *st, const char *blk, bool final)
{
    dwf_state *d = s->rc_state;
    if (final) {
        double span = d->last_k > d->first_k ? (double)(d->last_k - d->first_k) : 1;
        stats_derived(st, blk, "dwf_pool_mean", "warps", "mean warp-pool occupancy (per cycle)",
                      (double)d->pool_area / span);
        stats_derived(st, blk, "dwf_heap_mean", "entries", "mean max-heap occupancy (per cycle)",
                      (double)d->heap_area / span);
        stats_derived(st, blk, "dwf_live_pcs_mean", "pcs", "mean distinct pcs in the warp pool (per cycle)",
                      (double)d->pcs_area / span);
        return;
    }
    stats_counter(st, blk, "dwf_warps", "warps", "dynamic warps issued", &d->issued);
    stats_counter(st, blk, "dwf_pool_max", "warps", "largest warp-pool occupancy", &d->pool_max);
    stats_counter(st, blk, "dwf_heap_max", "entries", "largest max-heap occupancy", &d->heap_max);
    stats_counter(st, blk, "dwf_live_pcs_max", "pcs", "most distinct pcs in the warp pool", &d->pcs_max);
    stats_counter(st, blk, "dwf_lut_lookups", "lookups", "PC-warp LUT lookups", &d->lookups);
    stats_counter(st, blk, "dwf_lut_misses", "lookups", "PC-warp LUT misses (a new warp)", &d->lut.misses);
    stats_counter(st, blk, "dwf_lut_evictions", "entries", "PC-warp LUT entries evicted", &d->lut.evictions);
    stats_counter(st, blk, "dwf_lut_port_waits", "cycles",
                  "write-back cycles a thread group waited for a LUT lookup port", &d->port_waits);
    stats_counter(st, blk, "dwf_pool_full_waits", "cycles",
                  "write-back cycles a thread group waited for a free warp-pool entry", &d->pool_full);
    stats_counter(st, blk, "dwf_lane_conflicts", "groups",
                  "las: thread groups whose lanes conflicted with the LUT warp (a second warp)",
                  &d->las_conflicts);
    stats_counter(st, blk, "dwf_lane_conflicts_full", "groups",
                  "las: lane conflicts with a full LUT warp (a new warp under any register file)",
                  &d->las_full);
    stats_counter(st, blk, "dwf_lane_conflicts_split", "groups",
                  "las: lane conflicts where part of the group joined the LUT warp", &d->las_split);
    stats_counter(st, blk, "dwf_bank_conflict_cycles", "cycles",
                  "banks: issue cycles added by register-bank conflicts", &d->bank_cycles);
    stats_counter(st, blk, "dwf_heap_stall_cycles", "cycles",
                  "maj: cycles the free issue port waited for the heap to rebalance", &d->heap_stalls);
    stats_counter(st, blk, "dwf_heap_swaps", "swaps", "maj: max-heap swaps", &d->heap_swaps);
    stats_counter(st, blk, "dwf_heap_overflows", "pcs", "maj: pcs that found the heap or its LUT set full",
                  &d->heap_spills);
}

const reconv_ops reconv_dwf_ops = {
    .packs = false,
    .every_cycle = true,
    .capacity = dwf_capacity,
    .create = dwf_create,
    .destroy = dwf_destroy,
    .warp_start = dwf_warp_start,
    .after_issue = dwf_after_issue,
    .before_cycle = dwf_before_cycle,
    .form = dwf_form,
    .subwarp_done = dwf_subwarp_done,
    .pick = dwf_pick,
    .stats = dwf_stats,
};
