/* Building, wiring and freeing an LD/ST unit (see ldst.h); its cycle is
 * in ldst.c. */
#include "mem/ldst_internal.h"

ldst *ldst_new(des_engine *e, const char *name, unsigned sm, const cache_params *l1,
               const coalesce_params *co, unsigned max_pending, ldst_route_fn route,
               const void *route_ctx, const des_clock *core, stats *st)
{
    ldst *u = g_new0(ldst, 1);
    u->engine = e;
    u->clk = core;
    u->sm = sm;
    u->st = st;
    u->name = g_strdup_printf("%s.ldst", name);
    u->l1name = g_strdup_printf("%s.l1d", name);
    u->l1 = cache_new(l1);
    u->co = *co;
    u->route = route;
    u->route_ctx = route_ctx;
    u->ninst = max_pending ? max_pending : 1;
    u->inst = g_new0(ldst_inst, u->ninst);
    u->atom = g_new0(ldst_atomic, u->ninst);
    for (unsigned i = 0; i < u->ninst; i++)
        u->inst[i].next_free = i + 1 < u->ninst ? (int)i + 1 : -1;
    u->free_head = 0;
    u->hcap = 64;
    u->atomic_rate = COALESCE_LANES;
    u->ports = 1;
    u->hits = g_new(hit_ev, u->hcap);
    u->resp_wait = g_queue_new();
    coalesce_stats_init(&u->cst);
    stats_hist_init_log2(&u->latency, 16);
    stats_hist_init_log2(&u->round_trip, 16);
    if (stats_trace(st)) {
        double us = (double)u->clk->period / (double)des_ticks_per_us_of(u->engine);
        char *a = g_strdup_printf("%s.ldst", u->name), *b = g_strdup_printf("%s.l1miss", u->name);
        trace_spans_init(&u->tr_load, stats_trace(st), a, us);
        trace_spans_init(&u->tr_miss, stats_trace(st), b, us);
        g_free(a), g_free(b);
    }
    if (st) {
        cache_register_stats(u->l1, st, u->l1name);
        coalesce_register_stats(&u->cst, st, u->name);
        stats_counter(st, u->name, "busy_cycles", "cycles", "cycles the unit held an instruction", &u->busy_cycles);
        stats_counter(st, u->name, "stall_coal", "cycles",
                      "LDST_COAL: an access went through but the instruction has more left", &u->stall_coal);
        stats_counter(st, u->name, "stall_mshr", "cycles",
                      "LDST_MSHR: an access waited for an MSHR entry or merge slot", &u->stall_mshr);
        stats_counter(st, u->name, "stall_icnt", "cycles",
                      "LDST_ICNT: an access waited for room in the miss queue / interconnect", &u->stall_icnt);
        stats_counter(st, u->name, "stall_set_reserved", "cycles",
                      "an access waited because every line of its set was reserved", &u->stall_set);
        stats_counter(st, u->name, "fill_stalls", "cycles",
                      "cycles a fill could not be installed (no room for its dirty victim)", &u->fill_stalls);
        stats_histogram(st, u->name, "load_latency", "cycles",
                        "core cycles from a load entering the unit to its last data", &u->latency);
        stats_histogram(st, u->name, "miss_latency", "cycles",
                        "core cycles from a request leaving the L1 miss queue to its reply "
                        "(L2 hits and misses: the latency below the L1)", &u->round_trip);
        stats_counter(st, u->name, "refused_accesses", "accesses",
                      "accesses refused by the L1 at least once (each counted once; the L1's "
                      "reservation_fails counts every refused attempt)", &u->refused_all);
        static const char *const names[CACHE_FAIL_COUNT] = {
            NULL, "refused_set_all_reserved", "refused_mshr_full", "refused_mshr_merge_limit",
            "refused_miss_queue_full"};
        for (unsigned f = 1; f < CACHE_FAIL_COUNT; f++)
            stats_counter(st, u->name, names[f], "accesses",
                          "accesses whose first refusal had this cause", &u->refused[f]);
    }
    if (l1->enabled && l1->replace && ((const replace_ops *)l1->replace->ops)->place) {
        u->dc = g_new(dacache_ctl, 1);
        /* FCW starts at the region's warps: p + 1 = FCW x Width / N_set */
        unsigned fcw = l1->dacache_locality * l1->sets / COALESCE_LANES;
        /* at least one locality warp per scheduler (Wang, section 4.2.4) */
        dacache_ctl_init(u->dc, fcw, l1->dacache_schedulers, l1->dacache_partition == CACHE_DACACHE_DYNAMIC,
                         l1->dacache_coherent);
        if (st) {
            stats_counter(st, u->l1name, "dacache_fcw_ups", "", "DaCache: FCW increments (Fig 4.3 step 2)",
                          &u->dc->fcw.ups);
            stats_counter(st, u->l1name, "dacache_fcw_downs", "", "DaCache: FCW decrements (Fig 4.3 step 6)",
                          &u->dc->fcw.downs);
            stats_counter(st, u->l1name, "dacache_vc_hits", "", "DaCache: victim-cache hits (a coherent PC found to have locality)",
                          &u->dc->vc_hits);
        }
    }
    u->actor = des_actor_new(e, u->name, ldst_main, u);
    des_actor_wake_on_edges(u->actor, u->clk);   /* ldst_main acts on edges only */
    return u;
}

void ldst_set_atomic_rate(ldst *u, double lanes_per_cycle) { u->atomic_rate = lanes_per_cycle; }

void ldst_invalidate_l1(ldst *u) { cache_invalidate_clean(u->l1); }

void ldst_set_hit_interval(ldst *u, unsigned cycles) { u->hit_interval = cycles; }

void ldst_set_hit_bytes(ldst *u, unsigned bytes_per_cycle) { u->hit_bytes = bytes_per_cycle; }

void ldst_set_accesses_per_cycle(ldst *u, unsigned n) { u->ports = n ? n : 1; }

void ldst_set_load_route(ldst *u, ldst_route_fn route, const void *ctx)
{
    u->load_route = route;
    u->load_ctx = ctx;
}

void ldst_set_tlb(ldst *u, struct tlb *t)
{
    u->tlb = t;
    if (!u->tw) {
        u->tw_cap = 64;
        u->tw = g_new(tlb_wait, u->tw_cap);
    }
}

void ldst_set_feedback(ldst *u, mem_feedback *fb, unsigned fcw_min)
{
    u->fb = fb;
    fcw_init(&u->fb_fcw, FCW_INIT, fcw_min);
    ldst_publish(u);
}

void ldst_set_loadchar(ldst *u, loadchar *lc) { u->lc = lc; }

void ldst_set_reexec(ldst *u, unsigned entries)
{
    g_free(u->rq);
    u->rq = entries ? g_new0(cache_access, entries) : NULL;
    u->rq_cap = entries;
    u->rq_head = u->rq_n = 0;
    if (entries && u->st) {
        stats_counter(u->st, u->name, "mascar_queued", "accesses",
                      "MASCAR: load accesses the L1 refused, put in the re-execution queue", &u->rq_queued);
        stats_counter(u->st, u->name, "mascar_replay", "cycles",
                      "MASCAR_Replay: cycles the re-execution queue's head could not be sent", &u->rq_replay_stall);
    }
}

des_actor *ldst_actor(ldst *u) { return u->actor; }

void ldst_connect_sm(ldst *u, des_port *req_in, des_port *resp_out)
{
    u->req_in = req_in;
    u->resp_out = resp_out;
}

void ldst_connect_mem(ldst *u, des_port *down, des_port *up)
{
    u->down = down;
    u->up = up;
}

void ldst_free(ldst *u)
{
    if (!u)
        return;
    cache_free(u->l1);
    g_free(u->rq);
    g_free(u->tw);
    g_free(u->dc);
    g_free(u->inst);
    g_free(u->atom);
    g_free(u->lanes);
    g_free(u->hits);
    g_free(u->hit_free);
    g_queue_free(u->resp_wait);
    g_free(u->name);
    g_free(u->l1name);
    g_free(u);
}
