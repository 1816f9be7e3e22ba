/* Warp schedulers behind an ops struct (DESIGN.md section 3; Narasiman et
 * al., MICRO 2011, section 3.2; Wang's dissertation, section 1.1.1).
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

/* The instruction an entity would issue next, as memory-aware policies
 * (OAWS, MASCAR) see it. */
typedef struct sched_next {
    bool load, store;          /* a global load (not L2-only) / a global store */
    uint32_t pc;
    unsigned threads;          /* active threads (OAWS's Div_pred) */
    unsigned sm_rank;          /* GTO age rank among all the SM's warps, 0 = oldest */
    unsigned warp;             /* its hardware warp slot (the LD/ST unit's warp id) */
} sched_next;

struct mem_feedback;

typedef struct sched_view {
    const uint8_t *status;     /* per entity id: enum warp_status */
    const uint64_t *age;       /* per entity id: dispatch order, smaller = older */
    const uint32_t *slot;      /* per entity id: the scheduler-local warp slot (fetch groups) */
    /* Memory-aware policies only (NULL when the host has none): the next
     * instruction of an entity; the LD/ST unit's state (simtgrid/
     * memfeedback.h: the scheduler actor's own copy, changed by the
     * reports of the unit and the SM); per entity, the misses predicted
     * for the load it issues (the scheduler actor's own array: the SM
     * learns an issue's from the actor's reply, puts it in flight and
     * sends it with the request). */
    const void *host;
    void (*next)(const void *host, unsigned id, sched_next *out);
    const struct mem_feedback *mem;
    uint8_t *pred;
} sched_view;

typedef struct sched sched;
typedef struct stats stats;
struct core_params;

/* A policy's hooks. `pick` is required; every other hook may be NULL ("not
 * provided"), and only the sched_* wrappers below call hooks, so the NULL
 * checks live in one place. A policy keeps its state behind `s->state`. */
typedef struct sched_ops {
    /* The policy reads the LD/ST unit's state (sched_view.mem): the chip
     * builder shares it with the SM only then (it costs a rank per request). */
    bool mem_state;
    /* `pick` keeps per-cycle state or counts even when no member is READY:
     * the SM then asks the scheduler actor every cycle; otherwise it skips
     * the question (the answer is none) in cycles without a READY member. */
    bool pick_every_cycle;
    /* `pick` returns the only READY member whenever there is exactly one,
     * and changes nothing: the SM then issues a lone READY member without
     * asking the scheduler actor; the issue reaches the actor as a report
     * (SCHED_ISSUED) with the next message (GTO, LRR; issue 20). */
    bool takes_lone_ready;
    /* State for one scheduler with `slots` warp slots; may read the SM's
     * parameters. The result is s->state (freed by destroy). */
    void *(*create)(sched *s, const struct core_params *p, unsigned slots);
    void (*destroy)(void *state);
    /* Entity id to issue among the READY members, or -1. Called up to
     * issue_width times a cycle; the SM marks an issued entity non-READY
     * before the next call. */
    int (*pick)(sched *s, const sched_view *v, uint64_t cycle);
    /* `id` issued at `cycle` (s->last is already `id`). */
    void (*issued)(sched *s, const sched_view *v, unsigned id, uint64_t cycle);
    /* End of a simulated cycle (after all issues). */
    void (*cycle_end)(sched *s, const sched_view *v, uint64_t cycle);
    /* `n` more cycles like the last simulated one, with nothing issued. */
    void (*idle)(sched *s, const sched_view *v, uint64_t n);
    /* A member was inserted at position `pos` (members[pos]). */
    void (*added)(sched *s, unsigned pos);
    /* Member `id` left position `pos` (s->n is already one less). */
    void (*removed)(sched *s, unsigned pos, unsigned id);
    /* Registers the policy's statistics under block `blk` ("sm0.sched1"). */
    void (*stats)(sched *s, stats *st, const char *blk);
} sched_ops;

struct sched {
    const sched_ops *ops;
    void *state;              /* the policy's (ops->create) */
    unsigned *members;        /* entity ids, in warp-slot order */
    unsigned n, cap;
    int last;                 /* entity issued last, -1 if none */
    struct stats_hist *rank_hist;  /* issues by GTO age rank (gpu.memdiv_stats), or NULL */
};

/* `max_members`: capacity; `slots`: scheduler-local warp slots; `p`: the
 * SM's parameters, for the policy's create. */
void sched_init(sched *s, const sched_ops *ops, unsigned max_members, unsigned slots,
                const struct core_params *p);
void sched_free(sched *s);
/* Insert entity `id`: right after `after` when it is a member, else in slot order
 * (after every member whose slot is <= its slot). */
void sched_add(sched *s, const sched_view *v, unsigned id, int after);
void sched_remove(sched *s, unsigned id);
void sched_register_stats(sched *s, stats *st, const char *blk);

static inline int sched_pick(sched *s, const sched_view *v, uint64_t cycle)
{
    return s->ops->pick(s, v, cycle);
}
/* Counts an issue of `id` in s->rank_hist by its GTO age rank. */
void sched_count_rank(sched *s, const sched_view *v, unsigned id);

static inline void sched_issued(sched *s, const sched_view *v, unsigned id, uint64_t cycle)
{
    s->last = (int)id;
    if (s->rank_hist)
        sched_count_rank(s, v, id);
    if (s->ops->issued)
        s->ops->issued(s, v, id, cycle);
}
static inline void sched_cycle_end(sched *s, const sched_view *v, uint64_t cycle)
{
    if (s->ops->cycle_end)
        s->ops->cycle_end(s, v, cycle);
}
static inline void sched_idle(sched *s, const sched_view *v, uint64_t n)
{
    if (s->ops->idle)
        s->ops->idle(s, v, n);
}

/* Position of member `id`, or -1. Inline: policies call these in their
 * per-cycle loops. */
static inline int sched_position(const sched *s, unsigned id)
{
    for (unsigned i = 0; i < s->n; i++)
        if (s->members[i] == id)
            return (int)i;
    return -1;
}
/* A round-robin start position `next` kept on the same member when member
 * `pos` is inserted or removed (LRR, SRR). */
static inline void sched_rr_added(unsigned *next, unsigned pos)
{
    if (pos < *next)
        (*next)++;
}
static inline void sched_rr_removed(const sched *s, unsigned *next, unsigned pos)
{
    if (pos < *next)
        (*next)--;
    if (*next >= s->n)
        *next = 0;
}
/* Age order: age, then slot, then id. */
static inline bool sched_older(const sched_view *v, unsigned a, unsigned b)
{
    if (v->age[a] != v->age[b])
        return v->age[a] < v->age[b];
    if (v->slot[a] != v->slot[b])
        return v->slot[a] < v->slot[b];
    return a < b;
}
/* GTO age rank of member `id` among the current members: 0 = oldest. Exposed
 * for later policies (CCWS, OAWS, MASCAR); -1 if not a member. */
int sched_age_rank(const sched *s, const sched_view *v, unsigned id);
/* Two-level: the group now at the top of the priority order (0 for other
 * policies). */
unsigned sched_top_group(const sched *s);

#endif
