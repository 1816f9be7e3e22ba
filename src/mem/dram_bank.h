/* The DRAM bank actor (issue 12, docs/dram.md): each bank is a lightweight
 * actor (des_lite.h) owning its row buffer, its timing constraints and its
 * row-hint hold. The channel controller (memctrl.c) keeps the queues and the
 * command bus and talks to its banks through ports: it sends what happens
 * on the bank (a request starts, a command issues, a request's data is
 * done, a refresh), the bank applies it and reports its new state back,
 * which the controller keeps as its view of the bank (mc_bank) to choose
 * the next command.
 *
 * Time in a channel's bank group is the controller's decision time: cycle
 * c is ticks [8c, 8c + 8). The controller sends at 8c + phase, the bank
 * applies at +1 and its report reaches the controller at +2, all within
 * cycle c (a same-cycle exchange), so the split changes no result. */
#ifndef SIMTGRID_MEM_DRAM_BANK_H
#define SIMTGRID_MEM_DRAM_BANK_H

#include "mem/memctrl_internal.h"
#include "simtgrid/des_lite.h"

#define DRAM_BANK_TICKS 8u        /* group ticks per DRAM cycle */

enum dram_bank_kind {
    DRAM_BANK_START,          /* a request's first command issues at t */
    DRAM_BANK_CMD,            /* a command of the bound request issues at t */
    DRAM_BANK_DONE,           /* the bound request's data is done (last command at t) */
    DRAM_BANK_REFRESH,        /* all-bank refresh due at `a`: close the row */
    DRAM_BANK_REFRESH_END,    /* the refresh holds the bank closed until `a` */
};

/* Controller -> bank. */
typedef struct dram_bank_msg {
    uint64_t t, row;
    /* CMD, full timing: a = end of the burst's data, b = burst cycles;
     * CMD, simple timing: a = data done, b = bus cycles;
     * DONE: a = the data's done cycle; REFRESH: a = due; REFRESH_END: a = end. */
    uint64_t a, b;
    uint8_t kind, cmd;
    bool write, hint;
} dram_bank_msg;

/* What a bank counts, reported with its state (bits of dram_bank_report.ev). */
enum {
    DRAM_EV_ROW_HIT = 1, DRAM_EV_ROW_MISS = 2, DRAM_EV_ROW_CONFLICT = 4,
    DRAM_EV_ACT = 8, DRAM_EV_PRE = 16, DRAM_EV_HOLD = 32, DRAM_EV_HOLD_HIT = 64,
    DRAM_EV_HOLD_EXPIRED = 128,
};

/* Bank -> controller: its state after one message, and what it counted. */
typedef struct dram_bank_report {
    uint64_t open_row, next_act, next_pre, next_col, hit_ready, idle_at, hold_until;
    uint64_t hold_wait;                 /* with DRAM_EV_HOLD_HIT */
    uint32_t ev;
    bool hold;
} dram_bank_report;

/* The state a bank owns. */
typedef struct dram_bank_state {
    uint64_t open_row;
    uint64_t next_act, next_pre, next_col;   /* full timing */
    uint64_t hit_ready, idle_at;             /* simple timing */
    uint64_t hold_from, hold_until;
    bool hold;
} dram_bank_state;

typedef struct dram_bank_actor {
    dram_bank_state s;
    const dram_params *p;
    const dram_timing_ops *ops;
    des_lactor *self;
    des_lport *in, *out;
} dram_bank_actor;

/* A bank actor in group g, with its ports from and to the group's host
 * (the controller); p and ops must outlive it. */
void dram_bank_actor_init(dram_bank_actor *ba, des_lgroup *g, const char *name,
                          const dram_params *p, const dram_timing_ops *ops);

/* The controller's view of a bank: reset, and updated from a report. */
void dram_bank_init(mc_bank *b, uint32_t group);
void dram_bank_view(memctrl *mc, mc_bank *b, const dram_bank_report *r);

/* Bank b's candidate and the cycle its own state allows (see mc_bank): its
 * bound request, else the scheduler's offer among its waiting ones. */
static inline void dram_bank_candidate(const memctrl *mc, mc_bank *b)
{
    b->dirty = false;
    uint32_t i = MC_NONE;
    uint64_t floor = 0;
    if (b->bound != MC_NONE)
        i = b->bound;
    else if (b->waiting)
        i = mc->sched->bank_offer(mc, b, &floor);
    b->cand = i;
    if (i == MC_NONE)
        return;
    const mc_req *r = &mc->reqs[i];
    enum dram_cmd cmd;
    b->cand_at = mc_max(floor, mc->ops->bank_ready(mc, b, r, &cmd));
    b->cand_cmd = (uint8_t)cmd;
    b->cand_rank = (uint8_t)mc_rank_of(cmd, b, r);
    b->cand_seq = r->seq;
    b->cand_key = mc_key(b->cand_rank, r->seq);
    b->cand_xi = mc_extra_index(mc, b, cmd);
}

#endif
