/* Internals shared by the files of src/gen. */
#ifndef SIMTGRID_GEN_INTERNAL_H
#define SIMTGRID_GEN_INTERNAL_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "simtgrid/gen.h"

enum gen_key {
#define KEY(id, name, type, unit, def, min, max, choices, desc) id,
#include "gen/profile_keys.def"
#undef KEY
    K_COUNT
};

/* Enum values, in the order of their choices in profile_keys.def. */
enum { LOOP_UNIFORM, LOOP_LANE_SKEW, LOOP_DATA };
enum { PAT_NONE, PAT_COALESCED, PAT_STRIDED, PAT_GATHER, PAT_CHASE, PAT_BROADCAST, PAT_CSR, PAT_TREE };
enum { CACHE_CA, CACHE_CG, CACHE_CS };
enum { STORE_NONE, STORE_EACH, STORE_END };
enum { BR_NONE, BR_IFELSE, BR_NESTED, BR_PREDICATED };
enum { COND_BIASED, COND_LANE_PARITY, COND_DATA };
enum { SH_NONE, SH_PRIVATE, SH_EXCHANGE };

/* One value per key: integers, floats, bools and enum indices as int64 or
 * double; strings owned. `line` is where the key was set (0: default). */
struct gen_profile {
    char *path;
    char *name;        /* profile.name, else the file's base name */
    char *desc;
    int64_t v[K_COUNT];
    double f[K_COUNT];
    int line[K_COUNT];
};

static inline int64_t gp_int(const gen_profile *p, enum gen_key k) { return p->v[k]; }
static inline double gp_float(const gen_profile *p, enum gen_key k) { return p->f[k]; }

/* ---- emission (gen_emit.c, gen_mem.c, gen_compute.c) ------------------- */

/* The state of writing one kernel. Registers have fixed jobs (gen_emit.c). */
typedef struct gen_ctx {
    const gen_profile *p;
    GString *out;
    uint64_t rng;        /* splitmix64 state, from the seed */
    unsigned labels;     /* next label number */
    uint64_t n_elems;    /* elements of the data array */
    uint64_t n_out;      /* elements of the out array */
    unsigned log2_width; /* log2 of memory.width */
    unsigned pos;        /* register holding the iteration's position (r3, or r26 with reuse) */
    unsigned val;        /* register holding the last loaded value */
    uint32_t seed_data, seed_index, seed_trips, seed_graph; /* initializer seeds */
    uint32_t k1, k2, k3, k4;                                /* odd hash multipliers */
    /* Registers handed out by need (0 when unused): f32 accumulators
     * facc..facc+3, reuse position, chase/CSR/tree cursor, CSR edge range or
     * tree scratch, shared addresses of this and the next thread, and the
     * 2nd..4th words of a 16-byte load. */
    unsigned facc, r_pos, r_cur, r_e, r_eend, r_saddr, r_snext, r_val2;
    unsigned chains; /* compute.chains: accumulators per class */
} gen_ctx;

uint64_t gen_rand(gen_ctx *c);                 /* next splitmix64 output */
uint64_t gen_below(gen_ctx *c, uint64_t n);    /* uniform on [0, n) */
void gen_line(gen_ctx *c, const char *fmt, ...) G_GNUC_PRINTF(2, 3);    /* one indented instruction */
void gen_comment(gen_ctx *c, const char *fmt, ...) G_GNUC_PRINTF(2, 3); /* "    // ..." */
void gen_label(gen_ctx *c, const char *name, unsigned n);               /* "name_n:" */
/* r = r mod n, with `and` when n is a power of two. */
void gen_mod(gen_ctx *c, unsigned reg, uint64_t n);

/* Declarations of the data arrays the pattern needs (gen_mem.c). */
void gen_mem_decls(gen_ctx *c);
/* Set-up before the loop (chase start, ...). */
void gen_mem_prologue(gen_ctx *c);
/* The loop body's loads, each followed by its share of the compute and,
 * after the first, the branch region (gen_mem.c calls gen_compute_*). */
void gen_mem_body(gen_ctx *c);
/* Store of the result every iteration (memory.store = each). */
void gen_mem_store_each(gen_ctx *c);

/* `n` instructions drawn from the mix (gen_compute.c). `guard` is "" or
 * "@p0 " / "@!p0 " for predicated regions. */
void gen_compute_ops(gen_ctx *c, int64_t n, const char *guard);
/* The branch region of branch.shape (nothing for none). */
void gen_branch_region(gen_ctx *c);
/* Adds the loaded value in `reg` into an accumulator (the load's consumer). */
void gen_consume(gen_ctx *c, unsigned reg, unsigned k);
/* Hands out the optional registers this profile needs (gen_emit.c). */
void gen_regs_assign(gen_ctx *c);

/* Registers every kernel has (r0..r9, then compute.chains integer
 * accumulators from r10). The rest are handed out in order by
 * gen_regs_assign, only to kernels that need them, so a plain kernel with 2
 * chains uses 12 registers and fits the LWM baseline's 16 per thread. */
enum {
    R_GID = 0, R_LANE = 1, R_NTHREADS = 2, R_ITER = 3, R_TRIPS = 4, R_IDX = 5, R_ADDR = 6,
    R_VAL = 7,       /* the loaded value (first of four for 16-byte loads) */
    R_TMP = 8, R_HASH = 9,
    R_IACC = 10      /* r10..: the integer accumulators */
};

#endif
