/* One DRAM bank's own transitions (docs/dram.md): the row-buffer outcome
 * and row-hint hold when a request starts on it, the hold or auto-precharge
 * when its data is done, the hold's end at a refresh. The controller
 * (memctrl.c) keeps the queues and the command bus and calls these as the
 * messages a bank actor would receive (start, done, refresh); the bank's
 * candidate (dram_bank_candidate, dram_bank.h) stays inline on the hot
 * path. A first step of issue 12: the bank is not yet an actor of its own. */
#include "mem/dram_bank.h"

void dram_bank_init(mc_bank *b, uint32_t group)
{
    *b = (mc_bank){.open_row = ROW_CLOSED, .head = MC_NONE, .tail = MC_NONE,
                   .bound = MC_NONE, .group = group, .cand = MC_NONE};
}

/* Request r's first command issues at t: classify the access by the row
 * buffer and end any row-hint hold (a hit within the window, else
 * expired). */
void dram_bank_start(memctrl_stats *st, mc_bank *b, const mc_req *r, uint64_t t)
{
    b->started++;
    if (b->open_row == r->row) {
        st->row_hits++;
        b->row_hits++;
    } else if (b->open_row == ROW_CLOSED)
        st->row_misses++;
    else
        st->row_conflicts++;
    if (b->hold) {
        if (t < b->hold_until && b->open_row == r->row) {
            st->hint_hold_hits++;
            stats_hist_add(&st->hold_wait, t - b->hold_from);
        } else
            st->hint_hold_expired++;
        b->hold = false;
    }
}

/* Request r's data is done (its last command issued at t): a hinted
 * request arms the hold (Narasiman's dissertation, sec. 7.2), else the
 * close-page policy precharges. */
void dram_bank_done(memctrl *mc, mc_bank *b, const mc_req *r, uint64_t t)
{
    if (r->hint) {
        b->hold = true;
        b->hold_from = r->done;
        b->hold_until = r->done + mc->p.hint_hold_cycles;
        mc->st.hint_holds++;
    } else if (mc->p.page_policy == DRAM_PAGE_CLOSE) {
        mc->ops->auto_precharge(mc, b, t);
    }
}

/* An all-bank refresh closes the row: a pending hold expires. */
void dram_bank_refreshed(memctrl_stats *st, mc_bank *b)
{
    if (b->hold)
        st->hint_hold_expired++;
    b->hold = false;
    b->dirty = true;
}
