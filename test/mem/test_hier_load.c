/* The memory pipeline of a multi-SM chip under load, with scripted SMs that
 * send warp memory instructions as fast as their LD/ST units take them:
 * N LD/ST units + L1Ds -> request crossbar -> one L2 slice per partition ->
 * one DRAM channel per partition, and back through the reply crossbar
 * (wired as src/gpu/gpu_hier.c wires them).
 *
 * - saturation: 16 SMs stream distinct lines; the DRAM data buses are the
 *   configured bottleneck and must be busy (bandwidth within 2% of the peak
 *   channels x bus_bytes per DRAM cycle over the run);
 * - soak: tiny buffers, queues and MSHRs everywhere, random loads, stores,
 *   atomics and L2-only loads from 16 SMs: the run must end (no deadlock)
 *   with every instruction answered and every packet accounted for. */
#include <criterion/criterion.h>

#include "gpu/gpu_ports.h"
#include "mem/dram_block.h"
#include "mem/l2slice.h"
#include "mem/ldst.h"
#include "mem/tlb.h"
#include "simtgrid/xbar.h"

#define MAX_SMS 16
#define MAX_PARTS 4

static des_clock clk[1] = {{"all", 1000000, 0}};

typedef struct sm_script {
    des_port *req, *resp;
    unsigned id, nsms, n, sent, got, expect_resp, got_by_op[3];
    bool random;
    uint64_t rng, span;
} sm_script;

static uint64_t xorshift(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Instruction k of SM s. Streaming: line (k * nsms + s), every lane one
 * word of it (one 128 B access). Random: a mix of ops and shapes. */
static void make_req(sm_script *s, unsigned k, warp_mem_req *q)
{
    *q = (warp_mem_req){.active = 0xFFFFFFFFu, .tag = k, .sm = (uint16_t)s->id, .size = 4,
                        .warp = (uint16_t)(k % 48)};
    if (!s->random) {
        uint64_t line = 0x10000000ull + ((uint64_t)k * s->nsms + s->id) * 128;
        for (unsigned l = 0; l < 32; l++)
            q->addr[l] = line + 4 * l;
        return;
    }
    uint64_t r = xorshift(&s->rng);
    unsigned kind = (unsigned)(r % 8);
    uint64_t base = 0x10000000ull + (xorshift(&s->rng) % s->span) * 128;
    bool scatter = (r >> 8) & 1;
    for (unsigned l = 0; l < 32; l++)
        q->addr[l] = scatter ? 0x10000000ull + (xorshift(&s->rng) % s->span) * 128 + 4 * (l % 4)
                             : base + 4 * l;
    if (kind == 5 || kind == 6) {
        q->op = MEM_STORE;
        q->flags = MEM_NO_REPLY;
    } else if (kind == 7) {
        q->op = MEM_ATOMIC;
        q->active = 0x0000FFFFu;
    } else if (kind == 4) {
        q->flags = MEM_L2_ONLY;
    }
}

static void sm_main(des_actor *self, void *data)
{
    sm_script *s = data;
    des_time now = des_now(des_actor_engine(self));
    for (;;) {
        warp_mem_resp *r;
        while ((r = des_port_peek(s->resp, now))) {
            s->got++;
            s->got_by_op[r->op]++;
            des_port_pop(s->resp, now);
        }
        while (s->sent < s->n) {
            warp_mem_req q;
            uint64_t saved = s->rng;
            make_req(s, s->sent, &q);
            if (!des_port_try_send(s->req, &q, now)) {
                s->rng = saved;   /* the same instruction again when there is room */
                break;
            }
            s->expect_resp++;   /* every instruction: a store too, once the L2 acknowledges it */
            s->sent++;
        }
        now = des_block(self);   /* woken by a response or by a freed request slot */
    }
}

typedef struct rig {
    des_engine *e;
    unsigned nsms, parts;
    cache_params l1, l2;
    coalesce_params co;
    dram_params dp;
    addrmap map;
    xbar_params xp;
    sm_script sm[MAX_SMS];
    ldst *u[MAX_SMS];
    l2slice *slice[MAX_PARTS];
    dram_block *d[MAX_PARTS];
    xbar *rq, *rp;
    stats *st;
    tlb_params tp;             /* address translation when tp.l1_entries > 0 */
    tlb_group *tg[MAX_SMS];
    tlb *tl[MAX_SMS];
} rig;

static unsigned route(const void *ctx, uint64_t addr)
{
    const rig *r = ctx;
    return addrmap_channel(&r->map, addr);
}

/* Parameters at their defaults except: 1 GHz everywhere, `parts`
 * partitions of one slice, simple DRAM timing. The caller may change
 * r->l1, l2, co, dp, xp between rig_params and rig_build. */
static void rig_params(rig *r, unsigned nsms, unsigned parts)
{
    *r = (rig){.nsms = nsms, .parts = parts};
    cache_params_default(&r->l1, "l1d");
    cache_params_default(&r->l2, "l2");
    coalesce_params_default(&r->co);
    tlb_params_default(&r->tp);
    dram_params_default(&r->dp);
    r->dp.channels = parts;
    r->dp.timing = mem_policy("dram.timing", "simple");
    r->xp = (xbar_params){.flit_bytes = 32, .flits_per_cycle = 1, .header_bytes = 8, .latency = 4,
                          .input_buffer = 8, .output_buffer = 8, .arbiter = XBAR_ISLIP,
                          .iterations = 2, .seed = 1};
}

static void rig_build(rig *r, unsigned per_sm, bool random, unsigned max_pending)
{
    char *err = NULL;
    r->e = des_engine_new(clk, 1, false, &err);
    cr_assert_not_null(r->e, "%s", err);
    char why[256];
    cr_assert(addrmap_init(&r->map, &r->dp, why, sizeof why), "%s", why);
    r->st = stats_new();
    xbar_params q = r->xp, p = r->xp;
    q.inputs = r->nsms;
    q.outputs = r->parts;
    p.inputs = r->parts;
    p.outputs = r->nsms;
    r->rq = xbar_new(r->e, "icnt.req", &q, &clk[0], r->st);
    r->rp = xbar_new(r->e, "icnt.reply", &p, &clk[0], r->st);
    for (unsigned i = 0; i < r->nsms; i++) {
        char name[32];
        snprintf(name, sizeof name, "sm%u", i);
        sm_script *s = &r->sm[i];
        *s = (sm_script){.id = i, .nsms = r->nsms, .n = per_sm, .random = random,
                         .rng = 0x9E3779B97F4A7C15ull * (i + 1), .span = 1u << 16};
        des_actor *a = des_actor_new(r->e, name, sm_main, s);
        ldst *u = ldst_new(r->e, name, i, &r->l1, &r->co, max_pending, route, r, &clk[0], r->st);
        r->u[i] = u;
        if (r->tp.l1_entries) {
            unsigned g = tlb_group_of(&r->tp, i);
            if (!r->tg[g])
                r->tg[g] = tlb_group_new(&r->tp);
            r->tl[i] = tlb_new(&r->tp, r->tg[g]);
            tlb_register_stats(r->tl[i], r->st, name);
            ldst_set_tlb(u, r->tl[i]);
        }
        s->req = des_port_new(r->e, "q", sizeof(warp_mem_req), 2, 1, a, ldst_actor(u));
        s->resp = des_port_new(r->e, "r", sizeof(warp_mem_resp), max_pending, 1, ldst_actor(u), a);
        ldst_connect_sm(u, s->req, s->resp);
        ldst_connect_mem(u, gpu_link_xbar_in(r->rq, i, ldst_actor(u), &r->xp, &clk[0]),
                         gpu_link_xbar_out(r->rp, i, ldst_actor(u), &r->xp, &clk[0]));
    }
    for (unsigned k = 0; k < r->parts; k++) {
        char name[32];
        snprintf(name, sizeof name, "dram%u", k);
        r->d[k] = dram_block_new(r->e, name, &r->dp, &r->map, k, 1, &clk[0], r->st);
        snprintf(name, sizeof name, "l2s%u", k);
        l2slice *l = l2slice_new(r->e, name, k, &r->l2, 4, &clk[0], r->st);
        r->slice[k] = l;
        l2slice_connect_xbar(l, gpu_link_xbar_out(r->rq, k, l2slice_actor(l), &r->xp, &clk[0]),
                             gpu_link_xbar_in(r->rp, k, l2slice_actor(l), &r->xp, &clk[0]));
        des_port *down, *up;
        gpu_link_dram(r->d[k], 0, l2slice_actor(l), 1, &clk[0], &down, &up);
        l2slice_connect_dram(l, down, up);
    }
}

static des_time rig_run(rig *r)
{
    des_time end = des_run(r->e);
    for (unsigned i = 0; i < r->nsms; i++)
        ldst_finish(r->u[i], end);
    for (unsigned k = 0; k < r->parts; k++) {
        l2slice_finish(r->slice[k], end);
        dram_block_finish(r->d[k], end);
    }
    xbar_finish(r->rq, end);
    xbar_finish(r->rp, end);
    return end;
}

static uint64_t sum(const rig *r, const char *glob, const char *name)
{
    return stats_sum(r->st, glob, name);
}

Test(hier_load, streaming_sms_saturate_the_dram_buses)
{
    /* The bottleneck by construction: 2 channels, each bus 32 B per DRAM
     * cycle, so a 128 B line takes 4 bus cycles and the chip can read at
     * most 2 * 32 = 64 B per cycle. Everything else is wider: 64 B flits
     * (a reply is 3 flits, 3 cycles per line per port, and the requests
     * travel the other crossbar), 16 LD/ST units of 1 access per cycle,
     * L2 slices taking 1 request per cycle. Row hits take 40 cycles, so 10
     * lines per channel must be in flight to cover the latency: the L2
     * slices' 32 MSHRs and the 32-entry DRAM queues do. 16 SMs x 512
     * distinct lines = 1 MiB: 8192 lines / 2 channels x 4 cycles = 16384
     * cycles at the peak; filling and draining the pipeline costs a few
     * hundred at most, under 2%. */
    rig r;
    rig_params(&r, 16, 2);
    r.dp.row_hit_latency = 40;
    r.dp.row_conflict_latency = 80;
    r.dp.bus_bytes = 32;
    r.xp.flit_bytes = 64;
    rig_build(&r, 512, false, 48);
    des_time end = rig_run(&r);
    uint64_t lines = 16 * 512;
    for (unsigned i = 0; i < 16; i++)
        cr_assert_eq(r.sm[i].got, 512, "sm%u got %u responses", i, r.sm[i].got);
    cr_expect_eq(sum(&r, "dram*", "bytes_read"), lines * 128);
    double peak = 2 * 32.0;                                     /* bytes per cycle */
    double achieved = (double)(lines * 128) / (double)end;      /* 1 tick = 1 cycle */
    cr_expect_geq(achieved, 0.98 * peak, "achieved %.2f B/cycle of %.0f (end %llu)", achieved, peak,
                  (unsigned long long)end);
    cr_expect_leq(achieved, peak);
    /* The contention is visible in the statistics: queueing at the
     * crossbar, refused L1 accesses, a busy DRAM bus. */
    double qd = 0;
    cr_assert(stats_get_derived(r.st, "icnt.req", "mean_queue_delay", &qd));
    cr_expect_gt(qd, 10.0, "request crossbar queueing %g cycles", qd);
    cr_expect_gt(sum(&r, "sm*.ldst", "refused_accesses"), 0);
    double util = 0;
    cr_assert(stats_get_derived(r.st, "dram0", "bus_utilisation", &util));
    cr_expect_geq(util, 0.98);
    stats_free(r.st);
}

static void soak(bool translate)
{
    /* Every buffer at (or near) its minimum so that back-pressure and
     * reservation failures happen everywhere at once; random loads
     * (coalesced and scattered), stores, atomics and L2-only loads over
     * 8 MiB from 16 SMs into 2 partitions. The run must end by itself
     * (an actor waiting forever would leave instructions unanswered and the
     * engine stops when nothing is scheduled), every load and atomic gets
     * its response, and the packet counts balance. */
    rig r;
    rig_params(&r, 16, 2);
    r.l1.mshr_entries = 2;
    r.l1.mshr_merge = 2;
    r.l1.miss_queue = 2;
    r.l1.sets = 4;
    r.l1.ways = 2;
    r.l1.index = mem_policy("l1d.index", "linear");
    r.l2.mshr_entries = 2;
    r.l2.mshr_merge = 1;
    r.l2.miss_queue = 2;
    r.l2.sets = 4;
    r.l2.ways = 2;
    r.dp.queue_size = 1;
    r.dp.row_hit_latency = 10;      /* short, so the soak is over quickly */
    r.dp.row_conflict_latency = 30;
    r.xp.input_buffer = 1;
    r.xp.output_buffer = 1;
    r.xp.arbiter = XBAR_PIM;
    if (translate) {
        /* 4 KiB pages over the 8 MiB: 2048 pages through 4-entry L1 TLBs
         * and 8-entry TLBs shared by 4 SMs, half a lookup per cycle, and
         * each miss owing its SM's port half a cycle */
        r.tp.l1_entries = 4;
        r.tp.l1_ways = 2;
        r.tp.page_bytes = 4096;
        r.tp.group_sms = 4;
        r.tp.group_entries = 8;
        r.tp.group_ways = 2;
        r.tp.group_lookups_per_cycle = 0.5;
        r.tp.l1_miss_port_cycles = 0.5;
    }
    rig_build(&r, 100, true, 4);
    rig_run(&r);
    uint64_t expect = 0, got = 0;
    for (unsigned i = 0; i < 16; i++) {
        cr_expect_eq(r.sm[i].sent, 100, "sm%u sent %u", i, r.sm[i].sent);
        cr_expect_eq(r.sm[i].got, r.sm[i].expect_resp, "sm%u: %u of %u answered", i, r.sm[i].got,
                     r.sm[i].expect_resp);
        expect += r.sm[i].expect_resp;
        got += r.sm[i].got;
    }
    cr_expect_eq(got, expect);
    cr_expect_gt(r.sm[0].got_by_op[MEM_ATOMIC], 0);
    cr_expect_gt(r.sm[0].got_by_op[MEM_STORE], 0);   /* the mix really was mixed */
    /* Every packet into a crossbar came out of it. */
    cr_expect_eq(sum(&r, "icnt.req", "packets"), sum(&r, "l2s*", "accesses"));
    cr_expect_eq(sum(&r, "icnt.reply", "packets"), sum(&r, "l2s*", "replies") + sum(&r, "l2s*", "store_acks"));
    /* every store the L1s sent down was acknowledged (write-evict L1s: all
     * store data goes down; write-backs of dirty victims are not acked) */
    cr_expect_eq(sum(&r, "l2s*", "store_acks"), sum(&r, "l2s*", "store_requests") - sum(&r, "sm*.l1d", "writebacks"));
    /* It was overloaded: every kind of back-pressure happened. */
    cr_expect_gt(sum(&r, "sm*.l1d", "fail_mshr_full"), 0);
    cr_expect_gt(sum(&r, "sm*.l1d", "fail_miss_queue_full"), 0);
    cr_expect_gt(sum(&r, "l2s*", "reservation_fails"), 0);
    cr_expect_gt(sum(&r, "icnt.req", "input_full_cycles"), 0);
    if (translate) {
        /* every load access was translated: each L1 TLB miss either hit the
         * shared TLB or walked; misses, hits and walks all happened */
        uint64_t miss = sum(&r, "sm*", "tlb_l1_misses");
        cr_expect_gt(sum(&r, "sm*", "tlb_l1_hits"), 0);
        cr_expect_gt(sum(&r, "sm*", "tlb_group_hits"), 0);
        cr_expect_gt(sum(&r, "sm*", "tlb_walks"), 0);
        cr_expect_eq(sum(&r, "sm*", "tlb_group_hits") + sum(&r, "sm*", "tlb_walks"), miss);
        for (unsigned i = 0; i < 16; i++)
            tlb_free(r.tl[i]);
        for (unsigned g = 0; g < 4; g++)
            tlb_group_free(r.tg[g]);
    }
    stats_free(r.st);
}

Test(hier_load, soak_under_overload_answers_everything) { soak(false); }

/* The same soak with address translation: loads wait for their pages off
 * the L1 port and replay; nothing may be lost or stuck. */
Test(hier_load, soak_with_translation_answers_everything) { soak(true); }
