/* Statistics of one channel's controller: registration and derived values. */
#include <glib.h>
#include <math.h>

#include "mem/memctrl_internal.h"

void memctrl_register_stats(memctrl *mc, stats *st, const char *block)
{
    memctrl_stats *s = &mc->st;
    const struct {
        const char *name, *unit, *desc;
        const uint64_t *value;
    } counters[] = {
        {"reads", "requests", "read requests served", &s->reads},
        {"writes", "requests", "write requests served", &s->writes},
        {"bytes_read", "bytes", "bytes read", &s->bytes_read},
        {"bytes_written", "bytes", "bytes written", &s->bytes_written},
        {"row_hits", "requests", "requests that found their row open", &s->row_hits},
        {"row_misses", "requests", "requests that found their bank closed (ACT only)", &s->row_misses},
        {"row_conflicts", "requests", "requests that found another row open (PRE and ACT)",
         &s->row_conflicts},
        {"activations", "commands", "row activations (ACT)", &s->activations},
        {"precharges", "commands", "precharges (PRE, auto-precharge, before refresh)", &s->precharges},
        {"refreshes", "commands", "refresh commands (all-bank, or one bank's with dram.refresh_per_bank)", &s->refreshes},
        {"column_commands", "commands", "RD/WR bursts (full timing) or requests (simple timing)",
         &s->column_commands},
        {"bus_busy_cycles", "dram cycles", "cycles the data bus carried data", &s->bus_busy_cycles},
        {"refused", "requests", "requests refused because the queue was full", &s->refused},
        {"hint_holds", "holds", "row holds armed by hinted requests", &s->hint_holds},
        {"hint_hold_hits", "holds", "holds ended by a same-row request within the window",
         &s->hint_hold_hits},
        {"hint_hold_expired", "holds", "holds that ended without their same-row request",
         &s->hint_hold_expired},
        {"cap_served", "requests",
         "oldest requests a bank served because dram.frfcfs_cap younger row hits had passed them",
         &s->cap_served},
    };
    for (size_t i = 0; i < sizeof counters / sizeof counters[0]; i++)
        stats_counter(st, block, counters[i].name, counters[i].unit, counters[i].desc,
                      counters[i].value);
    stats_histogram(st, block, "queue_delay", "dram cycles",
                    "arrival to first command of each request", &s->queue_delay);
    stats_histogram(st, block, "hint_hold_wait", "dram cycles",
                    "row-hint hold: from the hinted request's data to the awaited row hit's "
                    "first command (holds ended by their hit)", &s->hold_wait);

    stats_histogram(st, block, "latency", "dram cycles",
                    "arrival to last data beat of each request", &s->latency);
    stats_histogram(st, block, "bypasses", "requests",
                    "younger requests (row hits) that started on the bank while each request "
                    "waited as its bank's oldest", &s->bypasses);
}

void memctrl_finish(memctrl *mc, stats *st, const char *block, uint64_t elapsed)
{
    const memctrl_stats *s = &mc->st;
    uint64_t started = s->row_hits + s->row_misses + s->row_conflicts;
    stats_derived(st, block, "row_hit_rate", "", "row hits / requests started",
                  started ? (double)s->row_hits / (double)started : NAN);
    /* The spread over banks: a hint hold or a skewed address map shows here
     * when the channel's mean hides it. Banks that started nothing are left out. */
    double lo = NAN, hi = NAN;
    for (unsigned k = 0; k < mc->p.banks; k++) {
        const mc_bank *b = &mc->banks[k];
        if (!b->started)
            continue;
        double r = (double)b->row_hits / (double)b->started;
        lo = isnan(lo) || r < lo ? r : lo;
        hi = isnan(hi) || r > hi ? r : hi;
    }
    stats_derived(st, block, "row_hit_rate_bank_min", "", "lowest row-buffer hit rate of a bank",
                  lo);
    stats_derived(st, block, "row_hit_rate_bank_max", "", "highest row-buffer hit rate of a bank",
                  hi);
    stats_derived(st, block, "bus_utilisation", "", "data-bus busy cycles / elapsed cycles",
                  elapsed ? (double)s->bus_busy_cycles / (double)elapsed : NAN);
    stats_derived(st, block, "bandwidth", "bytes/cycle", "bytes moved per elapsed dram cycle",
                  elapsed ? (double)(s->bytes_read + s->bytes_written) / (double)elapsed : NAN);
}

/* ---- statistics held back past the engine's time (issue 20) -------------
 *
 * A DRAM channel that runs ahead past the earliest possible end of the run
 * (its block no longer stops at the deep stop bound) holds back every
 * update it makes at a cycle after the engine's time, counts it once the
 * engine's time reaches that cycle, and drops it if the run ends before,
 * so every statistic holds its value as of the end, as if the channel had
 * stepped (docs/des.md, "An end of run that run-ahead cannot overshoot";
 * the crossbar does the same, src/noc/xbar_journal.c). Updates are made in
 * cycle order, so the notes due form a prefix. */

static void note_apply(memctrl *mc, const mc_note *n)
{
    switch (n->kind) {
    case MC_NOTE_ADD:
        *(uint64_t *)n->p += n->v;
        break;
    case MC_NOTE_HIST:
        stats_hist_add(n->p, n->v);
        break;
    case MC_NOTE_BANK:
        dram_bank_count(&mc->st, n->p, (uint32_t)n->v, n->w);
        break;
    }
}

void mc_note_add(memctrl *mc, enum mc_note_kind kind, void *p, uint64_t v, uint64_t w)
{
    if (mc->notes_len == mc->notes_cap) {
        mc->notes_cap = mc->notes_cap ? 2 * mc->notes_cap : 64;
        mc->notes = g_renew(mc_note, mc->notes, mc->notes_cap);
    }
    mc->notes[mc->notes_len++] = (mc_note){.cycle = mc->stat_cycle, .v = v, .w = w, .p = p,
                                           .kind = kind};
}

void memctrl_stats_at(memctrl *mc, uint64_t cycle)
{
    mc->stat_cycle = cycle;
}

void memctrl_stats_commit(memctrl *mc, uint64_t final)
{
    if (mc->final_cycle == UINT64_MAX || final > mc->final_cycle)
        mc->final_cycle = final;
    final = mc->final_cycle;
    size_t k = mc->notes_head;
    for (; k < mc->notes_len && mc->notes[k].cycle <= final; k++)
        note_apply(mc, &mc->notes[k]);
    if (k == mc->notes_len)
        k = mc->notes_len = 0;
    mc->notes_head = k;
}

void memctrl_stats_close(memctrl *mc, uint64_t end)
{
    memctrl_stats_commit(mc, end);
    mc->notes_head = mc->notes_len = 0;
    mc->final_cycle = UINT64_MAX;
}
