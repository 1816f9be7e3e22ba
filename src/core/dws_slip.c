/* Adaptive slip's divergence limit (dws_slip.h). */
#include <stdbool.h>

#include "core/dws_slip.h"

static void account(dws_slip *c, uint64_t now)
{
    if (now > c->area_last) {
        c->area += (uint64_t)c->limit * (now - c->area_last);
        c->area_last = now;
    }
}

void dws_slip_init(dws_slip *c, unsigned limit, unsigned max, uint64_t interval, unsigned mem_pct,
                   unsigned active_pct, uint64_t start)
{
    *c = (dws_slip){.limit = limit < 1 ? 1 : limit > max ? max : limit, .max = max, .mem_pct = mem_pct,
                    .active_pct = active_pct, .interval = interval, .start = start, .area_last = start};
    c->limit_max = c->limit;
    c->history = g_array_new(false, false, sizeof(unsigned));
}

void dws_slip_free(dws_slip *c)
{
    if (c->history)
        g_array_free(c->history, true);
    c->history = NULL;
}

void dws_slip_observe(dws_slip *c, uint64_t now, uint64_t mem_cycles, uint64_t active_cycles)
{
    if (now < c->start + c->interval)
        return;
    account(c, now);
    uint64_t span = now - c->start, mem = mem_cycles - c->mem0, act = active_cycles - c->active0;
    /* the two shares are of disjoint cycles, so at most one rule fires */
    if (mem * 100 > (uint64_t)c->mem_pct * span) {
        if (c->limit < c->max) {
            c->limit++;
            c->ups++;
        }
    } else if (act * 100 > (uint64_t)c->active_pct * span) {
        if (c->limit > 1) {
            c->limit--;
            c->downs++;
        }
    }
    if (c->limit > c->limit_max)
        c->limit_max = c->limit;
    g_array_append_val(c->history, c->limit);
    c->start = now;
    c->mem0 = mem_cycles;
    c->active0 = active_cycles;
}

double dws_slip_mean(dws_slip *c, uint64_t now, uint64_t first)
{
    account(c, now);
    return now > first ? (double)c->area / (double)(now - first) : c->limit;
}
