/* Trace-driven kernels from Accel-Sim's NVBit tracer (docs/traces.md).
 *
 * A kernel-N.traceg file (tracer versions 3 and 4; .xz-compressed through
 * `xz -dc`) holds, per CTA and warp, the SASS instructions the warp executed
 * on real hardware: pc, active mask, destination and source registers and,
 * for memory instructions, one address per active lane. Loading maps every
 * opcode onto a simtgrid instruction class (the SM70-SM90 table of
 * atrace_opcode.c) and keeps one isa_inst per static instruction, so the SM
 * times a traced warp exactly as a .sasm one: the trace supplies what the
 * functional executor would have computed (mask, addresses), and control
 * flow is the trace's own. kernelslist.g lists the kernel files in order. */
#ifndef SIMTGRID_ATRACE_H
#define SIMTGRID_ATRACE_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "simtgrid/isa.h"

/* One executed warp instruction. */
typedef struct atrace_rec {
    uint32_t sidx;   /* its static instruction (atrace_kernel.inst) */
    uint32_t mask;   /* active lanes */
    uint64_t addr;   /* memory instructions: first of popcount(mask) addresses in the pool */
} atrace_rec;

typedef struct atrace_warp {
    uint32_t n;              /* executed instructions; 0 = the warp runs none */
    const atrace_rec *rec;
    const isa_inst *inst;    /* the kernel's static instructions (atrace_kernel.inst) */
} atrace_warp;

typedef struct atrace_kernel {
    char *file, *name;
    unsigned id, trace_version, binary_version, nregs, shmem;
    uint32_t grid[3], block[3];
    uint64_t shmem_base, local_base;
    unsigned warps_per_cta;  /* ceil(threads per CTA / 32) */
    uint64_t ncta;
    isa_inst *inst;          /* static instructions */
    char **opcode;           /* their opcodes, as in the trace */
    unsigned ninst;
    atrace_rec *rec;
    uint64_t nrec;
    uint64_t *addr;          /* address pool */
    uint64_t naddr;
    atrace_warp *warps;      /* ncta * warps_per_cta, CTA linear id major */
    isa_program *stub;       /* a program with the kernel's registers and shared memory, so
                              * the dispatcher sizes CTAs as for a .sasm kernel */
} atrace_kernel;

/* True when `path` names a trace file (.traceg or .traceg.xz). */
bool atrace_is_trace_path(const char *path);
/* Reads a kernel trace; errors name file:line and return NULL. */
atrace_kernel *atrace_load(const char *path, GError **err);
void atrace_free(atrace_kernel *k);
/* The grid and block of a trace from its header alone (a kernelslist.g
 * launch takes them from there); errors name file:line. */
bool atrace_read_dims(const char *path, uint32_t grid[3], uint32_t block[3], GError **err);
/* The kernel files listed by a kernelslist.g (MemcpyHtoD lines skipped), as
 * paths next to it; NULL-terminated (g_strfreev), NULL on error. */
char **atrace_list_load(const char *path, GError **err);

/* The warp `w` (0-based within its CTA) of CTA `cta` (linear id). */
static inline const atrace_warp *atrace_warp_of(const atrace_kernel *k, uint64_t cta, unsigned w)
{
    return &k->warps[cta * k->warps_per_cta + w];
}
static inline const isa_inst *atrace_inst(const atrace_warp *w, uint32_t i)
{
    return &w->inst[w->rec[i].sidx];
}
/* Fills `o` as isa_exec would for record i of warp w: executed = mem_lanes
 * (for memory instructions) = the trace's mask, the lanes' addresses (shared
 * ones relative to the kernel's shared-memory base); `all_lanes` exit after
 * the warp's last record. */
void atrace_exec(const atrace_kernel *k, const atrace_warp *w, uint32_t i, uint32_t all_lanes,
                 isa_exec_out *o);

/* Opcode -> class table (atrace_opcode.c): fills cls, op, space, cache and
 * mem_bytes of `in` from an opcode such as "LDG.E.128.SYS"; false if the
 * base opcode is unknown. */
bool atrace_decode_opcode(const char *opcode, isa_inst *in);
/* The table is sorted by name (bsearch needs it): for the tests. */
bool atrace_opcode_table_sorted(void);

#endif
