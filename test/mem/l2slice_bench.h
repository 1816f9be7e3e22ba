/* A lone L2 slice for tests: one clock of 1 tick per cycle (1000 MHz),
 * ports of latency 1, requests sent into `in` at tick 0, replies recorded
 * by id at the sink, a DRAM side that never answers (so the lines a test
 * uses must be put in the slice first, e.g. by whole-line stores under
 * write-back). */
#ifndef TEST_MEM_L2SLICE_BENCH_H
#define TEST_MEM_L2SLICE_BENCH_H

#include <criterion/criterion.h>

#include "mem/l2slice.h"
#include "simtgrid/memport.h"

typedef struct l2_sink { des_port *in; unsigned n; des_time at[8]; } l2_sink;

static void l2_sink_main(des_actor *self, void *data)
{
    l2_sink *k = data;
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

static void l2_idle_main(des_actor *self, void *data)
{
    (void)data;
    des_block(self);
}

typedef struct l2_bench {
    des_engine *e;
    l2slice *l;
    des_port *in;
    l2_sink k;
} l2_bench;

/* A slice with L2 hit latency `hit_latency`, 32-B sectors, atomic latency
 * 4, the default write policy or, with `write_back`, write-back; its
 * statistics in `st` (may be NULL). */
static void l2_bench_init_stats(l2_bench *b, unsigned hit_latency, bool write_back, stats *st)
{
    static des_clock clk[1] = {{"all", 1000000, 0}};
    static cache_params l2;
    char *err = NULL;
    b->e = des_engine_new(clk, 1, false, &err);
    cache_params_default(&l2, "l2");
    l2.hit_latency = hit_latency;
    l2.sector_bytes = 32;
    if (write_back)
        l2.write = CACHE_WRITE_BACK;
    b->k.n = 0;
    des_actor *src = des_actor_new(b->e, "xbar", l2_idle_main, NULL);
    des_actor *ka = des_actor_new(b->e, "sink", l2_sink_main, &b->k);
    des_actor *mem = des_actor_new(b->e, "dram", l2_idle_main, NULL);
    b->l = l2slice_new(b->e, "l2s0", 0, &l2, 4, &clk[0], st);
    b->in = des_port_new(b->e, "req", sizeof(mem_pkt), 8, 1, src, l2slice_actor(b->l));
    b->k.in = des_port_new(b->e, "rep", sizeof(mem_pkt), 8, 1, l2slice_actor(b->l), ka);
    l2slice_connect_xbar(b->l, b->in, b->k.in);
    l2slice_connect_dram(b->l, des_port_new(b->e, "down", sizeof(mem_pkt), 8, 1, l2slice_actor(b->l), mem),
                         des_port_new(b->e, "up", sizeof(mem_pkt), 8, 1, mem, l2slice_actor(b->l)));
}

static inline void l2_bench_init(l2_bench *b, unsigned hit_latency, bool write_back)
{
    l2_bench_init_stats(b, hit_latency, write_back, NULL);
}

#endif
