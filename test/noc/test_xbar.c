/* Crossbar timing, arbitration and back-pressure. Clock 1000 MHz: 1 cycle =
 * 1 tick. Sources send on ports of latency 1 cycle, so a packet sent at
 * cycle s reaches the crossbar at s + 1. Zero-load: granted on arrival,
 * transfer ceil(F / flits_per_cycle) cycles, then `latency` cycles. */
#include <criterion/criterion.h>

#include "gpu/gpu_ports.h"
#include "simtgrid/xbar.h"

static des_clock clk[1] = {{"icnt", 1000000, 0}};

typedef struct src {
    des_port *out;
    unsigned n, sent;
    uint16_t dst[64];
    uint16_t bytes;
    uint16_t id0;
} src;

static void src_main(des_actor *self, void *data)
{
    src *s = data;
    des_time now = des_now(des_actor_engine(self));
    while (s->sent < s->n) {
        mem_pkt m = {.addr = s->sent, .id = (uint32_t)(s->id0 + s->sent), .dst = s->dst[s->sent % 64],
                     .bytes = s->bytes};
        if (!des_port_try_send(s->out, &m, now))
            now = des_block(self);
        else
            s->sent++;
    }
}

typedef struct sink {
    des_port *in;
    des_time start;          /* do not pop before this time */
    unsigned n;
    des_time at[256];
    uint32_t id[256];
} sink;

static void sink_main(des_actor *self, void *data)
{
    sink *k = data;
    des_time now = des_now(des_actor_engine(self));
    for (;;) {
        mem_pkt *m;
        if (now >= k->start)
            while ((m = des_port_peek(k->in, now))) {
                if (k->n < 256) {
                    k->at[k->n] = now;
                    k->id[k->n] = m->id;
                }
                k->n++;
                des_port_pop(k->in, now);
            }
        else
            des_wake_at(self, k->start);
        now = des_block(self);
    }
}

static xbar_params params(unsigned ni, unsigned no, enum xbar_arbiter arb)
{
    return (xbar_params){.inputs = ni, .outputs = no, .flit_bytes = 32, .flits_per_cycle = 1,
                         .header_bytes = 8, .latency = 4, .input_buffer = 8, .output_buffer = 8,
                         .arbiter = arb, .iterations = 2, .seed = 1};
}

static des_engine *boot(void)
{
    char *err = NULL;
    des_engine *e = des_engine_new(clk, 1, false, &err);
    cr_assert_not_null(e);
    return e;
}

Test(xbar, flits_count_header_and_payload)
{
    xbar_params p = params(1, 1, XBAR_RR);
    mem_pkt rd = {.bytes = 0}, wr = {.bytes = 128}, part = {.bytes = 24};
    cr_assert_eq(xbar_flits(&p, &rd), 1);    /* 8 B header: 1 flit */
    cr_assert_eq(xbar_flits(&p, &wr), 5);    /* 136 B: ceil(136/32) = 5 */
    cr_assert_eq(xbar_flits(&p, &part), 1);  /* 32 B exactly */
}

Test(xbar, zero_load_latency)
{
    /* Read request (1 flit) sent at 0: arrives 1, granted 1, transfer ends
     * 2, delivered 2 + 4 = 6. */
    des_engine *e = boot();
    xbar_params p = params(1, 1, XBAR_RR);
    xbar *x = xbar_new(e, "x", &p, &clk[0], NULL);
    static src s = {.n = 1};
    static sink k;
    des_actor *sa = des_actor_new(e, "src", src_main, &s);
    des_actor *ka = des_actor_new(e, "sink", sink_main, &k);
    s.out = gpu_link_xbar_in(x, 0, sa, &p, &clk[0]);
    k.in = gpu_link_xbar_out(x, 0, ka, &p, &clk[0]);
    des_run(e);
    cr_assert_eq(k.n, 1);
    cr_assert_eq(k.at[0], 6);
}

Test(xbar, serialization_of_a_data_packet)
{
    /* Two packets from one input, both sent at 0 and delivered to the
     * crossbar at 1: a 1-flit read request (transfer 1..2, delivered 6),
     * then a 5-flit 128 B reply, which waits for the input until 2,
     * transfers 2..7 and is delivered at 7 + 4 = 11. */
    des_engine *e = boot();
    xbar_params p = params(1, 1, XBAR_RR);
    xbar *x = xbar_new(e, "x", &p, &clk[0], NULL);
    static src s = {.n = 0};
    static sink k;
    des_actor *sa = des_actor_new(e, "src", src_main, &s);
    des_actor *ka = des_actor_new(e, "sink", sink_main, &k);
    s.out = gpu_link_xbar_in(x, 0, sa, &p, &clk[0]);
    k.in = gpu_link_xbar_out(x, 0, ka, &p, &clk[0]);
    /* Send both at time 0 before the run: the ports accept sends then. */
    mem_pkt a = {.id = 1, .dst = 0, .bytes = 0}, b = {.id = 2, .dst = 0, .bytes = 128};
    cr_assert(des_port_try_send(s.out, &a, 0));
    cr_assert(des_port_try_send(s.out, &b, 0));
    des_run(e);
    cr_assert_eq(k.n, 2);
    cr_assert_eq(k.at[0], 6);
    cr_assert_eq(k.at[1], 11);
}

Test(xbar, data_path_width_times_payload_without_header)
{
    /* The same two packets with data_bytes_per_cycle = 32 (the H100's
     * request network): the read request (no payload) still holds 1 cycle
     * (transfer 1..2, delivered 6); the 128 B store holds ceil(128 / 32) = 4
     * cycles, not the 5 flits of 136 B: transfer 2..6, delivered 6 + 4 = 10.
     * Then a 24 B partial store: 1 cycle, 6..7, delivered 11. */
    des_engine *e = boot();
    xbar_params p = params(1, 1, XBAR_RR);
    p.data_bytes_per_cycle = 32;
    xbar *x = xbar_new(e, "x", &p, &clk[0], NULL);
    static src s = {.n = 0};
    static sink k;
    des_actor *sa = des_actor_new(e, "src", src_main, &s);
    des_actor *ka = des_actor_new(e, "sink", sink_main, &k);
    s.out = gpu_link_xbar_in(x, 0, sa, &p, &clk[0]);
    k.in = gpu_link_xbar_out(x, 0, ka, &p, &clk[0]);
    mem_pkt a = {.id = 1, .dst = 0, .bytes = 0}, b = {.id = 2, .dst = 0, .bytes = 128},
            c = {.id = 3, .dst = 0, .bytes = 24};
    cr_assert(des_port_try_send(s.out, &a, 0));
    cr_assert(des_port_try_send(s.out, &b, 0));
    cr_assert(des_port_try_send(s.out, &c, 0));
    des_run(e);
    cr_assert_eq(k.n, 3);
    cr_assert_eq(k.at[0], 6);
    cr_assert_eq(k.at[1], 10);
    cr_assert_eq(k.at[2], 11);
}

Test(xbar, round_robin_serves_contending_inputs_in_turn)
{
    /* Inputs 0 and 1 each send one 1-flit packet to output 0 at 0; both
     * arrive at 1. RR grants input 0 at 1 (delivered 6) then input 1 at 2
     * (delivered 7). */
    des_engine *e = boot();
    xbar_params p = params(2, 1, XBAR_RR);
    xbar *x = xbar_new(e, "x", &p, &clk[0], NULL);
    static src s0 = {.n = 1, .id0 = 10}, s1 = {.n = 1, .id0 = 20};
    static sink k;
    des_actor *a1 = des_actor_new(e, "s1", src_main, &s1);
    des_actor *a0 = des_actor_new(e, "s0", src_main, &s0);
    des_actor *ka = des_actor_new(e, "sink", sink_main, &k);
    s0.out = gpu_link_xbar_in(x, 0, a0, &p, &clk[0]);
    s1.out = gpu_link_xbar_in(x, 1, a1, &p, &clk[0]);
    k.in = gpu_link_xbar_out(x, 0, ka, &p, &clk[0]);
    des_run(e);
    cr_assert_eq(k.n, 2);
    cr_assert_eq(k.id[0], 10);
    cr_assert_eq(k.at[0], 6);
    cr_assert_eq(k.id[1], 20);
    cr_assert_eq(k.at[1], 7);
}

Test(xbar, islip_matches_both_outputs_in_one_cycle)
{
    /* 2x2. Input 0 has packets for outputs 0 then 1, input 1 for 0 then 1
     * (queued in VOQs). Iteration 1: both outputs grant input 0 (pointers at
     * 0); input 0 accepts output 0. Iteration 2: output 1 grants input 1,
     * accepted. So at cycle 1 two transfers start: out0 <- in0 (id 10),
     * out1 <- in1 (id 21), both delivered at 6. Pointers: out0 -> in1,
     * in0 -> out1. Cycle 2: out0 grants in1 (id 20), out1 grants in0 (id
     * 11): delivered at 7. */
    des_engine *e = boot();
    xbar_params p = params(2, 2, XBAR_ISLIP);
    xbar *x = xbar_new(e, "x", &p, &clk[0], NULL);
    static src s0 = {.n = 0}, s1 = {.n = 0};
    static sink k0, k1;
    des_actor *a0 = des_actor_new(e, "s0", src_main, &s0);
    des_actor *a1 = des_actor_new(e, "s1", src_main, &s1);
    des_actor *b0 = des_actor_new(e, "k0", sink_main, &k0);
    des_actor *b1 = des_actor_new(e, "k1", sink_main, &k1);
    des_port *i0 = gpu_link_xbar_in(x, 0, a0, &p, &clk[0]), *i1 = gpu_link_xbar_in(x, 1, a1, &p, &clk[0]);
    k0.in = gpu_link_xbar_out(x, 0, b0, &p, &clk[0]);
    k1.in = gpu_link_xbar_out(x, 1, b1, &p, &clk[0]);
    mem_pkt m;
    m = (mem_pkt){.id = 10, .dst = 0}; des_port_try_send(i0, &m, 0);
    m = (mem_pkt){.id = 11, .dst = 1}; des_port_try_send(i0, &m, 0);
    m = (mem_pkt){.id = 20, .dst = 0}; des_port_try_send(i1, &m, 0);
    m = (mem_pkt){.id = 21, .dst = 1}; des_port_try_send(i1, &m, 0);
    des_run(e);
    cr_assert_eq(k0.n, 2);
    cr_assert_eq(k1.n, 2);
    cr_assert_eq(k0.id[0], 10); cr_assert_eq(k0.at[0], 6);
    cr_assert_eq(k1.id[0], 21); cr_assert_eq(k1.at[0], 6);
    cr_assert_eq(k0.id[1], 20); cr_assert_eq(k0.at[1], 7);
    cr_assert_eq(k1.id[1], 11); cr_assert_eq(k1.at[1], 7);
}

Test(xbar, saturated_output_moves_one_flit_per_cycle)
{
    /* Four inputs stream 40 packets each of 4 flits (120 B payload + 8 B
     * header = 128 B = 4 flits of 32 B) to output 0.
     * The output is never idle after the first arrival at 1: packet k
     * finishes its transfer at 1 + 4(k+1) and is delivered 4 later:
     * at 4k + 9. 160 packets: the last at 4*159 + 9 = 645. */
    des_engine *e = boot();
    xbar_params p = params(4, 1, XBAR_ISLIP);
    p.output_buffer = 64;
    xbar *x = xbar_new(e, "x", &p, &clk[0], NULL);
    static src s[4];
    static sink k;
    des_actor *ka = des_actor_new(e, "sink", sink_main, &k);
    for (unsigned i = 0; i < 4; i++) {
        s[i] = (src){.n = 40, .bytes = 120, .id0 = (uint16_t)(1000 * i)};
        des_actor *a = des_actor_new(e, "src", src_main, &s[i]);
        s[i].out = gpu_link_xbar_in(x, i, a, &p, &clk[0]);
    }
    k.in = gpu_link_xbar_out(x, 0, ka, &p, &clk[0]);
    des_run(e);
    cr_assert_eq(k.n, 160);
    cr_assert_eq(k.at[0], 9);
    cr_assert_eq(k.at[1], 13);
    des_time last = 4 * 159 + 9;
    cr_assert_eq(k.n <= 256 ? k.at[159] : 0, last);
}

Test(xbar, back_pressure_loses_nothing)
{
    /* The sink only starts popping at 500: the output port (8) and the input
     * buffer and input port fill; the source blocks. Every packet still
     * arrives once the sink drains: 100 sent, 100 received, in order. */
    des_engine *e = boot();
    xbar_params p = params(1, 1, XBAR_RR);
    xbar *x = xbar_new(e, "x", &p, &clk[0], NULL);
    static src s = {.n = 100};
    static sink k = {.start = 500};
    des_actor *sa = des_actor_new(e, "src", src_main, &s);
    des_actor *ka = des_actor_new(e, "sink", sink_main, &k);
    s.out = gpu_link_xbar_in(x, 0, sa, &p, &clk[0]);
    k.in = gpu_link_xbar_out(x, 0, ka, &p, &clk[0]);
    des_run(e);
    cr_assert_eq(s.sent, 100);
    cr_assert_eq(k.n, 100);
    for (unsigned i = 0; i < 100; i++)
        cr_assert_eq(k.id[i], i);
    cr_assert_eq(k.at[0], 500);
}

Test(xbar, queueing_counts_from_delivery_even_behind_a_full_buffer)
{
    /* 1 input, 1 output, round-robin; input buffer 1 (so the input port
     * holds 1 too), output port 1; 4 read requests of 1 flit, sent as soon
     * as the input port takes them; the sink pops nothing before 100.
     *  p0: sent 0, at the crossbar 1, granted 1 (wait 0), into the output
     *      port at 2 (delivered 6): the port is full until the sink pops.
     *  p1: the input slot freed at 1 is visible at 2: sent 2, at 3, granted
     *      3 (wait 0), transfer ends 4; the output port is full: blocked.
     *  p2: sent 4, at 5, into the buffer, waits for the output.
     *  p3: sent 6, delivered at 7, but the buffer (1) is full: it waits in
     *      the input port.
     *  100: the sink pops p0; the output port takes p1 at 104 (credit after
     *      the 4-cycle latency), p2 is granted at 104 (wait 99); p3 enters
     *      the buffer at 105; the sink pops p1 at 108, so p2 leaves at 112
     *      and p3 is granted at 112: wait 112 - 7 = 105, counted from its
     *      delivery, not from the cycle it could enter the buffer.
     *  Sink: p0 at 100, p1 108, p2 116, p3 124.
     * Queue delays 0, 0, 99, 105: mean 51. The input buffer was full from
     * 5 to 104 and from 105 to 112: 106 cycles. */
    des_engine *e = boot();
    xbar_params p = params(1, 1, XBAR_RR);
    p.input_buffer = 1;
    p.output_buffer = 1;
    stats *st = stats_new();
    xbar *x = xbar_new(e, "x", &p, &clk[0], st);
    static src s = {.n = 4};
    static sink k = {.start = 100};
    des_actor *sa = des_actor_new(e, "src", src_main, &s);
    des_actor *ka = des_actor_new(e, "sink", sink_main, &k);
    s.out = gpu_link_xbar_in(x, 0, sa, &p, &clk[0]);
    k.in = gpu_link_xbar_out(x, 0, ka, &p, &clk[0]);
    des_time end = des_run(e);
    xbar_finish(x, end);
    cr_assert_eq(k.n, 4);
    static const des_time want[] = {100, 108, 116, 124};
    for (unsigned i = 0; i < 4; i++)
        cr_expect_eq(k.at[i], want[i], "packet %u at %llu", i, (unsigned long long)k.at[i]);
    double mean = 0;
    uint64_t full = 0;
    cr_assert(stats_get_derived(st, "x", "mean_queue_delay", &mean));
    cr_assert(stats_get_counter(st, "x", "input_full_cycles", &full));
    cr_expect_float_eq(mean, 51.0, 1e-9, "mean queue delay %g", mean);
    cr_expect_eq(full, 106);
    stats_free(st);
}

Test(xbar, pim_does_not_poll_while_a_packet_waits)
{
    /* Two inputs send one 4-flit packet each (120 B + 8 B header) to
     * output 0 at 0; both arrive at 1. PIM grants one (transfer 1..5,
     * delivered 5 + 4 = 9); the other waits for the output, transfers
     * 5..9 and is delivered at 13, whichever PIM picked first. The
     * crossbar runs (one event each) at 0 (set-up), 1 (arrivals, grant),
     * 5 (first transfer ends, second granted) and 9 (second ends): 4. It
     * used to poll 2, 3 and 4 as well (7); the draws of those cycles are
     * replayed without running them. */
    des_engine *e = boot();
    xbar_params p = params(2, 1, XBAR_PIM);
    xbar *x = xbar_new(e, "x", &p, &clk[0], NULL);
    static src s[2];
    static sink k;
    des_actor *ka = des_actor_new(e, "sink", sink_main, &k);
    for (unsigned i = 0; i < 2; i++) {
        s[i] = (src){.n = 1, .bytes = 120, .id0 = (uint16_t)(1000 * i)};
        des_actor *a = des_actor_new(e, "src", src_main, &s[i]);
        s[i].out = gpu_link_xbar_in(x, i, a, &p, &clk[0]);
    }
    k.in = gpu_link_xbar_out(x, 0, ka, &p, &clk[0]);
    des_run(e);
    cr_assert_eq(k.n, 2);
    cr_assert_eq(k.at[0], 9);
    cr_assert_eq(k.at[1], 13);
    cr_assert_eq(k.id[0] + k.id[1], 1000);
    cr_assert_eq(des_get_counters(e).events, 4);
}

Test(xbar, blocked_output_sends_at_its_credit_while_running_ahead)
{
    /* 2 inputs, 2 outputs, iSLIP, output ports of 1 packet. Input 0 sends
     * two 1-flit packets to output 0 at 0; sink 0 pops nothing before 20.
     *  a1: at the crossbar 1, transfer 1..2, into the output port at 2
     *      (delivered 6): the port is full until sink 0 pops.
     *  a2: transfer 2..3, then blocked on the full port.
     *  20: sink 0 pops a1; the slot is visible to the crossbar at
     *      20 + 4 (credits take the port's latency).
     *  b: sent to output 1 at 20, at the crossbar 21, transfer of 5 flits
     *      (128 B + 8 B header) 21..26, delivered 26 + 4 = 30.
     * Woken at 21 for b, the crossbar runs ahead (its senders are idle, so
     * nothing bounds it) and must stop at the credit's cycle, 24, between
     * b's start and end: a2 leaves at 24 and is delivered at 28, not with
     * b's end at 26 (delivered 30). */
    des_engine *e = boot();
    xbar_params p = params(2, 2, XBAR_ISLIP);
    p.output_buffer = 1;
    xbar *x = xbar_new(e, "x", &p, &clk[0], NULL);
    static src s0, s1;
    static sink k0 = {.start = 20}, k1;
    des_actor *a0 = des_actor_new(e, "s0", src_main, &s0);
    des_actor *a1 = des_actor_new(e, "s1", src_main, &s1);
    des_actor *b0 = des_actor_new(e, "k0", sink_main, &k0);
    des_actor *b1 = des_actor_new(e, "k1", sink_main, &k1);
    s0.out = gpu_link_xbar_in(x, 0, a0, &p, &clk[0]);
    s1.out = gpu_link_xbar_in(x, 1, a1, &p, &clk[0]);
    k0.in = gpu_link_xbar_out(x, 0, b0, &p, &clk[0]);
    k1.in = gpu_link_xbar_out(x, 1, b1, &p, &clk[0]);
    mem_pkt m = {.id = 1, .dst = 0};
    cr_assert(des_port_try_send(s0.out, &m, 0));
    m.id = 2;
    cr_assert(des_port_try_send(s0.out, &m, 0));
    m = (mem_pkt){.id = 3, .dst = 1, .bytes = 128};
    cr_assert(des_port_try_send(s1.out, &m, 20));
    des_run(e);
    cr_assert_eq(k0.n, 2);
    cr_expect_eq(k0.at[0], 20);
    cr_expect_eq(k0.at[1], 28, "a2 at %llu", (unsigned long long)k0.at[1]);
    cr_assert_eq(k1.n, 1);
    cr_expect_eq(k1.at[0], 30);
}

/* Ends the run (des_stop) at *data. */
static void stopper_main(des_actor *self, void *data)
{
    const des_time *at = data;
    des_engine *e = des_actor_engine(self);
    des_time now = des_now(e);
    while (now < *at) {
        des_wake_at(self, *at);
        now = des_block(self);
    }
    des_stop(e);
}

/* One input to one output under round-robin: n packets of `bytes` from
 * a source, a sink that pops at once, a block that ends the run at
 * stop_at. Runs it and finishes the crossbar; returns the end. */
static des_time run_until_stop(xbar_params p, unsigned n, uint16_t bytes, des_time stop_at, stats *st)
{
    des_engine *e = boot();
    xbar *x = xbar_new(e, "x", &p, &clk[0], st);
    static src s;
    static sink k;
    static des_time at;
    s = (src){.n = n, .bytes = bytes};
    at = stop_at;
    des_actor *sa = des_actor_new(e, "src", src_main, &s);
    des_actor *ka = des_actor_new(e, "sink", sink_main, &k);
    des_actor *da = des_actor_new(e, "stop", stopper_main, &at);
    des_actor_may_end_run(da);
    s.out = gpu_link_xbar_in(x, 0, sa, &p, &clk[0]);
    k.in = gpu_link_xbar_out(x, 0, ka, &p, &clk[0]);
    des_time end = des_run(e);
    xbar_finish(x, end);
    return end;
}

Test(xbar, statistics_stop_at_the_end_of_the_run_however_far_it_ran_ahead)
{
    /* 1 input, 1 output, round-robin; three 128 B packets (5 flits with
     * the 8 B header) sent at 0, at the crossbar at 1: transfers 1..6,
     * 6..11 and 11..16, sent into the output port at 6, 11 and 16. A
     * block that may end the run stops it at 8. Its sender idle, nothing
     * bounds the crossbar but the end, which it does not wait for: woken
     * at 1 it runs all three transfers. Its statistics as of the end, as
     * if it had stepped: packets 1 (sent at 6), flits and busy cycles 10
     * (the transfers started at 1 and 6), queue delays 0 and 5 (the
     * second waited from 1 to 6): mean 2.5. */
    stats *st = stats_new();
    cr_assert_eq(run_until_stop(params(1, 1, XBAR_RR), 3, 128, 8, st), 8);
    uint64_t packets = 0, flits = 0, busy = 0;
    double mean = 0;
    cr_assert(stats_get_counter(st, "x", "packets", &packets));
    cr_assert(stats_get_counter(st, "x", "flits", &flits));
    cr_assert(stats_get_counter(st, "x", "busy_cycles", &busy));
    cr_assert(stats_get_derived(st, "x", "mean_queue_delay", &mean));
    cr_expect_eq(packets, 1);
    cr_expect_eq(flits, 10);
    cr_expect_eq(busy, 10);
    cr_expect_float_eq(mean, 2.5, 1e-9, "mean queue delay %g", mean);
    stats_free(st);
}

Test(xbar, a_full_input_counts_its_cycles_up_to_the_end_of_the_run)
{
    /* 1 input, 1 output, round-robin, input buffer 1 (its port holds 1):
     * two 128 B packets (5 flits). p1 sent at 0, at the crossbar 1,
     * granted at once (transfer 1..6), its slot visible to the sender at
     * 2; p2 sent at 2, at 3, into the buffer (full from 3), granted at 6
     * when the output frees. The run ends at 5. Woken at 3, its sender
     * done, the crossbar runs ahead to 6 and past: as of the end, the input
     * was full from 3: 2 cycles (not the 3 to its grant at 6); packets 0
     * (p1 leaves at 6), flits 5 (p1's transfer started at 1). */
    xbar_params p = params(1, 1, XBAR_RR);
    p.input_buffer = 1;
    stats *st = stats_new();
    cr_assert_eq(run_until_stop(p, 2, 128, 5, st), 5);
    uint64_t full = 0, packets = 0, flits = 0;
    cr_assert(stats_get_counter(st, "x", "input_full_cycles", &full));
    cr_assert(stats_get_counter(st, "x", "packets", &packets));
    cr_assert(stats_get_counter(st, "x", "flits", &flits));
    cr_expect_eq(full, 2);
    cr_expect_eq(packets, 0);
    cr_expect_eq(flits, 5);
    stats_free(st);
}
