/* The SM timing model and the CTA dispatcher, as DES actors (docs/core.md).
 *
 * An SM executes its warps functionally at issue (isa_exec) and times them:
 * front end and schedulers, barrel or scoreboard discipline, reconvergence,
 * functional units, shared memory, barriers. Global memory instructions
 * leave on a request port as warp_mem_req and come back as warp_mem_resp
 * (memport.h); the memory side may be the ideal block (ideal_mem.h) or the
 * real LD/ST unit + caches.
 *
 * Construction, explicit and in this order:
 *   core_params p;  core_params_from_config(cfg, &p, &err);
 *   sm *s[n];       s[i] = sm_new(engine, &p, i, &core_clock, st);
 *   memory ports:   des_port_new(..., sender = sm_actor(s[i]), receiver = mem) and back,
 *                   sm_connect_mem(s[i], req, resp)
 *   dispatcher *d = dispatcher_new(engine, &p, &core_clock, s, n, st);
 *   per SM: a port each way, dispatcher_connect_sm(d, i, to, from) and
 *           sm_connect_dispatch(s[i], to, from) (the chip builder's
 *           gpu_link_dispatch does both)
 *   dispatcher_add_launch(d, &launch, &err) ...
 *   des_run(engine);  then dispatcher_unfinished(d) (0 = every CTA ran), sm_error(s[i]),
 *   sm_finalize_stats / dispatcher_finalize_stats, and the *_free calls. */
#ifndef SIMTGRID_CORE_H
#define SIMTGRID_CORE_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "simtgrid/config.h"
#include "simtgrid/des.h"
#include "simtgrid/isa.h"
#include "simtgrid/policy.h"
#include "simtgrid/stats.h"

/* ---- parameters (src/core/params.def) ---------------------------------- */

typedef enum core_discipline { CORE_BARREL, CORE_SCOREBOARD } core_discipline;
typedef enum core_dispatch_order { CORE_DISPATCH_RR, CORE_DISPATCH_H100 } core_dispatch_order;
/* Two-level group switch: (a) all on long-latency waits, (b) none fetchable. */
/* DWF issue policies and register-file models (core.dwf_policy, core.dwf_rf). */
enum { DWF_POL_MAJ, DWF_POL_MIN, DWF_POL_TIME, DWF_POL_PC, DWF_POL_PDPRI };
enum { DWF_RF_LAS, DWF_RF_IDEAL, DWF_RF_BANKS };
#define DWF_HEAP_PORTS_MAX 8   /* core.dwf_heap_ports range */
/* DPdPri's post-dominators (core.dwf_pdpri_count): of conditional branches, of every branch. */
enum { DWF_PD_COND, DWF_PD_ANY };
/* Where a lane-aware group's conflicting threads go (core.dwf_las_merge):
 * a new warp (the thesis), or first the pc's older pool warps. */
enum { DWF_MERGE_LUT, DWF_MERGE_ANY };
/* What a banks register file's conflict costs (core.dwf_bank_cost): a
 * scheduler cycle per extra thread of a home lane, or the thesis's register
 * read stage (a pipeline cycle per extra thread of a bank in each pass). */
enum { DWF_BANK_LANE, DWF_BANK_PASS };
/* What a thread's home lane is (core.dwf_home_lane): one of the warp's
 * warp_size slots, or one of the simd_width pipeline lanes (its register
 * bank), any of the warp's warp_size / simd_width slots on it. */
enum { DWF_HOME_SLOT, DWF_HOME_PIPE };
/* How thread swizzling moves home lanes (core.dwf_swizzle_map): xor 1 in
 * odd warps, or rotated by the warp's index. */
enum { DWF_SWZ_XOR, DWF_SWZ_ROTATE };
/* Where a banks register file puts a thread (core.dwf_bank_place): the
 * lowest free lane, or its home lane first. */
enum { DWF_PLACE_LOW, DWF_PLACE_HOME };
/* Threads a barrier releases (core.dwf_barrier_lut): written back through
 * the PC-warp LUT, or each carrier a pool warp of its own that issues
 * first (the thesis's simulator). */
enum { DWF_BAR_LOOKUP, DWF_BAR_BYPASS };
/* DMaj's order of pcs with as many threads (core.dwf_heap_tie): heap
 * position, or the smaller pc first (the thesis's simulator). */
enum { DWF_TIE_POSITION, DWF_TIE_PC };
typedef enum core_2lev_trigger { CORE_2LEV_LONGLAT, CORE_2LEV_NOFETCH } core_2lev_trigger;
/* Two-level: the group that becomes top, the next in order or the one fetched from. */
typedef enum core_2lev_select { CORE_2LEV_NEXT, CORE_2LEV_FETCHABLE } core_2lev_select;
typedef enum core_unit_kind {
    CORE_UNIT_ALU, CORE_UNIT_SFU, CORE_UNIT_LDST, CORE_UNIT_SMEM, CORE_UNIT_BRANCH,
    CORE_UNIT_CVT,   /* cvt with a float type; count 0 = they run on the ALU */
    CORE_UNIT_BAR,   /* barriers; count 0 = they run on the branch units */
    CORE_UNIT_KINDS
} core_unit_kind;

/* dws memory subdivision policy (core.dws_mem_split). */
typedef enum core_dws_mem { CORE_DWS_MEM_OFF, CORE_DWS_AGGRESS, CORE_DWS_LAZY, CORE_DWS_REVIVE, CORE_DWS_SLIP } core_dws_mem;

typedef struct core_unit_params {
    unsigned count;     /* pipelines of this kind per SM */
    unsigned lanes;     /* resolved: never 0 */
    unsigned latency;   /* cycles */
    unsigned ii;        /* initiation interval per pass */
} core_unit_params;

typedef struct core_params {
    unsigned warp_size, simd_width;
    unsigned max_warps, max_threads, max_ctas, regs, smem_bytes;
    bool one_cta_at_a_time;
    bool dispatch_restart;   /* each launch's first CTA goes to the first SM of its range */
    core_dispatch_order dispatch_order;   /* the order the SMs are visited in */
    unsigned cta_launch_latency;
    double dispatch_interval;   /* cycles between rate-limited CTA dispatches (0 = none) */
    unsigned dispatch_burst;    /* CTAs per SM of a launch free of the rate limit */
    unsigned schedulers, issue_width;
    const policy *scheduler;       /* core.scheduler's row: ops are a sched_ops */
    unsigned fetch_group;
    core_2lev_trigger two_level_trigger;
    core_2lev_select two_level_select;
    uint64_t two_level_timeout;    /* 0 = off */
    unsigned oaws_smr;             /* oaws-static: predicted miss rate of a divergent load, percent */
    unsigned swl_limit;            /* swl: warps per scheduler allowed to issue */
    unsigned mascar_reexec;        /* mascar: re-execution queue entries in the LD/ST unit */
    core_discipline discipline;
    unsigned refetch_latency, pipeline_depth;
    const policy *reconv;          /* core.reconv's row: ops are a reconv_ops */
    unsigned lw_rows;              /* lwm: rows (warps) per large warp */
    bool lwm_relaxed;              /* lwm: relaxed re-fetch */
    bool lwm_jump_opt, lwm_memdiv_opt, lwm_pred_pack;
    bool lwm_any;                  /* lwm: perfRF packing */
    unsigned tbc_rows;             /* tbc: rows (warps) per compaction block */
    /* dwf (src/core/reconv_dwf.c) */
    unsigned dwf_policy;           /* DWF_POL_* */
    unsigned dwf_rf;               /* DWF_RF_* */
    unsigned dwf_pdpri_count;      /* DWF_PD_* */
    unsigned dwf_las_merge;        /* DWF_MERGE_* */
    unsigned dwf_bank_cost;        /* DWF_BANK_* */
    unsigned dwf_home_lane;        /* DWF_HOME_* */
    unsigned dwf_swizzle_map;      /* DWF_SWZ_* */
    unsigned dwf_bank_place;       /* DWF_PLACE_* */
    unsigned dwf_barrier_lut;      /* DWF_BAR_* */
    unsigned dwf_heap_tie;         /* DWF_TIE_* */
    bool dwf_swizzle;
    unsigned dwf_pool_entries;     /* 0 = infinite */
    unsigned dwf_lut_entries, dwf_lut_assoc, dwf_lut_lookups;
    bool dwf_heap_infinite;
    unsigned dwf_heap_entries, dwf_mheap_lut_entries, dwf_mheap_lut_assoc;
    unsigned dwf_heap_ports;       /* limited heap: parallel insertions (<= DWF_HEAP_PORTS_MAX) */
    unsigned oracle_dp_cells;      /* oracle: exact alignment up to this table size */
    unsigned mimd_pack_memory;     /* mimd: memory entities per issue slot (1 = alone) */
    /* dws (core.dws_*): structure sizes (slots resolved), subdivision and
     * re-convergence choices */
    unsigned dws_wst_entries, dws_slots, dws_block_limit;
    bool dws_branch_split, dws_nested_split, dws_loop_split, dws_pc_merge, dws_pc_merge_resume, dws_branch_limited, dws_ready_queue;
    core_dws_mem dws_mem_split;
    /* adaptive slip (core.dws_mem_split = slip) */
    unsigned dws_slip_limit, dws_slip_mem_pct, dws_slip_active_pct;
    uint64_t dws_slip_interval;
    unsigned mem_pending_per_warp;
    bool wait_for_stores;
    core_unit_params unit[CORE_UNIT_KINDS];
    /* SFU latency by function (resolved: core.sfu_latency where 0). */
    unsigned sfu_sin_latency, sfu_ex2_latency, sfu_rsqrt_latency;
    bool units_per_scheduler;      /* unit i serves scheduler i mod schedulers */
    bool issue_rotate;             /* shared units claimed in rotating scheduler order */
    unsigned smem_banks, smem_bank_bytes, barrier_latency;
    bool smem_atomic_uniform;      /* one word for the whole warp: one update */
    bool smem_atomic_serial;       /* a warp's shared atomics one at a time */
    bool smem_atomic_half_warps;   /* an add of an immediate: two half-warps, conflicts per half */
    unsigned smem_atomic_replay;   /* 0: lanes serialize per bank; else replay latency */
    unsigned smem_queue;           /* 0: issue waits for a free shared unit; else queue entries per unit */
    unsigned l1d_banks;          /* core.l1d_banks: 0 = no L1 bank conflicts */
    unsigned l1d_bank_bytes;     /* core.l1d_bank_bytes: bytes per L1 bank interleave unit */
    unsigned ldst_line_bytes;    /* core.ldst_line_bytes: 0 = LD/ST passes per lanes threads */
    unsigned rf_banks;             /* register-file banks; 0 = no conflicts */
    unsigned cond_acc_levels_per_cycle; /* prefix-sum adder levels per cycle, 0 = free */
    unsigned scan_cycles;          /* cycles COND_ACC / TREE_TRAVERSE's prefix sum adds */
} core_params;

/* Reads every core.* parameter. Fails (err names the keys) on combinations no
 * SM can run, e.g. max_warps * warp_size < warp_size. */
bool core_params_from_config(const config *c, core_params *p, GError **err);
/* The row of policy `name` for parameter `param` (core.scheduler,
 * core.reconv): built-in (src/core/registry.def) or registered with
 * policy_register; NULL if none. */
const policy *core_policy(const char *param, const char *name);

/* ---- the SM ------------------------------------------------------------- */

typedef struct sm sm;

sm *sm_new(des_engine *e, const core_params *p, unsigned id, const des_clock *core, stats *st);
des_actor *sm_actor(sm *s);
unsigned sm_id(const sm *s);
/* The ports to the memory side (warp_mem_req out, warp_mem_resp in). */
void sm_connect_mem(sm *s, des_port *req_out, des_port *resp_in);
/* The memory side acknowledges fire-and-forget stores (a warp_mem_resp with
 * op MEM_STORE once the store is performed: the cache hierarchy does, the
 * ideal memory does not): a CTA then ends only after its stores have, as a
 * GPGPU-Sim warp is not done before its stores are (stores_done). */
void sm_expect_store_acks(sm *s);
/* The LD/ST unit's state for memory-aware schedulers (OAWS, CCWS, MASCAR;
 * shared with the unit, simtgrid/memfeedback.h); none by default, and only
 * wanted when the SM's scheduler reads it (sm_wants_feedback). */
struct mem_feedback;
void sm_set_feedback(sm *s, struct mem_feedback *fb);
bool sm_wants_feedback(const sm *s);
/* Global requests carry the warp's GTO priority in its scheduler
 * (warp_mem_req.prio), for an L1 replacement policy that places lines by it
 * (DaCache, Wang ch. 4). Off by default: ranking the warps costs a pass over
 * the scheduler per request, and no other policy reads it. */
void sm_send_priority(sm *s);
/* A time series reads the SM's stall counters at each probe. The SM
 * accounts an idle stretch as it runs or, sleeping, when it next wakes, so
 * how far it runs ahead decides which row a stretch lands in: with a
 * series it keeps to its input latency while other SMs are busy (no
 * multi-SM run-ahead, sm_lone.c), and the rows stay as they were. */
void sm_keep_probe_rows(sm *s);
/* Memory-divergence characterisation (gpu.memdiv_stats): every scheduler
 * counts its issues by the warp's GTO rank in `h` (shared by the chip), and
 * requests carry the rank (as sm_send_priority). */
struct stats_hist;
void sm_count_issue_ranks(sm *s, struct stats_hist *h);
/* Most responses the SM can have outstanding: size the response port so. */
unsigned sm_max_outstanding(const sm *s);
/* A functional error met by a warp (shared memory out of bounds), or NULL. */
const char *sm_error(const sm *s);

/* Called for every issue, for tests and traces: the warp slot, the pc and
 * the active lanes. One NULL test per issue when unset. */
typedef void (*sm_issue_hook)(void *ctx, unsigned sm, uint64_t cycle, unsigned sched,
                              unsigned warp, uint32_t pc, uint32_t active);
void sm_set_issue_hook(sm *s, sm_issue_hook fn, void *ctx);

/* Totals, for tests and the chip builder (also in the statistics). */
typedef struct sm_totals {
    uint64_t cycles;         /* from the first CTA's arrival to the last CTA's end */
    uint64_t warp_insts, thread_insts;
    uint64_t ctas;
    uint64_t fu_idle_cycles; /* scheduler-cycles with 0 active lanes */
} sm_totals;
/* The run was cut at core cycle `last` (sim.max_cycles): an SM asleep on a
 * full request port counts its idle cycles up to it, as one polling every
 * cycle would (call before sm_get_totals). */
void sm_finish_at_limit(sm *s, uint64_t last);
sm_totals sm_get_totals(const sm *s);
/* Registers the derived statistics (IPCs, averages) once the run is over. */
void sm_finalize_stats(sm *s, stats *st);
void sm_free(sm *s);

/* ---- kernel launches and the CTA dispatcher ---------------------------- */

typedef struct core_launch {
    const char *name;
    const isa_program *prog;
    memimg *mem;
    uint32_t grid[3], block[3];
    int sm_first, sm_last;     /* -1, -1 = every SM */
    const unsigned *sms;       /* the SMs named, ascending (sm_first .. sm_last), or NULL = all of that range */
    unsigned nsms;
    uint64_t start;            /* core cycle, when after < 0 */
    int after;                 /* index of an earlier launch to wait for, or -1 */
    const uint64_t *params;
    unsigned nparams;
    /* A trace-driven kernel (atrace.h): its warps replay the trace instead of
     * executing `prog`, which is then the trace's stub (registers, shared
     * memory). NULL for a .sasm kernel. */
    const struct atrace_kernel *trace;
} core_launch;

typedef struct dispatcher dispatcher;

dispatcher *dispatcher_new(des_engine *e, const core_params *p, const des_clock *core, sm **sms,
                           unsigned nsms, stats *st);
des_actor *dispatcher_actor(dispatcher *d);
/* SM i's ports: CTA starts to it (cta_start_msg), CTA ends from it
 * (cta_done_msg). */
void dispatcher_connect_sm(dispatcher *d, unsigned i, des_port *to_sm, des_port *from_sm);
/* Checks the launch (dimensions, parameters, SM range, `after`, and that one
 * CTA fits an empty SM) and queues it; returns its index, or -1 with err. */
int dispatcher_add_launch(dispatcher *d, const core_launch *l, GError **err);
/* CTAs not finished (0 after a complete run; more means a deadlock, a fault
 * or the cycle limit). */
uint64_t dispatcher_unfinished(const dispatcher *d);
/* fn(ctx) runs when a launch starts, before its first CTA is handed out. */
void dispatcher_on_launch_start(dispatcher *d, void (*fn)(void *ctx), void *ctx);
unsigned dispatcher_nlaunches(const dispatcher *d);

typedef struct core_launch_result {
    bool started, finished;
    uint64_t start_cycle;   /* when the dispatcher started it */
    uint64_t end_cycle;     /* the last CTA's end cycle */
    uint64_t ctas_done;
} core_launch_result;
core_launch_result dispatcher_launch_result(const dispatcher *d, unsigned launch);
/* Per CTA (linear id): SM, arrival and end cycles; false if not run yet. */
bool dispatcher_cta_times(const dispatcher *d, unsigned launch, uint64_t cta, unsigned *sm,
                          uint64_t *start, uint64_t *end);
/* Writes per-launch results and the per-CTA start/end series. */
void dispatcher_finalize_stats(dispatcher *d, stats *st);
void dispatcher_free(dispatcher *d);

#endif
