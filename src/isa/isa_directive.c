/* Directives: .kernel, .regs, .param, .shared and .data. They are read in a
 * first pass over the file, so instructions may use @symbols and params
 * declared anywhere. Data bases and shared offsets are assigned here, in
 * declaration order. */
#include <string.h>

#include "isa_internal.h"

static const char *const directive_names[] = {".kernel", ".regs", ".param", ".shared", ".data"};

/* Splits off the first whitespace-delimited word of *rest. */
static char *next_word(char **rest)
{
    char *s = *rest;
    while (*s == ' ' || *s == '\t') s++;
    if (!*s) {
        *rest = s;
        return NULL;
    }
    char *w = s;
    while (*s && *s != ' ' && *s != '\t') s++;
    if (*s) *s++ = '\0';
    *rest = s;
    return w;
}

static bool check_symbol(isa_parser *ps, const char *what, const char *name)
{
    if (!name) return isa_perr(ps, "bad %s declaration: missing name", what);
    if (!isa_is_ident(name) || strchr(name, '.'))
        return isa_perr(ps, "bad %s declaration: '%s' is not a name (letters, digits, _)", what, name);
    if (g_hash_table_contains(ps->symbols, name))
        return isa_perr(ps, "bad %s declaration: symbol '@%s' is already declared", what, name);
    return true;
}

static void add_symbol(isa_parser *ps, const char *name, uint64_t value)
{
    uint64_t *v = g_new(uint64_t, 1);
    *v = value;
    g_hash_table_insert(ps->symbols, g_strdup(name), v);
}

/* "u32[1024]" -> type, count. */
static bool parse_typed_count(isa_parser *ps, const char *what, const char *name, const char *s,
                              isa_type *type, uint64_t *count)
{
    const char *lb = strchr(s, '[');
    size_t n = strlen(s);
    if (!lb || n < 3 || s[n - 1] != ']')
        return isa_perr(ps, "bad %s declaration '%s': expected type[count] such as u32[1024], got '%s'",
                        what, name, s);
    char *tname = g_strndup(s, (gsize)(lb - s));
    char *cnt = g_strndup(lb + 1, (gsize)(s + n - 1 - lb - 1));
    int t = isa_type_parse(tname);
    bool ok = true;
    if (t < 0)
        ok = isa_perr(ps, "bad %s declaration '%s': unknown element type '%s' (u8 u16 u32 u64 s8 s16 s32 s64 f32 f64)",
                      what, name, tname);
    else if (!isa_parse_u64(isa_strip(cnt), count) || *count == 0 || *count > (UINT64_C(1) << 44))
        ok = isa_perr(ps, "bad %s declaration '%s': count '%s' must be an integer in 1..2^44", what,
                      name, cnt);
    *type = (isa_type)(t < 0 ? 0 : t);
    g_free(tname);
    g_free(cnt);
    return ok;
}

static bool dir_data(isa_parser *ps, char *rest, memimg *check)
{
    char *init = strchr(rest, '=');
    if (init) *init++ = '\0';
    char *name = next_word(&rest);
    if (!check_symbol(ps, "data", name)) return false;
    char *spec = next_word(&rest);
    if (!spec) return isa_perr(ps, "bad data declaration '%s': missing type[count], e.g. u32[1024]", name);
    if (next_word(&rest))
        return isa_perr(ps, "bad data declaration '%s': unexpected text after '%s' (expected '= initializer')",
                        name, spec);
    isa_type t;
    uint64_t count;
    if (!parse_typed_count(ps, "data", name, spec, &t, &count)) return false;
    char *init_text = init ? isa_strip(init) : (char *)"";
    if (init && !*init_text)
        return isa_perr(ps, "bad data declaration '%s': missing initializer after '='", name);
    isa_data_decl d = {0};
    d.elem_bytes = isa_type_bytes(t);
    d.is_float = isa_type_is_float(t);
    d.count = count;
    d.base = ps->next_data_base;
    d.line = ps->line;
    char *origin = input_origin(ps->file, ps->line);
    GError *e = NULL;
    bool ok = memimg_add_array(check, name, d.base, d.elem_bytes, d.is_float, count, init_text, origin, &e);
    g_free(origin);
    if (!ok) {
        if (!ps->err) ps->err = g_error_new_literal(ISA_ERROR, ISA_ERROR_INPUT, e->message);
        g_error_free(e);
        return false;
    }
    d.name = g_strdup(name);
    d.type_name = g_strdup(isa_type_name(t));
    d.init = g_strdup(init_text);
    g_array_append_val(ps->data, d);
    add_symbol(ps, name, d.base);
    uint64_t end = d.base + count * d.elem_bytes;
    ps->next_data_base = (end + ISA_DATA_ALIGN - 1) & ~(ISA_DATA_ALIGN - 1);
    return true;
}

static bool dir_shared(isa_parser *ps, char *rest)
{
    char *name = next_word(&rest);
    if (!check_symbol(ps, "shared", name)) return false;
    char *spec = next_word(&rest);
    if (!spec) return isa_perr(ps, "bad shared declaration '%s': missing size (bytes or type[count])", name);
    if (next_word(&rest)) return isa_perr(ps, "bad shared declaration '%s': unexpected text after '%s'", name, spec);
    uint64_t bytes;
    if (strchr(spec, '[')) {
        isa_type t;
        uint64_t count;
        if (!parse_typed_count(ps, "shared", name, spec, &t, &count)) return false;
        bytes = count * isa_type_bytes(t);
    } else if (!isa_parse_u64(spec, &bytes) || bytes == 0) {
        return isa_perr(ps, "bad shared declaration '%s': size '%s' must be a positive byte count or type[count]",
                        name, spec);
    }
    uint64_t off = (ps->next_shared + ISA_SHARED_ALIGN - 1) & ~(uint64_t)(ISA_SHARED_ALIGN - 1);
    if (bytes > ISA_SHARED_MAX || off + bytes > ISA_SHARED_MAX)
        return isa_perr(ps, "bad shared declaration '%s': shared memory over %u bytes", name, ISA_SHARED_MAX);
    isa_shared_decl s = {g_strdup(name), (uint32_t)off, (uint32_t)bytes, ps->line};
    g_array_append_val(ps->shared, s);
    add_symbol(ps, name, off);
    ps->next_shared = (uint32_t)(off + bytes);
    return true;
}

static bool dir_param(isa_parser *ps, char *rest)
{
    char *name = next_word(&rest);
    if (!name || !isa_is_ident(name) || strchr(name, '.'))
        return isa_perr(ps, "bad param declaration: expected a name, got '%s'", name ? name : "");
    if (next_word(&rest)) return isa_perr(ps, "bad param declaration '%s': unexpected text after the name", name);
    for (unsigned i = 0; i < ps->params->len; i++)
        if (!strcmp(g_ptr_array_index(ps->params, i), name))
            return isa_perr(ps, "bad param declaration: duplicate param '%s'", name);
    if (ps->params->len >= ISA_MAX_PARAMS)
        return isa_perr(ps, "bad param declaration '%s': more than %d params", name, ISA_MAX_PARAMS);
    g_ptr_array_add(ps->params, g_strdup(name));
    return true;
}

bool isa_parse_directive(isa_parser *ps, char *text, memimg *check)
{
    char *rest = text;
    char *dir = next_word(&rest);
    if (!strcmp(dir, ".data")) return dir_data(ps, rest, check);
    if (!strcmp(dir, ".shared")) return dir_shared(ps, rest);
    if (!strcmp(dir, ".param")) return dir_param(ps, rest);
    if (!strcmp(dir, ".kernel")) {
        char *name = next_word(&rest);
        if (!name || !isa_is_ident(name) || next_word(&rest))
            return isa_perr(ps, "bad .kernel directive: expected one name");
        if (ps->kernel_name) return isa_perr(ps, "duplicate .kernel directive");
        ps->kernel_name = g_strdup(name);
        return true;
    }
    if (!strcmp(dir, ".regs")) {
        char *n = next_word(&rest);
        uint64_t v;
        if (!n || !isa_parse_u64(n, &v) || v == 0 || v > ISA_MAX_REGS || next_word(&rest))
            return isa_perr(ps, "bad .regs directive: expected a register count in 1..%d", ISA_MAX_REGS);
        if (ps->regs_decl >= 0) return isa_perr(ps, "duplicate .regs directive");
        ps->regs_decl = (int)v;
        ps->regs_line = ps->line;
        return true;
    }
    const char *best = directive_names[0];
    unsigned bd = UINT32_MAX;
    for (size_t i = 0; i < G_N_ELEMENTS(directive_names); i++) {
        unsigned d = (unsigned)edit_distance(dir, directive_names[i]);
        if (d < bd) bd = d, best = directive_names[i];
    }
    return isa_perr(ps, "unknown directive '%s' (did you mean '%s'?)", dir, best);
}
