/* The opcode table: every mnemonic, the suffixes it takes and its operand
 * signature, plus the names of types, comparisons and other sub-operations.
 * docs/sasm.md documents the same table for people. */
#include <string.h>

#include "isa_internal.h"

#define T_U64 ISA_T_U64
#define T_F32 ISA_T_F32

/* Operand signature letters (decoded in isa_operand.c):
 *   d dst register      D dst register or {list} (ld)   P dst predicate
 *   s source of the instruction's type (register or immediate)
 *   i source read as u64 (shift amounts, lane numbers, sizes, bases)
 *   p source predicate, optionally !p                    a address [..]
 *   S store value(s)    l label     m param name or index
 *   v mov source: register, immediate or %special register */
static const isa_opdesc optab[] = {
    {"nop", ISA_OP_NOP, 0, 0, 0, 0, T_U64, ""},
    {"mov", ISA_OP_MOV, 0, SFX_TYPE, 0, TS_ALL, T_U64, "dv"},
    {"param", ISA_OP_PARAM, 0, 0, 0, 0, T_U64, "dm"},
    {"add", ISA_OP_ADD, 0, SFX_TYPE, 0, TS_ALL, T_U64, "dss"},
    {"sub", ISA_OP_SUB, 0, SFX_TYPE, 0, TS_ALL, T_U64, "dss"},
    {"mul", ISA_OP_MUL, 0, SFX_TYPE, 0, TS_ALL, T_U64, "dss"},
    {"mad", ISA_OP_MAD, 0, SFX_TYPE, 0, TS_ALL, T_U64, "dsss"},
    {"fma", ISA_OP_MAD, 0, SFX_TYPE, 0, TS_FLOAT, T_F32, "dsss"},
    {"div", ISA_OP_DIV, 0, SFX_TYPE, 0, TS_ALL, T_U64, "dss"},
    {"rem", ISA_OP_REM, 0, SFX_TYPE, 0, TS_INT, T_U64, "dss"},
    {"min", ISA_OP_MIN, 0, SFX_TYPE, 0, TS_ALL, T_U64, "dss"},
    {"max", ISA_OP_MAX, 0, SFX_TYPE, 0, TS_ALL, T_U64, "dss"},
    {"abs", ISA_OP_ABS, 0, SFX_TYPE, 0, TS_ALL, ISA_T_S64, "ds"},
    {"neg", ISA_OP_NEG, 0, SFX_TYPE, 0, TS_ALL, ISA_T_S64, "ds"},
    {"and", ISA_OP_AND, 0, SFX_TYPE, 0, TS_INT, T_U64, "dss"},
    {"or", ISA_OP_OR, 0, SFX_TYPE, 0, TS_INT, T_U64, "dss"},
    {"xor", ISA_OP_XOR, 0, SFX_TYPE, 0, TS_INT, T_U64, "dss"},
    {"not", ISA_OP_NOT, 0, SFX_TYPE, 0, TS_INT, T_U64, "ds"},
    {"shl", ISA_OP_SHL, 0, SFX_TYPE, 0, TS_INT, T_U64, "dsi"},
    {"shr", ISA_OP_SHR, 0, SFX_TYPE, 0, TS_INT, T_U64, "dsi"},
    {"popc", ISA_OP_POPC, 0, SFX_TYPE, 0, TS_INT, T_U64, "ds"},
    {"clz", ISA_OP_CLZ, 0, SFX_TYPE, 0, TS_INT, T_U64, "ds"},
    {"set", ISA_OP_SET, 0, SFX_CMP | SFX_TYPE, SFX_CMP, TS_ALL, T_U64, "dss"},
    {"setp", ISA_OP_SETP, 0, SFX_CMP | SFX_TYPE, SFX_CMP, TS_ALL, T_U64, "Pss"},
    {"selp", ISA_OP_SELP, 0, SFX_TYPE, 0, TS_ALL, T_U64, "dssp"},
    {"pand", ISA_OP_PAND, 0, 0, 0, 0, T_U64, "Ppp"},
    {"por", ISA_OP_POR, 0, 0, 0, 0, T_U64, "Ppp"},
    {"pxor", ISA_OP_PXOR, 0, 0, 0, 0, T_U64, "Ppp"},
    {"pnot", ISA_OP_PNOT, 0, 0, 0, 0, T_U64, "Pp"},
    {"cvt", ISA_OP_CVT, 0, SFX_TYPE | SFX_TYPE2, SFX_TYPE | SFX_TYPE2, TS_ALL, T_U64, "ds"},
    {"sin", ISA_OP_SIN, 0, SFX_TYPE, 0, TS_FLOAT, T_F32, "ds"},
    {"cos", ISA_OP_COS, 0, SFX_TYPE, 0, TS_FLOAT, T_F32, "ds"},
    {"ex2", ISA_OP_EX2, 0, SFX_TYPE, 0, TS_FLOAT, T_F32, "ds"},
    {"lg2", ISA_OP_LG2, 0, SFX_TYPE, 0, TS_FLOAT, T_F32, "ds"},
    {"exp", ISA_OP_EXP, 0, SFX_TYPE, 0, TS_FLOAT, T_F32, "ds"},
    {"log", ISA_OP_LOG, 0, SFX_TYPE, 0, TS_FLOAT, T_F32, "ds"},
    {"rsqrt", ISA_OP_RSQRT, 0, SFX_TYPE, 0, TS_FLOAT, T_F32, "ds"},
    {"rcp", ISA_OP_RCP, 0, SFX_TYPE, 0, TS_FLOAT, T_F32, "ds"},
    {"sqrt", ISA_OP_SQRT, 0, SFX_TYPE, 0, TS_FLOAT, T_F32, "ds"},
    {"ld", ISA_OP_LD, 0, SFX_SPACE | SFX_TYPE | SFX_CACHE | SFX_ROWHINT | SFX_VEC,
     SFX_SPACE | SFX_TYPE, TS_ALL, T_U64, "Da"},
    {"st", ISA_OP_ST, 0, SFX_SPACE | SFX_TYPE | SFX_VEC, SFX_SPACE | SFX_TYPE, TS_ALL, T_U64, "aS"},
    {"atom", ISA_OP_ATOM, 0, SFX_SPACE | SFX_ATOM | SFX_TYPE, SFX_SPACE | SFX_ATOM | SFX_TYPE,
     TS_ALL, T_U64, "das"},
    {"cond_acc", ISA_OP_COND_ACC, 0, SFX_SPACE | SFX_TYPE, SFX_SPACE | SFX_TYPE, TS_ALL, T_U64,
     "dips"},
    {"tree_traverse", ISA_OP_TREE_TRAVERSE, 0, 0, 0, 0, T_U64, "dipi"},
    {"ballot", ISA_OP_BALLOT, 0, 0, 0, 0, T_U64, "dp"},
    {"vote", ISA_OP_VOTE, 0, SFX_VOTE, SFX_VOTE, 0, T_U64, "Pp"},
    {"shfl", ISA_OP_SHFL, 0, SFX_SHFL | SFX_TYPE, SFX_SHFL, TS_ALL, T_U64, "dsi"},
    {"bcast", ISA_OP_SHFL, ISA_SHFL_IDX, SFX_TYPE, 0, TS_ALL, T_U64, "dsi"},
    {"bra", ISA_OP_BRA, 0, 0, 0, 0, T_U64, "l"},
    {"bar", ISA_OP_BAR, 0, SFX_SYNC, 0, 0, T_U64, ""},
    {"exit", ISA_OP_EXIT, 0, 0, 0, 0, T_U64, ""},
};

const isa_opdesc *isa_optab_find(const char *mnem)
{
    for (size_t i = 0; i < G_N_ELEMENTS(optab); i++)
        if (!strcmp(optab[i].mnem, mnem)) return &optab[i];
    return NULL;
}

const isa_opdesc *isa_optab_of_op(isa_op op)
{
    for (size_t i = 0; i < G_N_ELEMENTS(optab); i++)
        if (optab[i].op == op) return &optab[i];
    return NULL;
}

const char *isa_optab_nearest(const char *mnem)
{
    const char *best = optab[0].mnem;
    unsigned best_d = UINT32_MAX;
    for (size_t i = 0; i < G_N_ELEMENTS(optab); i++) {
        unsigned d = (unsigned)edit_distance(mnem, optab[i].mnem);
        if (d < best_d) best_d = d, best = optab[i].mnem;
    }
    return best;
}

/* ---- names ---------------------------------------------------------------- */

static const char *const type_names[ISA_T_COUNT] = {
    "u64", "s64", "u32", "s32", "u16", "s16", "u8", "s8", "f32", "f64"};
static const unsigned type_bytes[ISA_T_COUNT] = {8, 8, 4, 4, 2, 2, 1, 1, 4, 8};
static const char *const cmp_names[] = {"eq", "ne", "lt", "le", "gt", "ge"};
static const char *const atom_names[] = {"add", "min", "max", "exch", "cas", "and", "or", "xor"};
static const char *const shfl_names[] = {"idx", "up", "down", "bfly"};
static const char *const vote_names[] = {"any", "all", "uni"};
static const char *const sreg_names[ISA_SREG_COUNT] = {
    "tid.x", "tid.y", "tid.z", "ntid.x", "ntid.y", "ntid.z", "ctaid.x", "ctaid.y", "ctaid.z",
    "nctaid.x", "nctaid.y", "nctaid.z", "laneid", "warpid", "nwarpid", "lanemask_lt", "clock"};

static int find_name(const char *const *names, size_t n, const char *s)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(names[i], s)) return (int)i;
    return -1;
}

int isa_type_parse(const char *s)
{
    int t = find_name(type_names, G_N_ELEMENTS(type_names), s);
    if (t >= 0) return t;
    /* b8..b64 (untyped bits) read as unsigned */
    static const char *const bnames[] = {"b64", "b32", "b16", "b8"};
    static const int bt[] = {ISA_T_U64, ISA_T_U32, ISA_T_U16, ISA_T_U8};
    int b = find_name(bnames, G_N_ELEMENTS(bnames), s);
    return b >= 0 ? bt[b] : -1;
}
int isa_cmp_parse(const char *s) { return find_name(cmp_names, G_N_ELEMENTS(cmp_names), s); }
int isa_atom_parse(const char *s) { return find_name(atom_names, G_N_ELEMENTS(atom_names), s); }
int isa_shfl_parse(const char *s) { return find_name(shfl_names, G_N_ELEMENTS(shfl_names), s); }
int isa_vote_parse(const char *s) { return find_name(vote_names, G_N_ELEMENTS(vote_names), s); }
int isa_sreg_parse(const char *s) { return find_name(sreg_names, G_N_ELEMENTS(sreg_names), s); }

const char *isa_type_name(isa_type t) { return t < ISA_T_COUNT ? type_names[t] : "?"; }
unsigned isa_type_bytes(isa_type t) { return t < ISA_T_COUNT ? type_bytes[t] : 0; }
const char *isa_cmp_name(isa_cmp c) { return (unsigned)c < 6 ? cmp_names[c] : "?"; }
const char *isa_atom_name(isa_atom_op a) { return (unsigned)a < 8 ? atom_names[a] : "?"; }
const char *isa_shfl_name(isa_shfl_mode m) { return (unsigned)m < 4 ? shfl_names[m] : "?"; }
const char *isa_vote_name(isa_vote_mode m) { return (unsigned)m < 3 ? vote_names[m] : "?"; }
const char *isa_sreg_name(isa_sreg s) { return s < ISA_SREG_COUNT ? sreg_names[s] : "?"; }

const char *isa_class_name(isa_class c)
{
    static const char *const names[ISA_CLASS_COUNT] = {
        "nop", "alu_int", "alu_fp", "sfu", "ld_global", "st_global", "ld_shared",
        "st_shared", "atomic", "branch", "barrier", "intrinsic", "exit"};
    return (unsigned)c < ISA_CLASS_COUNT ? names[c] : "?";
}

const char *isa_op_name(isa_op op)
{
    if (op == ISA_OP_SREG) return "mov"; /* mov rd, %sreg */
    const isa_opdesc *d = isa_optab_of_op(op);
    return d ? d->mnem : "?";
}
