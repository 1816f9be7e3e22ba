/* Profiles: an INI file read with line numbers (keyfile_scan.c), every key
 * checked against the profile key table with the model parameters' value
 * parser, then the checks that involve several keys. Every error names the
 * file, the line and the key. */
#include <string.h>

#include "gen/gen_internal.h"
#include "config/config_lib.h"

static const param_def keys[K_COUNT] = {
#define KEY(id, name, type, unit, def, min, max, choices, desc) \
    [id] = {name, type, unit, def, min, max, choices, desc},
#include "gen/profile_keys.def"
#undef KEY
};

static const char *const groups[] = {"profile", "loop", "memory", "compute", "branch", "shared"};

const param_def *gen_profile_keys(size_t *n)
{
    *n = K_COUNT;
    return keys;
}

void gen_profile_free(gen_profile *p)
{
    if (!p)
        return;
    g_free(p->path);
    g_free(p->name);
    g_free(p->desc);
    g_free(p);
}

uint64_t gen_profile_seed(const gen_profile *p) { return (uint64_t)p->v[K_SEED]; }

/* Stores a parsed value; strings are kept by the caller. */
static void store(gen_profile *p, enum gen_key k, const param_value *v)
{
    switch (keys[k].type) {
    case PT_INT: p->v[k] = v->i; p->f[k] = (double)v->i; break;
    case PT_FLOAT: p->f[k] = v->f; break;
    case PT_BOOL: p->v[k] = v->b; break;
    case PT_ENUM: p->v[k] = v->e; break;
    case PT_STRING: break;
    }
}

static bool set_key(gen_profile *p, enum gen_key k, const char *text, int line, GError **err)
{
    const char *dot = strchr(keys[k].name, '.');
    if (keys[k].type == PT_STRING) {
        char **slot = k == K_NAME ? &p->name : &p->desc;
        g_free(*slot);
        *slot = g_strdup(text);
    } else {
        param_value v;
        char *why = param_parse(&keys[k], text, &v, NULL);
        if (why) {
            g_autofree char *group = g_strndup(keys[k].name, (gsize)(dot - keys[k].name));
            key_error(err, p->path, line, group, dot + 1, "%s", why);
            g_free(why);
            return false;
        }
        store(p, k, &v);
    }
    p->line[k] = line;
    return true;
}

static int find_key(const char *group, const char *key)
{
    size_t gl = strlen(group);
    for (int k = 0; k < K_COUNT; k++)
        if (!strncmp(keys[k].name, group, gl) && keys[k].name[gl] == '.' &&
            !strcmp(keys[k].name + gl + 1, key))
            return k;
    return -1;
}

static bool known_group(const char *g)
{
    for (size_t i = 0; i < G_N_ELEMENTS(groups); i++)
        if (!strcmp(g, groups[i]))
            return true;
    return false;
}

/* The nearest key of the same group, for "did you mean". */
static const char *nearest_key(const char *group, const char *key)
{
    const char *cands[K_COUNT];
    size_t n = 0, gl = strlen(group);
    for (int k = 0; k < K_COUNT; k++)
        if (!strncmp(keys[k].name, group, gl) && keys[k].name[gl] == '.')
            cands[n++] = keys[k].name + gl + 1;
    return nearest_of(key, cands, n);
}

/* Error at the line of key `k`, or of `other` when k was left at its default. */
static bool relation_error(const gen_profile *p, enum gen_key k, enum gen_key other, GError **err,
                           const char *what)
{
    enum gen_key at = p->line[k] || !p->line[other] ? k : other;
    const char *dot = strchr(keys[at].name, '.');
    g_autofree char *group = g_strndup(keys[at].name, (gsize)(dot - keys[at].name));
    return key_error(err, p->path, p->line[at], group, dot + 1, "%s", what);
}

/* Checks across keys: each names the key that must change. */
static bool check(gen_profile *p, GError **err)
{
    int64_t pat = p->v[K_MEM_PATTERN], width = 4 << p->v[K_MEM_WIDTH];
    double wsum = p->f[K_W_INT] + p->f[K_W_FP] + p->f[K_W_SFU];
    bool any_ops = p->v[K_OPS] > 0 || (p->v[K_BR_SHAPE] != BR_NONE &&
                                       (p->v[K_BR_THEN] > 0 || p->v[K_BR_ELSE] > 0));
    if (any_ops && wsum <= 0)
        return relation_error(p, K_W_INT, K_OPS, err,
                         "the mix is empty: expected compute.int, compute.fp or compute.sfu > 0");
    if (pat != PAT_NONE && p->v[K_MEM_LOADS] == 0)
        return relation_error(p, K_MEM_LOADS, K_MEM_PATTERN, err,
                         "expected at least 1 load for a memory pattern (or memory.pattern = none)");
    if ((pat == PAT_CSR || pat == PAT_TREE) && p->v[K_MEM_LOADS] != 1)
        return relation_error(p, K_MEM_LOADS, K_MEM_PATTERN, err,
                         "expected 1: csr and tree walk one vertex or key per iteration");
    if ((pat == PAT_CHASE || pat == PAT_CSR || pat == PAT_TREE) && width != 4)
        return relation_error(p, K_MEM_WIDTH, K_MEM_PATTERN, err,
                         "expected 4: chase, csr and tree read u32 words");
    if (p->v[K_MEM_FOOTPRINT] % width)
        return relation_error(p, K_MEM_FOOTPRINT, K_MEM_WIDTH, err,
                         "expected a multiple of memory.width");
    uint64_t n = (uint64_t)p->v[K_MEM_FOOTPRINT] / (uint64_t)width;
    if ((pat == PAT_GATHER || pat == PAT_CHASE || pat == PAT_CSR) && n > UINT32_MAX)
        return relation_error(p, K_MEM_FOOTPRINT, K_MEM_PATTERN, err,
                         "expected at most 2^32 elements: indices are u32");
    if (pat == PAT_CSR && n * (uint64_t)p->v[K_MEM_DEGREE] > UINT32_MAX)
        return relation_error(p, K_MEM_DEGREE, K_MEM_FOOTPRINT, err,
                         "expected vertices * degree < 2^32 (vertices = footprint / 4)");
    if (pat == PAT_CSR && (uint64_t)p->v[K_MEM_WINDOW] > n)
        return relation_error(p, K_MEM_WINDOW, K_MEM_FOOTPRINT, err,
                         "expected at most the vertex count (footprint / 4)");
    if (pat == PAT_CHASE && (uint64_t)p->v[K_MEM_STRIDE] > n)
        return relation_error(p, K_MEM_STRIDE, K_MEM_FOOTPRINT, err,
                         "expected at most the element count (footprint / 4)");
    if (p->v[K_LOOP_BARRIER] && (p->v[K_LOOP_SHAPE] != LOOP_UNIFORM || pat == PAT_CSR))
        return relation_error(p, K_LOOP_BARRIER, K_LOOP_SHAPE, err,
                         "a barrier needs every thread to run the same trips: expected loop.shape = "
                         "uniform and a pattern other than csr");
    if (p->v[K_SH_PATTERN] == SH_EXCHANGE && !p->v[K_LOOP_BARRIER])
        return relation_error(p, K_SH_PATTERN, K_LOOP_BARRIER, err,
                         "exchange reads another thread's word: expected loop.barrier = true");
    if (p->v[K_BR_SHAPE] != BR_NONE && p->v[K_BR_COND] == COND_DATA && pat == PAT_NONE)
        return relation_error(p, K_BR_COND, K_MEM_PATTERN, err,
                         "data needs a loaded value: expected a memory.pattern other than none");
    if (p->v[K_LOOP_SHAPE] == LOOP_LANE_SKEW &&
        p->v[K_LOOP_TRIPS] + 31 * p->v[K_LOOP_SKEW] > 1000000)
        return relation_error(p, K_LOOP_SKEW, K_LOOP_TRIPS, err,
                         "expected trips + 31*skew <= 1000000");
    if (p->name && *p->name) {
        bool ident = !g_ascii_isdigit(p->name[0]);
        for (const char *s = p->name; *s && ident; s++)
            ident = g_ascii_isalnum(*s) || *s == '_';
        if (!ident)
            return relation_error(p, K_NAME, K_NAME, err,
                             "expected a kernel name of letters, digits and '_', not starting with a digit");
    }
    return true;
}

gen_profile *gen_profile_load(const char *path, GError **err)
{
    kf_doc *d = kf_doc_load(path, NULL, err);
    if (!d)
        return NULL;
    gen_profile *p = g_new0(gen_profile, 1);
    p->path = g_strdup(path);
    bool ok = true;
    for (int k = 0; k < K_COUNT && ok; k++)
        ok = set_key(p, (enum gen_key)k, keys[k].def, 0, err);
    g_assert(ok); /* the table's defaults parse */
    for (unsigned i = 0; i < d->ngroups && ok; i++) {
        const kf_group *g = &d->groups[i];
        if (!known_group(g->name))
            ok = input_error_at(err, path, g->line, "unknown group [%s] (did you mean [%s]?)",
                                g->name, nearest_of(g->name, groups, G_N_ELEMENTS(groups)));
    }
    for (unsigned i = 0; i < d->nentries && ok; i++) {
        const kf_entry *e = &d->entries[i];
        int k = find_key(e->group, e->key);
        if (k < 0)
            ok = key_error(err, path, e->line, e->group, e->key, "unknown key (did you mean '%s'?)",
                           nearest_key(e->group, e->key));
        else
            ok = set_key(p, (enum gen_key)k, e->value, e->line, err);
    }
    kf_doc_free(d);
    if (ok)
        ok = check(p, err);
    if (!ok) {
        gen_profile_free(p);
        return NULL;
    }
    if (!p->name || !*p->name) {
        g_free(p->name);
        char *base = g_path_get_basename(path);
        char *dot = strrchr(base, '.');
        if (dot && dot != base)
            *dot = '\0';
        /* A .kernel name must be an identifier. */
        for (char *s = base; *s; s++)
            if (!g_ascii_isalnum(*s) && *s != '_')
                *s = '_';
        p->name = g_ascii_isdigit(base[0]) ? g_strconcat("k_", base, NULL) : g_strdup(base);
        g_free(base);
    }
    return p;
}
