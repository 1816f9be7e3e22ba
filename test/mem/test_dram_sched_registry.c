/* A DRAM request scheduler registered from outside the simulator: a toy
 * "lifo" policy (each bank offers its youngest waiting request), defined in
 * this file, registered with policy_register and selected by name through
 * the parameter (dram.sched = lifo), as docs/architecture.md describes for
 * the warp schedulers. Hand-worked with the simple timing of
 * test_dram_util.h (row hit H = 100, conflict or closed C = 300, 4 bus
 * cycles per 128 B): A (row 1), B (row 2), C (row 1) all arrive at cycle 0
 * at bank 0. LIFO starts C first (bank closed: done 300), then B (another
 * row: it waits for the bank to be idle at 300, done 600), then A (row 2
 * open: conflict from 600, done 900). */
#include "test_dram_util.h"
#include "mem/memctrl_internal.h"

static uint32_t lifo_bank_offer(const memctrl *mc, const mc_bank *b, uint64_t *floor)
{
    (void)mc, (void)floor;
    return b->tail;
}

static const dram_sched_ops lifo_ops = {.name = "lifo", .bank_offer = lifo_bank_offer};
static const policy lifo_row = {"lifo", "each bank's youngest request first", &lifo_ops};

Test(dram_sched_registry, toy_policy_registered_and_run_by_name)
{
    GError *err = NULL;
    cr_assert(policy_register("dram.sched", &lifo_row, &err), "%s", err ? err->message : "");
    config *c = config_new();
    cr_assert(config_set(c, "dram.sched", "lifo", "m.ini:2", &err), "%s", err ? err->message : "");
    dram_params from_cfg;
    cr_assert(dram_params_from_config(&from_cfg, c, &err), "%s", err ? err->message : "");
    cr_assert_eq(from_cfg.sched, &lifo_row);
    config_free(c);

    dram_params p;
    simple_params(&p);
    p.sched = from_cfg.sched;
    dram_rig r;
    rig_init(&r, &p);
    script_req s[] = {{.at = 0, .bank = 0, .row = 1, .bytes = 128},
                      {.at = 0, .bank = 0, .row = 2, .bytes = 128},
                      {.at = 0, .bank = 0, .row = 1, .col = 128, .bytes = 128}};
    uint64_t done[3];
    uint32_t order[3];
    cr_assert_eq(rig_play(&r, s, 3, done, order, DRIVE_EVENTS, 0), 3);
    cr_assert_eq(done[2], 300);
    cr_assert_eq(done[1], 600);
    cr_assert_eq(done[0], 900);
    cr_assert_eq(order[0], 2);
    cr_assert_eq(order[1], 1);
    cr_assert_eq(order[2], 0);
    rig_free(&r);
}

Test(dram_sched_registry, unknown_scheduler_named_with_the_choices)
{
    config *c = config_new();
    GError *err = NULL;
    cr_assert_not(config_set(c, "dram.sched", "fifo", "m.ini:4", &err));
    cr_assert(strstr(err->message, "m.ini:4"), "%s", err->message);
    cr_assert(strstr(err->message, "fcfs"), "%s", err->message);
    cr_assert(strstr(err->message, "frfcfs"), "%s", err->message);
    g_error_free(err);
    config_free(c);
}
