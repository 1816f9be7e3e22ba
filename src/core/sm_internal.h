/* Private structures of the SM, shared by its source files:
 *   sm.c          the actor: ports, cycle loop, run-ahead, skipping idle cycles
 *   sm_issue.c    statuses, issue, timing of one instruction, memory responses
 *   sm_cta.c      CTA arrival and completion, barriers
 *   sm_stats.c    per-cycle accounting and statistics
 *   reconv_*.c    reconvergence / warp-formation policies
 *
 * Vocabulary: a hardware warp ("hw warp", a warp slot) is warp_size
 * consecutive threads of a CTA with its register scoreboard. An "entity" is
 * what a scheduler picks: a pc plus a set of threads placed on lanes. The
 * reconvergence policy makes entities from hw warps (PDOM: one per hw warp;
 * NREC and MIMD: one per divergent path) and may split and merge them. */
#ifndef SIMTGRID_CORE_SM_INTERNAL_H
#define SIMTGRID_CORE_SM_INTERNAL_H

#include "simtgrid/atrace.h"
#include "simtgrid/core.h"
#include "simtgrid/memfeedback.h"
#include "simtgrid/memport.h"
#include "simtgrid/trace.h"
#include "core/cta_msg.h"
#include "core/pdom.h"
#include "core/sched_actor.h"
#include "core/warp_sched.h"

#define REG_MEM UINT64_MAX   /* scoreboard: written by an outstanding memory instruction */

typedef struct sm_entity {
    bool live;
    bool at_barrier;
    bool held;            /* the policy holds it (dws: no scheduler slot, or waiting to merge) */
    uint16_t hw;          /* hardware warp slot */
    uint16_t cta;         /* CTA slot */
    uint16_t sched;       /* scheduler index */
    uint32_t pc;
    uint32_t active;      /* lanes executing at pc */
    uint32_t mem_wait;    /* responses it is blocked on (barrel) */
    uint64_t ready_at;    /* first cycle it may issue (in flight, branch, refetch) */
    /* Scoreboard verdict cache (sm_entity_status): the instruction at sb_pc
     * waits on its registers until cycle sb_until (NEVER_CYCLE: on memory),
     * as long as its warp's registers are at version sb_epoch. */
    uint32_t sb_pc;
    uint64_t sb_epoch;
    uint64_t sb_until;
    const atrace_warp *trace;   /* a trace-driven warp: pc indexes its records; else NULL */
} sm_entity;

typedef struct sm_hw {
    bool live;
    uint16_t cta;
    uint32_t lanes;                    /* lanes holding a thread */
    isa_thread *lane[ISA_MAX_LANES];
    uint64_t age;                      /* dispatch order of the warp (GTO) */
    unsigned nentities;
    unsigned mem_pending;              /* outstanding global memory instructions */
    uint64_t satom_ready;              /* core.smem_atomic_serial: next shared atomic from */
    uint8_t scheds;                    /* bit i: scheduler i held one of its entities since
                                          the warp started (a superset: sm_hw_touched) */
    uint64_t reg_ready[ISA_MAX_REGS];  /* scoreboard: first cycle a register can be read */
    uint64_t pred_ready[ISA_NUM_PREDS];
} sm_hw;

typedef struct sm_cta {
    bool live;
    bool reported;
    const core_launch_rt *launch;
    const isa_inst *code;      /* its program's instructions (sm_inst_of: no call per status) */
    isa_cta *ic;
    uint64_t id;
    uint64_t start, end;       /* arrival cycle; latest completion so far */
    unsigned nwarps;
    uint16_t hw[256];          /* its hw warp slots (not necessarily contiguous) */
    unsigned live_threads, live_entities;
    unsigned bar_waiting;
    uint64_t bar_done;
    unsigned mem_outstanding;
} sm_cta;

/* One outstanding global memory instruction (index = request tag). */
typedef struct sm_mem_op {
    bool used;
    bool blocking;       /* barrel: its entity waits for the response */
    uint16_t entity, hw, cta;
    uint64_t done;       /* the instruction's own completion cycle */
    uint64_t issued;     /* its issue cycle (for the trace) */
    const isa_inst *inst;
} sm_mem_op;

#define SM_UNIT_QUEUE 64   /* ring of core.smem_queue (at most 32, and a margin) */
/* core.smem_queue: the start cycles of the instructions waiting for a
 * shared-memory unit, in issue order (a ring from head). Apart from the
 * unit so that the units' free_at, scanned at every status, stay packed. */
typedef struct sm_unit_queue {
    uint8_t head, n;
    uint64_t start[SM_UNIT_QUEUE];
} sm_unit_queue;

typedef struct sm_unit {
    uint64_t free_at;    /* first cycle it accepts a new instruction */
    sm_unit_queue *q;    /* the shared-memory units' with core.smem_queue, else NULL */
} sm_unit;

/* core.smem_queue: drops the queued instructions that have started by
 * cycle k; how many still wait. */
static inline unsigned sm_unit_queued(sm_unit *u, uint64_t k)
{
    sm_unit_queue *q = u->q;
    while (q->n && q->start[q->head] <= k) {
        q->head = (uint8_t)((q->head + 1) % SM_UNIT_QUEUE);
        q->n--;
    }
    return q->n;
}

/* Claims unit u for `passes` passes of an instruction issued at cycle k:
 * it starts at k, or with core.smem_queue (queue) when the unit frees,
 * queued behind the instructions issued before it. Returns the start. */
static inline uint64_t sm_unit_claim(sm_unit *u, uint64_t k, uint64_t busy, bool queue)
{
    uint64_t start = k;
    if (queue && u->free_at > k) {
        start = u->free_at;
        sm_unit_queue *q = u->q;
        sm_unit_queued(u, k);
        if (q->n < SM_UNIT_QUEUE)
            q->start[(q->head + q->n++) % SM_UNIT_QUEUE] = start;
    }
    u->free_at = start + busy;
    return start;
}

/* Per-scheduler cycle accounting (sm_stats.c). */
enum { STALL_PIPELINE, STALL_DEP, STALL_BARRIER, STALL_MEM, STALL_EMPTY, STALL_KINDS };
#define WCAT_BUCKETS 8

typedef struct sm_sched_stats {
    uint64_t issue_cycles;              /* cycles the issue port was busy issuing */
    uint64_t stall[STALL_KINDS];
    uint64_t w0_idle, w0_mem, wstall;   /* DWF warp-size categories */
    uint64_t wbucket[WCAT_BUCKETS];     /* W1-4 ... W29-32 (warp_size / 8 wide) */
    stats_hist fu_lanes;                /* active lanes per cycle */
    uint64_t issued;                    /* issue slots used */
} sm_sched_stats;

typedef struct sm_sched_state {
    sched s;                            /* the policy, run by `act` */
    /* The SM's copy of the members: the entities whose statuses it
     * computes, in no order (the actor's list keeps the policy's order);
     * changed with the actor's by reports (SCHED_ADD, SCHED_REMOVE) */
    unsigned *members, n;
    sched_actor act;                    /* the scheduler actor (sched_actor.h) */
    sched_reply formed;                 /* the actor's last formed reply (formed: unused) */
    uint64_t port_free;                 /* first cycle the issue port is free */
    /* The members' statuses last computed (compute_statuses, sm_issue.c)
     * hold from cycle st_from to st_until - 1 while st_valid: every member
     * waited on a timed or memory event, none on a unit or the request
     * port. Cleared where a member's status inputs change (sm_set_status,
     * sm_entity_touched, sm_hw_touched, the member set). */
    bool st_valid;
    uint8_t st_worst;
    uint64_t st_from, st_until;
    unsigned cur_threads;               /* threads of the issue in progress (W category) */
    uint64_t rf_free[32];               /* per register-file bank (core.rf_banks <= 32): first free read cycle */
    uint16_t lanes_ring[64];            /* active lanes per upcoming cycle (index cycle % 64):
                                           up to issue_width x simd_width = 256 */
    /* the last simulated idle cycle, replicated over skipped cycles */
    uint8_t snap_stall;                 /* STALL_* */
    uint8_t snap_wcat;                  /* 0 idle, 1 mem, 2 stall */
    /* Trace only: the run of idle cycles with one stall reason being
     * built ([tr_from, tr_to), reason tr_stall, STALL_KINDS for none) and
     * the next cycle to account. */
    uint8_t tr_stall;
    uint64_t tr_from, tr_to, tr_next;
    sm_sched_stats st;
} sm_sched_state;

typedef struct reconv_ops reconv_ops;

struct sm {
    core_params p;
    unsigned id;
    char *name;                 /* "sm0" */
    /* The timeline trace (NULL: none): warp issue per scheduler track
     * "smN.schedK", memory requests as async spans on "smN.mem". */
    struct trace *tr;
    int *tr_sched;
    double us_per_cycle;
    trace_spans tr_mem;
    des_engine *engine;
    des_actor *actor;
    const des_clock *clk;
    des_port *req_out, *resp_in, *cta_in, *done_out;

    /* entities (the scheduler's warps) */
    sm_entity *ent;
    unsigned nent_cap;
    unsigned *free_ent;         /* stack of free entity ids */
    unsigned nfree_ent;
    uint8_t *status;            /* per entity: enum warp_status this cycle */
    uint64_t *age;
    uint32_t *slot;             /* scheduler-local warp slot */
    uint32_t *member_at;        /* per entity: its index in its scheduler's
                                   sm_sched_state.members, NO_MEMBER if none */
    sched_view view;
    des_lgroup *sched_group;    /* the scheduler actors (sched_actor.h) */
    uint64_t sched_tick;        /* the group's clock */
    uint64_t *pick_wake;        /* the issuing cycle's wake, for reconv_ops.pick */
    uint8_t *pred;              /* per entity: OAWS's predicted misses of its load
                                   in flight, from its scheduler actor's reply */
    mem_feedback *fb;           /* the LD/ST unit's state (sm_set_feedback), or NULL: the SM
                                   writes the misses in flight and a launch's DLC clear */
    mem_report_box *mbox;       /* fb's reports, read by the scheduler actors, or NULL */
    const unsigned *busy_sms;   /* the dispatcher's (sm_share_busy_count), or NULL */
    unsigned splits;            /* entities beyond one per hw warp (MIMD merging) */

    sm_hw *hw;                  /* max_warps */
    sm_cta *cta;                /* max_ctas */
    unsigned resident;          /* live CTAs */
    uint64_t age_counter;

    sm_mem_op *mem;             /* tag table */
    unsigned nmem_cap;
    unsigned *free_tag;
    unsigned nfree_tag;
    /* requests issued but not yet sent (they leave after the LD/ST latency) */
    warp_mem_req *sendq;
    uint64_t *sendq_at;
    unsigned sendq_head, sendq_count, sendq_cap;
    unsigned req_space;         /* free request-port slots this cycle */

    /* CTA completion reports waiting for their cycle */
    cta_done_msg *reports;
    unsigned nreports;

    sm_unit *units[CORE_UNIT_KINDS];
    sm_sched_state *sc;
    unsigned passes_port;       /* ceil(warp_size / simd_width) */

    const reconv_ops *rc;
    void *rc_state;

    /* time */
    uint64_t cycle;             /* next cycle to simulate */
    bool snap_valid;            /* the last simulated cycle was idle and accounted */
    uint64_t *hw_epoch;         /* per hw warp: bumped on every scoreboard write */
    bool wait_port;             /* this cycle found the request port full: the
                                 * port wakes the SM on a pop, so run-ahead may
                                 * not replay past this cycle */
    bool ever_resident;
    uint64_t empty_since;       /* first cycle without a resident CTA */
    bool aborted;               /* the last cycle was abandoned (port state uncertain) */
    /* Run-ahead past the input latency (sm_lone.c): the request port's
     * state is final before req_sure (no pop not yet made frees a slot
     * sooner: des_port_credit_kept), used when credit_on; with other SMs
     * busy, no global access may issue after global_end (DES_NEVER: no
     * such limit). */
    bool credit_on;
    des_time req_sure, global_end;
    bool probe_rows;            /* sm_keep_probe_rows: no multi-SM run-ahead */
    bool store_acks;            /* fire-and-forget stores are acknowledged: CTAs wait for them */
    bool send_prio;             /* requests carry the warp's GTO rank (sm_send_priority) */
    /* statistics */
    uint64_t cycles, warp_insts, thread_insts, ctas_done;
    uint64_t rf_reads, rf_writes;   /* register-file accesses: registers x active lanes (energy) */
    uint64_t class_count[ISA_CLASS_COUNT];
    uint64_t smem_conflict_cycles, mem_requests, barrier_waits, faults;
    uint64_t l1d_conflict_cycles; /* extra LD/ST passes from L1 bank conflicts (core.l1d_banks) */
    uint64_t smem_queue_cycles;   /* cycles shared instructions waited in core.smem_queue */
    uint64_t rf_conflict_cycles;  /* extra operand-read cycles (core.rf_banks) */
    uint64_t first_cycle;
    stats_hist active_threads;  /* per issue slot */
    char *error;

    sm_issue_hook hook;
    void *hook_ctx;
};

/* ---- reconvergence / formation policies (reconv_*.c) ------------------- */

struct reconv_ops {
    bool packs;   /* several entities share one issue slot (MIMD bound) */
    /* Entities change only through the SM's shared code (sm_issue.c,
     * sm_cta.c) and after_issue of the issuing entity: a scheduler's
     * statuses may be reused until one of those changes them (PDOM). */
    bool stable_statuses;
    bool every_cycle;   /* before_cycle runs every simulated cycle, not only with split entities */
    unsigned (*capacity)(const core_params *p);      /* entities per SM */
    void *(*create)(sm *s);
    void (*destroy)(void *state);
    /* hw warp `hw` starts at pc 0 with the threads of its lanes. */
    void (*warp_start)(sm *s, unsigned hw, uint64_t cycle);
    /* Entity `e` executed the instruction at `pc` (outcome `o`): set its next
     * pc and lanes, split or free entities. */
    void (*after_issue)(sm *s, unsigned e, uint32_t pc, const isa_exec_out *o);
    /* Before statuses are computed in a cycle (MIMD merging); may be NULL.
     * Called only while the SM has split entities, unless every_cycle. */
    void (*before_cycle)(sm *s, uint64_t cycle);
    /* Per-lane memory reports (dws; may be NULL): the loads of the
     * blocking memory op `tag` on lanes `lanes` have their data at `cycle`
     * (MEM_LANE_REPORT), before the op's final response. */
    void (*mem_partial)(sm *s, unsigned tag, uint32_t lanes, uint64_t cycle);
    /* Formation policies (LWM, TBC; may be NULL): the sub-warps entity e
     * issues when fetched at cycle k, in order, at least one (sm_issue_form.c);
     * *threads: the threads that retire the instruction (thread_insts). */
    const struct sm_subwarp *(*form)(sm *s, unsigned e, uint64_t k, unsigned *n, unsigned *threads);
    /* Sub-warp i of the current instruction executed (o), issued at cycle
     * `issued` and completes at `done`; called in order before after_issue. */
    void (*subwarp_done)(sm *s, unsigned e, unsigned i, const isa_exec_out *o, uint64_t issued,
                         uint64_t done);
    /* The policy's own pick (DWF's issue policies, DWS's ready queue; NULL:
     * the scheduler, core.scheduler, picks), called by scheduler sc's actor
     * (sched_actor.h, SAF_OWN): the entity to issue at cycle k among the
     * READY ones of the actor's copy `status` (v: the actor's view, v->status
     * == status), -1 for none. The policy may set the status of entities it
     * adds to the scheduler now in both copies (the actor's and s->status),
     * lowering *wake. */
    int (*pick)(sm *s, unsigned sc, uint64_t k, uint64_t *wake, uint8_t *status, const sched_view *v);
    /* The SM's side of the actor's pick e at cycle k (may be NULL; DWS:
     * resume a parked group, merge at its pc), before the issue. */
    void (*picked)(sm *s, unsigned e, uint64_t k);
    /* Registers the policy's statistics under the SM's block, or (final) its
     * derived values after the run; may be NULL. */
    void (*stats)(sm *s, stats *st, const char *blk, bool final);
};

/* One sub-warp of a formed instruction: the thread on each lane of `mask`
 * (any row of the large warp or block) and its formation cycle, `at` cycles
 * after the fetch (later sub-warps may wait for a busy unit). */
typedef struct sm_subwarp {
    uint32_t mask;
    uint32_t at;
    isa_thread *lane[ISA_MAX_LANES];
} sm_subwarp;


/* Trace-driven warps (reconv_trace.c): one entity per hw warp walking its
 * trace records, pc = record index; the trace fixes masks and control flow. */
void sm_trace_warp_start(sm *s, unsigned hw, const atrace_warp *t, uint64_t cycle);
void sm_trace_after_issue(sm *s, unsigned e, uint32_t pc);

/* Entity management for policies (sm_cta.c). */
unsigned sm_entity_new(sm *s, unsigned hw, int parent);   /* copy of parent's timing, or fresh */
void sm_entity_free(sm *s, unsigned e);
/* Entity e leaves its scheduler's members (both copies: the actor's by a
 * report) and takes `status`; false if it was no member (nothing done). */
bool sm_sched_leave(sm *s, unsigned e, uint8_t status);
/* Threads of entity e left the kernel: the caller frees the entity if empty. */
void sm_threads_exited(sm *s, unsigned cta, unsigned n);

/* sm_issue.c */
/* Timing shared by the entities of one issue slot. */
typedef struct slot_timing {
    core_unit_kind unit;
    uint64_t done;
    uint64_t send_at;
    unsigned threads;
    unsigned passes;         /* unit passes the slot's first entity booked */
    /* MIMD, core.mimd_pack_memory > 1 (sm_pack_mem.c): the memory entities
     * of the slot and their accesses, one per pseudo-lane */
    unsigned mem_entities;
    isa_exec_out mem;
} slot_timing;
bool sm_request_room(const sm *s);
/* Whether a global access could issue at cycle k: an entity whose next
 * instruction is one and that nothing read here holds back (gone, at a
 * barrier, held, waiting on memory or its fetch, or, with the scoreboard,
 * on its registers). Conservative: the units, the pick and the per-warp
 * limit are not looked at (the multi-SM run-ahead, sm.c). */
bool sm_may_issue_global(const sm *s, uint64_t k);
void sm_pack_mem_add(sm *s, slot_timing *t, const isa_exec_out *o, bool first);
bool sm_pack_mem_fits(sm *s, const slot_timing *t, unsigned e, const isa_inst *in);
bool sm_needs_reply(const sm *s, const isa_inst *in);
bool sm_is_control(const isa_inst *in);
/* Passes of a shared-memory access for its bank conflicts; an atomic's
 * same-word replays (core.smem_atomic_replay) go to *replays. */
unsigned sm_smem_degree(const sm *s, const isa_exec_out *o, const isa_inst *in, unsigned *replays);
unsigned sm_bank_degree(const isa_exec_out *o, unsigned banks, unsigned bank_bytes, bool atomic);
unsigned sm_line_count(const isa_exec_out *o, unsigned line_bytes);
void sm_send_request(sm *s, unsigned e, const isa_exec_out *o, bool reply, uint64_t done, uint64_t send_at,
                     uint64_t k, uint32_t pc);
void sm_fault(sm *s, unsigned e, uint32_t pc, const isa_exec_out *o);
void sm_rf_book_banks(sm *s, sm_sched_state *st, const isa_inst *in, uint64_t k);
/* sm_issue_form.c: issues the sub-warps of a formation policy's entity. */
void sm_issue_formed(sm *s, unsigned sc, unsigned e, uint64_t k, slot_timing *t);
uint8_t sm_entity_status(sm *s, unsigned e, uint64_t cycle, uint64_t *wake);
/* Issue what scheduler sc picks in this cycle; returns issue slots used. */
unsigned sm_issue_cycle(sm *s, unsigned sc, uint64_t cycle, uint64_t *wake, uint8_t *worst);
void sm_mem_response(sm *s, const warp_mem_resp *r, uint64_t cycle);
void sm_send_ready_requests(sm *s, uint64_t cycle);
static inline core_unit_kind sm_unit_of(const core_params *p, const isa_inst *in)
{
    switch (in->cls) {
    case ISA_CLASS_SFU: return CORE_UNIT_SFU;
    case ISA_CLASS_ALU_FP:
        /* cvt with a float type: the CVT units when the model has them */
        return in->op == ISA_OP_CVT && p->unit[CORE_UNIT_CVT].count ? CORE_UNIT_CVT : CORE_UNIT_ALU;
    case ISA_CLASS_LD_GLOBAL:
    case ISA_CLASS_ST_GLOBAL: return CORE_UNIT_LDST;
    case ISA_CLASS_LD_SHARED:
    case ISA_CLASS_ST_SHARED: return CORE_UNIT_SMEM;
    case ISA_CLASS_ATOMIC: return in->space == ISA_SPACE_SHARED ? CORE_UNIT_SMEM : CORE_UNIT_LDST;
    case ISA_CLASS_BARRIER: return p->unit[CORE_UNIT_BAR].count ? CORE_UNIT_BAR : CORE_UNIT_BRANCH;
    case ISA_CLASS_BRANCH:
    case ISA_CLASS_EXIT: return CORE_UNIT_BRANCH;
    default: return CORE_UNIT_ALU;
    }
}
/* Execute latency of `in` on unit kind u: the SFU's by function. */
static inline unsigned sm_latency_of(const core_params *p, const isa_inst *in, core_unit_kind u)
{
    if (u == CORE_UNIT_SFU) {
        switch (in->op) {
        case ISA_OP_SIN:
        case ISA_OP_COS: return p->sfu_sin_latency;
        case ISA_OP_EX2:
        case ISA_OP_LG2:
        case ISA_OP_EXP:
        case ISA_OP_LOG: return p->sfu_ex2_latency;
        case ISA_OP_RSQRT:
        case ISA_OP_RCP:
        case ISA_OP_SQRT: return p->sfu_rsqrt_latency;
        default: break;
        }
    }
    if (in->op == ISA_OP_COND_ACC || in->op == ISA_OP_TREE_TRAVERSE)
        return p->unit[u].latency + p->scan_cycles;
    return p->unit[u].latency;
}

/* A global load on an LD/ST unit held per line (core.ldst_line_bytes). */
static inline bool sm_ldst_by_line(const sm *s, core_unit_kind u, const isa_inst *in)
{
    return u == CORE_UNIT_LDST && s->p.ldst_line_bytes && in->cls == ISA_CLASS_LD_GLOBAL;
}
/* Cycles after the first pass until the instruction leaves the unit: its
 * passes, or the issue port's. Per-line LD/ST passes hold the unit but do
 * not change the latency through it (its lanes' passes, as without them):
 * the lines stream on to the L1, which takes one per cycle anyway. */
static inline uint64_t sm_pass_extra(const sm *s, core_unit_kind u, const isa_inst *in, unsigned passes)
{
    const core_unit_params *up = &s->p.unit[u];
    if (sm_ldst_by_line(s, u, in))
        passes = (s->p.warp_size + up->lanes - 1) / up->lanes;
    uint64_t own = (uint64_t)up->ii * (passes - 1);
    return own > s->passes_port - 1 ? own : s->passes_port - 1;
}
/* LD/ST passes of global access o: one per `lanes` threads, or with
 * core.ldst_line_bytes one per distinct line of a load; with core.l1d_banks
 * at least its L1 bank-conflict degree, the passes this adds in *conflict. */
static inline unsigned sm_ldst_passes(const sm *s, const isa_exec_out *o, const isa_inst *in, unsigned *conflict)
{
    const core_unit_params *up = &s->p.unit[CORE_UNIT_LDST];
    unsigned passes = (s->p.warp_size + up->lanes - 1) / up->lanes;
    *conflict = 0;
    if (sm_ldst_by_line(s, CORE_UNIT_LDST, in) && o->mem_lanes)
        passes = sm_line_count(o, s->p.ldst_line_bytes);
    if (s->p.l1d_banks && o->mem_lanes) {
        unsigned deg = sm_bank_degree(o, s->p.l1d_banks, s->p.l1d_bank_bytes, false);
        if (deg > passes) {
            *conflict = deg - passes;
            passes = deg;
        }
    }
    return passes;
}
/* Passes of a warp instruction through a unit of kind u, for both issue
 * paths: one per `lanes` threads, more when its shared-memory accesses
 * conflict on banks (the extra cycles counted in smem_conflict_cycles) or
 * its global accesses as sm_ldst_passes says (l1d_conflict_cycles). A
 * shared atomic's same-word replays add a pass and core.smem_atomic_replay
 * cycles of latency each (*lat_extra). */
static inline unsigned sm_unit_passes(sm *s, core_unit_kind u, const isa_exec_out *o, const isa_inst *in,
                                      unsigned *lat_extra)
{
    const core_unit_params *up = &s->p.unit[u];
    *lat_extra = 0;
    if (u == CORE_UNIT_LDST) {
        unsigned conflict;
        unsigned passes = sm_ldst_passes(s, o, in, &conflict);
        s->l1d_conflict_cycles += (uint64_t)conflict * up->ii;
        return passes;
    }
    unsigned passes = (s->p.warp_size + up->lanes - 1) / up->lanes;
    if (u == CORE_UNIT_SMEM && o->mem_lanes) {
        unsigned replays;
        unsigned deg = sm_smem_degree(s, o, in, &replays);
        if (deg > passes) {
            s->smem_conflict_cycles += (uint64_t)(deg - passes) * up->ii;
            passes = deg;
        }
        if (replays) {
            s->smem_conflict_cycles += (uint64_t)replays * up->ii;
            passes += replays;
            *lat_extra = replays * s->p.smem_atomic_replay;
        }
    }
    return passes;
}
/* The units of kind u scheduler sc may use: indices first, first + step, ...
 * below count. Shared by all (0, 1) unless core.units_per_scheduler; then
 * unit i serves scheduler i mod schedulers, and with fewer units than
 * schedulers scheduler sc uses unit sc mod count alone. */
static inline void sm_units_of(const core_params *p, core_unit_kind u, unsigned sc, unsigned *first,
                               unsigned *step)
{
    unsigned n = p->unit[u].count, ns = p->schedulers;
    *first = 0;
    *step = 1;
    if (!p->units_per_scheduler || ns == 1 || n == 0)
        return;
    if (n >= ns) {
        *first = sc;
        *step = ns;
    } else {
        *first = sc % n;
        *step = n;
    }
}
static inline bool sm_is_global(const isa_inst *in)
{
    return in->cls == ISA_CLASS_LD_GLOBAL || in->cls == ISA_CLASS_ST_GLOBAL ||
           (in->cls == ISA_CLASS_ATOMIC && in->space != ISA_SPACE_SHARED);
}
static inline const isa_program *sm_prog_of(const sm *s, unsigned e)
{
    return s->cta[s->ent[e].cta].launch->il.prog;
}
/* The instruction entity e is at: its program's, or its trace record's. */
/* Register-file accesses of one issue (docs/energy.md): each general
 * register the instruction reads or writes, once per active lane. */
static inline void sm_count_rf(sm *s, const isa_inst *in, unsigned lanes)
{
    s->rf_reads += (uint64_t)in->nreads * lanes;
    s->rf_writes += (uint64_t)in->ndst * lanes;
}

static inline const isa_inst *sm_inst_of(const sm *s, unsigned e)
{
    const sm_entity *w = &s->ent[e];
    if (w->trace)
        return atrace_inst(w->trace, w->pc);
    return &s->cta[w->cta].code[w->pc];
}

/* sm_sched_info.c: what memory-aware schedulers see of an entity */
void sm_sched_next(const void *host, unsigned id, sched_next *out);
unsigned sm_global_rank(const sm *s, unsigned e);
/* GTO age rank of entity e among scheduler sc's members (0 = oldest), -1
 * if no member (sched_age_rank on the SM's copy, for DaCache's requests). */
int sm_sched_rank(const sm *s, unsigned sc, unsigned e);

/* sm_cta.c */
/* The CTA warp index of hw slot `hw` (a CTA's warps are set up in order;
 * slots of later warps may hold stale ids, but only from free slots):
 * large warps and TBC blocks group consecutive warps of a CTA. */
static inline unsigned sm_cta_warp_index(const sm *s, unsigned hw)
{
    const sm_cta *c = &s->cta[s->hw[hw].cta];
    unsigned w = 0;
    while (c->hw[w] != hw)
        w++;
    return w;
}
void sm_cta_arrive(sm *s, const cta_start_msg *m, uint64_t cycle);
void sm_cta_maybe_done(sm *s, unsigned cta);
void sm_barrier_arrive(sm *s, unsigned e, uint64_t done);
/* After entity e issued the instruction at pc (outcome o, `exited` threads
 * leaving, last result at `done`): the policy's (or the trace's) next pc,
 * the entity's status, exits and barrier arrival. Both issue paths. */
void sm_issue_retire(sm *s, unsigned e, uint32_t pc, const isa_inst *in, const isa_exec_out *o,
                     unsigned exited, uint64_t done);
void sm_barrier_check(sm *s, unsigned cta);
void sm_send_reports(sm *s, uint64_t cycle);

/* sm_stats.c */
void sm_stats_register(sm *s, stats *st);
/* The last stall run of every scheduler into the trace (sm_stats.c). */
void sm_trace_flush_stalls(sm *s);
/* Resolve the SM's trace tracks (sm_issue.c); t NULL: no trace. */
void sm_trace_tracks(sm *s, struct trace *t);
void sm_account_issue_cycle(sm *s, unsigned sc, uint64_t cycle);
void sm_account_idle_cycle(sm *s, unsigned sc, uint64_t cycle, uint8_t worst);
void sm_account_replay(sm *s, uint64_t n);
void sm_account_empty(sm *s, uint64_t n);
unsigned sm_wcat_bucket(const sm *s, unsigned threads);

/* Scheduler sc's actor (sched_actor.h): one exchange within cycle k. */
/* Entity `id`'s status is now `st`: the SM's own view, and a report to its
 * scheduler actor when it changed (sched_actor.h: the actor keeps its own
 * copy). Every status write of the SM and its policies goes through here. */
static inline void sm_set_status(sm *s, unsigned id, uint8_t st)
{
    if (s->status[id] == st)
        return;
    s->status[id] = st;
    s->sc[s->ent[id].sched].st_valid = false;
    sched_actor_report(&s->sc[s->ent[id].sched].act, s->sched_group, &s->sched_tick, id, st);
}

/* The status inputs of entity e changed (its own fields: live, pc, lanes,
 * ready_at, mem_wait, at_barrier, held): its scheduler's statuses are
 * computed afresh (sm_sched_state.st_valid). */
static inline void sm_entity_touched(sm *s, unsigned e) { s->sc[s->ent[e].sched].st_valid = false; }

/* The status inputs of every entity of hw warp hw changed (its scoreboard,
 * pending requests): the schedulers that held its entities. */
static inline void sm_hw_touched(sm *s, unsigned hw)
{
    for (unsigned m = s->hw[hw].scheds; m; m &= m - 1)
        s->sc[__builtin_ctz(m)].st_valid = false;
}

/* Something may have changed the statuses of any scheduler's members (a
 * policy's own pass over its entities). */
static inline void sm_statuses_changed(sm *s)
{
    for (unsigned i = 0; i < s->p.schedulers; i++)
        s->sc[i].st_valid = false;
}

#define NO_MEMBER UINT32_MAX

/* The SM's member sets: add and remove in constant time (swap with the
 * last); the order is the SM's business only. */
static inline void sm_members_add(sm *s, sm_sched_state *q, unsigned id)
{
    s->member_at[id] = q->n;
    q->members[q->n++] = id;
    q->st_valid = false;
    s->hw[s->ent[id].hw].scheds |= (uint8_t)(1u << (q - s->sc));
}
static inline bool sm_members_remove(sm *s, sm_sched_state *q, unsigned id)
{
    uint32_t i = s->member_at[id];
    if (i == NO_MEMBER)
        return false;
    q->st_valid = false;
    unsigned last = q->members[--q->n];
    q->members[i] = last;
    s->member_at[last] = i;
    s->member_at[id] = NO_MEMBER;
    return true;
}

/* Entity id's scheduler-local warp slot is now `slot` (fetch groups). */
static inline void sm_set_slot(sm *s, unsigned id, uint32_t slot)
{
    s->slot[id] = slot;
    sched_actor_report_flag(&s->sc[s->ent[id].sched].act, s->sched_group, &s->sched_tick, id,
                            s->status[id], SCHED_SLOT, slot);
}

/* The policy of scheduler sc records entity id's issue at cycle k, with
 * the next message (after the reports before it, as an `issued` message
 * sent now would). A memory-aware policy's record reads the entity's
 * next instruction and the LD/ST unit's state (OAWS's prediction, which
 * the request about to be sent carries), so it goes at once. */
static inline void sm_sched_record(sm *s, unsigned sc, unsigned id, uint64_t k)
{
    sched_actor *a = &s->sc[sc].act;
    sched_actor_report_flag(a, s->sched_group, &s->sched_tick, id, s->status[id], SCHED_ISSUED, k);
    sched_reply r;
    if (((const sched_ops *)s->p.scheduler->ops)->mem_state &&
        sched_actor_exchange(a, s->sched_group, &s->sched_tick,
                             (sched_msg){.kind = SA_SYNC, .issued = (int32_t)id}, &r))
        s->pred[id] = r.pred;
}

/* Forced inline: the hottest exchange (one per issuing cycle), which the
 * compiler otherwise outlines from sm_issue.c's several call sites. */
static inline __attribute__((always_inline)) int sm_sched_ask(sm *s, unsigned sc, uint8_t kind, uint64_t k)
{
    sched_reply r;
    if (!sched_actor_exchange(&s->sc[sc].act, s->sched_group, &s->sched_tick,
                              (sched_msg){.kind = kind, .issued = -1, .k = k}, &r))
        return -1;
    if (kind == SA_PICK && r.id >= 0)
        s->pred[r.id] = r.pred;   /* an issue: its prediction goes with its request */
    return r.id;
}

#endif
