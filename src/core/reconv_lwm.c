/* Large Warp Microarchitecture (Narasiman et al., "Improving GPU Performance
 * via Large Warps and Two-Level Warp Scheduling", MICRO 2011, section 3.1
 * [P]; Narasiman's dissertation, sections 4.2 and 5.2 [D]; docs/core.md).
 *
 * A large warp is K = core.lw_rows consecutive hw warps ("rows") of one CTA
 * with one pc and one PDOM stack whose masks are K x N (pdom_wide.h); it is
 * one entity for the scheduler. When fetched, its instruction is broken
 * into sub-warps (lwm_form.h) on a working copy of the TOS mask, one per
 * cycle; the fetch port stays blocked until the last one has issued
 * (sm_issue_form.c). Per instruction kind:
 *   unconditional bra (core.lwm_jump_opt): one sub-warp, every thread jumps;
 *   global memory (core.lwm_memdiv_opt) and cross-lane instructions: one
 *     sub-warp per row (cross-lane results then equal the 32-thread warp's);
 *   predicated non-control instructions (core.lwm_pred_pack): only the
 *     threads whose guard holds are packed ([D] 5.2.1); none: one empty
 *     sub-warp, the masked NOP still passes the pipeline;
 *   otherwise per column the lowest row ([P] 3.1.1), or any threads
 *     (core.lwm_pack = any, perfRF).
 * Branch outcomes gather in taken/exited buffers over the sub-warps; the
 * stack is updated after the last one ([P] 3.1.2). Re-fetch: strict, the
 * large warp waits for every sub-warp (sm_issue_form.c); relaxed ([D]
 * 4.2.2), it may be fetched when its first sub-warp completes, except after
 * control and global memory instructions, and a thread whose sub-warp is
 * still in flight is not packed (a formation cycle without an available
 * thread is a bubble). Every thread of the large warp's TOS retires the
 * instruction (thread_insts as under PDOM), also the predicated-off ones
 * and those a jump's single sub-warp stood for. */
#include <string.h>

#include "core/lwm_form.h"
#include "core/pdom_wide.h"
#include "core/sm_internal.h"
#include "simtgrid/bits.h"

typedef struct inflight {
    uint64_t done;
    uint32_t m[WPDOM_ROWS];
} inflight;

typedef struct lw {
    unsigned rows;
    uint16_t hw[WPDOM_ROWS];    /* hw warp slot of each row */
    wpdom stk;
    uint32_t taken[WPDOM_ROWS], exited[WPDOM_ROWS];
    uint64_t first_done;
    inflight *fl;               /* relaxed: sub-warps that may be in flight */
    unsigned nfl, capfl;
} lw;

typedef struct lwm_state {
    lw *lw;                     /* indexed by the leader's hw slot */
    unsigned nlw;
    sm_subwarp sub[WPDOM_ROWS];
    uint8_t row[WPDOM_ROWS][ISA_MAX_LANES], col[WPDOM_ROWS][ISA_MAX_LANES];
    uint64_t fetch_k, last_issue;
    /* statistics */
    uint64_t fetches, subwarps, lanes, blocked, bubbles;
    stats_hist per_fetch;       /* sub-warps per large-warp instruction */
} lwm_state;

static unsigned lwm_capacity(const core_params *p) { return p->max_warps; }

static void *lwm_create(sm *s)
{
    lwm_state *st = g_new0(lwm_state, 1);
    st->lw = g_new0(lw, s->p.max_warps);
    st->nlw = s->p.max_warps;
    stats_hist_init_exact(&st->per_fetch, WPDOM_ROWS + 1);
    return st;
}

static void lwm_destroy(void *state)
{
    lwm_state *st = state;
    for (unsigned i = 0; i < st->nlw; i++) {
        wpdom_free(&st->lw[i].stk);
        g_free(st->lw[i].fl);
    }
    g_free(st->lw);
    g_free(st);
}

static void lwm_warp_start(sm *s, unsigned hw, uint64_t cycle)
{
    lwm_state *st = s->rc_state;
    const sm_cta *c = &s->cta[s->hw[hw].cta];
    unsigned K = s->p.lw_rows, w = sm_cta_warp_index(s, hw);
    if (w % K != K - 1 && w != c->nwarps - 1)
        return;   /* the large warp starts with its last row */
    unsigned w0 = w - w % K, lead = c->hw[w0];
    lw *L = &st->lw[lead];
    L->rows = w - w0 + 1;
    uint32_t m[WPDOM_ROWS], all = 0;
    for (unsigned r = 0; r < L->rows; r++) {
        L->hw[r] = c->hw[w0 + r];
        m[r] = s->hw[L->hw[r]].lanes;
        all |= m[r];
    }
    wpdom_init(&L->stk, L->rows, 0, m);
    memset(L->taken, 0, sizeof L->taken);
    memset(L->exited, 0, sizeof L->exited);
    L->nfl = 0;
    unsigned e = sm_entity_new(s, lead, -1);
    s->ent[e].pc = 0;
    s->ent[e].active = all;
    s->ent[e].ready_at = cycle;
    sm_set_slot(s, e, s->slot[e] / K);   /* fetch groups count large warps ([P] 3.3) */
}

/* Rows of threads not in flight at cycle c (relaxed re-fetch); false if
 * every thread is available. *next: the earliest cycle one more frees. */
static bool available(const lw *L, uint64_t c, uint32_t *avail, uint64_t *next)
{
    bool some = false;
    *next = UINT64_MAX;
    for (unsigned r = 0; r < L->rows; r++)
        avail[r] = UINT32_MAX;
    for (unsigned i = 0; i < L->nfl; i++) {
        if (L->fl[i].done < c)
            continue;
        some = true;
        if (L->fl[i].done + 1 < *next)
            *next = L->fl[i].done + 1;
        for (unsigned r = 0; r < L->rows; r++)
            avail[r] &= ~L->fl[i].m[r];
    }
    return some;
}

static const sm_subwarp *lwm_form(sm *s, unsigned e, uint64_t k, unsigned *n, unsigned *threads)
{
    lwm_state *st = s->rc_state;
    const core_params *p = &s->p;
    sm_entity *w = &s->ent[e];
    lw *L = &st->lw[w->hw];
    const isa_inst *in = isa_program_inst(sm_prog_of(s, e), w->pc);
    const wpdom_entry *top = wpdom_top(&L->stk);
    uint32_t W[WPDOM_ROWS];
    unsigned nthreads = 0;
    bool pred = p->lwm_pred_pack && in->guard != ISA_PRED_NONE && !sm_is_control(in);
    for (unsigned r = 0; r < L->rows; r++) {
        W[r] = top->m[r];
        nthreads += (unsigned)sg_popcount32(W[r]);
        if (pred) {
            const sm_hw *h = &s->hw[L->hw[r]];
            uint32_t g = 0;
            for (uint32_t m = W[r]; m; m &= m - 1) {
                unsigned l = (unsigned)__builtin_ctz(m);
                if (((h->lane[l]->preds >> in->guard) & 1u) != in->guard_neg)
                    g |= UINT32_C(1) << l;
            }
            W[r] = g;
        }
    }
    *threads = nthreads;
    bool jump = p->lwm_jump_opt && in->op == ISA_OP_BRA && in->guard == ISA_PRED_NONE;
    bool byrow = (p->lwm_memdiv_opt && sm_is_global(in)) || isa_cross_lane(in);
    /* relaxed: forget sub-warps completed before this fetch */
    unsigned j = 0;
    for (unsigned i = 0; i < L->nfl; i++)
        if (L->fl[i].done >= k)
            L->fl[j++] = L->fl[i];
    L->nfl = j;
    uint32_t avail[WPDOM_ROWS];
    unsigned ns = 0;
    uint64_t at = 0;
    for (;;) {
        bool any = false;
        for (unsigned r = 0; r < L->rows; r++)
            any |= W[r] != 0;
        if (!any)
            break;
        uint64_t next = UINT64_MAX;
        const uint32_t *av = L->nfl && available(L, k + at, avail, &next) ? avail : NULL;
        uint8_t *row = st->row[ns], *col = st->col[ns];
        uint32_t m = byrow ? lwm_take_row(W, av, L->rows, row, col)
                   : p->lwm_any ? lwm_take_any(W, av, L->rows, p->warp_size, row, col)
                                : lwm_take_column(W, av, L->rows, row, col);
        if (!m) {   /* every remaining thread is in flight: bubbles */
            st->bubbles += next - (k + at);
            at = next - k;
            continue;
        }
        sm_subwarp *sw = &st->sub[ns++];
        sw->mask = m;
        sw->at = (uint32_t)at;
        for (uint32_t b = m; b; b &= b - 1) {
            unsigned l = (unsigned)__builtin_ctz(b);
            sw->lane[l] = s->hw[L->hw[row[l]]].lane[col[l]];
        }
        at++;
        if (jump)
            break;
    }
    if (!ns) {   /* predicated off everywhere: one masked NOP */
        st->sub[0].mask = 0;
        st->sub[0].at = 0;
        ns = 1;
    }
    st->fetch_k = k;
    st->fetches++;
    st->subwarps += ns;
    stats_hist_add(&st->per_fetch, ns);
    *n = ns;
    return st->sub;
}

static void lwm_subwarp_done(sm *s, unsigned e, unsigned i, const isa_exec_out *o, uint64_t issued,
                             uint64_t done)
{
    lwm_state *st = s->rc_state;
    lw *L = &st->lw[s->ent[e].hw];
    const uint8_t *row = st->row[i], *col = st->col[i];
    for (uint32_t m = o->taken; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        L->taken[row[l]] |= UINT32_C(1) << col[l];
    }
    for (uint32_t m = o->exited; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        L->exited[row[l]] |= UINT32_C(1) << col[l];
    }
    uint32_t mask = st->sub[i].mask;
    st->lanes += (unsigned)sg_popcount32(mask);
    if (i == 0)
        L->first_done = done;
    st->last_issue = issued;
    if (!s->p.lwm_relaxed || !mask)
        return;
    if (L->nfl == L->capfl) {
        L->capfl = L->capfl ? 2 * L->capfl : 16;
        L->fl = g_renew(inflight, L->fl, L->capfl);
    }
    inflight *f = &L->fl[L->nfl++];
    f->done = done;
    memset(f->m, 0, sizeof f->m);
    for (uint32_t m = mask; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        f->m[row[l]] |= UINT32_C(1) << col[l];
    }
}

static void lwm_after_issue(sm *s, unsigned e, uint32_t pc, const isa_exec_out *o)
{
    lwm_state *st = s->rc_state;
    sm_entity *w = &s->ent[e];
    lw *L = &st->lw[w->hw];
    const isa_inst *in = o->inst;
    st->blocked += st->last_issue - st->fetch_k;
    if (in->op == ISA_OP_BRA && in->guard == ISA_PRED_NONE)
        wpdom_advance(&L->stk, in->target);
    else if (in->op == ISA_OP_BRA || in->op == ISA_OP_EXIT)
        wpdom_branch(&L->stk, L->taken, L->exited, in->op == ISA_OP_BRA ? in->target : pc + 1, pc + 1,
                     in->reconv);
    else
        wpdom_advance(&L->stk, pc + 1);
    memset(L->taken, 0, sizeof L->taken);
    memset(L->exited, 0, sizeof L->exited);
    if (wpdom_empty(&L->stk)) {
        L->nfl = 0;
        sm_entity_free(s, e);
        return;
    }
    const wpdom_entry *top = wpdom_top(&L->stk);
    w->pc = top->pc;
    uint32_t all = 0;
    for (unsigned r = 0; r < L->rows; r++)
        all |= top->m[r];
    w->active = all;
    if (s->p.lwm_relaxed && !sm_is_control(in) && !sm_is_global(in) && w->ready_at > L->first_done + 1)
        w->ready_at = L->first_done + 1;
}

static void lwm_stats(sm *s, stats *st, const char *blk, bool final)
{
    lwm_state *q = s->rc_state;
    if (final) {
        stats_derived(st, blk, "lwm_subwarps_per_fetch", "sub-warps",
                      "sub-warps per large-warp instruction",
                      q->fetches ? (double)q->subwarps / (double)q->fetches : 0);
        stats_derived(st, blk, "lwm_packing_efficiency", "ratio",
                      "active lanes / SIMD width per issued sub-warp",
                      q->subwarps ? (double)q->lanes / ((double)q->subwarps * s->p.warp_size) : 0);
        return;
    }
    stats_counter(st, blk, "lwm_fetches", "instructions", "large-warp instructions fetched", &q->fetches);
    stats_counter(st, blk, "lwm_subwarps", "sub-warps", "sub-warps issued", &q->subwarps);
    stats_counter(st, blk, "lwm_lanes", "lanes", "active lanes summed over sub-warps", &q->lanes);
    stats_counter(st, blk, "lwm_fetch_blocked", "cycles",
                  "fetch cycles blocked while a large warp was broken into sub-warps", &q->blocked);
    stats_counter(st, blk, "lwm_bubbles", "cycles",
                  "relaxed re-fetch: formation cycles with every remaining thread in flight", &q->bubbles);
    stats_histogram(st, blk, "lwm_subwarps_hist", "sub-warps", "sub-warps per large-warp instruction",
                    &q->per_fetch);
}

const reconv_ops reconv_lwm_ops = {
    .packs = false,
    .capacity = lwm_capacity,
    .create = lwm_create,
    .destroy = lwm_destroy,
    .warp_start = lwm_warp_start,
    .after_issue = lwm_after_issue,
    .before_cycle = NULL,
    .form = lwm_form,
    .subwarp_done = lwm_subwarp_done,
    .stats = lwm_stats,
};
