/* SASS opcodes of SM70-SM90 (Volta, Turing, Ampere, Ada, Hopper) onto
 * simtgrid's instruction classes, which the SM prices by unit (docs/traces.md
 * has the table in prose). The base opcode is the text before the first '.';
 * the modifiers after it give the access width (".64", ".128", ".U8", ...)
 * as in Accel-Sim's trace parser, and MUFU's function picks the SFU latency. */
#include <stdlib.h>
#include <string.h>

#include "simtgrid/atrace.h"

typedef struct op_entry {
    const char *name;
    uint8_t cls, op, space;
} op_entry;

#define INT(n) {n, ISA_CLASS_ALU_INT, ISA_OP_ADD, ISA_SPACE_NONE}
#define FP(n) {n, ISA_CLASS_ALU_FP, ISA_OP_ADD, ISA_SPACE_NONE}
#define CVT(n) {n, ISA_CLASS_ALU_FP, ISA_OP_CVT, ISA_SPACE_NONE}
#define XL(n) {n, ISA_CLASS_INTRINSIC, ISA_OP_SHFL, ISA_SPACE_NONE}
#define CTL(n) {n, ISA_CLASS_BRANCH, ISA_OP_BRA, ISA_SPACE_NONE}
#define LDG(n) {n, ISA_CLASS_LD_GLOBAL, ISA_OP_LD, ISA_SPACE_GLOBAL}
#define STG(n) {n, ISA_CLASS_ST_GLOBAL, ISA_OP_ST, ISA_SPACE_GLOBAL}
#define LDS(n) {n, ISA_CLASS_LD_SHARED, ISA_OP_LD, ISA_SPACE_SHARED}
#define STS(n) {n, ISA_CLASS_ST_SHARED, ISA_OP_ST, ISA_SPACE_SHARED}
#define ATG(n) {n, ISA_CLASS_ATOMIC, ISA_OP_ATOM, ISA_SPACE_GLOBAL}

/* Sorted by name for bsearch. */
static const op_entry table[] = {
    INT("ACQBULK"), ATG("ATOM"), ATG("ATOMG"),
    {"ATOMS", ISA_CLASS_ATOMIC, ISA_OP_ATOM, ISA_SPACE_SHARED},
    INT("B2R"), {"BAR", ISA_CLASS_BARRIER, ISA_OP_BAR, ISA_SPACE_NONE},
    INT("BMMA"), INT("BMOV"), INT("BMSK"), CTL("BPT"), CTL("BRA"), CTL("BREAK"), INT("BREV"),
    CTL("BRX"), CTL("BSSY"), CTL("BSYNC"), CTL("CALL"), INT("CCTL"), INT("CCTLL"), INT("CCTLT"),
    INT("CS2R"), INT("CSMTEST"), FP("DADD"), INT("DEPBAR"), FP("DFMA"), FP("DMMA"), FP("DMUL"),
    FP("DSETP"), INT("ELECT"), INT("ENDCOLLECTIVE"), INT("ERRBAR"),
    {"EXIT", ISA_CLASS_EXIT, ISA_OP_EXIT, ISA_SPACE_NONE},
    CVT("F2F"), CVT("F2FP"), CVT("F2I"), CVT("F2IP"), FP("FADD"), FP("FADD32I"), FP("FCHK"),
    INT("FENCE"), FP("FFMA"), FP("FFMA32I"), INT("FLO"), FP("FMNMX"), FP("FMUL"), FP("FMUL32I"),
    CVT("FRND"), FP("FSEL"), FP("FSET"), FP("FSETP"), FP("FSWZADD"), INT("GETLMEMBASE"),
    FP("HADD2"), FP("HADD2_32I"), FP("HFMA2"), FP("HFMA2_32I"), FP("HGMMA"), FP("HMMA"),
    FP("HMNMX2"), FP("HMUL2"), FP("HMUL2_32I"), FP("HSET2"), FP("HSETP2"), CVT("I2F"),
    CVT("I2FP"), INT("I2I"), INT("I2IP"), INT("IABS"), INT("IADD"), INT("IADD3"), INT("IADD32I"),
    INT("IDP"), INT("IDP4A"), INT("IGMMA"), INT("IMAD"), INT("IMMA"), INT("IMNMX"), INT("IMUL"),
    INT("IMUL32I"), INT("ISCADD"), INT("ISCADD32I"), INT("ISETP"), CTL("JMP"), CTL("JMX"),
    CTL("KILL"), LDG("LD"), INT("LDC"), LDG("LDG"), INT("LDGDEPBAR"), LDG("LDGSTS"), LDG("LDL"),
    LDS("LDS"), LDS("LDSM"), INT("LEA"), INT("LEPC"), INT("LOP"), INT("LOP3"), INT("LOP32I"),
    XL("MATCH"), INT("MEMBAR"), INT("MOV"), INT("MOV32I"), INT("MOVM"),
    {"MUFU", ISA_CLASS_SFU, ISA_OP_RCP, ISA_SPACE_NONE}, CTL("NANOSLEEP"),
    {"NOP", ISA_CLASS_NOP, ISA_OP_NOP, ISA_SPACE_NONE}, INT("P2R"), INT("PLOP3"), INT("PMTRIG"),
    INT("POPC"), CTL("PREEXIT"), INT("PRMT"), INT("PSETP"), INT("QSPC"), INT("R2B"), INT("R2P"),
    INT("R2UR"), ATG("RED"), XL("REDUX"), CTL("RET"), CTL("RPCMOV"), CTL("RTT"), INT("S2R"),
    INT("S2UR"), INT("SEL"), INT("SETCTAID"), INT("SETLMEMBASE"), INT("SGXT"), INT("SHF"),
    XL("SHFL"), INT("SHL"), INT("SHR"), STG("ST"), STG("STG"), STG("STL"), STS("STS"),
    STS("STSM"), ATG("SUATOM"), LDG("SULD"), INT("SUQUERY"), ATG("SURED"), STG("SUST"),
    INT("SYNCS"), LDG("TEX"), LDG("TLD"), LDG("TLD4"), LDG("TMML"), LDG("TXD"), INT("TXQ"),
    INT("UBLKCP"), INT("UBMSK"), INT("UBREV"), INT("UCLEA"), INT("UFLO"), INT("UIADD3"),
    INT("UIMAD"), INT("UISETP"), INT("ULDC"), INT("ULEA"), INT("ULOP"), INT("ULOP3"),
    INT("ULOP32I"), INT("UMOV"), INT("UP2UR"), INT("UPLOP3"), INT("UPOPC"), INT("UPRMT"),
    INT("UPSETP"), INT("UR2UP"), INT("USEL"), INT("USETMAXREG"), INT("USGXT"), INT("USHF"),
    INT("USHL"), INT("USHR"), LDG("UTMALDG"), INT("UTMAPF"), STG("UTMASTG"), INT("VABSDIFF"),
    INT("VABSDIFF4"), INT("VHMNMX"), INT("VIADD"), INT("VIADDMNMX"), INT("VIMNMX"),
    INT("VIMNMX3"), XL("VOTE"), XL("VOTEU"), XL("VOTE_VTG"), CTL("WARPGROUP"), CTL("WARPSYNC"),
    CTL("YIELD"),
};

static int cmp_entry(const void *key, const void *e)
{
    return strcmp(key, ((const op_entry *)e)->name);
}

/* Bytes per lane from the modifiers: ".8/.16/.32/.64/.128" or ".U8/.S16/..." ;
 * 4 when none says. */
static unsigned width_of(const char *mods)
{
    unsigned w = 4;
    char **t = g_strsplit(mods, ".", -1);
    for (unsigned i = 0; t[i]; i++) {
        const char *s = t[i];
        if ((s[0] == 'U' || s[0] == 'S') && g_ascii_isdigit(s[1])) s++;
        if (!g_ascii_isdigit(s[0])) continue;
        char *end;
        unsigned long bits = strtoul(s, &end, 10);
        if (*end == '\0' && (bits == 8 || bits == 16 || bits == 32 || bits == 64 || bits == 128)) {
            w = (unsigned)bits / 8;
            break;
        }
    }
    g_strfreev(t);
    return w;
}

static uint8_t mufu_op(const char *mods)
{
    static const struct { const char *fn; uint8_t op; } fns[] = {
        {".SIN", ISA_OP_SIN}, {".COS", ISA_OP_COS}, {".EX2", ISA_OP_EX2}, {".LG2", ISA_OP_LG2},
        {".RSQ", ISA_OP_RSQRT}, {".SQRT", ISA_OP_SQRT}, {".RCP", ISA_OP_RCP}, {".TANH", ISA_OP_EX2},
    };
    for (unsigned i = 0; i < G_N_ELEMENTS(fns); i++)
        if (strncmp(mods, fns[i].fn, strlen(fns[i].fn)) == 0) return fns[i].op;
    return ISA_OP_RCP;
}

bool atrace_decode_opcode(const char *opcode, isa_inst *in)
{
    char base[32];
    size_t n = strcspn(opcode, ".");
    if (n == 0 || n >= sizeof base) return false;
    memcpy(base, opcode, n);
    base[n] = '\0';
    const op_entry *e = bsearch(base, table, G_N_ELEMENTS(table), sizeof table[0], cmp_entry);
    if (!e) return false;
    const char *mods = opcode + n;
    in->cls = e->cls;
    in->op = e->cls == ISA_CLASS_SFU ? mufu_op(mods) : e->op;
    in->space = e->space;
    in->cache = ISA_CACHE_CA;
    in->guard = ISA_PRED_NONE;
    in->pdst = ISA_PRED_NONE;
    in->reconv = ISA_PC_EXIT;
    in->vec = 1;
    if (e->space != ISA_SPACE_NONE) {
        in->mem_bytes = (uint8_t)width_of(mods);
        in->elem_bytes = in->mem_bytes > 8 ? 4 : in->mem_bytes;
        in->vec = (uint8_t)(in->mem_bytes / in->elem_bytes);
    }
    return true;
}

bool atrace_opcode_table_sorted(void)
{
    for (unsigned i = 1; i < G_N_ELEMENTS(table); i++)
        if (strcmp(table[i - 1].name, table[i].name) >= 0) return false;
    return true;
}
