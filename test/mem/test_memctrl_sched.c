/* Scheduling: FCFS versus FR-FCFS on a scripted stream, and the bounded
 * queue. The stream is A (row 1), B (row 2), C (row 1) to one bank, all
 * arriving at cycle 0: FR-FCFS serves A, then the row hit C, then B; FCFS
 * serves them in arrival order. */
#include "test_dram_util.h"

static const script_req abc[] = {{.at = 0, .bank = 0, .row = 1, .bytes = 128},
                                 {.at = 0, .bank = 0, .row = 2, .bytes = 128},
                                 {.at = 0, .bank = 0, .row = 1, .col = 128, .bytes = 128}};

static void play_abc(const dram_params *p, uint64_t *done, uint32_t *order, memctrl_stats *st)
{
    dram_rig r;
    rig_init(&r, p);
    cr_assert_eq(rig_play(&r, abc, 3, done, order, DRIVE_EVENTS, 0), 3);
    *st = *memctrl_get_stats(r.mc);
    rig_free(&r);
}

Test(memctrl_sched, frfcfs_serves_row_hit_first_simple)
{
    dram_params p;
    simple_params(&p);
    uint64_t done[3];
    uint32_t order[3];
    memctrl_stats st;
    play_abc(&p, done, order, &st);
    /* A closed: 300. C hits row 1 at 0 + 200 + 4 = 204: max(304, 300 + 4) =
     * 304. B conflicts and waits for the bank to be idle (304): 604. */
    cr_assert_eq(done[0], 300);
    cr_assert_eq(done[2], 304);
    cr_assert_eq(done[1], 604);
    cr_assert_eq(order[0], 0);
    cr_assert_eq(order[1], 2);
    cr_assert_eq(order[2], 1);
    cr_assert_eq(st.row_hits, 1);
    cr_assert_eq(st.row_misses, 1);
    cr_assert_eq(st.row_conflicts, 1);
}

Test(memctrl_sched, fcfs_serves_in_arrival_order_simple)
{
    dram_params p;
    simple_params(&p);
    p.sched = mem_policy("dram.sched", "fcfs");
    uint64_t done[3];
    uint32_t order[3];
    memctrl_stats st;
    play_abc(&p, done, order, &st);
    /* A 300; B conflict from 300: 600; C conflict (row 2 open) from 600: 900 */
    cr_assert_eq(done[0], 300);
    cr_assert_eq(done[1], 600);
    cr_assert_eq(done[2], 900);
    cr_assert_eq(order[0], 0);
    cr_assert_eq(order[1], 1);
    cr_assert_eq(order[2], 2);
    cr_assert_eq(st.row_hits, 0);
    cr_assert_eq(st.row_conflicts, 2);
}

Test(memctrl_sched, frfcfs_serves_row_hit_first_full)
{
    dram_params p;
    full_params(&p);
    uint64_t done[3];
    uint32_t order[3];
    memctrl_stats st;
    /* 128 B = 2 bursts. A: ACT 0, RD 12, 14 -> done 28. C hits: RD 16, 18 ->
     * done 32. B: PRE at max(tRAS 28, 18 + 2) = 28, ACT at max(38, tRC 40) =
     * 40, RD 52, 54 -> done 54 + 14 = 68. */
    play_abc(&p, done, order, &st);
    cr_assert_eq(done[0], 28);
    cr_assert_eq(done[2], 32);
    cr_assert_eq(done[1], 68);
    cr_assert_eq(order[1], 2);
    cr_assert_eq(order[2], 1);
}

Test(memctrl_sched, fcfs_serves_in_arrival_order_full)
{
    dram_params p;
    full_params(&p);
    p.sched = mem_policy("dram.sched", "fcfs");
    uint64_t done[3];
    uint32_t order[3];
    memctrl_stats st;
    /* A done 28 (as above). B: PRE 28, ACT 40, RD 52, 54 -> 68. C (row 1):
     * PRE at max(40 + tRAS = 68, 54 + 2) = 68, ACT at max(78, 40 + tRC = 80)
     * = 80, RD 92, 94 -> 108. */
    play_abc(&p, done, order, &st);
    cr_assert_eq(done[0], 28);
    cr_assert_eq(done[1], 68);
    cr_assert_eq(done[2], 108);
    cr_assert_eq(order[1], 1);
    cr_assert_eq(order[2], 2);
}

Test(memctrl_sched, fcfs_head_of_line_blocks_other_banks)
{
    dram_params p;
    simple_params(&p);
    p.sched = mem_policy("dram.sched", "fcfs");
    dram_rig r;
    rig_init(&r, &p);
    /* A (bank 0, row 1) 300; B (bank 0, row 2) must wait for bank 0 (start
     * 300, done 600); C (bank 1) is behind B, so it starts with B at 300:
     * max(600, 600 + 4) = 604. Under FR-FCFS C would start at 0 (304). */
    script_req s[] = {{.at = 0, .bank = 0, .row = 1, .bytes = 128},
                      {.at = 0, .bank = 0, .row = 2, .bytes = 128},
                      {.at = 0, .bank = 1, .row = 1, .bytes = 128}};
    uint64_t done[3];
    rig_play(&r, s, 3, done, NULL, DRIVE_EVENTS, 0);
    cr_assert_eq(done[1], 600);
    cr_assert_eq(done[2], 604);
    rig_free(&r);
    p.sched = mem_policy("dram.sched", "frfcfs");
    rig_init(&r, &p);
    rig_play(&r, s, 3, done, NULL, DRIVE_EVENTS, 0);
    cr_assert_eq(done[2], 304);
    rig_free(&r);
}

Test(memctrl_sched, queue_full_refuses)
{
    dram_params p;
    simple_params(&p);
    p.queue_size = 2;
    dram_rig r;
    rig_init(&r, &p);
    memctrl_req q = {.addr = rig_addr(&r, 0, 1, 0), .bytes = 128};
    cr_assert(memctrl_can_accept(r.mc));
    cr_assert(memctrl_enqueue(r.mc, &q, 0));
    q.id = 1;
    q.addr = rig_addr(&r, 0, 2, 0);
    cr_assert(memctrl_enqueue(r.mc, &q, 0));
    /* two waiting: the third is refused and counted */
    cr_assert_not(memctrl_can_accept(r.mc));
    q.id = 2;
    cr_assert_not(memctrl_enqueue(r.mc, &q, 0));
    cr_assert_eq(memctrl_get_stats(r.mc)->refused, 1);
    cr_assert_eq(memctrl_queued(r.mc), 2);
    /* Cycle 0 starts A on its bank: one slot frees. */
    memctrl_done out[4];
    cr_assert_eq(memctrl_advance(r.mc, 0, out, 4), 0);
    cr_assert_eq(memctrl_queued(r.mc), 1);
    cr_assert(memctrl_can_accept(r.mc));
    cr_assert(memctrl_enqueue(r.mc, &q, 0));
    cr_assert_eq(memctrl_pending(r.mc), 3);
    rig_free(&r);
}

Test(memctrl_sched, next_event_and_completion_cycles)
{
    dram_params p;
    full_params(&p);
    dram_rig r;
    rig_init(&r, &p);
    memctrl_req q = {.addr = rig_addr(&r, 0, 1, 0), .id = 42, .bytes = 64};
    cr_assert_eq(memctrl_next_event(r.mc), MEMCTRL_NEVER);
    cr_assert(memctrl_enqueue(r.mc, &q, 5));
    /* ACT can go at 5; no data can be done before 5 + min(tCL, tWL) + BL/2
     * = 5 + 4 + 2 = 11 (a write could follow), so the wrapper need not
     * wake before then. */
    cr_assert_eq(memctrl_next_event(r.mc), 11);
    memctrl_done out[2];
    cr_assert_eq(memctrl_advance(r.mc, 11, out, 2), 0);
    /* ACT 5 issued; the RD waits for 5 + tRCD = 17: next event 17 + 6 = 23 */
    cr_assert_eq(memctrl_next_event(r.mc), 23);
    cr_assert_eq(memctrl_advance(r.mc, 23, out, 2), 0);
    /* RD 17 issued: its data is done at 17 + 14 = 31, the next event */
    cr_assert_eq(memctrl_next_event(r.mc), 31);
    cr_assert_eq(memctrl_next_done(r.mc), 31);
    /* Called late, at 100: the completion still says 31. */
    cr_assert_eq(memctrl_advance(r.mc, 100, out, 2), 1);
    cr_assert_eq(out[0].done, 31);
    cr_assert_eq(out[0].id, 42);
    cr_assert_eq(out[0].arrival, 5);
    cr_assert_not(out[0].write);
    cr_assert_eq(memctrl_next_event(r.mc), MEMCTRL_NEVER);
    cr_assert_eq(memctrl_next_done(r.mc), MEMCTRL_NEVER);
    cr_assert_eq(memctrl_pending(r.mc), 0);
    rig_free(&r);
}

Test(memctrl_sched, full_queue_wakes_at_next_command)
{
    dram_params p;
    full_params(&p);
    p.queue_size = 1;
    dram_rig r;
    rig_init(&r, &p);
    memctrl_req q = {.addr = rig_addr(&r, 0, 1, 0), .bytes = 64};
    cr_assert(memctrl_enqueue(r.mc, &q, 5));
    /* The queue is full: the ACT at 5 starts the request and frees the
     * slot, so the wrapper must wake at 5, not at the first possible data (11).
     * No data is done before 11 all the same (memctrl_next_done: what the
     * DRAM channel promises its L2 slice), and a request enqueued at c
     * none before c + min(tCL, tWL) + BL/2 = c + 6. */
    cr_assert_eq(memctrl_next_event(r.mc), 5);
    cr_assert_eq(memctrl_next_done(r.mc), 11);
    cr_assert_eq(memctrl_min_latency(r.mc), 6);
    memctrl_done out[1];
    cr_assert_eq(memctrl_advance(r.mc, 5, out, 1), 0);
    cr_assert(memctrl_can_accept(r.mc));
    rig_free(&r);
}

Test(memctrl_sched, advance_returns_at_most_max)
{
    dram_params p;
    full_params(&p);
    dram_rig r;
    rig_init(&r, &p);
    for (uint32_t i = 0; i < 3; i++) {
        memctrl_req q = {.addr = rig_addr(&r, i, 1, 0), .id = i, .bytes = 64};
        cr_assert(memctrl_enqueue(r.mc, &q, 0));
    }
    memctrl_done out[2];
    /* By 1000 all three are done; two come back, the third waits and
     * next_event says so (its done cycle is in the past). */
    cr_assert_eq(memctrl_advance(r.mc, 1000, out, 2), 2);
    cr_assert_lt(out[0].done, out[1].done);
    cr_assert_leq(memctrl_next_event(r.mc), 1000);
    cr_assert_eq(memctrl_advance(r.mc, 1000, out, 2), 1);
    cr_assert_eq(memctrl_pending(r.mc), 0);
    rig_free(&r);
}

Test(memctrl_sched, enqueue_after_advance_counts_from_next_cycle)
{
    dram_params p;
    full_params(&p);
    dram_rig r;
    rig_init(&r, &p);
    memctrl_done out[1];
    /* Cycle 10 already decided (advance(10)), then a request "at 10": it
     * takes part from cycle 11: ACT 11, RD 23, done 37. */
    cr_assert_eq(memctrl_advance(r.mc, 10, out, 1), 0);
    memctrl_req q = {.addr = rig_addr(&r, 0, 1, 0), .bytes = 64};
    cr_assert(memctrl_enqueue(r.mc, &q, 10));
    cr_assert_eq(memctrl_advance(r.mc, 200, out, 1), 1);
    cr_assert_eq(out[0].done, 37);
    cr_assert_eq(out[0].arrival, 10);
    rig_free(&r);
}

Test(memctrl_sched, bad_parameters_give_no_controller)
{
    dram_params p;
    simple_params(&p);
    addrmap m;
    cr_assert(addrmap_init(&m, &p, NULL, 0));
    dram_params bad = p;
    bad.banks = 6;
    cr_assert_null(memctrl_new(&bad, &m, 0));
    /* a map built for other parameters */
    bad = p;
    bad.banks = 16;
    cr_assert_null(memctrl_new(&bad, &m, 0));
    cr_assert_null(memctrl_new(&p, NULL, 0));
    memctrl_free(NULL);
}

Test(memctrl_sched, uncollected_completions_are_kept_in_order)
{
    dram_params p;
    full_params(&p);
    p.queue_size = 1;
    dram_rig r;
    rig_init(&r, &p);
    /* 60 requests, one every 100 cycles to row 1 of bank 0, and no advance
     * in between: each enqueue runs the controller, so completions pile up
     * (past the initial heap room of queue_size + banks + 16 = 25). The
     * first is a miss (ACT at 0, done 26), the others hits: RD at 100 i,
     * done 100 i + 14. */
    for (uint32_t i = 0; i < 60; i++) {
        memctrl_req q = {.addr = rig_addr(&r, 0, 1, 64 * (i % 64)), .id = i, .bytes = 64};
        cr_assert(memctrl_enqueue(r.mc, &q, 100 * i));
    }
    cr_assert_eq(memctrl_pending(r.mc), 60);
    memctrl_done out[64];
    cr_assert_eq(memctrl_advance(r.mc, 10000, out, 64), 60);
    cr_assert_eq(out[0].done, 26);
    for (uint32_t i = 1; i < 60; i++) {
        cr_assert_eq(out[i].id, i);
        cr_assert_eq(out[i].done, 100 * i + 14);
    }
    rig_free(&r);
}
