/* An L2 slice takes one request per L2 cycle; a store that writes part of
 * a 32-B segment holds its request port l2.partial_write_cycles cycles
 * (the sector's old bytes read and merged first). Clock 1000 MHz (1 cycle
 * = 1 tick), ports of latency 1, L2 hit latency 30: a store accepted at
 * cycle c is acknowledged at c + 30 and its ack delivered at c + 31. */
#include <criterion/criterion.h>

#include "mem/l2slice.h"
#include "simtgrid/memport.h"

static des_clock clk[1] = {{"all", 1000000, 0}};

typedef struct sink { des_port *in; unsigned n; des_time at[8]; } sink;

static void sink_main(des_actor *self, void *data)
{
    sink *k = data;
    des_time now = des_now(des_actor_engine(self));
    for (;;) {
        mem_pkt *m;
        while ((m = des_port_peek(k->in, now))) {
            k->at[m->id] = now;
            k->n++;
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

/* Three 32 B stores to three lines sent at 0 (arriving at 1): two that
 * write half of segment 0, then a whole one. */
static void three_stores(unsigned partial_cycles, des_time ack[3])
{
    char *err = NULL;
    des_engine *e = des_engine_new(clk, 1, false, &err);
    static cache_params l2;
    cache_params_default(&l2, "l2");
    l2.hit_latency = 30;
    l2.sector_bytes = 32;
    static sink k;
    des_actor *src = des_actor_new(e, "xbar", idle_main, NULL);
    des_actor *ka = des_actor_new(e, "sink", sink_main, &k);
    des_actor *mem = des_actor_new(e, "dram", idle_main, NULL);
    l2slice *l = l2slice_new(e, "l2s0", 0, &l2, 4, &clk[0], NULL);
    l2slice_set_partial_write_cycles(l, partial_cycles);
    des_port *in = des_port_new(e, "req", sizeof(mem_pkt), 8, 1, src, l2slice_actor(l));
    k.in = des_port_new(e, "rep", sizeof(mem_pkt), 8, 1, l2slice_actor(l), ka);
    l2slice_connect_xbar(l, in, k.in);
    l2slice_connect_dram(l, des_port_new(e, "down", sizeof(mem_pkt), 8, 1, l2slice_actor(l), mem),
                         des_port_new(e, "up", sizeof(mem_pkt), 8, 1, mem, l2slice_actor(l)));
    for (uint32_t i = 0; i < 3; i++) {
        mem_pkt m = {.addr = 0x1000 + 128 * i, .id = i, .op = MEM_STORE, .bytes = 32, .sectors = 0x1,
                     .partial = i < 2 ? 0x1 : 0};
        cr_assert(des_port_try_send(in, &m, 0));
    }
    des_run(e);
    cr_assert_eq(k.n, 3);
    for (unsigned i = 0; i < 3; i++)
        ack[i] = k.at[i];
}

Test(l2_partial, one_cycle_each_by_default)
{
    /* Accepted at 1, 2, 3: acks delivered at 32, 33, 34. */
    des_time ack[3];
    three_stores(1, ack);
    cr_expect_eq(ack[0], 32);
    cr_expect_eq(ack[1], 33);
    cr_expect_eq(ack[2], 34);
}

Test(l2_partial, a_partial_write_holds_the_port)
{
    /* Two cycles per partial store: accepted at 1, 3 and 5 (the whole
     * store waits for the second partial one): acks at 32, 34, 36. */
    des_time ack[3];
    three_stores(2, ack);
    cr_expect_eq(ack[0], 32);
    cr_expect_eq(ack[1], 34);
    cr_expect_eq(ack[2], 36);
}
