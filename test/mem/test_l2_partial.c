/* An L2 slice takes one request per L2 cycle; a store that writes part of
 * a 32-B segment holds its request port l2.partial_write_cycles cycles
 * (the sector's old bytes read and merged first). Clock 1000 MHz (1 cycle
 * = 1 tick), ports of latency 1, L2 hit latency 30: a store accepted at
 * cycle c is acknowledged at c + 30 and its ack delivered at c + 31. */
#include "l2slice_bench.h"

/* Three 32 B stores to three lines sent at 0 (arriving at 1): two that
 * write half of segment 0, then a whole one. */
static void three_stores(unsigned partial_cycles, des_time ack[3])
{
    static l2_bench b;
    l2_bench_init(&b, 30, false);
    l2slice_set_partial_write_cycles(b.l, partial_cycles);
    for (uint32_t i = 0; i < 3; i++) {
        mem_pkt m = {.addr = 0x1000 + 128 * i, .id = i, .op = MEM_STORE, .bytes = 32, .sectors = 0x1,
                     .partial = i < 2 ? 0x1 : 0};
        cr_assert(des_port_try_send(b.in, &m, 0));
    }
    des_run(b.e);
    cr_assert_eq(b.k.n, 3);
    for (unsigned i = 0; i < 3; i++)
        ack[i] = b.k.at[i];
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
