/* Thread block compaction (Fung and Aamodt, "Thread Block Compaction for
 * Efficient SIMT Control Flow", HPCA 2011), as Narasiman's dissertation
 * section 5.2 configures it for its comparison with LWM: blocks of
 * core.tbc_block_threads threads (256), sticky round-robin scheduling
 * (core.scheduler = srr). docs/core.md, "Thread block compaction".
 *
 * A block is K = tbc_block_threads / warp_size consecutive hw warps
 * ("rows") of one CTA with one block-wide PDOM stack whose masks are K x N
 * (pdom_wide.h). The threads of the stack's top entry run as compacted
 * warps: warp j holds, on every lane (column) c, the j-th active thread of
 * column c (a thread keeps its lane, so its registers stay in their bank;
 * lwm_take_column applied until the mask is used up). Compacted warps are
 * scheduling entities of their own and run independently until they reach
 * a synchronisation point:
 *   a conditional branch or an exit: every warp of the entry executes it,
 *     its outcome gathers in block-wide taken/exited masks, and the last
 *     warp to complete it updates the stack (push on divergence);
 *   the entry's reconvergence pc: the entry is popped when all are there.
 * Then the new top entry is compacted into warps that may be fetched at
 * (latest arrival's completion) + 1. Unconditional jumps and predicated
 * instructions run in the compacted warps as they are: nothing is packed
 * on a predicate ([D] 5.2.1: TBC compacts only at branches). */
#include <string.h>

#include "core/lwm_form.h"
#include "core/pdom_wide.h"
#include "core/sm_internal.h"
#include "simtgrid/bits.h"

typedef struct tblock {
    unsigned rows;
    uint16_t hw[WPDOM_ROWS];    /* hw warp slot of each row */
    wpdom stk;
    uint32_t taken[WPDOM_ROWS], exited[WPDOM_ROWS];
    unsigned warps, arrived;    /* compacted warps of the top entry; of them at the sync point */
    uint64_t ready, ready_sum;  /* latest and summed arrival (fetchable) cycles */
} tblock;

typedef struct cwarp {          /* per entity: the thread of each lane */
    uint8_t row[ISA_MAX_LANES];
} cwarp;

typedef struct tbc_state {
    tblock *blk;                /* indexed by the leader's hw slot */
    uint16_t *lead;             /* per hw slot: its block's leader */
    unsigned nblk;
    cwarp *cw;                  /* per entity id */
    sm_subwarp sub;
    /* statistics */
    uint64_t syncs, compactions, saved, formed, stall;
} tbc_state;

/* One more entity than warps: a block's new compacted warps are made before
 * the last arriving warp is freed (freeing it first could release a barrier
 * of the CTA's other blocks too early, sm_barrier_check). */
static unsigned tbc_capacity(const core_params *p) { return p->max_warps + 1; }

static void *tbc_create(sm *s)
{
    tbc_state *st = g_new0(tbc_state, 1);
    st->nblk = s->p.max_warps;
    st->blk = g_new0(tblock, st->nblk);
    st->lead = g_new0(uint16_t, st->nblk);
    st->cw = g_new0(cwarp, s->p.max_warps + 1);
    return st;
}

static void tbc_destroy(void *state)
{
    tbc_state *st = state;
    for (unsigned i = 0; i < st->nblk; i++)
        wpdom_free(&st->blk[i].stk);
    g_free(st->blk);
    g_free(st->lead);
    g_free(st->cw);
    g_free(st);
}

/* Compacts the block's top entry into warps fetchable at `ready`. */
static void form_warps(sm *s, tbc_state *st, unsigned lead, uint64_t ready)
{
    tblock *B = &st->blk[lead];
    const wpdom_entry *top = wpdom_top(&B->stk);
    uint32_t W[WPDOM_ROWS];
    unsigned holding = 0;   /* hw warps with a thread in the entry */
    for (unsigned r = 0; r < B->rows; r++) {
        W[r] = top->m[r];
        holding += W[r] != 0;
    }
    unsigned n = 0;
    uint8_t row[ISA_MAX_LANES], col[ISA_MAX_LANES];
    for (uint32_t m; (m = lwm_take_column(W, NULL, B->rows, row, col)) != 0; n++) {
        unsigned e = sm_entity_new(s, B->hw[n], -1);
        sm_set_slot(s, e, lead / s->p.schedulers);   /* srr: the block's warps share a slot */
        s->ent[e].pc = top->pc;
        s->ent[e].active = m;
        s->ent[e].ready_at = ready;
        memcpy(st->cw[e].row, row, sizeof row);
    }
    B->warps = n;
    B->arrived = 0;
    B->ready = 0;
    B->ready_sum = 0;
    st->formed += n;
    if (n < holding) {
        st->compactions++;
        st->saved += holding - n;
    }
}

static void tbc_warp_start(sm *s, unsigned hw, uint64_t cycle)
{
    tbc_state *st = s->rc_state;
    const sm_cta *c = &s->cta[s->hw[hw].cta];
    unsigned K = s->p.tbc_rows, w = sm_cta_warp_index(s, hw);
    if (w % K != K - 1 && w != c->nwarps - 1)
        return;   /* the block starts with its last row */
    unsigned w0 = w - w % K, lead = c->hw[w0];
    tblock *B = &st->blk[lead];
    B->rows = w - w0 + 1;
    uint32_t m[WPDOM_ROWS];
    for (unsigned r = 0; r < B->rows; r++) {
        B->hw[r] = c->hw[w0 + r];
        st->lead[B->hw[r]] = (uint16_t)lead;
        m[r] = s->hw[B->hw[r]].lanes;
    }
    wpdom_init(&B->stk, B->rows, 0, m);
    memset(B->taken, 0, sizeof B->taken);
    memset(B->exited, 0, sizeof B->exited);
    form_warps(s, st, lead, cycle);
}

static const sm_subwarp *tbc_form(sm *s, unsigned e, uint64_t k, unsigned *n, unsigned *threads)
{
    (void)k;
    tbc_state *st = s->rc_state;
    const sm_entity *w = &s->ent[e];
    const tblock *B = &st->blk[st->lead[w->hw]];
    sm_subwarp *sw = &st->sub;
    sw->mask = w->active;
    sw->at = 0;
    for (uint32_t m = w->active; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        sw->lane[l] = s->hw[B->hw[st->cw[e].row[l]]].lane[l];
    }
    *n = 1;
    *threads = (unsigned)sg_popcount32(w->active);
    return sw;
}

/* A conditional branch or an exit: the block synchronises there. */
static bool sync_point(const isa_inst *in)
{
    return (in->op == ISA_OP_BRA && in->guard != ISA_PRED_NONE) || in->op == ISA_OP_EXIT;
}

static void tbc_subwarp_done(sm *s, unsigned e, unsigned i, const isa_exec_out *o, uint64_t issued,
                             uint64_t done)
{
    (void)i;
    (void)issued;
    (void)done;
    const isa_inst *in = o->inst;
    if (!sync_point(in))
        return;   /* a jump's taken lanes are not a branch outcome */
    tbc_state *st = s->rc_state;
    tblock *B = &st->blk[st->lead[s->ent[e].hw]];
    const uint8_t *row = st->cw[e].row;
    for (uint32_t m = o->taken; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        B->taken[row[l]] |= UINT32_C(1) << l;
    }
    for (uint32_t m = o->exited; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        B->exited[row[l]] |= UINT32_C(1) << l;
    }
}

/* Entity e reached the block's synchronisation point; the last one applies
 * the stack update (`in` NULL: the reconvergence pc `next`) and forms the
 * new warps. */
static void arrive(sm *s, unsigned e, uint32_t pc, const isa_inst *in, uint32_t next)
{
    tbc_state *st = s->rc_state;
    unsigned lead = st->lead[s->ent[e].hw];
    tblock *B = &st->blk[lead];
    uint64_t ready = s->ent[e].ready_at;
    B->arrived++;
    B->ready_sum += ready;
    if (B->ready < ready)
        B->ready = ready;
    if (B->arrived < B->warps) {
        sm_entity_free(s, e);
        return;
    }
    if (in)
        wpdom_branch(&B->stk, B->taken, B->exited, in->op == ISA_OP_BRA ? in->target : pc + 1, pc + 1,
                     in->reconv);
    else
        wpdom_advance(&B->stk, next);
    memset(B->taken, 0, sizeof B->taken);
    memset(B->exited, 0, sizeof B->exited);
    st->syncs++;
    if (!wpdom_empty(&B->stk)) {
        st->stall += (uint64_t)B->warps * B->ready - B->ready_sum;
        form_warps(s, st, lead, B->ready);
    }
    sm_entity_free(s, e);
}

static void tbc_after_issue(sm *s, unsigned e, uint32_t pc, const isa_exec_out *o)
{
    tbc_state *st = s->rc_state;
    sm_entity *w = &s->ent[e];
    const tblock *B = &st->blk[st->lead[w->hw]];
    const isa_inst *in = o->inst;
    uint32_t next = pc + 1;
    if (sync_point(in)) {
        arrive(s, e, pc, in, 0);
        return;
    }
    if (in->op == ISA_OP_BRA)
        next = in->target;   /* a jump */
    if (next == wpdom_top(&B->stk)->rpc) {
        arrive(s, e, pc, NULL, next);
        return;
    }
    w->pc = next;
}

static void tbc_stats(sm *s, stats *st, const char *blk, bool final)
{
    tbc_state *q = s->rc_state;
    if (final) {
        stats_derived(st, blk, "tbc_warps_per_sync", "warps", "compacted warps formed per synchronisation",
                      q->syncs ? (double)q->formed / (double)q->syncs : 0);
        return;
    }
    stats_counter(st, blk, "tbc_syncs", "events",
                  "block synchronisations (conditional branch, exit or reconvergence pc)", &q->syncs);
    stats_counter(st, blk, "tbc_compactions", "events",
                  "formations with fewer warps than hw warps holding the entry's threads", &q->compactions);
    stats_counter(st, blk, "tbc_warps_saved", "warps", "warps saved by compaction", &q->saved);
    stats_counter(st, blk, "tbc_warps_formed", "warps", "compacted warps formed", &q->formed);
    stats_counter(st, blk, "tbc_sync_stall", "warp-cycles",
                  "cycles warps waited at a synchronisation point for the block's last warp", &q->stall);
}

const reconv_ops reconv_tbc_ops = {
    .packs = false,
    .capacity = tbc_capacity,
    .create = tbc_create,
    .destroy = tbc_destroy,
    .warp_start = tbc_warp_start,
    .after_issue = tbc_after_issue,
    .before_cycle = NULL,
    .form = tbc_form,
    .subwarp_done = tbc_subwarp_done,
    .stats = tbc_stats,
};
