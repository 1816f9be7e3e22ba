/* SM statistics: per-cycle accounting of every scheduler and the registry.
 *
 * Every accounted cycle (from the first CTA's arrival to the last CTA's end)
 * puts each scheduler in exactly one category:
 *   issuing  its issue port issued or is still issuing (SIMD passes); the
 *            DWF warp-size category is W(threads of that issue);
 *   stalled  the reason is the "nearest to issuing" status of its warps
 *            (sched.h): pipeline (structural: unit, port, memory port),
 *            dependency, barrier, memory, empty (no warp). The DWF category
 *            is W0_Mem when every warp waits on global memory, Stall when a
 *            ready warp was held by a structural hazard, W0_Idle otherwise.
 * The FU-utilisation histogram counts active lanes per scheduler-cycle, in
 * the LWM bins 0, 1-7, 8-15, 16-23, 24-31, 32 (scaled to the SIMD width). */
#include <string.h>

#include "core/sm_internal.h"
#include "simtgrid/trace.h"

unsigned sm_wcat_bucket(const sm *s, unsigned threads)
{
    if (!threads)
        return 0;
    /* bin b holds b*ws/8 + 1 .. (b+1)*ws/8 threads (register_categories),
     * so b = ceil(8 t / ws) - 1; also right when ws is not a multiple of 8 */
    unsigned ws = s->p.warp_size;
    unsigned b = (threads * WCAT_BUCKETS + ws - 1) / ws - 1;
    return b < WCAT_BUCKETS ? b : WCAT_BUCKETS - 1;
}

static void fu_hist_init(stats_hist *h, unsigned width)
{
    int64_t w = width;
    int64_t lo[6] = {0, 1, w / 4, w / 2, 3 * w / 4, w};
    int64_t hi[6] = {0, w / 4 - 1, w / 2 - 1, 3 * w / 4 - 1, w - 1, w};
    uint64_t b[12];
    unsigned n = 0;
    for (unsigned i = 0; i < 6; i++) {
        if (lo[i] > hi[i] || (n && lo[i] <= (int64_t)b[2 * n - 1]))
            continue;   /* empty or overlapping for narrow SIMD widths */
        b[2 * n] = (uint64_t)lo[i];
        b[2 * n + 1] = (uint64_t)hi[i];
        n++;
    }
    stats_hist_init_ranges(h, n, b);
}

/* n cycles with no active lane: fu_hist_init's bucket 0 is [0, 0], and
 * adding 0 leaves the sum as it is, so this is stats_hist_add_n(h, 0, n)
 * without the bucket search (a ranges layout reads its bounds), which
 * every idle scheduler cycle made (issue 20). */
static inline void fu_add_idle(stats_hist *h, uint64_t n)
{
    if (h->n)
        h->count[0] += n;
    else
        h->overflow += n;
    h->samples += n;
}

/* Trace: idle cycles become one span per run of one stall reason on the
 * scheduler's track, between its issue spans ("memory", "dependency",
 * "pipeline", "barrier"; cycles without any warp are not drawn). */
static const char *const stall_trace_name[STALL_KINDS] = {"stall: pipeline", "stall: dependency",
                                                         "stall: barrier", "stall: memory", NULL};

static void flush_stall(sm *s, unsigned sc)
{
    sm_sched_state *q = &s->sc[sc];
    if (q->tr_stall < STALL_KINDS && stall_trace_name[q->tr_stall] && q->tr_to > q->tr_from)
        trace_complete_on(s->tr, s->tr_sched[sc], stall_trace_name[q->tr_stall], q->tr_from * s->us_per_cycle,
                          (q->tr_to - q->tr_from) * s->us_per_cycle);
    q->tr_stall = STALL_KINDS;
}

static void trace_stall(sm *s, unsigned sc, uint8_t reason, uint64_t from, uint64_t n)
{
    sm_sched_state *q = &s->sc[sc];
    if (q->tr_stall != reason || q->tr_to != from) {
        flush_stall(s, sc);
        q->tr_stall = reason;
        q->tr_from = from;
    }
    q->tr_to = from + n;
    q->tr_next = from + n;
}

void sm_trace_flush_stalls(sm *s)
{
    if (s->tr)
        for (unsigned sc = 0; sc < s->p.schedulers; sc++)
            flush_stall(s, sc);
}

void sm_account_issue_cycle(sm *s, unsigned sc, uint64_t cycle)
{
    sm_sched_state *q = &s->sc[sc];
    if (s->tr) {
        flush_stall(s, sc);
        q->tr_next = cycle + 1;
    }
    unsigned lanes = q->lanes_ring[cycle % 64];
    q->lanes_ring[cycle % 64] = 0;
    stats_hist_add(&q->st.fu_lanes, lanes);
    q->st.issue_cycles++;
    q->st.wbucket[sm_wcat_bucket(s, q->cur_threads)]++;
}

static uint8_t stall_of(uint8_t worst)
{
    switch (worst) {
    case WS_READY:
    case WS_STRUCT: return STALL_PIPELINE;
    case WS_DEP: return STALL_DEP;
    case WS_BARRIER: return STALL_BARRIER;
    case WS_MEM: return STALL_MEM;
    default: return STALL_EMPTY;
    }
}

void sm_account_idle_cycle(sm *s, unsigned sc, uint64_t cycle, uint8_t worst)
{
    sm_sched_state *q = &s->sc[sc];
    unsigned lanes = q->lanes_ring[cycle % 64];
    q->lanes_ring[cycle % 64] = 0;
    if (lanes)
        stats_hist_add(&q->st.fu_lanes, lanes);
    else
        fu_add_idle(&q->st.fu_lanes, 1);
    q->snap_stall = stall_of(worst);
    q->snap_wcat = worst == WS_MEM ? 1 : worst == WS_STRUCT ? 2 : 0;
    q->st.stall[q->snap_stall]++;
    if (s->tr)
        trace_stall(s, sc, q->snap_stall, cycle, 1);
    if (q->snap_wcat == 1)
        q->st.w0_mem++;
    else if (q->snap_wcat == 2)
        q->st.wstall++;
    else
        q->st.w0_idle++;
}

void sm_account_replay(sm *s, uint64_t n)
{
    if (!n)
        return;
    for (unsigned sc = 0; sc < s->p.schedulers; sc++) {
        sm_sched_state *q = &s->sc[sc];
        fu_add_idle(&q->st.fu_lanes, n);
        q->st.stall[q->snap_stall] += n;
        if (s->tr)   /* the cycles after the last one accounted */
            trace_stall(s, sc, q->snap_stall, q->tr_next, n);
        if (q->snap_wcat == 1)
            q->st.w0_mem += n;
        else if (q->snap_wcat == 2)
            q->st.wstall += n;
        else
            q->st.w0_idle += n;
        if (q->s.ops->idle)   /* the actor's policy advances as if they ran */
            sm_sched_ask(s, sc, SA_IDLE, n);
    }
    s->cycles += n;
}

void sm_account_empty(sm *s, uint64_t n)
{
    for (unsigned sc = 0; sc < s->p.schedulers; sc++) {
        sm_sched_state *q = &s->sc[sc];
        fu_add_idle(&q->st.fu_lanes, n);
        q->st.stall[STALL_EMPTY] += n;
        q->st.w0_idle += n;
        if (s->tr)
            trace_stall(s, sc, STALL_EMPTY, q->tr_next, n);
    }
    s->cycles += n;
}

static const char *const stall_name[STALL_KINDS] = {"stall_pipeline", "stall_dependency",
                                                    "stall_barrier", "stall_memory", "stall_empty"};
static const char *const stall_desc[STALL_KINDS] = {
    "cycles a ready warp was held by a busy unit, issue port or memory port",
    "cycles every warp waited for a fixed-latency result (in flight, scoreboard, branch)",
    "cycles the nearest warp to issue waited at a barrier",
    "cycles every warp waited for global memory",
    "cycles with no warp",
};

static void register_categories(sm *s, stats *st, const char *blk, sm_sched_stats *q)
{
    stats_counter(st, blk, "issue_cycles", "cycles", "cycles the issue port was issuing", &q->issue_cycles);
    for (unsigned i = 0; i < STALL_KINDS; i++)
        stats_counter(st, blk, stall_name[i], "cycles", stall_desc[i], &q->stall[i]);
    stats_counter(st, blk, "w0_idle", "cycles",
                  "DWF category W0_Idle: nothing issued, warps in the pipeline or none ready", &q->w0_idle);
    stats_counter(st, blk, "w0_mem", "cycles", "DWF category W0_Mem: every warp waits on global memory",
                  &q->w0_mem);
    stats_counter(st, blk, "w_stall", "cycles", "DWF category Stall: a ready warp held by a structural hazard",
                  &q->wstall);
    unsigned ws = s->p.warp_size;
    for (unsigned b = 0; b < WCAT_BUCKETS; b++) {
        unsigned lo = b * ws / WCAT_BUCKETS + 1, hi = (b + 1) * ws / WCAT_BUCKETS;
        if (lo > hi)
            continue;
        char name[32], desc[96];
        g_snprintf(name, sizeof name, "w%u_%u", lo, hi);
        g_snprintf(desc, sizeof desc, "DWF category W%u-%u: issuing a warp of %u to %u active threads", lo,
                   hi, lo, hi);
        stats_counter(st, blk, name, "cycles", desc, &q->wbucket[b]);
    }
    stats_histogram(st, blk, "fu_util", "lanes", "active lanes per cycle (0 = idle FUs)", &q->fu_lanes);
}

void sm_stats_register(sm *s, stats *st)
{
    unsigned w = s->p.simd_width * s->p.issue_width;
    for (unsigned sc = 0; sc < s->p.schedulers; sc++)
        fu_hist_init(&s->sc[sc].st.fu_lanes, w);
    uint64_t tb[2 * WCAT_BUCKETS];
    unsigned n = 0;
    for (unsigned b = 0; b < WCAT_BUCKETS; b++) {
        uint64_t lo = b * s->p.warp_size / WCAT_BUCKETS + 1, hi = (b + 1) * s->p.warp_size / WCAT_BUCKETS;
        if (lo > hi)
            continue;
        tb[2 * n] = lo;
        tb[2 * n + 1] = hi;
        n++;
    }
    stats_hist_init_ranges(&s->active_threads, n, tb);
    if (!st)
        return;
    const char *b = s->name;
    stats_counter(st, b, "cycles", "cycles", "cycles from the first CTA's arrival to the last CTA's end",
                  &s->cycles);
    stats_counter(st, b, "warp_insts", "instructions", "warp instructions issued (issue slots)",
                  &s->warp_insts);
    stats_counter(st, b, "thread_insts", "instructions", "thread instructions: active lanes summed over issues",
                  &s->thread_insts);
    stats_counter(st, b, "rf_reads", "accesses", "register-file reads: general registers read x active lanes",
                  &s->rf_reads);
    stats_counter(st, b, "rf_writes", "accesses", "register-file writes: general registers written x active lanes",
                  &s->rf_writes);
    stats_counter(st, b, "ctas", "CTAs", "CTAs completed", &s->ctas_done);
    stats_counter(st, b, "mem_requests", "requests", "global memory warp requests sent", &s->mem_requests);
    stats_counter(st, b, "smem_conflict_cycles", "cycles", "extra shared-memory cycles from bank conflicts",
                  &s->smem_conflict_cycles);
    if (s->p.rf_banks)   /* only with the option, so other models' results keep their keys */
        stats_counter(st, b, "rf_conflict_cycles", "cycles",
                      "extra operand-read cycles from register-file bank conflicts", &s->rf_conflict_cycles);
    if (s->p.l1d_banks)  /* only with the option, as rf_conflict_cycles */
        stats_counter(st, b, "l1d_conflict_cycles", "cycles",
                      "extra LD/ST passes of global accesses from L1 data-cache bank conflicts",
                      &s->l1d_conflict_cycles);
    if (s->p.smem_queue)   /* only with the option, as rf_conflict_cycles */
        stats_counter(st, b, "smem_queue_cycles", "cycles",
                      "cycles shared-memory instructions waited in the queue in front of their unit",
                      &s->smem_queue_cycles);
    stats_counter(st, b, "barrier_waits", "warps", "warp arrivals at barriers", &s->barrier_waits);
    stats_counter(st, b, "faults", "instructions", "instructions with a shared-memory fault", &s->faults);
    for (unsigned c = 0; c < ISA_CLASS_COUNT; c++) {
        char name[48];
        g_snprintf(name, sizeof name, "inst_%s", isa_class_name((isa_class)c));
        for (char *p = name; *p; p++)
            if (*p == '.' || *p == ' ' || *p == '-')
                *p = '_';
        stats_counter(st, b, name, "instructions", "warp instructions of this class (instruction mix)",
                      &s->class_count[c]);
    }
    stats_histogram(st, b, "active_threads", "threads", "active threads per issued warp instruction",
                    &s->active_threads);
    for (unsigned sc = 0; sc < s->p.schedulers; sc++) {
        char blk[64];
        g_snprintf(blk, sizeof blk, "%s.sched%u", s->name, sc);
        register_categories(s, st, blk, &s->sc[sc].st);
        stats_counter(st, blk, "issued", "instructions", "issue slots used", &s->sc[sc].st.issued);
        sched_register_stats(&s->sc[sc].s, st, blk);
    }
    if (s->rc->stats)
        s->rc->stats(s, st, b, false);
}

void sm_finalize_stats(sm *s, stats *st)
{
    sm_trace_flush_stalls(s);
    /* reports still in a box (a last issue record) reach the policy */
    for (unsigned sc = 0; sc < s->p.schedulers; sc++)
        if (s->sc[sc].act.nbox)
            sched_actor_flush(&s->sc[sc].act, s->sched_group, &s->sched_tick);
    if (!st)
        return;
    double cyc = (double)s->cycles;
    stats_derived(st, s->name, "thread_ipc", "instr/cycle", "thread instructions per cycle",
                  cyc ? (double)s->thread_insts / cyc : 0);
    stats_derived(st, s->name, "warp_ipc", "instr/cycle", "warp instructions per cycle",
                  cyc ? (double)s->warp_insts / cyc : 0);
    stats_derived(st, s->name, "avg_active_threads", "threads",
                  "average active threads per issued warp instruction",
                  s->warp_insts ? (double)s->thread_insts / (double)s->warp_insts : 0);
    uint64_t idle = 0, total = 0;
    for (unsigned sc = 0; sc < s->p.schedulers; sc++) {
        idle += s->sc[sc].st.fu_lanes.count[0];
        total += s->sc[sc].st.fu_lanes.samples;
    }
    stats_derived(st, s->name, "fu_idle_fraction", "ratio",
                  "share of scheduler-cycles with no active lane (idle FUs)",
                  total ? (double)idle / (double)total : 0);
    if (s->rc->stats)
        s->rc->stats(s, st, s->name, true);
}

sm_totals sm_get_totals(const sm *s)
{
    sm_totals t = {.cycles = s->cycles, .warp_insts = s->warp_insts, .thread_insts = s->thread_insts,
                   .ctas = s->ctas_done};
    for (unsigned sc = 0; sc < s->p.schedulers; sc++)
        t.fu_idle_cycles += s->sc[sc].st.fu_lanes.count[0];
    return t;
}
