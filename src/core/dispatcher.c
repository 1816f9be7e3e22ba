/* The CTA dispatcher: an actor that starts kernel launches and hands their
 * CTAs to SMs under the occupancy limits.
 *
 * A launch starts at its start cycle, or when the dispatcher learns that
 * the launch it waits for has finished. CTAs go out in linear-id order
 * (x fastest), round-robin over the SMs of the launch's range, one CTA per
 * SM per round, while the SM's free threads (whole warps), warps, CTA
 * slots, registers (regs/thread x threads of whole warps) and shared memory
 * allow. Earlier launches are served first. The round goes on from the SM
 * after the last CTA handed out, across launches, or (core.dispatch_restart)
 * starts again at the first SM of the range when a launch starts. With
 * core.dispatch_order = h100 the round visits the SMs in the order the
 * measured H100 used for a launch of that size (dispatch_order.c). A CTA reaches its SM
 * core.cta_launch_latency cycles after the decision; the SM's completion
 * report takes one cycle back, and frees the resources then. With
 * core.dispatch_interval > 0 the dispatcher hands out at most one CTA per
 * interval for the whole chip (a token time in 1/65536 cycles: a CTA may go
 * in cycle k while the token is before k + 1, and moves it on by the
 * interval from max(token, k)), except a launch's first core.dispatch_burst
 * CTAs per SM of its set, which go out at once. When every
 * launch has finished the dispatcher ends the run (des_stop). */
#include <string.h>

#include "config/config_lib.h"
#include "core/cta_msg.h"
#include "core/dispatch_order.h"

typedef struct launch_state {
    core_launch_rt rt;
    int sm_first, sm_last;
    bool *sm_ok;           /* per SM: named by the launch's list ("0-3,7"), or NULL = the whole range */
    uint64_t start;
    int after;
    uint64_t ncta, next_cta, done;
    uint64_t burst;        /* CTAs free of core.dispatch_interval: burst per SM x the launch's SMs */
    bool started, finished;
    uint64_t start_cycle, end_cycle;
    uint64_t *cta_start, *cta_end;
    uint32_t *cta_sm;      /* UINT32_MAX until the CTA finished */
    unsigned *order;       /* core.dispatch_order = h100: the SMs in visiting order; NULL = ids */
} launch_state;

typedef struct sm_usage {
    unsigned threads, warps, ctas, regs, smem;
} sm_usage;

struct dispatcher {
    des_engine *engine;
    des_actor *actor;
    const des_clock *clk;
    core_params p;
    sm **sms;
    unsigned nsms;
    des_port **to_sm, **from_sm;
    sm_usage *use;
    launch_state *launches;
    unsigned nlaunches, cap;
    unsigned rr;          /* next position (SM id, or index into the launch's order) to consider */
    uint64_t dispatched, completed;
    unsigned busy_sms;    /* SMs with use[i].ctas > 0 (sm_share_busy_count) */
    bool promised;        /* every CTA handed out: promise_no_ctas */
    uint64_t interval_fp, token_fp;   /* core.dispatch_interval and the next CTA's time, 1/65536 cycles */
    void (*on_start)(void *ctx);   /* dispatcher_on_launch_start */
    void *on_start_ctx;
};

static bool fits(const dispatcher *d, unsigned i, const core_launch_rt *l)
{
    const sm_usage *u = &d->use[i];
    const core_params *p = &d->p;
    return u->ctas + 1 <= p->max_ctas && u->warps + l->nwarps <= p->max_warps &&
           u->threads + l->threads_alloc <= p->max_threads && u->regs + l->regs <= p->regs &&
           u->smem + l->smem <= p->smem_bytes;
}

#define FP_SHIFT 16

/* Whether the rate limit lets launch L's next CTA go in cycle k. */
static bool rate_allows(const dispatcher *d, const launch_state *L, uint64_t k)
{
    return d->interval_fp == 0 || L->next_cta < L->burst || d->token_fp < (k + 1) << FP_SHIFT;
}

/* Hands out the CTAs that fit; returns the cycle the rate limit next lets
 * a CTA go when it held one back, else NEVER_CYCLE. */
static uint64_t dispatch(dispatcher *d, des_time now, uint64_t k)
{
    for (unsigned li = 0; li < d->nlaunches; li++) {
        launch_state *L = &d->launches[li];
        if (!L->started || L->next_cta == L->ncta)
            continue;
        unsigned lo = L->sm_first < 0 ? 0 : (unsigned)L->sm_first;
        unsigned hi = L->sm_last < 0 ? d->nsms - 1 : (unsigned)L->sm_last;
        bool progress = true;
        while (progress && L->next_cta < L->ncta) {
            progress = false;
            unsigned first = d->rr;
            for (unsigned j = 0; j < d->nsms && L->next_cta < L->ncta; j++) {
                unsigned pos = (first + j) % d->nsms;
                unsigned i = L->order ? L->order[pos] : pos;
                if (i < lo || i > hi || (L->sm_ok && !L->sm_ok[i]) || !fits(d, i, &L->rt))
                    continue;
                if (!rate_allows(d, L, k))
                    return d->token_fp >> FP_SHIFT;   /* > k; later launches wait too */
                cta_start_msg m = {.launch = &L->rt, .cta = L->next_cta};
                if (!des_port_try_send(d->to_sm[i], &m, now))
                    continue;   /* sized never to fill; retried when it frees */
                if (d->interval_fp && L->next_cta >= L->burst) {
                    uint64_t k_fp = k << FP_SHIFT;
                    d->token_fp = (d->token_fp > k_fp ? d->token_fp : k_fp) + d->interval_fp;
                }
                sm_usage *u = &d->use[i];
                if (u->ctas++ == 0)
                    d->busy_sms++;
                u->warps += L->rt.nwarps;
                u->threads += L->rt.threads_alloc;
                u->regs += L->rt.regs;
                u->smem += L->rt.smem;
                L->next_cta++;
                d->dispatched++;
                d->rr = (pos + 1) % d->nsms;   /* the next CTA starts after this SM */
                progress = true;
            }
        }
    }
    return NEVER_CYCLE;
}

static void handle_done(dispatcher *d, const cta_done_msg *m)
{
    launch_state *L = &d->launches[m->launch];
    sm_usage *u = &d->use[m->sm];
    if (--u->ctas == 0)
        d->busy_sms--;
    u->warps -= L->rt.nwarps;
    u->threads -= L->rt.threads_alloc;
    u->regs -= L->rt.regs;
    u->smem -= L->rt.smem;
    L->cta_start[m->cta] = m->start_cycle;
    L->cta_end[m->cta] = m->end_cycle;
    L->cta_sm[m->cta] = m->sm;
    if (L->done == 0 || m->end_cycle > L->end_cycle)
        L->end_cycle = m->end_cycle;
    L->done++;
    d->completed++;
    if (L->done == L->ncta)
        L->finished = true;
}

/* Once every launch has started and handed out all its CTAs, none is
 * ever sent again: a promise on every SM's port (issue 20), so that an SM
 * running ahead while others are busy need not look through their reports
 * (sm_lone.c). */
static void promise_no_ctas(dispatcher *d)
{
    if (d->promised)
        return;
    for (unsigned li = 0; li < d->nlaunches; li++)
        if (!d->launches[li].started || d->launches[li].next_cta < d->launches[li].ncta)
            return;
    for (unsigned i = 0; i < d->nsms; i++)
        des_port_promise(d->to_sm[i], DES_NEVER, DES_NEVER);
    d->promised = true;
}

static void dispatcher_main(des_actor *self, void *data)
{
    dispatcher *d = data;
    des_time now = des_now(d->engine);
    for (;;) {
        uint64_t k = des_edge_at_or_after(d->clk, now) / d->clk->period;
        for (unsigned i = 0; i < d->nsms; i++) {
            cta_done_msg *m;
            while ((m = des_port_peek(d->from_sm[i], now))) {
                cta_done_msg copy = *m;
                des_port_pop(d->from_sm[i], now);
                handle_done(d, &copy);
            }
        }
        bool all_done = d->nlaunches > 0;
        uint64_t wake = NEVER_CYCLE;
        for (unsigned li = 0; li < d->nlaunches; li++) {
            launch_state *L = &d->launches[li];
            if (!L->started) {
                bool ready = L->after < 0 ? L->start <= k : d->launches[L->after].finished;
                if (ready) {
                    L->started = true;
                    L->start_cycle = k;
                    if (d->on_start)
                        d->on_start(d->on_start_ctx);
                    if (d->p.dispatch_restart)   /* the round begins at the range's (or order's) first SM */
                        d->rr = L->order || L->sm_first < 0 ? 0 : (unsigned)L->sm_first;
                } else if (L->after < 0 && L->start < wake) {
                    wake = L->start;
                }
            }
            if (!L->finished)
                all_done = false;
        }
        uint64_t rate_wake = dispatch(d, now, k);
        if (rate_wake < wake)
            wake = rate_wake;
        if (all_done) {
            des_stop(d->engine);
            wake = NEVER_CYCLE;
        }
        if (wake != NEVER_CYCLE)
            des_wake_at(self, des_cycles(d->clk, wake));
        promise_no_ctas(d);
        now = des_block(self);
    }
}

dispatcher *dispatcher_new(des_engine *e, const core_params *p, const des_clock *core, sm **sms,
                           unsigned nsms, stats *st)
{
    (void)st;
    dispatcher *d = g_new0(dispatcher, 1);
    d->engine = e;
    d->clk = core;
    d->p = *p;
    d->sms = sms;
    d->nsms = nsms;
    d->use = g_new0(sm_usage, nsms);
    d->interval_fp = (uint64_t)(p->dispatch_interval * (1 << FP_SHIFT) + 0.5);
    d->to_sm = g_new0(des_port *, nsms);
    d->from_sm = g_new0(des_port *, nsms);
    d->actor = des_actor_new(e, "dispatcher", dispatcher_main, d);
    des_actor_may_end_run(d->actor);   /* des_stop when every launch has finished */
    for (unsigned i = 0; i < nsms; i++)
        sm_share_busy_count(sms[i], &d->busy_sms);
    return d;
}

des_actor *dispatcher_actor(dispatcher *d) { return d->actor; }

void dispatcher_on_launch_start(dispatcher *d, void (*fn)(void *ctx), void *ctx)
{
    d->on_start = fn;
    d->on_start_ctx = ctx;
}

void dispatcher_connect_sm(dispatcher *d, unsigned i, des_port *to_sm, des_port *from_sm)
{
    d->to_sm[i] = to_sm;
    d->from_sm[i] = from_sm;
}

#define MAX_CTAS_PER_LAUNCH (UINT64_C(1) << 24)

/* A trace fixes each warp's control flow and lanes: only the stack-based
 * baseline (PDOM) runs it, with the trace's 32-thread warps and dimensions. */
static bool trace_launch_ok(const dispatcher *d, const core_launch *l, const char *name, GError **err)
{
    const atrace_kernel *t = l->trace;
    if (strcmp(d->p.reconv->name, "pdom") != 0)
        return input_error(err, "launch %s: %s is a trace, whose warps cannot change their control flow; "
                    "core.reconv = %s forms warps dynamically and cannot run it (use pdom)",
                    name, t->file, d->p.reconv->name);
    if (d->p.warp_size != 32)
        return input_error(err, "launch %s: %s records 32-thread warps, but core.warp_size = %u", name,
                    t->file, d->p.warp_size);
    for (unsigned i = 0; i < 3; i++)
        if (l->grid[i] != t->grid[i] || l->block[i] != t->block[i])
            return input_error(err, "launch %s: grid (%u,%u,%u) and block (%u,%u,%u) differ from the trace's "
                        "(%u,%u,%u) and (%u,%u,%u) in %s", name, l->grid[0], l->grid[1], l->grid[2],
                        l->block[0], l->block[1], l->block[2], t->grid[0], t->grid[1], t->grid[2],
                        t->block[0], t->block[1], t->block[2], t->file);
    return true;
}

/* What one CTA of a launch takes from an SM. */
typedef struct {
    uint64_t nwarps, alloc, regs, smem;   /* alloc: threads in whole warps */
} cta_need;

/* Whether one CTA of launch l fits an SM (warps, threads, registers, shared
 * memory); if not, an error naming the limit. */
static bool cta_fits(const core_params *p, const core_launch *l, const char *name, cta_need *n,
                     GError **err)
{
    uint64_t threads = (uint64_t)l->block[0] * l->block[1] * l->block[2];
    uint64_t nwarps = (threads + p->warp_size - 1) / p->warp_size;
    uint64_t alloc = nwarps * p->warp_size;
    uint64_t regs = alloc * isa_program_nregs(l->prog);
    uint64_t smem = isa_program_shared_bytes(l->prog);
    if (nwarps > p->max_warps || nwarps > 256) {
        input_error(err, "launch %s: a CTA of %" G_GUINT64_FORMAT " threads is %" G_GUINT64_FORMAT
             " warps, but an SM holds core.max_warps = %u", name, threads, nwarps, p->max_warps);
        return false;
    }
    if (alloc > p->max_threads) {
        input_error(err, "launch %s: a CTA of %" G_GUINT64_FORMAT " threads (%" G_GUINT64_FORMAT
             " in whole warps) exceeds core.max_threads = %u", name, threads, alloc, p->max_threads);
        return false;
    }
    if (regs > p->regs) {
        input_error(err, "launch %s: a CTA needs %" G_GUINT64_FORMAT " registers (%u per thread x %" G_GUINT64_FORMAT
             " threads), but an SM has core.regs = %u", name, regs, isa_program_nregs(l->prog), alloc, p->regs);
        return false;
    }
    if (smem > p->smem_bytes) {
        input_error(err, "launch %s: a CTA needs %" G_GUINT64_FORMAT " bytes of shared memory, but an SM has "
             "core.smem_bytes = %u", name, smem, p->smem_bytes);
        return false;
    }
    *n = (cta_need){nwarps, alloc, regs, smem};
    return true;
}

int dispatcher_add_launch(dispatcher *d, const core_launch *l, GError **err)
{
    const char *name = l->name ? l->name : "(unnamed)";
    const core_params *p = &d->p;
    launch_state L;
    memset(&L, 0, sizeof L);
    GError *ierr = NULL;
    if (!isa_launch_init(&L.rt.il, l->prog, l->mem, l->grid, l->block, p->warp_size, l->params,
                         l->nparams, &ierr)) {
        input_error(err, "launch %s: %s", name, ierr->message);
        g_error_free(ierr);
        return -1;
    }
    int last = (int)d->nsms - 1;
    if (!((l->sm_first == -1 && l->sm_last == -1) ||
          (l->sm_first >= 0 && l->sm_first <= l->sm_last && l->sm_last <= last))) {
        input_error(err, "launch %s: SM range %d-%d is not within the chip's SMs 0-%d", name, l->sm_first,
             l->sm_last, last);
        return -1;
    }
    if (l->after < -1 || l->after >= (int)d->nlaunches) {
        input_error(err, "launch %s: 'after' names launch %d, expected an earlier launch (0-%d)", name, l->after,
             (int)d->nlaunches - 1);
        return -1;
    }
    if (l->trace && !trace_launch_ok(d, l, name, err))
        return -1;
    cta_need need;
    if (!cta_fits(p, l, name, &need, err))
        return -1;
    L.ncta = isa_launch_ncta(&L.rt.il);
    if (L.ncta > MAX_CTAS_PER_LAUNCH) {
        input_error(err, "launch %s: %" G_GUINT64_FORMAT " CTAs, at most %" G_GUINT64_FORMAT " per launch", name,
             L.ncta, MAX_CTAS_PER_LAUNCH);
        return -1;
    }
    L.rt.index = d->nlaunches;
    L.rt.name = g_strdup(name);
    L.rt.nwarps = (unsigned)need.nwarps;
    L.rt.threads_alloc = (unsigned)need.alloc;
    L.rt.regs = (unsigned)need.regs;
    L.rt.smem = (unsigned)need.smem;
    L.rt.trace = l->trace;
    L.sm_first = l->sm_first;
    L.sm_last = l->sm_last;
    if (l->sms && l->nsms) {
        L.sm_ok = g_new0(bool, d->nsms);
        for (unsigned k = 0; k < l->nsms; k++)
            if (l->sms[k] < d->nsms)
                L.sm_ok[l->sms[k]] = true;
    }
    if (d->p.dispatch_order == CORE_DISPATCH_H100)
        L.order = dispatch_order_h100(d->nsms, L.ncta);
    if (p->dispatch_interval > 0) {
        uint64_t lo = l->sm_first < 0 ? 0 : (uint64_t)l->sm_first;
        uint64_t hi = l->sm_last < 0 ? d->nsms - 1 : (uint64_t)l->sm_last, n = 0;
        for (uint64_t i = lo; i <= hi; i++)
            n += !L.sm_ok || L.sm_ok[i];
        L.burst = (uint64_t)p->dispatch_burst * n;
    }
    L.start = l->start;
    L.after = l->after;
    L.cta_start = g_new0(uint64_t, L.ncta);
    L.cta_end = g_new0(uint64_t, L.ncta);
    L.cta_sm = g_new(uint32_t, L.ncta);
    memset(L.cta_sm, 0xff, L.ncta * sizeof(uint32_t));
    if (d->nlaunches == d->cap) {
        /* The SMs hold pointers to launch runtimes: launches are added before
         * the run, and a reallocation then moves nothing an SM holds. */
        d->cap = d->cap ? 2 * d->cap : 4;
        d->launches = g_renew(launch_state, d->launches, d->cap);
    }
    d->launches[d->nlaunches++] = L;
    return (int)L.rt.index;
}

uint64_t dispatcher_unfinished(const dispatcher *d)
{
    uint64_t n = 0;
    for (unsigned i = 0; i < d->nlaunches; i++)
        n += d->launches[i].ncta - d->launches[i].done;
    return n;
}

unsigned dispatcher_nlaunches(const dispatcher *d) { return d->nlaunches; }

core_launch_result dispatcher_launch_result(const dispatcher *d, unsigned i)
{
    core_launch_result r = {0};
    if (i >= d->nlaunches)
        return r;
    const launch_state *L = &d->launches[i];
    r.started = L->started;
    r.finished = L->finished;
    r.start_cycle = L->start_cycle;
    r.end_cycle = L->end_cycle;
    r.ctas_done = L->done;
    return r;
}

bool dispatcher_cta_times(const dispatcher *d, unsigned i, uint64_t cta, unsigned *smi, uint64_t *start,
                          uint64_t *end)
{
    if (i >= d->nlaunches || cta >= d->launches[i].ncta || d->launches[i].cta_sm[cta] == UINT32_MAX)
        return false;
    const launch_state *L = &d->launches[i];
    *smi = L->cta_sm[cta];
    *start = L->cta_start[cta];
    *end = L->cta_end[cta];
    return true;
}

void dispatcher_finalize_stats(dispatcher *d, stats *st)
{
    if (!st)
        return;
    for (unsigned i = 0; i < d->nlaunches; i++) {
        launch_state *L = &d->launches[i];
        char blk[160];
        g_snprintf(blk, sizeof blk, "launch.%s", L->rt.name);
        stats_derived(st, blk, "start_cycle", "cycles", "core cycle the launch started", (double)L->start_cycle);
        stats_derived(st, blk, "end_cycle", "cycles", "core cycle its last CTA ended", (double)L->end_cycle);
        stats_derived(st, blk, "ctas", "CTAs", "CTAs completed", (double)L->done);
        stats_series *s0 = stats_series_new(st, blk, "cta_start", "cycles",
                                            "per CTA (linear id order): cycle it reached its SM", 1);
        stats_series *s1 = stats_series_new(st, blk, "cta_end", "cycles",
                                            "per CTA (linear id order): cycle it ended", 1);
        stats_series *s2 = stats_series_new(st, blk, "cta_sm", "SM", "per CTA (linear id order): its SM", 1);
        for (uint64_t c = 0; c < L->ncta; c++) {
            bool ran = L->cta_sm[c] != UINT32_MAX;
            stats_series_push(s0, ran ? (double)L->cta_start[c] : -1);
            stats_series_push(s1, ran ? (double)L->cta_end[c] : -1);
            stats_series_push(s2, ran ? (double)L->cta_sm[c] : -1);
        }
    }
}

void dispatcher_free(dispatcher *d)
{
    if (!d)
        return;
    for (unsigned i = 0; i < d->nlaunches; i++) {
        g_free(d->launches[i].rt.name);
        g_free(d->launches[i].cta_start);
        g_free(d->launches[i].cta_end);
        g_free(d->launches[i].sm_ok);
        g_free(d->launches[i].order);
        g_free(d->launches[i].cta_sm);
    }
    g_free(d->launches);
    g_free(d->use);
    g_free(d->to_sm);
    g_free(d->from_sm);
    g_free(d);
}
