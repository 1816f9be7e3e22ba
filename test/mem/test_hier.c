/* The memory pipeline end to end, with a scripted SM on the other side:
 * LD/ST unit + L1D -> request crossbar -> L2 slice -> DRAM channel and back
 * through the reply crossbar. Exact latencies worked out by hand.
 *
 * All clocks 1000 MHz (1 cycle = 1 tick). Ports: SM <-> LD/ST 1 cycle each
 * way; into each crossbar 1 cycle; crossbar icnt.latency 4, 32 B flits, 8 B
 * header, 1 flit per cycle (a read request is 1 flit, a 128 B reply 5);
 * L2 <-> DRAM 1 cycle each way. L1 hit latency 20, L2 hit latency 30, DRAM
 * simple timing: 100 with the row open, 300 otherwise (a closed bank too).
 *
 * A warp load of 32 consecutive words (one 128 B line) sent by the SM at T:
 *   LD/ST takes it and accesses the L1 at T+1.
 *   L1 hit: data at T+1+20 = T+21, response reaches the SM at T+22.
 *   L1 miss: the fill request leaves the miss queue at T+2 (the queue is
 *     drained before new accesses each cycle), reaches the crossbar at T+3,
 *     is granted at once (1 flit: transfer ends T+4) and reaches the L2
 *     slice at T+4+4 = T+8.
 *   L2 hit: data at T+8+30 = T+38; the reply enters the reply crossbar at
 *     T+39, its 5 flits end at T+44, it reaches the LD/ST at T+48, fills the
 *     L1 and completes; the SM has the response at T+49.
 *   L2 miss: the DRAM request leaves at T+9, reaches DRAM at T+10, closed
 *     bank: done T+310, back at the L2 at T+311, which replies at once:
 *     reply crossbar T+312..T+317, LD/ST at T+321, SM at T+322. */
#include <criterion/criterion.h>

#include "gpu/gpu_ports.h"
#include "mem/dram_block.h"
#include "mem/l2slice.h"
#include "mem/ldst.h"
#include "mem/loadchar.h"
#include "simtgrid/xbar.h"

static des_clock clk[1] = {{"all", 1000000, 0}};

typedef struct script {
    des_port *req, *resp;
    unsigned n, sent, got;
    des_time send_at[8];
    uint64_t line[8];       /* first address of the warp's 128 B */
    uint64_t line2[8];      /* lanes 16-31 read here instead when set */
    uint32_t lane_step[8];  /* when set, lanes 8i..8i+7 read line + i x this (4 accesses) */
    uint8_t op[8];
    des_time resp_at[8];
} script;

static void sm_main(des_actor *self, void *data)
{
    script *s = data;
    des_time now = des_now(des_actor_engine(self));
    for (;;) {
        warp_mem_resp *r;
        while ((r = des_port_peek(s->resp, now))) {
            s->resp_at[r->tag] = now;
            s->got++;
            des_port_pop(s->resp, now);
        }
        while (s->sent < s->n && s->send_at[s->sent] <= now) {
            warp_mem_req q = {.active = 0xFFFFFFFFu, .tag = s->sent, .op = s->op[s->sent], .size = 4,
                              .ready_at = now};   /* 1 cycle = 1 tick */
            for (unsigned l = 0; l < 32; l++)
                q.addr[l] = s->line[s->sent] + 4 * l;
            if (s->line2[s->sent])
                for (unsigned l = 16; l < 32; l++)
                    q.addr[l] = s->line2[s->sent] + 4 * (l - 16);
            if (s->lane_step[s->sent])
                for (unsigned l = 0; l < 32; l++)
                    q.addr[l] = s->line[s->sent] + (uint64_t)(l / 8) * s->lane_step[s->sent] + 4 * (l % 8);
            if (q.op == MEM_STORE)
                q.flags = MEM_NO_REPLY;
            cr_assert(des_port_try_send(s->req, &q, now));
            s->sent++;
        }
        if (s->sent < s->n)
            des_wake_at(self, s->send_at[s->sent]);
        now = des_block(self);
    }
}

static unsigned route0(const void *ctx, uint64_t addr)
{
    (void)ctx;
    (void)addr;
    return 0;
}

/* L1 MSHR shape for the next build, and the statistics it registers. */
static unsigned l1_mshrs = 32, l1_merge = 8, l1_reexec = 0;
static stats *st;
static loadchar *lc;   /* the unit's characterisation table (gpu.memdiv_stats) */
static ldst *unit;     /* the LD/ST unit of the last build */

static des_engine *build(script **out)
{
    char *err = NULL;
    des_engine *e = des_engine_new(clk, 1, false, &err);
    cr_assert_not_null(e);
    static cache_params l1, l2;
    cache_params_default(&l1, "l1d");
    cache_params_default(&l2, "l2");
    l1.hit_latency = 20;
    l2.hit_latency = 30;
    l1.mshr_entries = l1_mshrs;
    l1.mshr_merge = l1_merge;
    st = stats_new();
    static coalesce_params co;
    coalesce_params_default(&co);
    static dram_params dp;
    dram_params_default(&dp);
    dp.timing = mem_policy("dram.timing", "simple");
    dp.channels = 1;
    dp.row_hit_latency = 100;
    dp.row_conflict_latency = 300;
    dp.bus_bytes = 32;
    static addrmap map;
    char why[256];
    cr_assert(addrmap_init(&map, &dp, why, sizeof why));
    xbar_params xp = {.inputs = 1, .outputs = 1, .flit_bytes = 32, .flits_per_cycle = 1, .header_bytes = 8,
                      .latency = 4, .input_buffer = 8, .output_buffer = 8, .arbiter = XBAR_RR,
                      .iterations = 1, .seed = 1};
    static script s;
    des_actor *sma = des_actor_new(e, "sm0", sm_main, &s);
    ldst *u = ldst_new(e, "sm0", 0, &l1, &co, 8, route0, NULL, &clk[0], st);
    unit = u;
    lc = loadchar_new(co.divergent_after);
    ldst_set_reexec(u, l1_reexec);
    ldst_set_loadchar(u, lc);
    xbar *rq = xbar_new(e, "req", &xp, &clk[0], NULL);
    xbar *rp = xbar_new(e, "rep", &xp, &clk[0], NULL);
    l2slice *l = l2slice_new(e, "l2s0", 0, &l2, 4, &clk[0], NULL);
    dram_block *d = dram_block_new(e, "dram0", &dp, &map, 0, 1, &clk[0], NULL);
    s.req = des_port_new(e, "q", sizeof(warp_mem_req), 2, 1, sma, ldst_actor(u));
    s.resp = des_port_new(e, "r", sizeof(warp_mem_resp), 8, 1, ldst_actor(u), sma);
    ldst_connect_sm(u, s.req, s.resp);
    ldst_connect_mem(u, gpu_link_xbar_in(rq, 0, ldst_actor(u), &xp, &clk[0]),
                     gpu_link_xbar_out(rp, 0, ldst_actor(u), &xp, &clk[0]));
    l2slice_connect_xbar(l, gpu_link_xbar_out(rq, 0, l2slice_actor(l), &xp, &clk[0]),
                         gpu_link_xbar_in(rp, 0, l2slice_actor(l), &xp, &clk[0]));
    des_port *down, *up;
    gpu_link_dram(d, 0, l2slice_actor(l), 1, &clk[0], &down, &up);
    l2slice_connect_dram(l, down, up);
    *out = &s;
    return e;
}

static void plan(script *s, unsigned n, const des_time *at, const uint64_t *line, const uint8_t *op)
{
    s->n = n;
    for (unsigned i = 0; i < n; i++) {
        s->send_at[i] = at[i];
        s->line[i] = line[i];
        s->op[i] = op ? op[i] : MEM_LOAD;
    }
}

Test(hier, dram_miss_then_l1_hit)
{
    /* Load A at 0 misses everywhere: SM has it at 322. Load A again at 400:
     * an L1 hit, at 422. */
    script *s;
    des_engine *e = build(&s);
    plan(s, 2, (des_time[]){0, 400}, (uint64_t[]){0x1000, 0x1000}, NULL);
    des_run(e);
    cr_assert_eq(s->got, 2);
    cr_assert_eq(s->resp_at[0], 322);
    cr_assert_eq(s->resp_at[1], 422);
}

/* The same two loads (PC 0), characterised (Wang ch. 2): the first, ready
 * to leave the SM at 0, enters the unit at 1 (the port's cycle), misses
 * (cold: the line was never evicted) and has its data at 321: L1D access
 * time 321; the second, ready at 400, enters at 401 and hits, data at 421:
 * 21. One access each, through the L1 as it enters: no occlusion.
 * One fully missed and one fully cached load; the PC is coherent (1 access),
 * so the chip's fully_cached_coherent is 1 / 2. The miss took an MSHR entry
 * for GTO priority 0 (requests carry 0 here). Balance of one access over S
 * sets: 1 / ((1 / 2S) (1 + 2S - 1)) = 1. */
Test(hier, characterisation_of_a_fully_cached_reload)
{
    script *s;
    des_engine *e = build(&s);
    plan(s, 2, (des_time[]){0, 400}, (uint64_t[]){0x1000, 0x1000}, NULL);
    des_run(e);
    cr_assert_eq(s->got, 2);
    loadpc *r = loadchar_pc(lc, NULL, 0);
    cr_expect_eq(r->loads, 2);
    cr_expect_eq(r->divergent, 0);
    cr_expect_eq(r->accesses, 2);
    cr_expect_eq(r->fully_cached, 1);
    cr_expect_eq(r->partially_cached, 0);
    cr_expect_eq(r->fully_missed, 1);
    cr_expect_eq(r->misses, 1);
    cr_expect_eq(r->misses_cold, 1);
    cr_expect_eq(r->access_cycles, 321 + 21);
    cr_expect_eq(r->occlusion_cycles, 0);
    cr_expect_float_eq(r->iwc_sum, 2.0, 1e-12);
    cr_expect_float_eq(r->balance_sum, 2.0, 1e-12);
    loadchar_write(lc, st, 1000);
    double v;
    cr_assert(stats_get_derived(st, "loads", "fully_cached_coherent", &v));
    cr_expect_float_eq(v, 0.5, 1e-12);
    cr_assert(stats_get_derived(st, "loadpc.0", "mean_accesses", &v));
    cr_expect_float_eq(v, 1.0, 1e-12);
    cr_assert(stats_get_derived(st, "loadpc.0", "occlusion_share", &v));
    cr_expect_float_eq(v, 0.0, 1e-12);
}

Test(hier, l1_miss_that_hits_the_l2)
{
    /* Load A at 0 (322, above). A store to A at 400 is write-evict in the
     * L1 (the line is invalidated, the write goes down) and is answered
     * once the L2 acknowledges it, although the SM sent it MEM_NO_REPLY:
     * the L1 takes it at 401, it leaves the miss queue at 402, reaches the
     * crossbar at 403; 32 words are 128 B + 8 B header = 5 flits, done at
     * 408, at the L2 at 412, which accepts it (write-back: a hit) and acks
     * after its 30-cycle pipeline, at 442; the ack (header only, 1 flit)
     * enters the reply crossbar at 443, is done at 444, reaches the LD/ST
     * at 448: the store is complete, the SM has the response at 449.
     * Load A at 800: L1 miss, L2 hit (the L2 wrote the line back in place): 849. */
    script *s;
    des_engine *e = build(&s);
    plan(s, 3, (des_time[]){0, 400, 800}, (uint64_t[]){0x1000, 0x1000, 0x1000},
         (uint8_t[]){MEM_LOAD, MEM_STORE, MEM_LOAD});
    des_run(e);
    cr_assert_eq(s->got, 3);
    cr_assert_eq(s->resp_at[0], 322);
    cr_expect_eq(s->resp_at[1], 449);
    cr_assert_eq(s->resp_at[2], 849);
}

Test(hier, second_line_of_an_open_row_is_a_row_hit)
{
    /* Load A (line 0x1000) at 0: 322. Load B (0x1080, same DRAM row) at 400:
     * misses L1 and L2 like A but the row is open: DRAM takes 100, not 300,
     * so the SM has it at 400 + 322 - 200 = 522. */
    script *s;
    des_engine *e = build(&s);
    plan(s, 2, (des_time[]){0, 400}, (uint64_t[]){0x1000, 0x1080}, NULL);
    des_run(e);
    cr_assert_eq(s->got, 2);
    cr_assert_eq(s->resp_at[0], 322);
    cr_assert_eq(s->resp_at[1], 522);
}

static uint64_t counter(const char *block, const char *name)
{
    uint64_t v = 0;
    cr_assert(stats_get_counter(st, block, name, &v), "%s/%s", block, name);
    return v;
}

Test(hier, mshr_full_stalls_the_unit_until_a_fill)
{
    /* One MSHR entry. A warp load at 0 whose lanes 0-15 read line X =
     * 0x1000 and lanes 16-31 line Y = 0x1080 (the coalescer emits X then
     * Y). Taken at 1: X misses (the entry). Cycle 2: X's request leaves,
     * then Y is refused: MSHR full. Nothing can change until X's fill at
     * 321 (a closed bank: access at 1 + 320); then X's requester leaves the
     * entry and Y is retried the same cycle: a miss, a DRAM row hit (X
     * opened the row): reply at 321 + 120 = 441. The load completes at 441
     * (latency 440), the SM has it at 442. Stall: cycles 2..320 = 319; one
     * refused attempt (no retry before the fill). */
    l1_mshrs = 1;
    script *s;
    des_engine *e = build(&s);
    plan(s, 1, (des_time[]){0}, (uint64_t[]){0x1000}, NULL);
    s->line2[0] = 0x1080;
    des_run(e);
    cr_assert_eq(s->got, 1);
    cr_expect_eq(s->resp_at[0], 442);
    cr_expect_eq(counter("sm0.ldst", "refused_accesses"), 1);
    cr_expect_eq(counter("sm0.ldst", "refused_mshr_full"), 1);
    cr_expect_eq(counter("sm0.ldst", "stall_mshr"), 319);
    cr_expect_eq(counter("sm0.ldst", "busy_cycles"), 2 + 319);
    cr_expect_eq(counter("sm0.l1d", "reservation_fails"), 1);
    cr_expect_eq(counter("sm0.l1d", "fail_mshr_full"), 1);
    cr_expect_eq(counter("sm0.l1d", "misses"), 2);
    /* Characterised: the load, ready at 0, entered at 1 (no wait beyond
     * the port's cycle) and its second access went through at 321: 321
     * cycles for 2 accesses, 319 of occlusion (Wang Fig 2.6); access time
     * 441 - 0 = 441; both accesses missed; LDST_COAL 1 (after X), LDST_MSHR
     * 319, both of its PC. */
    loadpc *r = loadchar_pc(lc, NULL, 0);
    cr_expect_eq(r->occlusion_cycles, 319);
    cr_expect_eq(r->access_cycles, 441);
    cr_expect_eq(r->fully_missed, 1);
    cr_expect_eq(r->misses, 2);
    cr_expect_eq(r->stall_coal, 1);
    cr_expect_eq(r->stall_mshr, 319);
    loadchar_write(lc, st, 1000);
    double v;
    cr_assert(stats_get_derived(st, "loads", "occlusion_share_coherent", &v));
    cr_expect_float_eq(v, 319.0 / 441.0, 1e-12);
    cr_assert(stats_get_derived(st, "loads", "ldst_mshr_share", &v));
    cr_expect_float_eq(v, 319.0 / 1000.0, 1e-12);
}

Test(hier, merge_limit_then_hit_after_the_fill)
{
    /* One MSHR entry holding at most 2 accesses. Loads of line X at 0, 0
     * and 2 (the SM port holds 2). The first is taken at 1 and misses; the
     * second at 2 merges (a pending hit); the third, at 3, finds the entry
     * full: refused, merge limit. At 321 the fill completes the first two
     * (SM at 322) and the third is retried: now a hit, data at 341, SM at
     * 342. Stall: cycles 3..320 = 318. */
    l1_mshrs = 1;
    l1_merge = 2;
    script *s;
    des_engine *e = build(&s);
    plan(s, 3, (des_time[]){0, 0, 2}, (uint64_t[]){0x1000, 0x1000, 0x1000}, NULL);
    des_run(e);
    cr_assert_eq(s->got, 3);
    cr_expect_eq(s->resp_at[0], 322);
    cr_expect_eq(s->resp_at[1], 322);
    cr_expect_eq(s->resp_at[2], 342);
    cr_expect_eq(counter("sm0.l1d", "misses"), 1);
    cr_expect_eq(counter("sm0.l1d", "hits_reserved"), 1);
    cr_expect_eq(counter("sm0.l1d", "hits"), 1);
    cr_expect_eq(counter("sm0.ldst", "refused_mshr_merge_limit"), 1);
    cr_expect_eq(counter("sm0.ldst", "stall_mshr"), 318);
}

/* MASCAR's re-execution queue (32 entries), one MSHR entry. Load 0 at 0:
 * lanes 0-15 line X = 0x1000, lanes 16-31 Y = 0x1080; load 1 at 0: X. At 1
 * X misses (the entry). At 2 Y is refused (MSHR full): it goes to the
 * queue and load 0 leaves the unit. At 3 load 1 enters and merges into X's
 * entry (a pending hit). Nothing changes until X's fill at 321 (above):
 * load 1 completes (SM at 322) and the queue's head Y is replayed: a miss,
 * a DRAM row hit, reply at 441, SM at 442. Y's head could not be sent from
 * 2 to 320: MASCAR_Replay 319 cycles. The unit never stalled (LDST_MSHR 0).
 * Without the queue load 1 would enter only after Y, at 322, and hit: SM at
 * 343. */
static script *two_loads_one_mshr(unsigned reexec)
{
    l1_mshrs = 1;
    l1_reexec = reexec;
    script *s;
    des_engine *e = build(&s);
    plan(s, 2, (des_time[]){0, 0}, (uint64_t[]){0x1000, 0x1000}, NULL);
    s->line2[0] = 0x1080;
    des_run(e);
    cr_assert_eq(s->got, 2);
    return s;
}

Test(hier, mascar_reexec_queue_lets_the_next_load_through)
{
    script *s = two_loads_one_mshr(32);
    cr_expect_eq(s->resp_at[0], 442);
    cr_expect_eq(s->resp_at[1], 322);
    cr_expect_eq(counter("sm0.ldst", "mascar_queued"), 1);
    cr_expect_eq(counter("sm0.ldst", "mascar_replay"), 319);
    cr_expect_eq(counter("sm0.ldst", "stall_mshr"), 0);
    cr_expect_eq(counter("sm0.ldst", "refused_mshr_full"), 1);
    cr_expect_eq(counter("sm0.l1d", "misses"), 2);
    cr_expect_eq(counter("sm0.l1d", "hits_reserved"), 1);
}

/* The same two loads without the queue: load 1 waits behind Y, enters at
 * 322 (Y goes through at 321) and hits X, filled at 321: data at 342, SM at
 * 343; load 0 as above (442). */
Test(hier, without_the_reexec_queue_the_next_load_waits)
{
    script *s = two_loads_one_mshr(0);
    cr_expect_eq(s->resp_at[0], 442);
    cr_expect_eq(s->resp_at[1], 343);
}

/* What OAWS's schedulers see (the feedback) after a divergent load of 4
 * lines (lanes 8i..8i+7 in line 0x1000 + 128 i: 4 accesses, more than
 * coalesce.divergent_after = 2) sent at 0 and again at 2000. The first
 * misses its 4 lines (cold), the second hits all 4 (the lines are in 4
 * consecutive sets). DLC: one entry, PC 0, #inst 2, #acc 8, #miss 4 (HMR
 * 1/2). FCW (Fig 5.3, initially 4, CNT 128): the first load is partially
 * cached (not fully) from SM-wide priority 0 < FCW, so CNT -= FCW - 0 = 4
 * -> 124; the second is fully cached: CNT 125; FCW stays 4, so the unit's
 * sched_fcw is 4 and sched_mean_fcw (4 + 4) / 2 = 4. No prediction rode
 * with the requests (pred 0): Miss_inflight ends at 0; all 32 MSHRs free. */
Test(hier, oaws_feedback_dlc_and_fcw)
{
    script *s;
    des_engine *e = build(&s);
    mem_feedback fb = {0};
    ldst_set_feedback(unit, &fb, 2);   /* the Fermi SM's 2 schedulers */
    plan(s, 2, (des_time[]){0, 2000}, (uint64_t[]){0x1000, 0x1000}, NULL);
    s->lane_step[0] = s->lane_step[1] = 128;
    des_run(e);
    cr_assert_eq(s->got, 2);
    const mem_dlc_entry *d = mem_dlc_find(&fb, 0);
    cr_assert_not_null(d);
    cr_expect_eq(d->insts, 2);
    cr_expect_eq(d->accs, 8);
    cr_expect_eq(d->misses, 4);
    cr_expect_eq(fb.fcw, 4);
    cr_expect_eq(fb.miss_inflight, 0);
    cr_expect_eq(fb.mshr_free, 32);
    ldst_finish(unit, 3000);
    double v;
    cr_assert(stats_get_derived(st, "sm0.ldst", "sched_fcw", &v));
    cr_expect_float_eq(v, 4.0, 1e-12);
    cr_assert(stats_get_derived(st, "sm0.ldst", "sched_mean_fcw", &v));
    cr_expect_float_eq(v, 4.0, 1e-12);
}
