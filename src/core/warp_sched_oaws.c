/* Memory-occlusion-aware warp scheduling (OAWS; B. Wang, "Mitigating GPU
 * Memory Divergence for Data-Intensive Applications", dissertation, Auburn
 * 2015, chapter 5): GTO over the READY warps that qualify (Eq 5.1),
 *
 *     qualify(w, pc)  iff  Miss_pred(pc, w) <= Avail_mshr - Miss_inflight,
 *
 * so a divergent load issues only when its predicted misses fit the L1D's
 * free MSHR entries, less the misses predicted for loads issued but not yet
 * through the L1 (the LD/ST unit's state: simtgrid/memfeedback.h). Stores,
 * coherent loads and other instructions always qualify; a load is divergent
 * when its PC is in the divergent load classifier (DLC), which the LD/ST
 * unit trains. The prediction of a load issued rides with it (sched_view
 * .pred) and leaves Miss_inflight when its last access is through the L1.
 *
 *   oaws-static  Miss_pred = Div_pred x SMR (Eq 5.2): Div_pred the active
 *       threads, SMR core.oaws_smr (50%: a 32-thread load needs 16 free
 *       entries, so at most two are in the L1 with 32 MSHRs).
 *   oaws  locality warps (SM-wide GTO rank < FCW): Div_pred x HMR(pc) +
 *       GTO_gprio (Eq 5.4), HMR = #miss / #acc of the PC's DLC entry;
 *       thrashing warps: Div_pred (Eq 5.3 with a 100% miss rate).
 *   fcw-only  no prediction: a thrashing warp may not issue a divergent load.
 *
 * Without the LD/ST unit's state (an SM on the ideal memory) every warp
 * qualifies: GTO. Integer predictions round down [assumption]; whether
 * GTO_gprio is added for thrashing warps is not said: it is not
 * [assumption]; coherent loads add nothing to Miss_inflight (the thesis's
 * pseudo-code) [assumption]. */
#include <glib.h>

#include "simtgrid/core.h"
#include "simtgrid/memfeedback.h"
#include "simtgrid/stats.h"
#include "core/warp_sched.h"

enum oaws_mode { OAWS_STATIC, OAWS_DYNAMIC, OAWS_FCW_ONLY };

typedef struct oaws {
    enum oaws_mode mode;
    unsigned smr;
    uint64_t occluded;      /* READY warps passed over (Occlude = 1) */
} oaws;

/* The misses predicted for entity `id`'s next instruction: 0 unless it is a
 * divergent load; UINT32_MAX when it may not issue at all (fcw-only). */
static uint32_t predict(const oaws *o, const sched_view *v, unsigned id)
{
    if (!v->next || !v->mem)
        return 0;
    sched_next n;
    v->next(v->host, id, &n);
    const mem_dlc_entry *e = n.load ? mem_dlc_find(v->mem, n.pc) : NULL;
    if (!e)
        return 0;
    bool locality = n.sm_rank < v->mem->fcw;
    switch (o->mode) {
    case OAWS_STATIC:
        return n.threads * o->smr / 100;
    case OAWS_DYNAMIC:
        if (!locality)
            return n.threads;
        return (e->accs ? (uint32_t)((uint64_t)n.threads * e->misses / e->accs) : n.threads) + n.sm_rank;
    case OAWS_FCW_ONLY:
        return locality ? 0 : UINT32_MAX;
    }
    return 0;
}

static bool qualifies(const oaws *o, const sched_view *v, unsigned id)
{
    uint32_t mp = predict(o, v, id);
    if (mp == 0)
        return true;
    if (mp == UINT32_MAX)
        return false;
    return (int64_t)mp <= (int64_t)v->mem->mshr_free - v->mem->miss_inflight;
}

static int oaws_pick(sched *s, const sched_view *v, uint64_t cycle)
{
    (void)cycle;
    oaws *o = s->state;
    if (s->last >= 0 && v->status[s->last] == WS_READY && sched_position(s, (unsigned)s->last) >= 0) {
        if (qualifies(o, v, (unsigned)s->last))
            return s->last;
        o->occluded++;
    }
    int best = -1;
    for (unsigned i = 0; i < s->n; i++) {
        unsigned id = s->members[i];
        if (v->status[id] != WS_READY || (int)id == s->last)
            continue;
        if (best >= 0 && !sched_older(v, id, (unsigned)best))
            continue;
        if (qualifies(o, v, id))
            best = (int)id;
        else
            o->occluded++;
    }
    return best;
}

/* The issued load's prediction goes with its request (the SM adds it to
 * Miss_inflight when it sends it). */
static void oaws_issued(sched *s, const sched_view *v, unsigned id, uint64_t cycle)
{
    (void)cycle;
    if (!v->pred)
        return;
    const oaws *o = s->state;
    uint32_t mp = o->mode == OAWS_FCW_ONLY ? 0 : predict(o, v, id);   /* FCW-Only predicts nothing */
    v->pred[id] = (uint8_t)(mp > 255 ? 255 : mp);
}

static void *create(enum oaws_mode mode, const core_params *p)
{
    oaws *o = g_new0(oaws, 1);
    o->mode = mode;
    o->smr = p ? p->oaws_smr : 50;
    return o;
}
static void *static_create(sched *s, const core_params *p, unsigned slots)
{
    (void)s, (void)slots;
    return create(OAWS_STATIC, p);
}
static void *dynamic_create(sched *s, const core_params *p, unsigned slots)
{
    (void)s, (void)slots;
    return create(OAWS_DYNAMIC, p);
}
static void *fcw_only_create(sched *s, const core_params *p, unsigned slots)
{
    (void)s, (void)slots;
    return create(OAWS_FCW_ONLY, p);
}

static void oaws_stats(sched *s, stats *st, const char *blk)
{
    oaws *o = s->state;
    stats_counter(st, blk, "occluded", "warps",
                  "READY warps passed over because their divergent load would occlude (OAWS's Occlude)",
                  &o->occluded);
}

#define OAWS_OPS(name, make) \
    const sched_ops name = {.mem_state = true, .pick_every_cycle = true, .create = make, .destroy = g_free, .pick = oaws_pick, \
                            .issued = oaws_issued, .stats = oaws_stats}
OAWS_OPS(sched_oaws_static_ops, static_create);
OAWS_OPS(sched_oaws_ops, dynamic_create);
OAWS_OPS(sched_fcw_only_ops, fcw_only_create);
