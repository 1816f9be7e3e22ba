/* Messages between an SM and its memory pipeline (the LD/ST unit with the
 * coalescer and L1D, or the ideal memory used by SM tests).
 *
 * The SM sends one warp_mem_req per issued global-memory warp instruction,
 * with every active lane's address; the memory side answers with one
 * warp_mem_resp when all of that instruction's data has returned (loads,
 * atomics) or been accepted (stores, when the model wants the warp to wait for
 * them). The SM never sees lines or sectors: coalescing is the memory side's. */
#ifndef SIMTGRID_MEMPORT_H
#define SIMTGRID_MEMPORT_H

#include <stdint.h>

enum mem_op { MEM_LOAD = 0, MEM_STORE = 1, MEM_ATOMIC = 2 };

enum mem_flags {
    MEM_L2_ONLY = 1 << 0,   /* ld.cg: do not allocate or look up in the L1 */
    MEM_ROW_HINT = 1 << 1,  /* DRAM row-locality hint bit (database seed) */
    MEM_STREAM = 1 << 2,    /* ld.cs: evict-first */
    MEM_NO_REPLY = 1 << 3,  /* fire-and-forget store: the warp does not wait (the cache
                               hierarchy still reports it performed: sm_expect_store_acks) */
    MEM_LANE_REPORT = 1 << 4, /* a load: also report each access's lanes when its data is ready
                                 (partial responses before the final one; dynamic warp subdivision) */
    MEM_PEER = 1 << 5,      /* an L2 slice's miss sent to the line's home slice in the other L2
                               partition (l2.partitions = 2), and that slice's reply */
};

#define MEMPORT_LANES 32

typedef struct warp_mem_req {
    uint64_t addr[MEMPORT_LANES]; /* byte address per lane (valid where active) */
    uint32_t active;              /* lanes taking part */
    uint32_t tag;                 /* chosen by the SM, echoed in the response */
    uint16_t sm;                  /* issuing SM */
    uint16_t warp;                /* warp slot in the SM (for statistics, taxonomy) */
    uint8_t op;                   /* enum mem_op */
    uint8_t size;                 /* bytes per lane: 1, 2, 4, 8, 16 */
    uint8_t flags;                /* enum mem_flags */
    uint8_t prio;                 /* GTO age rank of the warp in its scheduler, 0 = oldest (DaCache) */
    uint32_t pc;                  /* instruction index, for per-PC statistics */
    const char *kernel;           /* its kernel's name (owned by the program or trace): per-PC
                                     statistics are per kernel, as PCs restart at 0 in each */
    uint8_t gprio;                /* GTO age rank of the warp in the SM, 0 = oldest (OAWS's FCW) */
    uint8_t pred;                 /* OAWS: misses predicted at issue (simtgrid/memfeedback.h) */
    uint64_t ready_at;            /* core cycle it was ready to leave the SM (the time it then
                                     waits to enter the LD/ST unit is occlusion, Wang Fig 2.6) */
} warp_mem_req;

typedef struct warp_mem_resp {
    uint32_t tag;
    uint16_t warp;
    uint8_t op;
    uint8_t accesses;             /* lines this instruction needed (statistics) */
    uint8_t partial;              /* MEM_LANE_REPORT: only `lanes` have their data; more follows */
    uint32_t lanes;               /* partial: the lanes this report serves */
} warp_mem_resp;

#endif
