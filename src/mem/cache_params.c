/* l1d.* and l2.* parameters bound to the fields of cache_params (defaults
 * and values through the one reader, params_read), and the checks the cache
 * relies on. */
#include <glib.h>

#include "config/param_check.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem/cache.h"
#include "simtgrid/config.h"

static const char *const alloc_names[] = {[CACHE_ALLOC_ON_MISS] = "on_miss", [CACHE_ALLOC_ON_FILL] = "on_fill", NULL};
static const char *const write_names[] = {[CACHE_WRITE_EVICT] = "evict", [CACHE_WRITE_THROUGH] = "through",
                                          [CACHE_WRITE_BACK] = "back", NULL};
static const char *const partition_names[] = {[CACHE_DACACHE_DYNAMIC] = "dynamic",
                                              [CACHE_DACACHE_STATIC] = "static", NULL};
static const char *const bypass_names[] = {[CACHE_BYPASS_NEVER] = "never",
                                           [CACHE_BYPASS_NO_VICTIM] = "no_victim", NULL};

/* Every <level>.* parameter, bound to its field (read with prefix "l1d" or "l2"). */
#define F(key, kind) PB(cache_params, #key, key, kind)
static const param_bind binds[] = {
    F(enabled, PF_BOOL),          F(sets, PF_UNSIGNED),
    F(ways, PF_UNSIGNED),         F(line_bytes, PF_UNSIGNED),
    F(sector_bytes, PF_UNSIGNED), F(hit_latency, PF_UNSIGNED),
    PB_POLICY(cache_params, "index", index, mem_policy),
    F(index_prime_factor, PF_UNSIGNED),
    PB_POLICY(cache_params, "replace", replace, mem_policy),
    F(insert_pos, PF_UNSIGNED),   F(promote_by, PF_UNSIGNED),
    F(rrip_bits, PF_UNSIGNED),
    F(dacache_locality, PF_UNSIGNED), F(dacache_schedulers, PF_UNSIGNED),
    F(dacache_promote_by, PF_UNSIGNED), F(dacache_stall, PF_BOOL),
    F(dacache_constrained, PF_BOOL), F(dacache_coherent, PF_BOOL),
    PB_ENUM(cache_params, "dacache_partition", dacache_partition, partition_names),
    PB_ENUM(cache_params, "alloc", alloc, alloc_names),
    PB_ENUM(cache_params, "write", write, write_names),
    F(mshr_entries, PF_UNSIGNED), F(mshr_merge, PF_UNSIGNED),
    F(miss_queue, PF_UNSIGNED),   F(fetch_bytes, PF_UNSIGNED),
    PB_ENUM(cache_params, "bypass", bypass, bypass_names),
    F(miss_taxonomy, PF_BOOL),
};
#undef F

void cache_params_default(cache_params *p, const char *level)
{
    memset(p, 0, sizeof *p);
    params_read(p, binds, G_N_ELEMENTS(binds), level, NULL, NULL);
}

bool cache_params_use_priority(const cache_params *p)
{
    const replace_ops *ops = p->replace ? p->replace->ops : NULL;
    return ops && ops->place;
}

bool cache_params_check(const cache_params *p, const char **key, char *why, size_t why_len)
{
    CHECK_FRAME();
    if (!is_pow2(p->line_bytes) || p->line_bytes < 16 || p->line_bytes > 4096)
        CHECK_FAIL("line_bytes", "expected a power of two from 16 to 4096, got %u", p->line_bytes);
    if (!is_pow2(p->sector_bytes) || p->sector_bytes > p->line_bytes ||
        p->line_bytes / p->sector_bytes > 32)
        CHECK_FAIL("sector_bytes", "expected a power of two dividing line_bytes (%u) into at most 32 sectors, got %u",
             p->line_bytes, p->sector_bytes);
    if (p->ways < 1 || p->ways > REPLACE_MAX_WAYS)
        CHECK_FAIL("ways", "expected 1 to %d ways, got %u", REPLACE_MAX_WAYS, p->ways);
    if (p->sets < 1 || p->sets > 65536)
        CHECK_FAIL("sets", "expected 1 to 65536 sets, got %u", p->sets);
    if (!p->index)
        CHECK_FAIL("index", "expected a set-index function");
    set_index ix;
    char ix_why[160];
    if (!set_index_init(&ix, p->index, p->sets, p->line_bytes, p->index_prime_factor, ix_why,
                        sizeof ix_why))
        CHECK_FAIL(ix.bad_key ? ix.bad_key : "sets", "%s", ix_why);  /* the line size was checked above */
    if (!p->replace)
        CHECK_FAIL("replace", "expected a replacement policy");
    if (p->insert_pos >= p->ways)
        CHECK_FAIL("insert_pos", "expected a stack position below ways (%u), got %u", p->ways, p->insert_pos);
    if (p->promote_by >= p->ways)
        CHECK_FAIL("promote_by", "expected fewer positions than ways (%u), got %u", p->ways, p->promote_by);
    if (p->rrip_bits < 1 || p->rrip_bits > 8)
        CHECK_FAIL("rrip_bits", "expected 1 to 8 bits, got %u", p->rrip_bits);
    if (p->dacache_locality >= p->ways && ((const replace_ops *)p->replace->ops)->place)
        CHECK_FAIL("dacache_locality", "expected fewer locality ways than ways (%u), got %u", p->ways,
             p->dacache_locality);
    if (p->dacache_schedulers < 1)
        CHECK_FAIL("dacache_schedulers", "expected at least 1 scheduler, got %u", p->dacache_schedulers);
    if ((unsigned)p->alloc > CACHE_ALLOC_ON_FILL)
        CHECK_FAIL("alloc", "expected on_miss or on_fill");
    if ((unsigned)p->write > CACHE_WRITE_BACK)
        CHECK_FAIL("write", "expected evict, through or back");
    if (p->mshr_entries < 1 || p->mshr_entries > MSHR_MAX_ENTRIES)
        CHECK_FAIL("mshr_entries", "expected 1 to %d entries, got %u", MSHR_MAX_ENTRIES, p->mshr_entries);
    if (p->mshr_merge < 1 || p->mshr_merge > MSHR_MAX_MERGE)
        CHECK_FAIL("mshr_merge", "expected 1 to %d accesses per entry, got %u", MSHR_MAX_MERGE, p->mshr_merge);
    if (p->fetch_bytes && (!is_pow2(p->fetch_bytes) || p->fetch_bytes < p->sector_bytes || p->fetch_bytes > p->line_bytes))
        CHECK_FAIL("fetch_bytes", "expected 0 or a power of two from sector_bytes (%u) to line_bytes (%u), got %u",
                   p->sector_bytes, p->line_bytes, p->fetch_bytes);
    /* A miss with a dirty victim queues its request and the write-back at once. */
    if (p->miss_queue < 2 || p->miss_queue > 4096)
        CHECK_FAIL("miss_queue", "expected 2 to 4096 requests (a miss with a dirty victim needs 2), got %u",
             p->miss_queue);
    if ((unsigned)p->bypass > CACHE_BYPASS_NO_VICTIM)
        CHECK_FAIL("bypass", "expected never or no_victim");
    return true;
}

bool cache_params_from_config(cache_params *p, const config *c, const char *level, GError **err)
{
    memset(p, 0, sizeof *p);
    if (!params_read(p, binds, G_N_ELEMENTS(binds), level, c, err))
        return false;
    const char *suffix = NULL;
    char why[256];
    if (cache_params_check(p, &suffix, why, sizeof why))
        return true;
    char *key = g_strdup_printf("%s.%s", level, suffix);
    cfg_blame(c, key, why, err);
    g_free(key);
    return false;
}
