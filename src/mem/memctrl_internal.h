/* Internals shared by the controller (memctrl.c) and its timing models
 * (dram_timing_simple.c, dram_timing_full.c). */
#ifndef SIMTGRID_MEM_MEMCTRL_INTERNAL_H
#define SIMTGRID_MEM_MEMCTRL_INTERNAL_H

#include "mem/memctrl.h"

#define MC_NONE UINT32_MAX
#define ROW_CLOSED UINT64_MAX

/* What a request needs next on its bank. Also the index of the channel-wide
 * floor that applies to it. */
enum dram_cmd {
    DRAM_CMD_PRE,       /* full: precharge the open (other) row */
    DRAM_CMD_ACT,       /* full: activate the request's row */
    DRAM_CMD_RD,        /* full: read burst */
    DRAM_CMD_WR,        /* full: write burst */
    DRAM_CMD_SERVE,     /* simple: the whole request at once */
    DRAM_CMD_COUNT
};

typedef struct mc_req {
    uint64_t addr, row, arrival, seq;   /* seq: arrival order, the age tie-break */
    uint64_t done;                      /* set by the timing model's last command */
    uint32_t id, bank;
    uint32_t prev, next;                /* the bank's waiting list (or the free list) */
    uint32_t gprev, gnext;              /* every waiting request, oldest first (FCFS) */
    uint32_t bytes, bursts_left;
    bool write, hint;
} mc_req;

/* The controller's view of a bank: its waiting and bound requests, its
 * candidate, and the bank actor's state as last reported (dram_bank.h). */
typedef struct mc_bank {
    uint64_t open_row;                  /* ROW_CLOSED when precharged */
    /* full timing: earliest cycle of the next command of each kind */
    uint64_t next_act, next_pre, next_col;
    /* simple timing: next row-hit start (pipelined hits) and when the bank
     * has finished everything (a conflict waits for it) */
    uint64_t hit_ready, idle_at;
    uint64_t hold_until;                /* row-hint hold: valid while `hold` */
    uint64_t started, row_hits;         /* per-bank statistics */
    uint32_t head, tail, waiting;       /* waiting requests, oldest first */
    uint32_t bound;                     /* request whose commands have begun */
    uint32_t group, pc;                 /* bank group, pseudo-channel */
    /* Younger requests (row hits) started since the waiting request now at
     * head became the bank's oldest (dram.frfcfs_cap). */
    uint32_t bypassed;
    bool hold;
    /* The bank's candidate for the next command, kept until the bank's own
     * state changes (dirty): the request, its command, and the earliest
     * cycle the bank alone allows (channel constraints are added per pick). */
    bool dirty;
    uint8_t cand_cmd, cand_rank;
    uint8_t cand_xi;                    /* its channel term (mc_extra_index) */
    uint32_t cand;
    uint64_t cand_at, cand_seq;
    uint64_t cand_key;                  /* mc_key(rank, seq): the pick's tie-break in one compare */
} mc_bank;

typedef struct mc_done_ent {
    memctrl_done d;
    uint64_t seq;
} mc_done_ent;

typedef struct dram_timing_ops dram_timing_ops;
typedef struct dram_bank_msg dram_bank_msg;
typedef struct dram_bank_state dram_bank_state;
typedef struct dram_bank_actor dram_bank_actor;
struct des_lgroup;
typedef struct dram_sched_ops dram_sched_ops;

/* The next command: the earliest candidate, ties to column commands (rank
 * 0) over row commands (rank 1), then to the oldest request. */
typedef struct mc_pick {
    uint64_t t, seq;
    uint32_t req;
    enum dram_cmd cmd;
    int rank;
    bool valid;
} mc_pick;

struct memctrl {
    dram_params p;
    struct trace *tr;                   /* DRAM commands on track "dramN.cmd", or NULL */
    int tr_cmd;
    double us_per_cycle;
    const addrmap *map;
    unsigned channel;
    const dram_timing_ops *ops;         /* dram.timing */
    const dram_sched_ops *sched;        /* dram.sched */
    unsigned burst_cycles, atom_bytes;  /* full: bus cycles and bytes per burst */

    mc_req *reqs;                       /* arena: queue_size + banks slots */
    uint32_t nslots, free_head;
    uint32_t ghead, gtail, queued;      /* waiting (not yet bound) requests */
    uint32_t busy;                      /* bound requests */
    mc_bank *banks;                     /* the controller's view of each bank */
    struct des_lgroup *bank_group;      /* the bank actors (dram_bank.h) */
    dram_bank_actor *bank_actors;
    uint64_t bank_tick;                 /* the group's time: 8 ticks a cycle */
    /* Banks with a waiting or bound request, in no particular order (the
     * pick's order (t, rank, seq) is total, so visiting order does not
     * matter): pick_next visits only these (issue 20). active_pos[k] is
     * bank k's index in active, or MC_NONE. */
    uint32_t *active, *active_pos, nactive;
    /* Each active bank's candidate as the pick reads it, by its index in
     * active: the bank's own earliest cycle, its command, its channel term
     * (mc_extra_index) and its mc_key (at and key UINT64_MAX when it has
     * none), so the pass reads small arrays, not the banks (issue 20). */
    uint64_t *slot_at, *slot_key;
    uint8_t *slot_cmd, *slot_xi;
    /* Banks whose view changed since the last pick (mc_bank.dirty set):
     * their candidates are recomputed first. */
    uint32_t *dirty, ndirty;
    /* The per-group and per-pseudo-channel floors in one array, `extra`:
     * [0] is always 0, then group_next_col, then pc_next_act, so a
     * command's own term is extra[mc_extra_index] (issue 20). */
    uint64_t *extra;
    uint64_t *group_next_col;           /* full: tCCDL per bank group */
    /* full, per pseudo-channel: earliest next ACT (tRRD, tFAW), and for
     * tFAW a ring of when each of its last four ACTs leaves the window */
    uint64_t *pc_next_act, *pc_faw;
    uint32_t *pc_faw_pos;

    /* channel-wide state (full timing; bus_free for both) */
    uint64_t cmd_free, next_rd, next_wr, bus_free;
    /* Refresh n (from 1) is due at refresh_base + n tREFI / S, S = 1, or
     * the banks with dram.refresh_per_bank (bank (n - 1) mod banks). */
    uint64_t refresh_due, refresh_base, refresh_n;

    uint64_t cur;                       /* every cycle < cur has been decided */
    uint64_t next_action;               /* cached earliest command, MEMCTRL_NEVER if none */
    mc_pick pick;                       /* that command, while pick_fresh */
    bool pick_fresh;
    uint64_t pick_floors[DRAM_CMD_COUNT];   /* the channel floors that pick_next found (channel_floors) */
    unsigned min_latency;               /* least cycles from a command to data done */
    uint64_t seq;

    mc_done_ent *heap;                  /* finished, not yet returned: min-heap on (done, seq) */
    size_t heap_len, heap_cap;

    memctrl_stats st;
    /* Statistics held back (issue 20, memctrl_stats.c): an update made
     * while the channel runs a cycle past `final_cycle` (stat_cycle, set by
     * its block) waits in `notes` until that cycle is reached, and is
     * dropped if the run ends before it. final_cycle UINT64_MAX: none. */
    uint64_t stat_cycle, final_cycle;
    struct mc_note *notes;
    size_t notes_head, notes_len, notes_cap;
};

/* Bank b's view changed: its candidate is recomputed at the next pick. */
static inline void mc_mark(memctrl *mc, mc_bank *b)
{
    if (b->dirty)
        return;
    b->dirty = true;
    mc->dirty[mc->ndirty++] = (uint32_t)(b - mc->banks);
}

/* One statistics update held back: counter += v, hist add v, or a bank's
 * report events (ev v, hold wait w). */
enum mc_note_kind { MC_NOTE_ADD, MC_NOTE_HIST, MC_NOTE_BANK };
typedef struct mc_note {
    uint64_t cycle, v, w;
    void *p;
    enum mc_note_kind kind;
} mc_note;

void mc_note_add(memctrl *mc, enum mc_note_kind kind, void *p, uint64_t v, uint64_t w);
/* A bank's report events counted (dram_bank.c). */
void dram_bank_count(memctrl_stats *st, mc_bank *b, uint32_t ev, uint64_t hold_wait);

static inline bool mc_held(const memctrl *mc)
{
    return mc->stat_cycle > mc->final_cycle;
}

static inline void mc_count(memctrl *mc, uint64_t *counter, uint64_t v)
{
    if (mc_held(mc))
        mc_note_add(mc, MC_NOTE_ADD, counter, v, 0);
    else
        *counter += v;
}

static inline void mc_hist(memctrl *mc, stats_hist *h, uint64_t v)
{
    if (mc_held(mc))
        mc_note_add(mc, MC_NOTE_HIST, h, v, 0);
    else
        stats_hist_add(h, v);
}

struct dram_timing_ops {
    const char *name;
    /* Request r's next command on bank b, and the earliest cycle bank b's
     * own constraints allow it. */
    uint64_t (*bank_ready)(const memctrl *mc, const mc_bank *b, const mc_req *r,
                           enum dram_cmd *cmd);
    /* Earliest cycle the channel's shared constraints (command bus, data
     * bus, tCCD, tWTR, tRTW) allow each kind of command. Bank-group
     * constraints are group_next_col, pseudo-channel ones (tRRD, tFAW)
     * pc_next_act. */
    void (*channel_floors)(const memctrl *mc, uint64_t floors[DRAM_CMD_COUNT]);
    /* The channel's part of issuing the command at t (bus, shared
     * constraints, bus cycles), reading the bank's view b; fills what the
     * bank needs in m (m->a, m->b). Returns true when it was the request's
     * last data command, with r->done set. */
    bool (*issue)(memctrl *mc, const mc_bank *b, mc_req *r, enum dram_cmd cmd, uint64_t t,
                  dram_bank_msg *m);
    /* Refresh of banks [first, end) due at `due` (all of them, or one with
     * dram.refresh_per_bank), once each has closed its row (bank_refresh):
     * the cycle they may work again, trfc after it starts, from their
     * views; the channel's own constraints are set. */
    uint64_t (*refresh)(memctrl *mc, uint64_t due, unsigned first, unsigned end, unsigned trfc);
    /* The bank's part (run by the bank actor, dram_bank.c), adding the
     * DRAM_EV_* it counts to *ev: a command; the close-page policy's
     * auto-precharge right after an access finished at t (no command slot
     * of its own); closing the row for a refresh due at `due`; staying
     * closed until the refresh ends at `end`. */
    void (*bank_cmd)(const dram_params *p, dram_bank_state *s, const dram_bank_msg *m,
                     uint32_t *ev);
    void (*bank_close)(const dram_params *p, dram_bank_state *s, uint64_t t, uint32_t *ev);
    void (*bank_refresh)(const dram_params *p, dram_bank_state *s, uint64_t due, uint32_t *ev);
    void (*bank_refresh_end)(const dram_params *p, dram_bank_state *s, uint64_t end,
                             uint32_t *ev);
    /* Least cycles from a request's first command to its data done (the
     * controller's wake-up lookahead). */
    unsigned (*min_latency)(const memctrl *mc);
    /* Data commands a request of `bytes` needs. */
    uint32_t (*bursts)(const memctrl *mc, uint32_t bytes);
};

/* A request scheduler (dram.sched, src/mem/registry.def): which waiting
 * requests may start next. The controller then takes, among every
 * candidate, the earliest command, ties to column commands, then to the
 * oldest (see memctrl.c). */
struct dram_sched_ops {
    const char *name;
    /* The waiting request bank b offers (MC_NONE: none), and the earliest
     * cycle the scheduler lets it start (*floor, 0 for no constraint). Only
     * called for a bank with no bound request. */
    uint32_t (*bank_offer)(const memctrl *mc, const mc_bank *b, uint64_t *floor);
    /* Optional (NULL: none): a candidate besides the banks' offers, put in
     * *best when it is earlier (mc_earlier); floors are the channel's. */
    void (*channel_offer)(memctrl *mc, const uint64_t *floors, mc_pick *best);
};

extern const dram_timing_ops dram_timing_simple;
extern const dram_timing_ops dram_timing_full;
extern const dram_sched_ops dram_sched_fcfs;
extern const dram_sched_ops dram_sched_frfcfs;

static inline uint64_t mc_max(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

/* ---- what the controller and its schedulers share (the hot path) ------- */

/* Oldest waiting request of bank b for its open row, or MC_NONE. */
static inline uint32_t mc_oldest_hit(const memctrl *mc, const mc_bank *b)
{
    if (b->open_row == ROW_CLOSED)
        return MC_NONE;
    for (uint32_t i = b->head; i != MC_NONE; i = mc->reqs[i].next)
        if (mc->reqs[i].row == b->open_row)
            return i;
    return MC_NONE;
}

/* Earliest cycle a request for another row may start on b: the end of a
 * row-hint hold. Once that cycle is past it constrains nothing, so it may
 * be cached with the candidate. */
static inline uint64_t mc_hold_floor(const mc_bank *b)
{
    return b->hold ? b->hold_until : 0;
}

/* Column commands (row hits) rank before row commands. */
static inline int mc_rank_of(enum dram_cmd cmd, const mc_bank *b, const mc_req *r)
{
    return (cmd == DRAM_CMD_RD || cmd == DRAM_CMD_WR ||
            (cmd == DRAM_CMD_SERVE && b->open_row == r->row)) ? 0 : 1;
}

/* Is (t, rank, seq) before the best so far? */
static inline bool mc_earlier(const mc_pick *best, uint64_t t, int rank, uint64_t seq)
{
    return !best->valid || t < best->t ||
           (t == best->t && (rank < best->rank || (rank == best->rank && seq < best->seq)));
}

/* (rank, seq) in one word, ordered as mc_earlier orders them: seq counts
 * requests and stays far below 2^62. */
static inline uint64_t mc_key(int rank, uint64_t seq)
{
    return (uint64_t)rank << 62 | seq;
}

/* Where in mc->extra the floor term of bank b's command is that
 * mc_with_channel adds besides floors[cmd]: its bank group's tCCDL for a
 * column command when bank_groups > 1, its pseudo-channel's tRRD/tFAW for
 * an ACT, else none (extra[0], always 0). */
static inline uint8_t mc_extra_index(const memctrl *mc, const mc_bank *b, enum dram_cmd cmd)
{
    if ((cmd == DRAM_CMD_RD || cmd == DRAM_CMD_WR) && mc->p.bank_groups > 1)
        return (uint8_t)(1 + b->group);
    if (cmd == DRAM_CMD_ACT)
        return (uint8_t)(1 + mc->p.bank_groups + b->pc);
    return 0;
}

/* `at` (a bank's own earliest cycle for cmd) with the channel's floors. */
static inline uint64_t mc_with_channel(const memctrl *mc, const uint64_t *floors, const mc_bank *b,
                                       uint64_t at, enum dram_cmd cmd)
{
    uint64_t t = mc_max(at, floors[cmd]);
    if ((cmd == DRAM_CMD_RD || cmd == DRAM_CMD_WR) && mc->p.bank_groups > 1)
        t = mc_max(t, mc->group_next_col[b->group]);
    else if (cmd == DRAM_CMD_ACT)
        t = mc_max(t, mc->pc_next_act[b->pc]);
    return t;
}

#endif
