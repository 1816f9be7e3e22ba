/* The LD/ST unit's state, shared by ldst.c (the unit's cycle) and
 * ldst_setup.c (building, wiring and freeing it). Internal to src/mem. */
#ifndef SIMTGRID_MEM_LDST_INTERNAL_H
#define SIMTGRID_MEM_LDST_INTERNAL_H

#include <glib.h>
#include <math.h>

#include "simtgrid/trace.h"
#include "mem/dacache_ctl.h"
#include "mem/dlc.h"
#include "mem/iwc.h"
#include "mem/ldst.h"
#include "mem/loadchar.h"
#include "mem/tlb.h"
#include "simtgrid/bits.h"

typedef struct ldst_inst {
    warp_mem_resp resp;
    uint64_t issued;        /* core cycle the instruction entered the unit */
    unsigned remaining;     /* accesses not yet complete */
    unsigned accesses, misses;
    uint8_t op;
    uint8_t flags;          /* the request's mem_flags (MEM_ROW_HINT goes below) */
    uint8_t prio;           /* the warp's GTO priority in its scheduler (DaCache's FCW) */
    uint8_t gprio;          /* ... in the SM (OAWS's FCW) */
    bool reply;
    int next_free;
    loadpc *lpc;            /* its PC's characterisation record (gpu.memdiv_stats), or NULL */
    uint64_t ready_at;      /* core cycle it was ready to leave the SM */
    uint64_t unit;          /* cycles from ready_at to its last access through the L1, less
                               the 1-cycle port: its time in the unit and waiting for it */
} ldst_inst;

/* An atomic instruction's accesses, in issue order: the lane operations
 * each carries to the L2 (mem_pkt.lanes, .hot_lanes), matched by line when
 * it leaves the miss queue. Apart from ldst_inst, which is rewritten for
 * every instruction. */
typedef struct ldst_atomic {
    unsigned n;
    uint64_t line[COALESCE_MAX_ACCESSES];
    uint8_t lanes[COALESCE_MAX_ACCESSES], hot[COALESCE_MAX_ACCESSES], word[COALESCE_MAX_ACCESSES];
    bool sent[COALESCE_MAX_ACCESSES];
} ldst_atomic;

/* A load access waiting for its address translation until `ready`. */
typedef struct tlb_wait {
    uint64_t ready;
    cache_access ca;
} tlb_wait;

typedef struct hit_ev {
    uint64_t ready;
    uint32_t inst;
    uint64_t line;
} hit_ev;

/* A load with MEM_LANE_REPORT: its accesses' lines and lanes, so that each
 * completed access is reported to the SM with its lanes (dynamic warp
 * subdivision needs the hit mask and each fill's lanes). */
typedef struct ldst_lanes {
    unsigned n;
    uint64_t line[COALESCE_MAX_ACCESSES];
    uint32_t lanes[COALESCE_MAX_ACCESSES];
    bool done[COALESCE_MAX_ACCESSES];
} ldst_lanes;

struct ldst {
    /* Trace: each load from entering the unit to its last data ("smN.ldst"),
     * and each access below the L1 from leaving to its fill ("smN.l1miss"). */
    trace_spans tr_load, tr_miss;
    des_engine *engine;
    des_actor *actor;
    const des_clock *clk;
    char *name, *l1name;
    unsigned sm;
    stats *st;
    cache *l1;
    coalesce_params co;
    coalesce_stats cst;
    ldst_route_fn route, load_route;
    const void *route_ctx, *load_ctx;
    des_port *req_in, *resp_out, *down, *up;
    ldst_inst *inst;
    ldst_atomic *atom;      /* per inst slot */
    ldst_lanes *lanes;      /* per inst slot (allocated at the first MEM_LANE_REPORT) */
    unsigned ninst;
    int free_head;
    /* The instruction in the unit. */
    bool busy;
    uint32_t cur;
    warp_mem_req req;
    coalesce_access acc[COALESCE_MAX_ACCESSES];
    uint32_t partial32[COALESCE_MAX_ACCESSES];   /* a store's partly written segments */
    uint32_t words32[COALESCE_MAX_ACCESSES];     /* ... and the 4-B words it writes whole */
    unsigned nacc, next;
    /* A refused access waits, without retrying, until the L1 changes (a
     * fill, a requester leaving the MSHRs, a miss-queue slot freed): until
     * then every retry would fail the same way. The cycles skipped are still
     * counted in busy_cycles and the stall category of `stall_cause`. */
    bool stalled, changed, cur_refused;
    cache_fail stall_cause;
    uint64_t stall_last;    /* last core cycle already counted */
    /* Hits in flight, in order of ready cycle (a FIFO while hit_interval
     * is 0: every hit then has the same latency). */
    hit_ev *hits;
    unsigned hhead, hcount, hcap;
    /* With hit_interval > 0, one warp's L1 hits return at most one line per
     * hit_interval cycles: hit_free[w] is the first cycle warp w's next hit
     * may be ready (grown on demand to the warp slots seen). */
    unsigned hit_interval, nhit_free;
    uint64_t *hit_free;
    /* With hit_bytes > 0, the L1 returns at most hit_bytes bytes of hit
     * data per core cycle to the whole SM (each hit its touched sectors, in
     * the order the L1 looked them up); ret_free is the first free byte slot
     * in units of cycle * hit_bytes. */
    unsigned hit_bytes;
    uint64_t ret_free;
    /* An atomic access holds the L1 port one cycle per atomic_rate lanes:
     * the next access waits for port_free (core cycle). */
    double atomic_rate;
    uint64_t port_free;
    /* Accesses of the instruction in the unit the L1 takes per core cycle
     * (l1d.accesses_per_cycle; 1 = one port). */
    unsigned ports;
    /* Responses the SM port refused (it is sized so this stays empty). */
    GQueue *resp_wait;
    uint64_t busy_cycles, stall_coal, stall_mshr, stall_icnt, stall_set, fill_stalls;
    uint64_t refused[CACHE_FAIL_COUNT];   /* accesses refused at least once, by first cause */
    uint64_t refused_all;
    stats_hist latency, round_trip;
    /* DaCache's controller (l1d.replace = dacache), else NULL; the class and
     * region of the load in the unit. */
    dacache_ctl *dc;
    uint8_t dc_class;
    uint64_t fcw_sum, fcw_samples;
    /* What the SM's schedulers see (OAWS), or NULL; its FCW's training. */
    mem_feedback *fb;
    fcw_state fb_fcw;
    uint64_t fb_fcw_sum, fb_fcw_samples;
    loadchar *lc;           /* the chip's characterisation table, or NULL */
    /* MASCAR's re-execution queue (ldst_set_reexec): load accesses the L1
     * refused for an MSHR or the miss queue wait here, replayed head first,
     * so the unit takes the next access meanwhile. `epoch` counts L1
     * changes: a blocked head is retried only after one. */
    cache_access *rq;
    unsigned rq_cap, rq_head, rq_n;
    bool rq_blocked;
    uint64_t epoch, rq_epoch, rq_fail_cycle;
    uint64_t rq_queued, rq_replay_stall;
    /* Address translation (ldst_set_tlb), else NULL: load accesses waiting
     * for it, in order of ready cycle; a head the L1 refused waits for an
     * L1 change (epoch), as the re-execution queue's. */
    struct tlb *tlb;
    tlb_wait *tw;
    unsigned tw_cap, tw_head, tw_n;
    bool tw_blocked, tw_yield;
    uint64_t tw_epoch;
    /* Held sends (ldst_hold.c): the miss queue's first `handed` requests
     * are in the request port's hands, sent as its slots come back. */
    bool hold;
    unsigned handed;
};

void ldst_main(des_actor *self, void *data);
void ldst_publish(ldst *u);   /* the L1's state to the schedulers' feedback */
void ldst_count_stall(ldst *u, uint64_t cycles);   /* stalled cycles, by the stall's cause */
mem_pkt ldst_pkt_of(ldst *u, const cache_req *q, des_time t);

/* Held sends of the miss queue (ldst_hold.c). */
void ldst_hold_start(ldst *u);
void ldst_hold_send(ldst *u, des_time t, des_time from);
void ldst_hold_catch_up(ldst *u, des_time until);
void ldst_hold_wake(ldst *u, uint64_t c);

#endif
