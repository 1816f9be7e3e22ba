/* ORACLE reconvergence (Fung's DWF thesis, section 3.3, Fig. 3.4: the limit
 * study of reconverging at the best points, knowing every thread's future).
 *
 * When a CTA arrives, a functional pre-pass runs it alone (the reference
 * runner's PDOM warps, isa_run_cta) on a fresh copy of its threads, with the
 * global memory journalled and rolled back afterwards, and records each
 * thread's dynamic pc sequence. Each hw warp then gets a schedule: the
 * alignment of its threads' traces (oracle_align.h), one column {pc, lanes}
 * per issue. The warp's one entity walks the columns, so threads reconverge
 * wherever the alignment matched them (possibly a later dynamic instance of
 * a pc, e.g. the next loop iteration), never waiting at post-dominators.
 * Every issue checks that each lane's next pc is its recorded one: a kernel
 * whose control flow depends on timing (atomics, races, %clock) stops the
 * run with an error naming the thread and pc. */
#include <string.h>

#include "core/oracle_align.h"
#include "core/sm_internal.h"
#include "simtgrid/bits.h"

#define PREPASS_MAX_INSTS (UINT64_C(1) << 40)   /* the timing run's own limit applies too */

typedef struct oracle_warp {
    GArray *cols;                      /* oracle_col */
    unsigned at;                       /* next column */
    uint32_t *trace[ISA_MAX_LANES];    /* recorded pcs per lane, for the check */
    uint32_t len[ISA_MAX_LANES], pos[ISA_MAX_LANES];
} oracle_warp;

typedef struct oracle_state {
    oracle_warp *w;          /* per hw warp */
    GArray **tr;             /* per thread of the CTA being started (uint32_t pcs) */
    unsigned ntr;
    uint64_t tr_cta;         /* CTA id + 1 whose traces tr holds (0: none) */
    unsigned tr_slot;
    uint8_t *is_bar;         /* per pc of tr's program */
    const isa_program *prog;
    oracle_align_stats al;
    uint64_t columns, prepass_insts;
} oracle_state;

static unsigned oracle_capacity(const core_params *p) { return p->max_warps; }

static void *oracle_create(sm *s)
{
    oracle_state *st = g_new0(oracle_state, 1);
    st->w = g_new0(oracle_warp, s->p.max_warps);
    return st;
}

static void warp_clear(oracle_warp *w)
{
    if (w->cols)
        g_array_free(w->cols, TRUE);
    for (unsigned l = 0; l < ISA_MAX_LANES; l++)
        g_free(w->trace[l]);
    memset(w, 0, sizeof *w);
}

static void traces_clear(oracle_state *st)
{
    for (unsigned i = 0; i < st->ntr; i++)
        g_array_free(st->tr[i], TRUE);
    g_free(st->tr);
    g_free(st->is_bar);
    st->tr = NULL;
    st->is_bar = NULL;
    st->ntr = 0;
    st->tr_cta = 0;
}

static void oracle_destroy(void *state)
{
    oracle_state *st = state;
    traces_clear(st);
    g_free(st->w);
    g_free(st);
}

typedef struct rec_ctx {
    GArray **tr;
    unsigned ws;
} rec_ctx;

static void record(void *ctx, unsigned warp, uint32_t pc, uint32_t lanes, const isa_exec_out *o)
{
    (void)o;
    rec_ctx *r = ctx;
    for (uint32_t m = lanes; m; m &= m - 1)
        g_array_append_val(r->tr[warp * r->ws + (unsigned)__builtin_ctz(m)], pc);
}

/* The traces of every thread of the CTA in slot `slot`. False (s->error set)
 * when the pre-pass fails. */
static bool prepass(sm *s, oracle_state *st, unsigned slot)
{
    const sm_cta *c = &s->cta[slot];
    const isa_launch *L = c->ic->launch;
    traces_clear(st);
    st->ntr = c->ic->nthreads;
    st->tr = g_new(GArray *, st->ntr);
    for (unsigned i = 0; i < st->ntr; i++)
        st->tr[i] = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    uint32_t n = isa_program_ninst(L->prog);
    st->prog = L->prog;
    st->is_bar = g_new0(uint8_t, n);
    for (uint32_t pc = 0; pc < n; pc++)
        st->is_bar[pc] = isa_program_inst(L->prog, pc)->op == ISA_OP_BAR;
    isa_cta *shadow = isa_cta_new(L, c->id);
    rec_ctx r = {st->tr, L->warp_size};
    isa_run_stats rs;
    GError *err = NULL;
    memimg_journal_begin(L->mem);
    bool ok = isa_run_cta(shadow, PREPASS_MAX_INSTS, &rs, record, &r, &err);
    memimg_journal_rollback(L->mem);
    isa_cta_free(shadow);
    st->prepass_insts += rs.warp_insts;
    if (!ok) {
        s->error = g_strdup_printf("core: ORACLE pre-pass of CTA %" G_GUINT64_FORMAT " failed: %s", c->id,
                                   err->message);
        g_error_free(err);
        des_stop(s->engine);
        return false;
    }
    st->tr_cta = c->id + 1;
    st->tr_slot = slot;
    return true;
}

static void oracle_warp_start(sm *s, unsigned hw, uint64_t cycle)
{
    oracle_state *st = s->rc_state;
    sm_hw *h = &s->hw[hw];
    if ((st->tr_cta != s->cta[h->cta].id + 1 || st->tr_slot != h->cta) && !prepass(s, st, h->cta))
        return;
    oracle_warp *w = &st->w[hw];
    warp_clear(w);
    for (uint32_t m = h->lanes; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        GArray *t = st->tr[h->lane[l]->tid_linear];
        w->len[l] = t->len;
        w->trace[l] = g_memdup2(t->data, (gsize)t->len * sizeof(uint32_t));
    }
    w->cols = g_array_new(FALSE, FALSE, sizeof(oracle_col));
    oracle_align((const uint32_t *const *)w->trace, w->len, h->lanes, st->prog, st->is_bar,
                 s->p.oracle_dp_cells, w->cols, &st->al);
    st->columns += w->cols->len;
    if (!w->cols->len) {   /* no thread ran an instruction: cannot happen with pc 0 */
        sm_threads_exited(s, h->cta, (unsigned)sg_popcount32(h->lanes));
        return;
    }
    const oracle_col *c0 = &g_array_index(w->cols, oracle_col, 0);
    unsigned e = sm_entity_new(s, hw, -1);
    s->ent[e].pc = c0->pc;
    s->ent[e].active = c0->mask;
    s->ent[e].ready_at = cycle;
}

static void off_path(sm *s, unsigned e, unsigned l, uint32_t pc, uint32_t next, uint32_t want)
{
    const sm_cta *c = &s->cta[s->ent[e].cta];
    s->error = g_strdup_printf("%s: ORACLE: thread %u of CTA %" G_GUINT64_FORMAT " (launch %s) left its "
                               "recorded path after pc %u: next pc %d, recorded %d (its control flow "
                               "depends on timing, which ORACLE's pre-pass cannot foresee)",
                               isa_program_file(c->launch->il.prog),
                               s->hw[s->ent[e].hw].lane[l]->tid_linear, c->id, c->launch->name, pc,
                               next == ISA_PC_EXIT ? -1 : (int)next, want == ISA_PC_EXIT ? -1 : (int)want);
    des_stop(s->engine);
}

static void oracle_after_issue(sm *s, unsigned e, uint32_t pc, const isa_exec_out *o)
{
    oracle_state *st = s->rc_state;
    sm_entity *en = &s->ent[e];
    oracle_warp *w = &st->w[en->hw];
    for (uint32_t m = en->active; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        uint32_t next = isa_lane_next_pc(o, pc, l), p = ++w->pos[l];
        uint32_t want = p < w->len[l] ? w->trace[l][p] : ISA_PC_EXIT;
        if (next != want && !s->error)
            off_path(s, e, l, pc, next, want);
    }
    if (++w->at >= w->cols->len) {
        warp_clear(w);
        sm_entity_free(s, e);
        return;
    }
    const oracle_col *c = &g_array_index(w->cols, oracle_col, w->at);
    en->pc = c->pc;
    en->active = c->mask;
}

static void oracle_stats(sm *s, stats *st, const char *blk, bool final)
{
    oracle_state *o = s->rc_state;
    if (final)
        return;
    stats_counter(st, blk, "oracle_columns", "issues", "issues of the aligned warp schedules", &o->columns);
    stats_counter(st, blk, "oracle_segments", "segments", "barrier-delimited trace segments aligned",
                  &o->al.segments);
    stats_counter(st, blk, "oracle_lcs_segments", "segments",
                  "segments scheduled by their LCS alignment (tables within core.oracle_dp_cells)", &o->al.chosen[0]);
    stats_counter(st, blk, "oracle_pdom_segments", "segments", "segments scheduled as PDOM would (no shorter schedule found)",
                  &o->al.chosen[1]);
    stats_counter(st, blk, "oracle_majority_segments", "segments", "segments scheduled by majority merging",
                  &o->al.chosen[2]);
    stats_counter(st, blk, "oracle_prepass_insts", "warp-insts", "warp instructions of the functional pre-pass",
                  &o->prepass_insts);
}

const reconv_ops reconv_oracle_ops = {
    .packs = false,
    .capacity = oracle_capacity,
    .create = oracle_create,
    .destroy = oracle_destroy,
    .warp_start = oracle_warp_start,
    .after_issue = oracle_after_issue,
    .before_cycle = NULL,
    .stats = oracle_stats,
};
