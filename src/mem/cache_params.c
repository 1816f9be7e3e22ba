/* l1d.* and l2.* parameters: defaults read from params.def (so the table
 * `simtgrid params` prints and the struct never disagree), the checks the
 * cache relies on, and reading them from a configuration. */
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem/cache.h"
#include "mem/registry.def"
#include "simtgrid/config.h"

enum field_kind { FIELD_UINT, FIELD_BOOL, FIELD_ENUM, FIELD_POLICY };

typedef struct binding {
    const char *suffix;  /* key after "<level>." */
    size_t offset;
    enum field_kind kind;
    const char *const *names;   /* FIELD_ENUM: the word of each value */
} binding;

static const char *const alloc_names[] = {[CACHE_ALLOC_ON_MISS] = "on_miss", [CACHE_ALLOC_ON_FILL] = "on_fill", NULL};
static const char *const write_names[] = {[CACHE_WRITE_EVICT] = "evict", [CACHE_WRITE_THROUGH] = "through",
                                          [CACHE_WRITE_BACK] = "back", NULL};
static const char *const bypass_names[] = {[CACHE_BYPASS_NEVER] = "never",
                                           [CACHE_BYPASS_NO_VICTIM] = "no_victim", NULL};

#define BIND(field, kind) {#field, offsetof(cache_params, field), kind, NULL}
#define BIND_ENUM(field, names) {#field, offsetof(cache_params, field), FIELD_ENUM, names}
static const binding bindings[] = {
    BIND(enabled, FIELD_BOOL),         BIND(sets, FIELD_UINT),
    BIND(ways, FIELD_UINT),            BIND(line_bytes, FIELD_UINT),
    BIND(sector_bytes, FIELD_UINT),    BIND(hit_latency, FIELD_UINT),
    BIND(index, FIELD_POLICY),         BIND(index_prime_factor, FIELD_UINT),
    BIND(replace, FIELD_POLICY),       BIND(insert_pos, FIELD_UINT),
    BIND(promote_by, FIELD_UINT),      BIND(rrip_bits, FIELD_UINT),
    BIND_ENUM(alloc, alloc_names),     BIND_ENUM(write, write_names),
    BIND(mshr_entries, FIELD_UINT),    BIND(mshr_merge, FIELD_UINT),
    BIND(miss_queue, FIELD_UINT),      BIND_ENUM(bypass, bypass_names),
    BIND(miss_taxonomy, FIELD_BOOL),
};
#undef BIND
#undef BIND_ENUM
#define N_BINDINGS (sizeof bindings / sizeof bindings[0])

typedef struct def_row {
    const char *name, *def, *choices;
} def_row;
static const def_row def_rows[] = {
#define PARAM(name, type, unit, def, min, max, choices, desc) {name, def, choices},
#include "mem/params.def"
#undef PARAM
};

/* Stores the text `text` of parameter `key` (a default or a configured
 * value, already checked by the table) into the field of binding b. */
static void store_field(cache_params *p, const binding *b, const char *key, const char *text)
{
    char *field = (char *)p + b->offset;
    switch (b->kind) {
    case FIELD_UINT: *(unsigned *)field = (unsigned)strtoull(text, NULL, 0); break;
    case FIELD_BOOL: *(bool *)field = !strcmp(text, "true"); break;
    case FIELD_ENUM:
        for (int v = 0; b->names[v]; v++)
            if (!strcmp(b->names[v], text))
                *(int *)field = v;
        break;
    case FIELD_POLICY: *(const policy **)field = mem_policy(key, text); break;
    }
}

void cache_params_default(cache_params *p, const char *level)
{
    memset(p, 0, sizeof *p);
    size_t n = strlen(level);
    for (size_t i = 0; i < sizeof def_rows / sizeof def_rows[0]; i++) {
        const def_row *r = &def_rows[i];
        if (strncmp(r->name, level, n) || r->name[n] != '.')
            continue;
        for (size_t j = 0; j < N_BINDINGS; j++) {
            const binding *b = &bindings[j];
            if (strcmp(r->name + n + 1, b->suffix))
                continue;
            store_field(p, b, r->name, r->def);
        }
    }
}

static bool is_pow2(uint64_t v)
{
    return v && !(v & (v - 1));
}

#define FAIL(k, ...)                          \
    do {                                      \
        *key = (k);                           \
        snprintf(why, why_len, __VA_ARGS__);  \
        return false;                         \
    } while (0)

bool cache_params_check(const cache_params *p, const char **key, char *why, size_t why_len)
{
    const char *dummy_key;
    char dummy_why[1];
    if (!key)
        key = &dummy_key;
    if (!why || !why_len) {
        why = dummy_why;
        why_len = sizeof dummy_why;
    }
    if (!is_pow2(p->line_bytes) || p->line_bytes < 16 || p->line_bytes > 4096)
        FAIL("line_bytes", "expected a power of two from 16 to 4096, got %u", p->line_bytes);
    if (!is_pow2(p->sector_bytes) || p->sector_bytes > p->line_bytes ||
        p->line_bytes / p->sector_bytes > 32)
        FAIL("sector_bytes", "expected a power of two dividing line_bytes (%u) into at most 32 sectors, got %u",
             p->line_bytes, p->sector_bytes);
    if (p->ways < 1 || p->ways > REPLACE_MAX_WAYS)
        FAIL("ways", "expected 1 to %d ways, got %u", REPLACE_MAX_WAYS, p->ways);
    if (p->sets < 1 || p->sets > 65536)
        FAIL("sets", "expected 1 to 65536 sets, got %u", p->sets);
    if (!p->index)
        FAIL("index", "expected a set-index function");
    set_index ix;
    char ix_why[160];
    if (!set_index_init(&ix, p->index, p->sets, p->line_bytes, p->index_prime_factor, ix_why,
                        sizeof ix_why))
        FAIL(ix.bad_key ? ix.bad_key : "sets", "%s", ix_why);  /* the line size was checked above */
    if (!p->replace)
        FAIL("replace", "expected a replacement policy");
    if (p->insert_pos >= p->ways)
        FAIL("insert_pos", "expected a stack position below ways (%u), got %u", p->ways, p->insert_pos);
    if (p->promote_by >= p->ways)
        FAIL("promote_by", "expected fewer positions than ways (%u), got %u", p->ways, p->promote_by);
    if (p->rrip_bits < 1 || p->rrip_bits > 8)
        FAIL("rrip_bits", "expected 1 to 8 bits, got %u", p->rrip_bits);
    if ((unsigned)p->alloc > CACHE_ALLOC_ON_FILL)
        FAIL("alloc", "expected on_miss or on_fill");
    if ((unsigned)p->write > CACHE_WRITE_BACK)
        FAIL("write", "expected evict, through or back");
    if (p->mshr_entries < 1 || p->mshr_entries > MSHR_MAX_ENTRIES)
        FAIL("mshr_entries", "expected 1 to %d entries, got %u", MSHR_MAX_ENTRIES, p->mshr_entries);
    if (p->mshr_merge < 1 || p->mshr_merge > MSHR_MAX_MERGE)
        FAIL("mshr_merge", "expected 1 to %d accesses per entry, got %u", MSHR_MAX_MERGE, p->mshr_merge);
    /* A miss with a dirty victim queues its request and the write-back at once. */
    if (p->miss_queue < 2 || p->miss_queue > 4096)
        FAIL("miss_queue", "expected 2 to 4096 requests (a miss with a dirty victim needs 2), got %u",
             p->miss_queue);
    if ((unsigned)p->bypass > CACHE_BYPASS_NO_VICTIM)
        FAIL("bypass", "expected never or no_victim");
    return true;
}

bool cache_params_from_config(cache_params *p, const config *c, const char *level, GError **err)
{
    cache_params_default(p, level);
    for (size_t i = 0; i < N_BINDINGS; i++) {
        const binding *b = &bindings[i];
        char *key = g_strdup_printf("%s.%s", level, b->suffix);
        store_field(p, b, key, cfg_str(c, key));
        g_free(key);
    }
    const char *suffix = NULL;
    char why[256];
    if (cache_params_check(p, &suffix, why, sizeof why))
        return true;
    char *key = g_strdup_printf("%s.%s", level, suffix);
    const char *origin = cfg_origin(c, key);
    g_set_error(err, SIMTGRID_ERROR, SIMTGRID_ERROR_INPUT, "%s: %s = '%s': %s",
                origin && *origin ? origin : "default", key, cfg_str(c, key), why);
    g_free(key);
    return false;
}
