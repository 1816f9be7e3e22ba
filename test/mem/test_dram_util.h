/* Helpers for the DRAM / memory-controller tests: small hand-checkable
 * parameter sets, addresses built from (bank, row, col), and a scripted
 * driver that plays the actor wrapper's part. */
#ifndef SIMTGRID_TEST_DRAM_UTIL_H
#define SIMTGRID_TEST_DRAM_UTIL_H

#include <criterion/criterion.h>
#include <string.h>

#include "mem/addrmap.h"
#include "mem/memctrl.h"

/* One channel, 8 banks, no bank groups, 4 KB rows, 32 B/cycle: the LWM /
 * database papers' simple model (Narasiman's dissertation, Tables 5.1, 8.1):
 * H = 100, C = 300, hold 200; a 128 B request holds the bus 4 cycles. */
static inline void simple_params(dram_params *p)
{
    dram_params_default(p);
    p->channels = 1;
    p->banks = 8;
    p->bank_groups = 1;
    p->row_bytes = 4096;
    p->bus_bytes = 32;
    p->timing = mem_policy("dram.timing", "simple");
    p->row_hit_latency = 100;
    p->row_conflict_latency = 300;
    p->hint_hold_cycles = 200;
    p->sched = mem_policy("dram.sched", "frfcfs");
    p->queue_size = 32;
    p->page_policy = DRAM_PAGE_OPEN;
    p->refresh = false;
}

/* Full timing with distinct, hand-friendly numbers (DDR: a burst of BL = 4
 * holds the bus BL/2 = 2 cycles and carries 32 * 2 = 64 B):
 * tRCD 12, tRP 10, tRAS 28, tRC 40, tCL 12, tWL 4, tCCD 2, tRRD 6, tWTR 5,
 * tRTW 12, tWR 12. */
static inline void full_params(dram_params *p)
{
    simple_params(p);
    p->timing = mem_policy("dram.timing", "full");
    p->tRCD = 12;
    p->tRP = 10;
    p->tRAS = 28;
    p->tRC = 40;
    p->tCL = 12;
    p->tWL = 4;
    p->tCCD = 2;
    p->tCCDL = 3;
    p->tRRD = 6;
    p->tWTR = 5;
    p->tRTW = 12;
    p->tWR = 12;
    p->burst_length = 4;
    p->data_rate = 2;
}

typedef struct dram_rig {
    dram_params p;
    addrmap map;
    memctrl *mc;
} dram_rig;

static inline void rig_init(dram_rig *r, const dram_params *p)
{
    r->p = *p;
    char err[256];
    cr_assert(addrmap_init(&r->map, &r->p, err, sizeof err), "%s", err);
    r->mc = memctrl_new(&r->p, &r->map, 0);
    cr_assert_not_null(r->mc);
}

static inline void rig_free(dram_rig *r)
{
    memctrl_free(r->mc);
}

static inline uint64_t rig_addr(const dram_rig *r, uint32_t bank, uint64_t row, uint32_t col)
{
    dram_addr a = {.channel = 0, .bank = bank, .group = bank % r->p.bank_groups, .col = col,
                   .row = row};
    return addrmap_encode(&r->map, &a);
}

/* A scripted request: arrives at `at`; `id` indexes the result arrays. */
typedef struct script_req {
    uint64_t at;
    uint32_t bank;
    uint64_t row;
    uint32_t col;
    uint32_t bytes;
    bool write, hint;
} script_req;

#define SCRIPT_MAX 4096

/* Enqueue the script's requests due by `now` while there is room. */
static inline unsigned rig_enqueue(dram_rig *r, const script_req *s, unsigned n, unsigned next,
                                   uint64_t now)
{
    while (next < n && s[next].at <= now && memctrl_can_accept(r->mc)) {
        memctrl_req q = {.addr = rig_addr(r, s[next].bank, s[next].row, s[next].col),
                         .id = next, .bytes = s[next].bytes, .write = s[next].write,
                         .hint = s[next].hint};
        cr_assert(memctrl_enqueue(r->mc, &q, now));
        next++;
    }
    return next;
}

/* How the driver wakes: at every event (arrivals and next_event), every
 * cycle, or `late` cycles after each next_event (arrivals still on time). */
enum drive_mode { DRIVE_EVENTS, DRIVE_EVERY_CYCLE, DRIVE_LATE };

/* Plays the script (sorted by `at`); done[i] gets request i's completion
 * cycle and order[k] the id of the k-th completion returned. Returns the
 * number of completions. */
static inline unsigned rig_play(dram_rig *r, const script_req *s, unsigned n, uint64_t *done,
                                uint32_t *order, enum drive_mode mode, uint64_t late)
{
    unsigned next = 0, got = 0;
    uint64_t now = 0;
    memctrl_done out[8];
    for (unsigned guard = 0; guard < 10000000; guard++) {
        memctrl_sync(r->mc, now);
        next = rig_enqueue(r, s, n, next, now);
        size_t k;
        while ((k = memctrl_advance(r->mc, now, out, 8)) > 0) {
            for (size_t j = 0; j < k; j++) {
                cr_assert_leq(out[j].done, now);
                if (done)
                    done[out[j].id] = out[j].done;
                if (order)
                    order[got] = out[j].id;
                got++;
            }
        }
        /* room freed by advance: these take part from now + 1 */
        next = rig_enqueue(r, s, n, next, now);
        if (next >= n && memctrl_pending(r->mc) == 0)
            return got;
        uint64_t ev = memctrl_next_event(r->mc);
        uint64_t wake = ev;
        if (mode == DRIVE_EVERY_CYCLE)
            wake = now + 1;
        else if (mode == DRIVE_LATE && ev != MEMCTRL_NEVER)
            wake = ev + late;
        if (next < n && memctrl_can_accept(r->mc) && s[next].at < wake)
            wake = s[next].at;
        if (next < n && !memctrl_can_accept(r->mc) && wake == MEMCTRL_NEVER)
            cr_assert_fail("queue full but nothing to do");
        cr_assert_neq(wake, MEMCTRL_NEVER, "stuck with %u requests left", n - next);
        now = wake > now ? wake : now + 1;
    }
    cr_assert_fail("driver did not finish");
    return got;
}

#endif
