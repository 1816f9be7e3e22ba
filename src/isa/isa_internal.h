/* Private to the .sasm loader (isa_*.c): the program object, the opcode
 * table and the parser's helpers. The executor only needs isa.h. */
#ifndef SIMTGRID_ISA_INTERNAL_H
#define SIMTGRID_ISA_INTERNAL_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "config/config_lib.h"
#include "simtgrid/isa.h"

#define ISA_DATA_FIRST_BASE UINT64_C(0x10000000)
#define ISA_DATA_ALIGN UINT64_C(4096)
#define ISA_SHARED_ALIGN 16u
#define ISA_SHARED_MAX (UINT32_C(1) << 30) /* per CTA; larger is surely a typo */

typedef struct isa_shared_decl {
    char *name;
    uint32_t offset, bytes;
    unsigned line;
} isa_shared_decl;

typedef struct isa_label {
    char *name;
    uint32_t pc;
    unsigned line;
} isa_label;

struct isa_program {
    char *name, *file;
    isa_inst *code;
    uint32_t ninst;
    unsigned nregs;
    uint32_t shared_bytes;
    char **param_names;
    unsigned nparams;
    isa_data_decl *data; /* name, type_name, init owned */
    unsigned ndata;
    isa_shared_decl *shared;
    unsigned nshared;
    isa_label *labels; /* in definition order */
    unsigned nlabels;
    isa_block *blocks;
    uint32_t nblocks;
};

/* ---- opcode table (isa_optab.c) ----------------------------------------- */

/* Suffix categories an opcode may take (`add.s32`, `ld.global.cg.v4.f32`). */
enum {
    SFX_TYPE = 1u << 0, SFX_TYPE2 = 1u << 1, SFX_CMP = 1u << 2, SFX_SPACE = 1u << 3,
    SFX_CACHE = 1u << 4, SFX_ROWHINT = 1u << 5, SFX_VEC = 1u << 6, SFX_ATOM = 1u << 7,
    SFX_SHFL = 1u << 8, SFX_VOTE = 1u << 9, SFX_SYNC = 1u << 10,
};
/* Type sets. */
enum { TS_INT = 1u << 0, TS_FLOAT = 1u << 1, TS_ALL = TS_INT | TS_FLOAT };

typedef struct isa_opdesc {
    const char *mnem;
    uint8_t op;
    uint8_t sub;        /* fixed sub-op (bcast = shfl.idx) */
    uint16_t allowed;   /* SFX_* */
    uint16_t required;  /* SFX_* */
    uint8_t types;      /* TS_*: types the .type suffix may name */
    uint8_t def_type;   /* when no type suffix is given */
    const char *sig;    /* operands, see isa_operand.c */
} isa_opdesc;

const isa_opdesc *isa_optab_find(const char *mnem);
const char *isa_optab_nearest(const char *mnem); /* closest mnemonic, for "did you mean" */
const isa_opdesc *isa_optab_of_op(isa_op op);

/* Suffix words: each returns -1 when the word is not of its kind. */
int isa_type_parse(const char *s);
int isa_cmp_parse(const char *s);
int isa_atom_parse(const char *s);
int isa_shfl_parse(const char *s);
int isa_vote_parse(const char *s);
int isa_sreg_parse(const char *s); /* without the '%' */
const char *isa_type_name(isa_type t);
const char *isa_cmp_name(isa_cmp c);
const char *isa_atom_name(isa_atom_op a);
const char *isa_shfl_name(isa_shfl_mode m);
const char *isa_vote_name(isa_vote_mode m);
const char *isa_sreg_name(isa_sreg s);
static inline bool isa_type_is_float(unsigned t) { return t == ISA_T_F32 || t == ISA_T_F64; }
unsigned isa_type_bytes(isa_type t);

/* ---- lexical helpers (isa_lex.c) ---------------------------------------- */

bool isa_is_ident(const char *s); /* [A-Za-z_$][A-Za-z0-9_$.]* */
char *isa_strip(char *s);         /* trims spaces in place */
/* Splits at top-level commas (not inside [] or {}); pieces are trimmed and
 * owned by the returned array. Empty pieces are kept (so "a,,b" is caught). */
GPtrArray *isa_split_commas(const char *s);
/* Unsigned literal: decimal, 0x hex or 0b binary, whole string. */
bool isa_parse_u64(const char *s, uint64_t *out);

/* ---- the parser's context (isa_parse.c, isa_operand.c) ------------------- */

typedef struct isa_fixup {
    uint32_t pc;
    char *label;
    unsigned line;
} isa_fixup;

typedef struct isa_parser {
    const char *file;
    unsigned line;
    GError *err;           /* the first error; parsing stops there */
    GArray *code;          /* isa_inst */
    GArray *labels;        /* isa_label */
    GHashTable *label_idx; /* name -> index + 1 in labels (look-ups only) */
    GArray *fixups;        /* isa_fixup */
    GArray *data;          /* isa_data_decl */
    GArray *shared;        /* isa_shared_decl */
    GPtrArray *params;     /* char * */
    GHashTable *symbols;   /* @name -> uint64_t* value (look-ups only) */
    char *kernel_name;
    int regs_decl;         /* .regs N, or -1 */
    unsigned regs_line;
    uint64_t next_data_base;
    uint32_t next_shared;
} isa_parser;

bool isa_perr(isa_parser *ps, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

/* Decodes operands of `in` (op, type, suffixes already set) from `ops`
 * following `sig`. */
bool isa_parse_operands(isa_parser *ps, const isa_opdesc *d, const char *mnem, GPtrArray *ops,
                        isa_inst *in);
bool isa_parse_directive(isa_parser *ps, char *text, memimg *check);
/* One line: pass 1 reads directives, pass 2 labels and instructions. */
bool isa_parse_line(isa_parser *ps, char *line, int pass, memimg *check);
const char *isa_space_name(unsigned s);
const char *isa_cache_name(unsigned c);

/* ---- building the program (isa_program.c, isa_cfg.c) -------------------- */

/* Fills blocks, each instruction's block and reconv. False if the kernel has
 * no exit or control can run off its end (error set on ps). */
bool isa_cfg_build(isa_program *p, GError **err);

#endif
