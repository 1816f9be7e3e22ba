/* Loading a program: runs the parser's two passes, resolves labels, checks
 * register counts, builds the CFG, and owns the resulting isa_program. */
#include <string.h>

#include "isa_internal.h"
#include "simtgrid/input.h"

G_DEFINE_QUARK(simtgrid-isa-error-quark, isa_error)

static void free_sym(gpointer p) { g_free(p); }

static void parser_init(isa_parser *ps, const char *file)
{
    memset(ps, 0, sizeof *ps);
    ps->file = file;
    ps->code = g_array_new(FALSE, TRUE, sizeof(isa_inst));
    ps->labels = g_array_new(FALSE, TRUE, sizeof(isa_label));
    ps->label_idx = g_hash_table_new(g_str_hash, g_str_equal);
    ps->fixups = g_array_new(FALSE, TRUE, sizeof(isa_fixup));
    ps->data = g_array_new(FALSE, TRUE, sizeof(isa_data_decl));
    ps->shared = g_array_new(FALSE, TRUE, sizeof(isa_shared_decl));
    ps->params = g_ptr_array_new_with_free_func(g_free);
    ps->symbols = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, free_sym);
    ps->regs_decl = -1;
    ps->next_data_base = ISA_DATA_FIRST_BASE;
}

/* Frees what the program did not take over (taken arrays are NULL). */
static void parser_clear(isa_parser *ps)
{
    if (ps->code) g_array_free(ps->code, TRUE);
    if (ps->labels) {
        for (unsigned i = 0; i < ps->labels->len; i++) g_free(g_array_index(ps->labels, isa_label, i).name);
        g_array_free(ps->labels, TRUE);
    }
    g_hash_table_destroy(ps->label_idx);
    for (unsigned i = 0; i < ps->fixups->len; i++) g_free(g_array_index(ps->fixups, isa_fixup, i).label);
    g_array_free(ps->fixups, TRUE);
    if (ps->data) {
        for (unsigned i = 0; i < ps->data->len; i++) {
            isa_data_decl *d = &g_array_index(ps->data, isa_data_decl, i);
            g_free((char *)d->name), g_free((char *)d->type_name), g_free((char *)d->init);
        }
        g_array_free(ps->data, TRUE);
    }
    if (ps->shared) {
        for (unsigned i = 0; i < ps->shared->len; i++) g_free(g_array_index(ps->shared, isa_shared_decl, i).name);
        g_array_free(ps->shared, TRUE);
    }
    if (ps->params) g_ptr_array_unref(ps->params);
    g_hash_table_destroy(ps->symbols);
    g_free(ps->kernel_name);
    if (ps->err) g_error_free(ps->err);
}

static bool resolve_labels(isa_parser *ps)
{
    uint32_t n = ps->code->len;
    for (unsigned i = 0; i < ps->fixups->len; i++) {
        isa_fixup *f = &g_array_index(ps->fixups, isa_fixup, i);
        ps->line = f->line;
        gpointer idx = g_hash_table_lookup(ps->label_idx, f->label);
        if (!idx) return isa_perr(ps, "undefined label '%s'", f->label);
        isa_label *l = &g_array_index(ps->labels, isa_label, GPOINTER_TO_UINT(idx) - 1);
        if (l->pc >= n)
            return isa_perr(ps, "branch target '%s' (line %u) is past the last instruction: branch target out of program",
                            f->label, l->line);
        g_array_index(ps->code, isa_inst, f->pc).target = l->pc;
    }
    return true;
}

/* Registers used: .regs N bounds them; without it, N = highest + 1. */
static bool count_regs(isa_parser *ps, unsigned *nregs)
{
    unsigned hi = 0;
    for (unsigned pc = 0; pc < ps->code->len; pc++) {
        const isa_inst *in = &g_array_index(ps->code, isa_inst, pc);
        unsigned m = 0;
        for (unsigned k = 0; k < in->ndst; k++) m = MAX(m, in->dst[k] + 1u);
        for (unsigned k = 0; k < in->nreads; k++) m = MAX(m, in->reads[k] + 1u);
        if (ps->regs_decl >= 0 && m > (unsigned)ps->regs_decl) {
            ps->line = in->line;
            return isa_perr(ps, "register r%u out of range: .regs %d (line %u) allows r0..r%d", m - 1,
                            ps->regs_decl, ps->regs_line, ps->regs_decl - 1);
        }
        hi = MAX(hi, m);
    }
    *nregs = ps->regs_decl >= 0 ? (unsigned)ps->regs_decl : MAX(hi, 1u);
    return true;
}

static char *default_name(const char *file)
{
    char *base = g_path_get_basename(file);
    char *dot = strrchr(base, '.');
    if (dot && dot != base) *dot = '\0';
    return base;
}

static isa_program *take_program(isa_parser *ps, unsigned nregs)
{
    isa_program *p = g_new0(isa_program, 1);
    p->file = g_strdup(ps->file);
    p->name = ps->kernel_name ? ps->kernel_name : default_name(ps->file);
    ps->kernel_name = NULL;
    p->ninst = ps->code->len;
    p->code = (isa_inst *)(void *)g_array_free(ps->code, FALSE);
    ps->code = NULL;
    p->nregs = nregs;
    p->shared_bytes = ps->next_shared;
    p->nparams = ps->params->len;
    g_ptr_array_add(ps->params, NULL);
    p->param_names = (char **)g_ptr_array_free(ps->params, FALSE);
    ps->params = NULL;
    p->ndata = ps->data->len;
    p->data = (isa_data_decl *)(void *)g_array_free(ps->data, FALSE);
    ps->data = NULL;
    p->nshared = ps->shared->len;
    p->shared = (isa_shared_decl *)(void *)g_array_free(ps->shared, FALSE);
    ps->shared = NULL;
    p->nlabels = ps->labels->len;
    p->labels = (isa_label *)(void *)g_array_free(ps->labels, FALSE);
    ps->labels = NULL;
    return p;
}

isa_program *isa_program_parse(const char *text, const char *filename, GError **err)
{
    isa_parser ps;
    parser_init(&ps, filename ? filename : "<string>");
    memimg *check = memimg_new(0); /* validates initializers as they are declared */
    char **lines = g_strsplit(text, "\n", -1);
    unsigned nlines = g_strv_length(lines);
    for (int pass = 1; pass <= 2 && !ps.err; pass++) {
        for (unsigned i = 0; i < nlines && !ps.err; i++) {
            ps.line = i + 1;
            char *copy = g_strdup(lines[i]);
            isa_parse_line(&ps, copy, pass, check);
            g_free(copy);
        }
    }
    g_strfreev(lines);
    memimg_free(check);
    if (!ps.err && ps.code->len == 0) {
        ps.line = nlines ? nlines : 1;
        isa_perr(&ps, "empty kernel: no instructions");
    }
    unsigned nregs = 0;
    if (!ps.err) resolve_labels(&ps);
    if (!ps.err) count_regs(&ps, &nregs);
    isa_program *p = NULL;
    if (!ps.err) {
        p = take_program(&ps, nregs);
        if (!isa_cfg_build(p, &ps.err)) {
            isa_program_free(p);
            p = NULL;
        }
    }
    if (ps.err) {
        g_propagate_error(err, ps.err);
        ps.err = NULL;
    }
    parser_clear(&ps);
    return p;
}

isa_program *isa_program_load_file(const char *path, GError **err)
{
    char *text = NULL;
    size_t len = 0;
    char *why = input_read_why(path, INPUT_MAX_BYTES, &text, &len);
    if (why) {
        input_error_in(err, ISA_ERROR, ISA_ERROR_INPUT, path, 0, "cannot read kernel (%s)", why);
        g_free(why);
        return NULL;
    }
    if (strlen(text) != len) {
        input_error_in(err, ISA_ERROR, ISA_ERROR_INPUT, path, 0, "not a text file (contains a NUL byte)");
        g_free(text);
        return NULL;
    }
    isa_program *p = isa_program_parse(text, path, err);
    g_free(text);
    return p;
}

void isa_program_free(isa_program *p)
{
    if (!p) return;
    for (unsigned i = 0; i < p->ndata; i++) {
        g_free((char *)p->data[i].name), g_free((char *)p->data[i].type_name);
        g_free((char *)p->data[i].init);
    }
    for (unsigned i = 0; i < p->nshared; i++) g_free(p->shared[i].name);
    for (unsigned i = 0; i < p->nlabels; i++) g_free(p->labels[i].name);
    g_strfreev(p->param_names);
    g_free(p->data), g_free(p->shared), g_free(p->labels), g_free(p->blocks);
    g_free(p->code), g_free(p->name), g_free(p->file);
    g_free(p);
}

/* ---- accessors -------------------------------------------------------------- */

const char *isa_program_name(const isa_program *p) { return p->name; }
const char *isa_program_file(const isa_program *p) { return p->file; }
uint32_t isa_program_ninst(const isa_program *p) { return p->ninst; }
const isa_inst *isa_program_code(const isa_program *p) { return p->code; }
unsigned isa_program_nregs(const isa_program *p) { return p->nregs; }
uint32_t isa_program_shared_bytes(const isa_program *p) { return p->shared_bytes; }
unsigned isa_program_nparams(const isa_program *p) { return p->nparams; }
unsigned isa_program_ndata(const isa_program *p) { return p->ndata; }
uint32_t isa_program_nblocks(const isa_program *p) { return p->nblocks; }

const char *isa_program_param_name(const isa_program *p, unsigned i)
{
    return i < p->nparams ? p->param_names[i] : NULL;
}

int isa_program_param_index(const isa_program *p, const char *name)
{
    for (unsigned i = 0; i < p->nparams; i++)
        if (!strcmp(p->param_names[i], name)) return (int)i;
    return -1;
}

const isa_data_decl *isa_program_data(const isa_program *p, unsigned i)
{
    return i < p->ndata ? &p->data[i] : NULL;
}

const isa_block *isa_program_block(const isa_program *p, uint32_t b)
{
    return b < p->nblocks ? &p->blocks[b] : NULL;
}

bool isa_program_symbol(const isa_program *p, const char *name, uint64_t *value)
{
    if (name[0] == '@') name++;
    for (unsigned i = 0; i < p->ndata; i++)
        if (!strcmp(p->data[i].name, name)) return *value = p->data[i].base, true;
    for (unsigned i = 0; i < p->nshared; i++)
        if (!strcmp(p->shared[i].name, name)) return *value = p->shared[i].offset, true;
    return false;
}

uint32_t isa_ipdom(const isa_program *p, uint32_t pc)
{
    return pc < p->ninst ? p->code[pc].reconv : ISA_PC_EXIT;
}

bool isa_program_add_data(const isa_program *p, memimg *m, GError **err)
{
    for (unsigned i = 0; i < p->ndata; i++) {
        const isa_data_decl *d = &p->data[i];
        char *origin = input_origin(p->file, d->line);
        bool ok = memimg_add_array(m, d->name, d->base, d->elem_bytes, d->is_float, d->count, d->init,
                                   origin, err);
        g_free(origin);
        if (!ok) return false;
    }
    return true;
}

memimg *isa_program_new_memimg(const isa_program *p, uint64_t seed, GError **err)
{
    memimg *m = memimg_new(seed);
    if (!isa_program_add_data(p, m, err)) {
        memimg_free(m);
        return NULL;
    }
    return m;
}
