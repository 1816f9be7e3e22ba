/* The SIMT instruction set (.sasm): loader, control-flow graph, immediate
 * post-dominators and the functional executor.
 *
 * A program is parsed and decoded once (isa_program_load_file); every
 * instruction becomes a small isa_inst the timing model reads directly (class,
 * registers read and written, memory size, cache and row hints, branch target,
 * reconvergence pc). The executor (isa_exec) runs one instruction for up to 32
 * lanes, each lane a pointer to a thread's state, so threads of different
 * warps can share an issue (dynamic warp formation). It really computes:
 * registers, shared and global memory (through memimg) change as on a GPU.
 * It never advances a thread's pc: the caller's reconvergence policy owns pcs,
 * helped by isa_lane_next_pc and isa_ipdom.
 *
 * The text format, every opcode and examples: docs/sasm.md. */
#ifndef SIMTGRID_ISA_H
#define SIMTGRID_ISA_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "simtgrid/memimg.h"

#define ISA_ERROR (isa_error_quark())
GQuark isa_error_quark(void);
enum { ISA_ERROR_INPUT = 1, ISA_ERROR_RUN = 2 };

#define ISA_MAX_REGS 255     /* r0..r254 */
#define ISA_REG_NONE 255
#define ISA_NUM_PREDS 8      /* p0..p7 */
#define ISA_PRED_NONE 255
#define ISA_MAX_PARAMS 32
#define ISA_MAX_LANES 32
#define ISA_PC_EXIT UINT32_MAX /* the virtual exit node (== core's PDOM_NO_RPC) */

/* What executes an instruction: the timing model prices by class. */
typedef enum isa_class {
    ISA_CLASS_NOP,
    ISA_CLASS_ALU_INT,   /* integer, logic, compare, select, predicate, int conversions, mov, param */
    ISA_CLASS_ALU_FP,    /* f32/f64 add, mul, fma, min, max, abs, neg, compare; conversions with a float */
    ISA_CLASS_SFU,       /* sin cos ex2 lg2 exp log rsqrt rcp sqrt, float div */
    ISA_CLASS_LD_GLOBAL,
    ISA_CLASS_ST_GLOBAL, /* also cond_acc.global */
    ISA_CLASS_LD_SHARED,
    ISA_CLASS_ST_SHARED, /* also cond_acc.shared */
    ISA_CLASS_ATOMIC,    /* space in isa_inst.space */
    ISA_CLASS_BRANCH,
    ISA_CLASS_BARRIER,
    ISA_CLASS_INTRINSIC, /* ballot, vote, shfl, tree_traverse: cross-lane */
    ISA_CLASS_EXIT,
    ISA_CLASS_COUNT
} isa_class;

typedef enum isa_op {
    ISA_OP_NOP, ISA_OP_MOV, ISA_OP_SREG, ISA_OP_PARAM,
    ISA_OP_ADD, ISA_OP_SUB, ISA_OP_MUL, ISA_OP_MAD, ISA_OP_DIV, ISA_OP_REM,
    ISA_OP_MIN, ISA_OP_MAX, ISA_OP_ABS, ISA_OP_NEG,
    ISA_OP_AND, ISA_OP_OR, ISA_OP_XOR, ISA_OP_NOT, ISA_OP_SHL, ISA_OP_SHR,
    ISA_OP_POPC, ISA_OP_CLZ,
    ISA_OP_SET, ISA_OP_SETP, ISA_OP_SELP, ISA_OP_PAND, ISA_OP_POR, ISA_OP_PXOR, ISA_OP_PNOT,
    ISA_OP_CVT,
    ISA_OP_SIN, ISA_OP_COS, ISA_OP_EX2, ISA_OP_LG2, ISA_OP_EXP, ISA_OP_LOG,
    ISA_OP_RSQRT, ISA_OP_RCP, ISA_OP_SQRT,
    ISA_OP_LD, ISA_OP_ST, ISA_OP_ATOM, ISA_OP_COND_ACC,
    ISA_OP_BALLOT, ISA_OP_VOTE, ISA_OP_SHFL, ISA_OP_TREE_TRAVERSE,
    ISA_OP_BRA, ISA_OP_BAR, ISA_OP_EXIT,
    ISA_OP_COUNT
} isa_op;

/* Operand/result type. Integers are read from the low bits of the 64-bit
 * register (sign- or zero-extended) and written back extended the same way;
 * f32 is the low 32 bits as IEEE single, f64 the whole register. */
typedef enum isa_type {
    ISA_T_U64, ISA_T_S64, ISA_T_U32, ISA_T_S32, ISA_T_U16, ISA_T_S16, ISA_T_U8, ISA_T_S8,
    ISA_T_F32, ISA_T_F64,
    ISA_T_COUNT
} isa_type;

typedef enum isa_cmp { ISA_CMP_EQ, ISA_CMP_NE, ISA_CMP_LT, ISA_CMP_LE, ISA_CMP_GT, ISA_CMP_GE } isa_cmp;
typedef enum isa_atom_op {
    ISA_ATOM_ADD, ISA_ATOM_MIN, ISA_ATOM_MAX, ISA_ATOM_EXCH, ISA_ATOM_CAS,
    ISA_ATOM_AND, ISA_ATOM_OR, ISA_ATOM_XOR
} isa_atom_op;
typedef enum isa_shfl_mode { ISA_SHFL_IDX, ISA_SHFL_UP, ISA_SHFL_DOWN, ISA_SHFL_BFLY } isa_shfl_mode;
typedef enum isa_vote_mode { ISA_VOTE_ANY, ISA_VOTE_ALL, ISA_VOTE_UNI } isa_vote_mode;
typedef enum isa_sreg {
    ISA_SREG_TID_X, ISA_SREG_TID_Y, ISA_SREG_TID_Z,
    ISA_SREG_NTID_X, ISA_SREG_NTID_Y, ISA_SREG_NTID_Z,
    ISA_SREG_CTAID_X, ISA_SREG_CTAID_Y, ISA_SREG_CTAID_Z,
    ISA_SREG_NCTAID_X, ISA_SREG_NCTAID_Y, ISA_SREG_NCTAID_Z,
    ISA_SREG_LANEID, ISA_SREG_WARPID, ISA_SREG_NWARPID, ISA_SREG_LANEMASK_LT,
    ISA_SREG_CLOCK,
    ISA_SREG_COUNT
} isa_sreg;

typedef enum isa_space { ISA_SPACE_NONE, ISA_SPACE_GLOBAL, ISA_SPACE_SHARED } isa_space;
typedef enum isa_cache { ISA_CACHE_CA, ISA_CACHE_CG, ISA_CACHE_CS } isa_cache; /* all levels, L2 only, streaming */

typedef enum isa_opnd_kind { ISA_OPND_NONE, ISA_OPND_REG, ISA_OPND_IMM, ISA_OPND_PRED } isa_opnd_kind;

typedef struct isa_operand {
    uint8_t kind;  /* isa_opnd_kind */
    uint8_t reg;   /* register (REG) or predicate (PRED) index */
    uint8_t neg;   /* PRED: read negated (!p) */
    uint64_t imm;  /* IMM: value already encoded for the operand's type */
} isa_operand;

/* One decoded instruction. Operand layout by op (docs/sasm.md):
 *   ALU: dst[0] = f(src[0], src[1], src[2]); setp/pand/...: pdst
 *   ld: dst[0..vec) <- [src[0] + addr_off]   st: [src[0] + addr_off] <- src[1..1+vec)
 *   atom: dst[0] <- old [src[0] + addr_off]; src[1] operand, src[2] cas new value
 *   cond_acc/tree_traverse: dst[0], src[0] base, src[1] predicate, src[2] data/size
 * src[0] of a memory op is NONE when the address is an immediate. */
typedef struct isa_inst {
    uint8_t op, cls;        /* isa_op, isa_class */
    uint8_t type;           /* isa_type; cvt: destination type */
    uint8_t type2;          /* cvt: source type */
    uint8_t sub;            /* isa_cmp / isa_atom_op / isa_shfl_mode / isa_vote_mode / isa_sreg; param: index */
    uint8_t space, cache;   /* isa_space, isa_cache */
    uint8_t row_hint;       /* ld.global.rowhint: "another request to this DRAM row is coming" */
    uint8_t guard, guard_neg; /* @p / @!p; guard == ISA_PRED_NONE when unpredicated */
    uint8_t vec;            /* ld/st: elements per lane (1, 2 or 4) */
    uint8_t elem_bytes;     /* ld/st/atom/cond_acc: bytes per element */
    uint8_t mem_bytes;      /* bytes per lane: 1, 2, 4, 8 or 16 */
    uint8_t ndst, nsrc;
    uint8_t dst[4];         /* general registers written, in order */
    uint8_t pdst;           /* predicate written, or ISA_PRED_NONE */
    uint8_t nreads;
    uint8_t reads[6];       /* general registers read (scoreboard), no duplicates */
    uint8_t pred_reads;     /* bit i: predicate p_i read (guard included) */
    uint8_t pred_writes;    /* bit i: predicate p_i written */
    isa_operand src[5];
    int64_t addr_off;       /* memory ops: immediate part of the address */
    uint32_t target;        /* bra: target pc */
    uint32_t reconv;        /* bra/exit: immediate post-dominator pc, ISA_PC_EXIT when only the exit */
    uint32_t block;         /* basic block index */
    uint32_t line;          /* source line */
} isa_inst;

typedef struct isa_program isa_program;

/* Loads and checks a program. On error returns NULL and sets *err
 * (ISA_ERROR_INPUT) to "file:line: reason". Data initializers are checked too. */
isa_program *isa_program_load_file(const char *path, GError **err);
isa_program *isa_program_parse(const char *text, const char *filename, GError **err);
void isa_program_free(isa_program *p);

const char *isa_program_name(const isa_program *p);  /* .kernel name, else the file's base name */
const char *isa_program_file(const isa_program *p);
uint32_t isa_program_ninst(const isa_program *p);
const isa_inst *isa_program_code(const isa_program *p);  /* ninst instructions, pc = index */
static inline const isa_inst *isa_program_inst(const isa_program *p, uint32_t pc)
{
    return &isa_program_code(p)[pc];
}
unsigned isa_program_nregs(const isa_program *p);        /* per thread: .regs, else highest used + 1 */
uint32_t isa_program_shared_bytes(const isa_program *p); /* per CTA */
unsigned isa_program_nparams(const isa_program *p);
const char *isa_program_param_name(const isa_program *p, unsigned i);
int isa_program_param_index(const isa_program *p, const char *name); /* -1 if none */
/* Value of `@name`: a .data array's global base address or a .shared offset. */
bool isa_program_symbol(const isa_program *p, const char *name, uint64_t *value);

/* A .data declaration. Bases: first 0x10000000, then each 4096-aligned after
 * the previous array, in declaration order. */
typedef struct isa_data_decl {
    const char *name, *type_name, *init; /* init: text after '=', "" if none */
    uint64_t base, count;
    unsigned elem_bytes, line;
    bool is_float;
} isa_data_decl;
unsigned isa_program_ndata(const isa_program *p);
const isa_data_decl *isa_program_data(const isa_program *p, unsigned i);

/* Declares every .data array in `m` (origin "file:line" for errors). */
bool isa_program_add_data(const isa_program *p, memimg *m, GError **err);
/* A new memory image with the program's arrays (seed = global seed). */
memimg *isa_program_new_memimg(const isa_program *p, uint64_t seed, GError **err);

/* ---- control flow -------------------------------------------------------- */

typedef struct isa_block {
    uint32_t start, end;   /* instructions [start, end) */
    uint32_t nsucc;        /* 0..2 */
    uint32_t succ[2];      /* block indices; ISA_PC_EXIT = the virtual exit */
    uint32_t ipdom;        /* block index of the immediate post-dominator, ISA_PC_EXIT if the exit */
} isa_block;
uint32_t isa_program_nblocks(const isa_program *p);
const isa_block *isa_program_block(const isa_program *p, uint32_t b);

/* Reconvergence pc of the instruction at pc: for a branch or a predicated
 * exit, the first pc of its immediate post-dominator (ISA_PC_EXIT when the
 * paths meet only at the exit); for other instructions pc + 1. */
uint32_t isa_ipdom(const isa_program *p, uint32_t pc);

/* Next pc of one lane: a taken branch goes to the target, an executed exit to
 * ISA_PC_EXIT, everything else (predicated-off lanes too) to pc + 1. */
static inline uint32_t isa_next_pc(const isa_inst *in, uint32_t pc, bool taken_or_exited)
{
    if (taken_or_exited) {
        if (in->op == ISA_OP_BRA) return in->target;
        if (in->op == ISA_OP_EXIT) return ISA_PC_EXIT;
    }
    return pc + 1;
}

/* An instruction whose lanes read each other's values (ballot, vote,
 * shuffle, the database unit's conditional accumulate and tree traversal):
 * a mechanism that regroups threads must issue it on the static warp's
 * lanes. */
static inline bool isa_cross_lane(const isa_inst *in)
{
    return in->op == ISA_OP_BALLOT || in->op == ISA_OP_VOTE || in->op == ISA_OP_SHFL ||
           in->op == ISA_OP_COND_ACC || in->op == ISA_OP_TREE_TRAVERSE;
}

/* Human-readable listing: header, data, shared, params, every instruction
 * with its block, and the CFG with each block's successors and IPDOM. */
void isa_program_dump(const isa_program *p, GString *out);
/* One instruction in .sasm syntax: it parses back to the same isa_inst
 * (branch targets print as their label, or "pc<N>" where none). */
void isa_inst_format(const isa_program *p, uint32_t pc, GString *out);
/* The first label defined at pc, or NULL. */
const char *isa_program_label_at(const isa_program *p, uint32_t pc);
const char *isa_class_name(isa_class c);
const char *isa_op_name(isa_op op);

/* ---- execution state ----------------------------------------------------- */

/* Everything shared by the CTAs of one kernel launch. */
typedef struct isa_launch {
    const isa_program *prog;
    memimg *mem;
    uint32_t grid[3], block[3];
    unsigned warp_size;      /* for %laneid, %warpid: threads are numbered x fastest */
    unsigned nparams;
    uint64_t params[ISA_MAX_PARAMS];
} isa_launch;

/* Checks the dimensions (each >= 1, at most 65536 threads per CTA), warp_size
 * (1..32) and the parameter count (must equal the program's .param count). */
bool isa_launch_init(isa_launch *l, const isa_program *p, memimg *mem, const uint32_t grid[3],
                     const uint32_t block[3], unsigned warp_size, const uint64_t *params,
                     unsigned nparams, GError **err);
uint64_t isa_launch_ncta(const isa_launch *l);

struct isa_cta;
typedef struct isa_thread {
    struct isa_cta *cta;
    uint32_t pc;          /* owned by the caller; 0 at start */
    uint32_t tid_linear;  /* x + y*bx + z*bx*by */
    uint32_t tid[3];
    uint8_t preds;        /* bit i = p_i */
    bool exited;          /* set by exit */
    uint64_t r[];         /* isa_program_nregs registers */
} isa_thread;

/* One CTA: its threads in one allocation, zeroed registers and shared memory. */
typedef struct isa_cta {
    const isa_launch *launch;
    uint32_t ctaid[3];
    uint32_t nthreads;
    uint32_t shared_bytes;
    size_t thread_stride;
    uint8_t *shared;
    uint64_t clock;      /* value of %clock: the caller keeps it current if kernels read it */
    unsigned char *thread_mem;
} isa_cta;

isa_cta *isa_cta_new(const isa_launch *l, uint64_t cta_linear);
/* Reuses the allocation for another CTA of the same launch (all state reset). */
void isa_cta_reset(isa_cta *c, uint64_t cta_linear);
void isa_cta_free(isa_cta *c);
static inline isa_thread *isa_cta_thread(isa_cta *c, uint32_t i)
{
    return (isa_thread *)(void *)(c->thread_mem + (size_t)i * c->thread_stride);
}

/* ---- the executor -------------------------------------------------------- */

typedef struct isa_exec_out {
    const isa_inst *inst;
    uint32_t executed;    /* active lanes whose guard held */
    uint32_t taken;       /* bra: lanes that branch to inst->target */
    uint32_t exited;      /* exit: lanes that left the kernel */
    uint32_t mem_lanes;   /* lanes with a memory access in addr[] (cond_acc: the writers) */
    uint32_t fault;       /* lanes whose shared access fell outside the CTA's shared memory */
    unsigned access_size; /* bytes per lane access */
    uint64_t addr[ISA_MAX_LANES]; /* global address, or offset in the CTA's shared memory */
} isa_exec_out;

/* Executes the instruction at `pc` for the lanes in `active` (bit l: lanes[l]
 * is a thread whose pc is `pc`). Cross-lane instructions (ballot, vote, shfl,
 * cond_acc, tree_traverse) see the lanes of this issue in lane order; atomics
 * and stores apply in increasing lane order. No allocation, no strings. */
void isa_exec(const isa_program *p, uint32_t pc, isa_thread *const *lanes, uint32_t active,
              isa_exec_out *out);

static inline uint32_t isa_lane_next_pc(const isa_exec_out *o, uint32_t pc, unsigned lane)
{
    uint32_t bit = UINT32_C(1) << lane;
    return isa_next_pc(o->inst, pc, ((o->taken | o->exited) & bit) != 0);
}

/* ---- reference runner ----------------------------------------------------- */

/* Runs a whole launch functionally, without timing: static warps of
 * warp_size consecutive threads, a PDOM reconvergence stack per warp, CTA
 * barriers (a barrier releases when every unfinished warp waits at one), CTAs
 * one after another. Used to check kernels' results and by tests. Fails
 * with ISA_ERROR_RUN on a shared-memory fault or after max_warp_insts.
 * `st` (may be NULL) is overwritten with this launch's counts. */
typedef struct isa_run_stats {
    uint64_t warp_insts;   /* issues */
    uint64_t thread_insts; /* executed lanes summed over issues */
    uint64_t ctas;
} isa_run_stats;
bool isa_run_launch(const isa_launch *l, uint64_t max_warp_insts, isa_run_stats *st, GError **err);

/* One CTA the same way (a fresh CTA: isa_cta_new), calling `hook` (may be
 * NULL) after every issue with the warp's index in the CTA, the pc and the
 * lanes that executed it (ORACLE's per-thread traces, src/core). */
typedef void (*isa_run_hook)(void *ctx, unsigned warp, uint32_t pc, uint32_t lanes,
                             const isa_exec_out *o);
bool isa_run_cta(isa_cta *c, uint64_t max_warp_insts, isa_run_stats *st, isa_run_hook hook,
                 void *ctx, GError **err);

#endif
