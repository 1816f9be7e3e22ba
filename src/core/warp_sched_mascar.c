/* MASCAR's warp scheduling (Sethia et al., "Mascar: Speeding up GPU Warps by
 * Reducing Memory Pitstops", HPCA 2015, as Wang's dissertation, chapter 5,
 * configures it): while the memory system is saturated, only the memory
 * instructions of one owner warp may issue (other warps issue computation);
 * otherwise memory instructions go before computation. Saturated: at most 1
 * free L1D MSHR entry or at most 1 free memory-port slot (the LD/ST unit's
 * state, simtgrid/memfeedback.h). While saturated the owner, when READY,
 * goes first; GTO order inside each choice.
 *
 * [assumption]s (the dissertation gives only the thresholds): the owner is
 * the oldest READY warp with a memory instruction next when saturation
 * begins, and stays owner until saturation ends or it leaves the scheduler.
 * MASCAR's re-execution queue (core.mascar_reexec entries, 32) is in the
 * LD/ST unit (ldst_set_reexec, wired by the chip when the scheduler is
 * mascar): refused load accesses are replayed from it while later accesses
 * proceed; its blocked-head cycles are the unit's mascar_replay statistic
 * (MASCAR_Replay). */
#include <glib.h>

#include "simtgrid/core.h"
#include "simtgrid/memfeedback.h"
#include "simtgrid/stats.h"
#include "core/warp_sched.h"

typedef struct mascar {
    bool saturated;
    int owner;                  /* entity id, -1 none */
    uint64_t entries;           /* times saturation mode began */
    uint64_t sat_cycles;        /* picks made in saturation mode */
} mascar;

static bool is_mem(const sched_view *v, unsigned id)
{
    sched_next n;
    v->next(v->host, id, &n);
    return n.load || n.store;
}

/* GTO among the READY members that `ok` admits (mode 0: any; 1: memory
 * instructions only; 2: not another warp's memory instruction). */
static int gto_among(const sched *s, const sched_view *v, const mascar *m, int mode)
{
    bool ok_last = s->last >= 0 && v->status[s->last] == WS_READY && sched_position(s, (unsigned)s->last) >= 0;
    int best = -1;
    for (unsigned i = 0; i < s->n; i++) {
        unsigned id = s->members[i];
        if (v->status[id] != WS_READY)
            continue;
        if (mode == 1 && !is_mem(v, id))
            continue;
        if (mode == 2 && (int)id != m->owner && is_mem(v, id))
            continue;
        if (ok_last && (int)id == s->last)
            return (int)id;   /* greedy */
        if (best < 0 || sched_older(v, id, (unsigned)best))
            best = (int)id;
    }
    return best;
}

static bool mascar_saturated(const struct mem_feedback *f)
{
    return f->mshr_free <= 1 || f->port_free <= 1;
}

static int mascar_pick(sched *s, const sched_view *v, uint64_t cycle)
{
    (void)cycle;
    mascar *m = s->state;
    if (!v->next || !v->mem)
        return gto_among(s, v, m, 0);
    bool sat = mascar_saturated(v->mem);
    if (sat && !m->saturated) {
        m->entries++;
        m->owner = -1;
    }
    m->saturated = sat;
    if (!sat) {
        m->owner = -1;
        int id = gto_among(s, v, m, 1);   /* memory first */
        return id >= 0 ? id : gto_among(s, v, m, 0);
    }
    m->sat_cycles++;
    if (m->owner >= 0 && sched_position(s, (unsigned)m->owner) < 0)
        m->owner = -1;
    if (m->owner < 0) {
        for (unsigned i = 0; i < s->n; i++) {
            unsigned id = s->members[i];
            if (v->status[id] == WS_READY && is_mem(v, id) &&
                (m->owner < 0 || sched_older(v, id, (unsigned)m->owner)))
                m->owner = (int)id;
        }
    }
    if (m->owner >= 0 && v->status[m->owner] == WS_READY)
        return m->owner;   /* the owner's memory instructions first */
    return gto_among(s, v, m, 2);
}

static void *mascar_create(sched *s, const core_params *p, unsigned slots)
{
    (void)s, (void)p, (void)slots;
    mascar *m = g_new0(mascar, 1);
    m->owner = -1;
    return m;
}

static void mascar_stats(sched *s, stats *st, const char *blk)
{
    mascar *m = s->state;
    stats_counter(st, blk, "saturations", "", "MASCAR: times the memory system became saturated", &m->entries);
    stats_counter(st, blk, "saturated_picks", "cycles", "MASCAR: scheduling cycles in saturation mode",
                  &m->sat_cycles);
}

const sched_ops sched_mascar_ops = {
    .mem_state = true,
    .create = mascar_create,
    .destroy = g_free,
    .pick_every_cycle = true,
    .pick = mascar_pick,
    .stats = mascar_stats,
};
