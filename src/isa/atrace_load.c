/* Reader of Accel-Sim trace files (docs/traces.md): the kernel-N.traceg
 * header ("-key = value" lines), then per CTA "#BEGIN_TB", "thread block =
 * x,y,z", per warp "warp = w", "insts = n" and n instruction lines, "#END_TB".
 * An instruction line (tracer versions 3 and 4) is
 *   pc mask ndst [Rd...] OPCODE nsrc [Rs...] width [mode addresses]
 * with the addresses of the active lanes listed (mode 0), as base and stride
 * (mode 1) or as base and deltas from the previous lane (mode 2). Written
 * from the format as Accel-Sim's tracer writes it and its parser reads it. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config_lib.h"
#include "simtgrid/atrace.h"
#include "simtgrid/bits.h"

#define RZ 255 /* SASS's zero register: no dependence */

typedef struct lp {
    const char *file;
    unsigned line;
    GError **err;
    atrace_kernel *k;
    GHashTable *statics; /* "pc opcode dsts srcs" -> index + 1 */
    GArray *inst, *opcode, *rec, *addr;
    uint64_t *warp_first; /* per warp: first record, before pointers are fixed */
    bool have_header_end;
} lp;

static bool lerr(lp *p, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static bool lerr(lp *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    input_error_v(p->err, ISA_ERROR, ISA_ERROR_INPUT, p->file, p->line, fmt, ap);
    va_end(ap);
    return false;
}

bool atrace_is_trace_path(const char *path)
{
    return g_str_has_suffix(path, ".traceg") || g_str_has_suffix(path, ".traceg.xz");
}

/* The whole file, through `xz -dc` when it ends in .xz. */
static char *read_text(const char *path, GError **err)
{
    char *text = NULL;
    if (!g_str_has_suffix(path, ".xz")) {
        GError *e = NULL;
        if (!g_file_get_contents(path, &text, NULL, &e)) {
            g_set_error(err, ISA_ERROR, ISA_ERROR_INPUT, "%s", e->message);
            g_error_free(e);
        }
        return text;
    }
    const char *argv[] = {"xz", "-dc", "--", path, NULL};
    char *errs = NULL;
    int status = 0;
    GError *e = NULL;
    if (!g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &text, &errs,
                      &status, &e)) {
        input_error_in(err, ISA_ERROR, ISA_ERROR_INPUT, path, 0,
                       "cannot run 'xz -dc' to decompress it (%s); install xz-utils", e->message);
        g_error_free(e);
        g_free(errs);
        return NULL;
    }
    if (!g_spawn_check_wait_status(status, NULL)) {
        input_error_in(err, ISA_ERROR, ISA_ERROR_INPUT, path, 0, "'xz -dc' failed: %s",
                       g_strstrip(errs));
        g_free(text);
        text = NULL;
    }
    g_free(errs);
    return text;
}

/* "-key = value" header lines. */
static bool header_line(lp *p, const char *s)
{
    atrace_kernel *k = p->k;
    const char *eq = strchr(s, '=');
    if (!eq) return true; /* tolerated, as Accel-Sim does */
    char *key = g_strstrip(g_strndup(s + 1, (gsize)(eq - s - 1)));
    const char *v = eq + 1;
    while (*v == ' ') v++;
    bool ok = true;
    unsigned a, b, c;
    if (!strcmp(key, "kernel name")) {
        g_free(k->name);
        k->name = g_strstrip(g_strdup(v));
    } else if (!strcmp(key, "kernel id")) {
        k->id = (unsigned)strtoul(v, NULL, 10);
    } else if (!strcmp(key, "grid dim") || !strcmp(key, "block dim")) {
        if (sscanf(v, "(%u,%u,%u)", &a, &b, &c) != 3 || !a || !b || !c)
            ok = lerr(p, "key '-%s': expected (x,y,z) of positive integers, got '%s'", key, v);
        uint32_t *d = key[0] == 'g' ? k->grid : k->block;
        d[0] = a, d[1] = b, d[2] = c;
    } else if (!strcmp(key, "shmem")) {
        k->shmem = (unsigned)strtoul(v, NULL, 10);
    } else if (!strcmp(key, "nregs")) {
        k->nregs = (unsigned)strtoul(v, NULL, 10);
    } else if (!strcmp(key, "binary version")) {
        k->binary_version = (unsigned)strtoul(v, NULL, 10);
    } else if (!strcmp(key, "accelsim tracer version")) {
        k->trace_version = (unsigned)strtoul(v, NULL, 10);
    } else if (!strcmp(key, "shmem base_addr")) {
        k->shmem_base = g_ascii_strtoull(v, NULL, 16);
    } else if (!strcmp(key, "local mem base_addr")) {
        k->local_base = g_ascii_strtoull(v, NULL, 16);
    }
    g_free(key);
    return ok;
}

/* Checks the header once the first CTA starts and sizes the warp table. */
static bool header_done(lp *p)
{
    atrace_kernel *k = p->k;
    p->have_header_end = true;
    if (!k->grid[0] || !k->block[0])
        return lerr(p, "the header lacks '-grid dim' or '-block dim'");
    if (k->trace_version != 3 && k->trace_version != 4)
        return lerr(p, "key '-accelsim tracer version': %u is not supported (3 or 4)%s",
                    k->trace_version, k->trace_version ? "" : "; the line is missing");
    if (k->binary_version && (k->binary_version < 70 || k->binary_version > 90))
        return lerr(p, "key '-binary version': SM%u is outside the opcode table (SM70-SM90)",
                    k->binary_version);
    uint64_t threads = (uint64_t)k->block[0] * k->block[1] * k->block[2];
    if (threads > 1024) return lerr(p, "key '-block dim': %" G_GUINT64_FORMAT " threads (at most 1024)", threads);
    k->ncta = (uint64_t)k->grid[0] * k->grid[1] * k->grid[2];
    k->warps_per_cta = (unsigned)((threads + 31) / 32);
    uint64_t nw = k->ncta * k->warps_per_cta;
    if (k->ncta > (UINT64_C(1) << 32) || nw > (UINT64_C(1) << 32))
        return lerr(p, "key '-grid dim': too many CTAs for a trace");
    k->warps = g_new0(atrace_warp, nw);
    p->warp_first = g_new0(uint64_t, nw);
    return true;
}

/* Next whitespace-delimited token of *s, or NULL. */
static char *tok(char **s)
{
    char *t = *s;
    while (*t == ' ' || *t == '\t' || *t == '\r') t++;
    if (!*t) return NULL;
    char *e = t;
    while (*e && *e != ' ' && *e != '\t' && *e != '\r') e++;
    if (*e) *e++ = '\0';
    *s = e;
    return t;
}

static bool parse_u64(const char *t, int base, uint64_t *v)
{
    return t && num_parse(t, (unsigned)base, 0, v, NULL) == NUM_OK;
}

/* A register token: R<n> (RZ = R255 is no dependence), *r = ISA_REG_NONE to skip. */
static bool reg_tok(lp *p, const char *t, uint8_t *r)
{
    uint64_t v;
    if (t && t[0] == 'R' && parse_u64(t + 1, 10, &v) && v <= 255) {
        *r = v == RZ ? ISA_REG_NONE : (uint8_t)v;
        return true;
    }
    if (t && t[0] == 'U' && t[1] == 'R') { /* uniform registers: not in the warp's scoreboard */
        *r = ISA_REG_NONE;
        return true;
    }
    return lerr(p, "expected a register such as R12, got '%s'", t ? t : "the end of the line");
}

/* The static part of an instruction line: destination registers, opcode,
 * source registers, into *in and the interning key (pc, registers, opcode). */
static bool inst_regs(lp *p, char **rest, uint64_t ndst, isa_inst *in, GString *key,
                      char **opcode)
{
    char *t;
    uint64_t nsrc;
    for (unsigned i = 0; i < ndst; i++) {
        uint8_t r;
        if (!reg_tok(p, tok(rest), &r)) return false;
        if (r != ISA_REG_NONE) in->dst[in->ndst++] = r;
        g_string_append_printf(key, " d%u", r);
    }
    *opcode = tok(rest);
    if (!*opcode) return lerr(p, "expected the opcode");
    if (!atrace_decode_opcode(*opcode, in))
        return lerr(p, "unknown opcode '%s' (not in the SM70-SM90 table, docs/traces.md)", *opcode);
    g_string_append_printf(key, " %s", *opcode);
    if (!parse_u64(t = tok(rest), 10, &nsrc) || nsrc > 6)
        return lerr(p, "expected the source count (0..6), got '%s'", t ? t : "");
    for (unsigned i = 0; i < nsrc; i++) {
        uint8_t r;
        if (!reg_tok(p, tok(rest), &r)) return false;
        g_string_append_printf(key, " s%u", r);
        bool dup = r == ISA_REG_NONE;
        for (unsigned j = 0; j < in->nreads && !dup; j++) dup = in->reads[j] == r;
        if (!dup) in->reads[in->nreads++] = r;
    }
    return true;
}

/* A signed decimal token (a stride or a delta), or false. */
static bool parse_i64(const char *t, int64_t *v)
{
    char *end;
    *v = t ? g_ascii_strtoll(t, &end, 10) : 0;
    return t && !*end;
}

/* The addresses of the n active lanes of a memory instruction, appended to
 * p->addr: listed (mode 0), base + stride (1) or base + deltas (2). */
static bool inst_addrs(lp *p, char **rest, unsigned n)
{
    char *t;
    uint64_t mode, base = 0;
    if (!parse_u64(t = tok(rest), 10, &mode) || mode > 2)
        return lerr(p, "expected the address format (0 list, 1 base+stride, 2 base+deltas), got '%s'",
                    t ? t : "the end of the line");
    if (mode != 0 && n && !parse_u64(t = tok(rest), 16, &base))
        return lerr(p, "expected the base address (hex), got '%s'", t ? t : "the end of the line");
    int64_t stride = 0;
    if (mode == 1 && n && !parse_i64(t = tok(rest), &stride))
        return lerr(p, "expected the stride (decimal), got '%s'", t ? t : "the end of the line");
    uint64_t a = base;
    for (unsigned j = 0; j < n; j++) {
        if (mode == 0) {
            if (!parse_u64(t = tok(rest), 16, &a))
                return lerr(p, "expected %u addresses (one per active lane), got '%s'", n,
                            t ? t : "the end of the line");
        } else if (mode == 1) {
            a = base + (uint64_t)stride * j;
        } else if (j > 0) {
            int64_t d;
            if (!parse_i64(t = tok(rest), &d))
                return lerr(p, "expected %u deltas after the base, got '%s'", n - 1,
                            t ? t : "the end of the line");
            a += (uint64_t)d;
        }
        g_array_append_val(p->addr, a);
    }
    return true;
}

/* Appends the dynamic record, interning the static instruction: lines with
 * the same key share one isa_inst. Takes the key. */
static void inst_intern(lp *p, GString *key, const isa_inst *in, const char *opcode,
                        atrace_rec rec)
{
    gpointer found = g_hash_table_lookup(p->statics, key->str);
    if (found) {
        rec.sidx = (uint32_t)(GPOINTER_TO_UINT(found) - 1);
        g_string_free(key, TRUE);
    } else {
        rec.sidx = p->inst->len;
        isa_inst copy = *in;
        copy.line = p->line;
        g_array_append_val(p->inst, copy);
        char *op = g_strdup(opcode);
        g_array_append_val(p->opcode, op);
        g_hash_table_insert(p->statics, g_string_free(key, FALSE), GUINT_TO_POINTER(rec.sidx + 1));
    }
    g_array_append_val(p->rec, rec);
}

static bool inst_line(lp *p, char *s, uint64_t *left)
{
    if (*left == 0) return lerr(p, "more instruction lines than the warp's 'insts' count");
    (*left)--;
    char *t, *rest = s, *opcode = NULL;
    uint64_t pc, mask, ndst, width;
    if (!parse_u64(t = tok(&rest), 16, &pc)) return lerr(p, "expected the pc (hex), got '%s'", t ? t : "");
    if (!parse_u64(t = tok(&rest), 16, &mask) || mask > UINT32_MAX)
        return lerr(p, "expected the active mask (32-bit hex), got '%s'", t ? t : "");
    if (!parse_u64(t = tok(&rest), 10, &ndst) || ndst > 4)
        return lerr(p, "expected the destination count (0..4), got '%s'", t ? t : "");
    isa_inst in;
    memset(&in, 0, sizeof in);
    GString *key = g_string_new(NULL);
    g_string_append_printf(key, "%" G_GINT64_MODIFIER "x", pc);
    if (!inst_regs(p, &rest, ndst, &in, key, &opcode)) goto fail;
    if (!parse_u64(t = tok(&rest), 10, &width)) {
        lerr(p, "expected the memory width (0 for none), got '%s'", t ? t : "the end of the line");
        goto fail;
    }
    bool mem = in.space != ISA_SPACE_NONE;
    if (mem != (width > 0)) {
        lerr(p, mem ? "opcode '%s' accesses memory but the line lists no addresses (width 0)"
                    : "opcode '%s' does not access memory but the line has width %s",
             opcode, t);
        goto fail;
    }
    atrace_rec rec = {0, (uint32_t)mask, 0};
    if (mem) {
        rec.addr = p->addr->len;
        if (!inst_addrs(p, &rest, (unsigned)sg_popcount32((uint32_t)mask))) goto fail;
    }
    if ((t = tok(&rest))) {
        lerr(p, "unexpected '%s' at the end of the instruction", t);
        goto fail;
    }
    inst_intern(p, key, &in, opcode, rec);
    return true;
fail:
    g_string_free(key, TRUE);
    return false;
}

static bool parse(lp *p, char *text)
{
    atrace_kernel *k = p->k;
    bool in_tb = false;
    int64_t cur_cta = -1, cur_warp = -1;
    uint64_t left = 0;
    bool *seen = NULL;
    char *s = text;
    bool ok = true;
    for (p->line = 1; ok && s; p->line++) {
        char *nl = strchr(s, '\n');
        if (nl) *nl = '\0';
        char *line = s;
        s = nl ? nl + 1 : NULL;
        while (*line == ' ' || *line == '\t') line++;
        g_strchomp(line);
        if (!*line) continue;
        if (!in_tb && line[0] == '-') {
            if (p->have_header_end) ok = lerr(p, "header line after the first thread block");
            else ok = header_line(p, line);
            continue;
        }
        if (!strcmp(line, "#BEGIN_TB")) {
            if (in_tb) { ok = lerr(p, "#BEGIN_TB before the previous #END_TB"); break; }
            if (!p->have_header_end && !header_done(p)) { ok = false; break; }
            if (!seen) seen = g_new0(bool, k->ncta * k->warps_per_cta);
            in_tb = true;
            cur_cta = cur_warp = -1;
            continue;
        }
        if (line[0] == '#' && strcmp(line, "#END_TB") != 0) continue; /* "#traces format" */
        if (!in_tb) { ok = lerr(p, "'%.40s' outside a thread block (#BEGIN_TB ... #END_TB)", line); break; }
        unsigned x, y, z, w;
        if (!strcmp(line, "#END_TB")) {
            if (left) { ok = lerr(p, "#END_TB with %" G_GUINT64_FORMAT " instructions of the warp missing", left); break; }
            in_tb = false;
        } else if (sscanf(line, "thread block = %u,%u,%u", &x, &y, &z) == 3) {
            if (x >= k->grid[0] || y >= k->grid[1] || z >= k->grid[2]) {
                ok = lerr(p, "thread block %u,%u,%u is outside the grid (%u,%u,%u)", x, y, z,
                          k->grid[0], k->grid[1], k->grid[2]);
                break;
            }
            cur_cta = (int64_t)(x + (uint64_t)k->grid[0] * (y + (uint64_t)k->grid[1] * z));
        } else if (sscanf(line, "warp = %u", &w) == 1) {
            if (cur_cta < 0) { ok = lerr(p, "'warp =' before 'thread block ='"); break; }
            if (left) { ok = lerr(p, "a new warp with %" G_GUINT64_FORMAT " instructions of the previous one missing", left); break; }
            if (w >= k->warps_per_cta) {
                ok = lerr(p, "warp %u is outside the CTA's %u warps (-block dim)", w, k->warps_per_cta);
                break;
            }
            uint64_t gw = (uint64_t)cur_cta * k->warps_per_cta + w;
            if (seen[gw]) { ok = lerr(p, "warp %u of this thread block appears twice", w); break; }
            seen[gw] = true;
            cur_warp = (int64_t)gw;
        } else if (sscanf(line, "insts = %u", &w) == 1) {
            if (cur_warp < 0) { ok = lerr(p, "'insts =' before 'warp ='"); break; }
            k->warps[cur_warp].n = w;
            p->warp_first[cur_warp] = p->rec->len;
            left = w;
        } else {
            if (cur_warp < 0) { ok = lerr(p, "an instruction before 'warp ='"); break; }
            ok = inst_line(p, line, &left);
        }
    }
    if (ok && in_tb) { p->line--; ok = lerr(p, "the file ends inside a thread block (no #END_TB)"); }
    if (ok && !p->have_header_end) ok = header_done(p); /* a trace of no thread block */
    g_free(seen);
    return ok;
}

static char *stub_text(const atrace_kernel *k)
{
    GString *t = g_string_new(NULL);
    g_string_append_printf(t, ".kernel traced\n.regs %u\n", k->nregs ? MIN(k->nregs, ISA_MAX_REGS) : 1);
    if (k->shmem) g_string_append_printf(t, ".shared smem %u\n", k->shmem);
    g_string_append(t, "exit\n");
    return g_string_free(t, FALSE);
}

/* The header alone: lines up to the first thread block (the whole text of
 * a .xz file is decompressed, a plain file is read no further). */
bool atrace_read_dims(const char *path, uint32_t grid[3], uint32_t block[3], GError **err)
{
    atrace_kernel k = {0};
    lp p = {.file = path, .err = err, .k = &k};
    char *text = NULL;
    FILE *f = NULL;
    if (g_str_has_suffix(path, ".xz")) {
        if (!(text = read_text(path, err))) return false;
    } else if (!(f = fopen(path, "r"))) {
        return input_error_in(err, ISA_ERROR, ISA_ERROR_INPUT, path, 0, "cannot open: %s",
                              g_strerror(errno));
    }
    char *cur = text, *line = NULL;
    size_t cap = 0;
    bool ok = true;
    for (p.line = 1; ok; p.line++) {
        char *s;
        if (f) {
            if (getline(&line, &cap, f) < 0) break;
            s = line;
        } else {
            if (!cur || !*cur) break;
            char *nl = strchr(cur, '\n');
            if (nl) *nl = '\0';
            s = cur;
            cur = nl ? nl + 1 : NULL;
        }
        s = g_strstrip(s);
        if (!strcmp(s, "#BEGIN_TB")) break;
        if (s[0] == '-') ok = header_line(&p, s);
    }
    if (ok && (!k.grid[0] || !k.block[0]))
        ok = lerr(&p, "the header lacks '-grid dim' or '-block dim'");
    if (ok) {
        memcpy(grid, k.grid, sizeof k.grid);
        memcpy(block, k.block, sizeof k.block);
    }
    g_free(k.name);
    free(line);
    g_free(text);
    if (f) fclose(f);
    return ok;
}

atrace_kernel *atrace_load(const char *path, GError **err)
{
    char *text = read_text(path, err);
    if (!text) return NULL;
    atrace_kernel *k = g_new0(atrace_kernel, 1);
    k->file = g_strdup(path);
    k->name = g_path_get_basename(path);
    lp p = {.file = path, .err = err, .k = k,
            .statics = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL),
            .inst = g_array_new(FALSE, FALSE, sizeof(isa_inst)),
            .opcode = g_array_new(FALSE, FALSE, sizeof(char *)),
            .rec = g_array_new(FALSE, FALSE, sizeof(atrace_rec)),
            .addr = g_array_new(FALSE, FALSE, sizeof(uint64_t))};
    bool ok = parse(&p, text);
    g_free(text);
    g_hash_table_destroy(p.statics);
    k->ninst = p.inst->len;
    k->inst = (isa_inst *)(void *)g_array_free(p.inst, FALSE);
    g_array_append_val(p.opcode, (char *){NULL});
    k->opcode = (char **)(void *)g_array_free(p.opcode, FALSE);
    k->nrec = p.rec->len;
    k->rec = (atrace_rec *)(void *)g_array_free(p.rec, FALSE);
    k->naddr = p.addr->len;
    k->addr = (uint64_t *)(void *)g_array_free(p.addr, FALSE);
    if (ok) {
        for (uint64_t w = 0; w < k->ncta * k->warps_per_cta; w++) {
            k->warps[w].rec = k->rec + p.warp_first[w];
            k->warps[w].inst = k->inst;
        }
        char *stub = stub_text(k);
        GError *e = NULL;
        k->stub = isa_program_parse(stub, path, &e);
        g_free(stub);
        if (!k->stub) {
            g_set_error(err, ISA_ERROR, ISA_ERROR_INPUT, "%s: %s", path, e->message);
            g_error_free(e);
            ok = false;
        }
    }
    g_free(p.warp_first);
    if (!ok) {
        atrace_free(k);
        return NULL;
    }
    return k;
}

void atrace_free(atrace_kernel *k)
{
    if (!k) return;
    g_free(k->file);
    g_free(k->name);
    g_free(k->inst);
    g_strfreev(k->opcode);
    g_free(k->rec);
    g_free(k->addr);
    g_free(k->warps);
    isa_program_free(k->stub);
    g_free(k);
}

char **atrace_list_load(const char *path, GError **err)
{
    char *text = NULL;
    GError *e = NULL;
    if (!g_file_get_contents(path, &text, NULL, &e)) {
        g_set_error(err, ISA_ERROR, ISA_ERROR_INPUT, "%s", e->message);
        g_error_free(e);
        return NULL;
    }
    char *dir = g_path_get_dirname(path);
    GPtrArray *out = g_ptr_array_new();
    char **lines = g_strsplit(text, "\n", -1);
    bool ok = true;
    for (unsigned i = 0; lines[i] && ok; i++) {
        char *l = g_strstrip(lines[i]);
        if (!*l || g_str_has_prefix(l, "MemcpyHtoD") || g_str_has_prefix(l, "MemcpyDtoH")) continue;
        if (!g_str_has_prefix(l, "kernel")) {
            input_error_in(err, ISA_ERROR, ISA_ERROR_INPUT, path, i + 1,
                           "expected a kernel file (kernel-N.traceg) or a MemcpyHtoD line, got '%.40s'", l);
            ok = false;
            break;
        }
        g_ptr_array_add(out, g_build_filename(dir, l, NULL));
    }
    g_strfreev(lines);
    g_free(text);
    g_free(dir);
    g_ptr_array_add(out, NULL);
    char **v = (char **)g_ptr_array_free(out, FALSE);
    if (!ok) {
        g_strfreev(v);
        return NULL;
    }
    return v;
}

void atrace_exec(const atrace_kernel *k, const atrace_warp *w, uint32_t i, uint32_t all_lanes,
                 isa_exec_out *o)
{
    const atrace_rec *r = &w->rec[i];
    const isa_inst *in = &k->inst[r->sidx];
    o->inst = in;
    o->executed = r->mask;
    o->taken = 0;
    o->exited = i + 1 == w->n ? all_lanes : 0;
    o->fault = 0;
    o->mem_lanes = 0;
    o->access_size = 0;
    if (in->space == ISA_SPACE_NONE) return;
    o->mem_lanes = r->mask;
    o->access_size = in->mem_bytes;
    const uint64_t *a = k->addr + r->addr;
    for (uint32_t m = r->mask; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        uint64_t v = *a++;
        /* shared accesses are generic addresses: offsets from the window's base */
        if (in->space == ISA_SPACE_SHARED && v >= k->shmem_base) v -= k->shmem_base;
        o->addr[l] = v;
    }
}
