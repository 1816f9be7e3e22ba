/* The DRAM channel actor on ports: exact reply times with the simple timing
 * model. Clock 1000 MHz: one DRAM cycle = 1 tick. Ports have latency 1 in
 * each direction. Simple model (docs/dram.md): a request started at t costs
 * H = 100 with its row open, C = 300 otherwise (a closed bank too); its data
 * holds the 32 B/cycle bus for ceil(bytes / 32) cycles ending at completion:
 * done = max(t + latency, bus_free + d); a hit after a conflict started at t0
 * may start at t0 + C - H + d. */
#include <criterion/criterion.h>

#include "gpu/gpu_ports.h"
#include "mem/dram_block.h"
#include "simtgrid/memport.h"
#include "test_dram_util.h"

static des_clock clk[1] = {{"dram", 1000000, 0}};

typedef struct sink { des_port *in; unsigned n; des_time at[8]; uint32_t id[8]; } sink;

static void sink_main(des_actor *self, void *data)
{
    sink *k = data;
    des_time now = des_now(des_actor_engine(self));
    for (;;) {
        mem_pkt *m;
        while ((m = des_port_peek(k->in, now))) {
            k->at[k->n] = now;
            k->id[k->n++] = m->id;
            cr_assert_eq(m->reply, 1);
            des_port_pop(k->in, now);
        }
        now = des_block(self);
    }
}

static void idle_main(des_actor *self, void *data)
{
    (void)data;
    des_block(self);
}

static sink k;

/* The channel on p, its request port of `in_cap` slots in *in (the
 * slice's side is two actors: requests from src, replies to the sink k). */
static dram_block *connect_channel(des_engine *e, const dram_params *p, unsigned in_cap, stats *st,
                                   des_port **in)
{
    static addrmap map;
    char why[256];
    cr_assert(addrmap_init(&map, p, why, sizeof why), "%s", why);
    des_actor *src = des_actor_new(e, "l2", idle_main, NULL);
    des_actor *ka = des_actor_new(e, "sink", sink_main, &k);
    dram_block *d = dram_block_new(e, "dram0", p, &map, 0, 1, &clk[0], st);
    *in = gpu_port("dram0.in0", sizeof(mem_pkt), in_cap, &clk[0], 1, src, dram_block_actor(d));
    k.in = gpu_port("dram0.out0", sizeof(mem_pkt), 16, &clk[0], 1, dram_block_actor(d), ka);
    dram_block_connect(d, 0, *in, k.in);
    return d;
}

/* One channel with the simple timing above; returns its request port. */
static des_port *channel(des_engine *e, bool write_mask)
{
    static dram_params p;
    simple_params(&p);
    p.write_mask = write_mask;
    des_port *in;
    connect_channel(e, &p, 4, NULL, &in);
    return in;
}

Test(dram_block, conflict_then_pipelined_row_hit)
{
    char *err = NULL;
    des_engine *e = des_engine_new(clk, 1, false, &err);
    des_port *in = channel(e, true);
    /* Two 32 B reads of one row sent at 0, a write between them: all arrive
     * at 1. Read A: closed bank, starts 1, done max(1 + 300, 0 + 1) = 301,
     * reply delivered 302. Write W (same row): a hit, starts 1 + 200 + 1 =
     * 202, done max(302, 301 + 1) = 302; not answered. Read B: hit, starts
     * 202 + 1 = 203, done max(303, 302 + 1) = 303, delivered 304. */
    mem_pkt a = {.addr = 0, .id = 1, .op = MEM_LOAD, .bytes = 32};
    mem_pkt w = {.addr = 32, .id = 2, .op = MEM_STORE, .bytes = 32};
    mem_pkt b = {.addr = 64, .id = 3, .op = MEM_LOAD, .bytes = 32};
    cr_assert(des_port_try_send(in, &a, 0));
    cr_assert(des_port_try_send(in, &w, 0));
    cr_assert(des_port_try_send(in, &b, 0));
    des_run(e);
    cr_assert_eq(k.n, 2);
    cr_assert_eq(k.id[0], 1);
    cr_assert_eq(k.at[0], 302);
    cr_assert_eq(k.id[1], 3);
    cr_assert_eq(k.at[1], 304);
}

/* One partial write W to row 0 (bytes 32 of segment 0 at address 32, id 2)
 * then a read B of the same row (id 3), both sent at 0: when B is answered. */
static des_time partial_write_then_read(bool write_mask, uint8_t partial)
{
    char *err = NULL;
    des_engine *e = des_engine_new(clk, 1, false, &err);
    des_port *in = channel(e, write_mask);
    mem_pkt w = {.addr = 32, .id = 2, .op = MEM_STORE, .bytes = 32, .sectors = 0x1, .partial = partial};
    mem_pkt b = {.addr = 64, .id = 3, .op = MEM_LOAD, .bytes = 32};
    cr_assert(des_port_try_send(in, &w, 0));
    cr_assert(des_port_try_send(in, &b, 0));
    des_run(e);
    cr_assert_eq(k.n, 1, "the write and the RMW read are not answered");
    cr_expect_eq(k.id[0], 3);
    return k.at[0];
}

/* Simple timing as above (H = 100, C = 300, one bus cycle per 32 B); one
 * engine per test (one simulation per process). With a data mask, or a
 * write of whole segments: W on the closed bank starts 1, done 301; B a
 * hit, starts 1 + 300 - 100 + 1 = 202, done max(302, 301 + 1) = 302,
 * delivered 303. Without one, a partial W is preceded by a 32 B read R of
 * its segment: R starts 1, done 301; W a hit starts 202, done 302; B starts
 * 203, done max(303, 302 + 1) = 303, delivered 304: one bus cycle later. */
Test(dram_block, partial_write_with_data_mask)
{
    cr_expect_eq(partial_write_then_read(true, 0x1), 303);
}

Test(dram_block, whole_write_without_data_mask)
{
    cr_expect_eq(partial_write_then_read(false, 0x0), 303);
}

Test(dram_block, partial_write_without_data_mask_reads_first)
{
    cr_expect_eq(partial_write_then_read(false, 0x1), 304);
}

/* ---- statistics held back while the channel runs ahead (issue 20) ------ */

/* Ends the run at its wake-up `at` (the dispatcher's part). */
static void ender_main(des_actor *self, void *data)
{
    des_wake_at(self, *(des_time *)data);
    des_block(self);
    des_stop(des_actor_engine(self));
}

static uint64_t probed_reads;
static stats *probe_st;
static void probe_reads(void *ctx, des_time t)
{
    (void)ctx;
    if (t == 204)
        probed_reads = stats_sum(probe_st, "dram0", "reads");
}

/* Eight 32 B reads of row 0, sent at 0 and delivered at 1, through a
 * queue of one request, so the channel wakes at each start while a
 * request waits in the port (memctrl_next_event: a full queue's next
 * command), and runs ahead over those cycles: A, on the closed bank,
 * starts 1; B, a hit, starts 1 + C - H + d = 202; C..H, pipelined hits,
 * 203..208. Each request is counted (reads, row hits) when it starts. */
static dram_block *hits_in_a_row(des_engine *e, stats *st)
{
    static dram_params p;
    simple_params(&p);
    p.queue_size = 1;
    des_port *in;
    dram_block *d = connect_channel(e, &p, 8, st, &in);
    for (uint32_t i = 0; i < 8; i++) {
        mem_pkt m = {.addr = 32 * i, .id = i, .op = MEM_LOAD, .bytes = 32};
        cr_assert(des_port_try_send(in, &m, 0));
    }
    return d;
}

/* The run ends at 204: A, B, C and D started by then, E..H after. The
 * channel runs ahead past the end (it no longer stops at the dispatcher's
 * earliest run) and must count only what stepping would have counted. */
Test(dram_block, statistics_stop_at_the_end_of_the_run)
{
    char *err = NULL;
    des_engine *e = des_engine_new(clk, 1, false, &err);
    stats *st = stats_new();
    dram_block *d = hits_in_a_row(e, st);
    static des_time end_at = 204;
    des_actor *ender = des_actor_new(e, "dispatcher", ender_main, &end_at);
    des_actor_may_end_run(ender);
    des_time end = des_run(e);
    cr_assert_eq(end, 204);
    dram_block_finish(d, end);
    cr_expect_eq(stats_sum(st, "dram0", "reads"), 4);
    cr_expect_eq(stats_sum(st, "dram0", "row_misses"), 1);
    cr_expect_eq(stats_sum(st, "dram0", "row_hits"), 3);
    cr_expect_eq(stats_sum(st, "dram0", "bus_busy_cycles"), 4);
}

/* A probe at 204 sees the state at 204, every event before it: A, B, C
 * (the channel ran 203 ahead of the engine's time when woken at 202). */
Test(dram_block, probe_sees_statistics_held_back)
{
    char *err = NULL;
    des_engine *e = des_engine_new(clk, 1, false, &err);
    probe_st = stats_new();
    dram_block *d = hits_in_a_row(e, probe_st);
    des_add_probe(e, 204, probe_reads, NULL);
    des_time end = des_run(e);
    dram_block_finish(d, end);
    cr_expect_eq(probed_reads, 3);
    cr_expect_eq(stats_sum(probe_st, "dram0", "reads"), 8);
    cr_expect_eq(k.n, 8);
}
