/* Warp schedulers behind an ops struct (DESIGN.md section 3; digest-lwm 1.3,
 * digest-memdiv 1.0).
 *
 * A scheduler owns an ordered list of the warps it may issue ("members": ids
 * of the SM's issue entities, kept in warp-slot order; a warp split off by a
 * reconvergence or formation policy is inserted right after its parent). The
 * SM computes every entity's status at the start of a cycle; the scheduler
 * picks READY ones and is told what issued. What a "warp" holds (which
 * threads, which lanes) is the formation policy's business, never the
 * scheduler's, so new formation mechanisms need no scheduler change.
 *
 * Skipped cycles: the SM skips cycles in which nothing can change. It then
 * calls `idle` with the number of skipped cycles, and a policy whose state
 * evolves on idle cycles (two-level priority rotation) advances exactly as if
 * each of those cycles had been simulated. */
#ifndef SIMTGRID_CORE_WARP_SCHED_H
#define SIMTGRID_CORE_WARP_SCHED_H

#include <stdbool.h>
#include <stdint.h>

/* Why an entity cannot issue this cycle (WS_READY if it can). Ordered from
 * "nearest to issuing" to "farthest": a scheduler's stall reason is the
 * smallest status among its members. */
enum warp_status {
    WS_READY = 0,
    WS_STRUCT,    /* ready, but its unit, the issue port or the memory port is busy */
    WS_DEP,       /* waits for a fixed-latency result (in flight in a barrel pipeline,
                     a scoreboarded register, an unresolved branch) */
    WS_BARRIER,   /* waits at a barrier */
    WS_MEM,       /* waits for global memory */
    WS_GONE,      /* no such entity (finished or never created) */
};

typedef struct sched_view {
    const uint8_t *status;     /* per entity id: enum warp_status */
    const uint64_t *age;       /* per entity id: dispatch order, smaller = older */
    const uint32_t *slot;      /* per entity id: the scheduler-local warp slot (fetch groups) */
} sched_view;

typedef struct sched sched;

typedef struct sched_ops {
    const char *name;
    /* Entity id to issue among the READY members, or -1. Called up to
     * issue_width times a cycle; the SM marks an issued entity non-READY
     * before the next call. */
    int (*pick)(sched *s, const sched_view *v, uint64_t cycle);
    /* `id` issued at `cycle`. */
    void (*issued)(sched *s, const sched_view *v, unsigned id, uint64_t cycle);
    /* End of a simulated cycle (after all issues). */
    void (*cycle_end)(sched *s, const sched_view *v, uint64_t cycle);
    /* `n` more cycles like the last simulated one, with nothing issued. */
    void (*idle)(sched *s, const sched_view *v, uint64_t n);
} sched_ops;

struct sched {
    const sched_ops *ops;
    unsigned *members;        /* entity ids, round-robin order */
    unsigned n, cap;
    unsigned rr_next;         /* LRR: position to start the next search from */
    int last;                 /* entity issued last, -1 if none */
    /* two-level */
    unsigned group_size;      /* G warps per fetch group */
    unsigned ngroups;
    unsigned top;             /* index in the cyclic priority order of the top group */
    int *group_last;          /* per group: entity issued last in it, -1 */
    bool trigger_nofetch;     /* (b) instead of (a) */
    uint64_t timeout;         /* 0 = off */
    uint64_t top_issued;      /* instructions from the top group since it became top */
    bool top_had_ready;       /* the top group had a READY member this cycle */
    uint64_t pick_cycle;      /* cycle of the first pick call of the current cycle */
    uint64_t switches;        /* statistics: group switches, of which by timeout */
    uint64_t timeouts;
};

extern const sched_ops sched_lrr_ops, sched_gto_ops, sched_2lev_ops;

/* `max_members`: capacity; `slots`: scheduler-local warp slots (for groups). */
void sched_init(sched *s, const sched_ops *ops, unsigned max_members, unsigned slots,
                unsigned group_size, bool trigger_nofetch, uint64_t timeout);
void sched_free(sched *s);
/* Insert entity `id`: right after `after` when it is a member, else in slot order
 * (after every member whose slot is <= its slot). */
void sched_add(sched *s, const sched_view *v, unsigned id, int after);
void sched_remove(sched *s, unsigned id);

/* GTO age rank of member `id` among the current members: 0 = oldest. Exposed
 * for later policies (CCWS, OAWS, MASCAR); -1 if not a member. */
int sched_age_rank(const sched *s, const sched_view *v, unsigned id);
/* Two-level: the group now at the top of the priority order. */
unsigned sched_top_group(const sched *s);

#endif
