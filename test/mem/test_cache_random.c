/* Randomised runs over every combination of index, replacement, allocation,
 * write policy and sectoring, against a scripted memory that answers fills
 * after 1..20 cycles and sometimes stops taking requests. Checked: every
 * load that waited is handed back exactly once, every MSHR is free at the
 * end, the counters add up, and a second run is bit-identical. */
#include <string.h>

#include "mem/registry.def"
#include "test_cache_util.h"

/* Every registered policy, by name (src/mem/registry.def). */
#define NAME_OF(name, ops, desc) name,
static const char *const indexes[] = {MEM_SET_INDEXES(NAME_OF)};
static const char *const replacers[] = {MEM_REPLACERS(NAME_OF)};

#define OPS 2000
#define MAX_INFLIGHT 64

typedef struct inflight {
    uint64_t line, due;
    uint32_t sectors;
} inflight;

typedef struct run_out {
    cache_stats st;
    uint64_t checksum;   /* of every outcome, in order */
} run_out;

static uint64_t next(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

static run_out run(const cache_params *p, uint64_t seed)
{
    cache *c = new_cache(p);
    uint8_t waiting[OPS + 1], returned[OPS + 1];
    memset(waiting, 0, sizeof waiting);
    memset(returned, 0, sizeof returned);
    inflight fl[MAX_INFLIGHT];
    unsigned nfl = 0;
    uint64_t x = seed, sum = 1469598103934665603ull, now = 0;
    uint32_t full = (1u << (p->line_bytes / p->sector_bytes)) - 1;
    for (uint32_t id = 1; id <= OPS; now++) {
        /* the memory side: take one request unless "congested", answer fills later */
        const cache_req *q = cache_missq_head(c);
        if (q && nfl < MAX_INFLIGHT && next(&x) % 4) {
            if (q->kind == CACHE_REQ_FILL)
                fl[nfl++] = (inflight){q->line, now + 1 + next(&x) % 20, q->sectors};
            cache_missq_pop(c);
        }
        for (unsigned i = 0; i < nfl;) {
            if (fl[i].due <= now && cache_fill(c, fl[i].line, fl[i].sectors, now).accepted)
                fl[i] = fl[--nfl];
            else
                i++;
        }
        mshr_requester rq;
        if (cache_pop_ready(c, &rq, NULL, now)) {
            cr_assert(rq.id >= 1 && rq.id <= OPS && waiting[rq.id] && !returned[rq.id]);
            returned[rq.id] = 1;
        }
        /* the LD/ST side: one access per cycle, replayed until accepted */
        uint64_t r = next(&x);
        cache_access a = {.addr = (r % 512) * p->line_bytes + (r >> 20) % p->line_bytes,
                          .sectors = (uint32_t)(r >> 40) & full, .requester = id,
                          .warp = (uint16_t)(r >> 50) % 8, .pc = (uint32_t)(r >> 56),
                          .op = (r >> 9) % 8 == 0 ? MEM_STORE : MEM_LOAD,
                          .bypass = (r >> 12) % 32 == 0, .prio = (uint8_t)((r >> 50) % 8)};
        cache_result res = cache_try_access(c, &a, now);
        sum = (sum ^ (uint64_t)(res.outcome * 8 + res.fail + 64 * res.miss_class)) * 1099511628211ull;
        if (res.outcome == CACHE_FAIL)
            continue;  /* a real LD/ST unit would replay this one; a new one is as good here */
        if (a.op == MEM_LOAD && (res.outcome == CACHE_MISS || res.outcome == CACHE_HIT_RESERVED))
            waiting[id] = 1;
        id++;
    }
    /* drain: the memory answers everything, the fill port empties */
    for (unsigned guard = 0; (cache_missq_head(c) || nfl) && guard < 100000; guard++, now++) {
        const cache_req *q = cache_missq_head(c);
        if (q && nfl < MAX_INFLIGHT) {
            if (q->kind == CACHE_REQ_FILL)
                fl[nfl++] = (inflight){q->line, now, q->sectors};
            cache_missq_pop(c);
        }
        for (unsigned i = 0; i < nfl;) {
            if (cache_fill(c, fl[i].line, fl[i].sectors, now).accepted)
                fl[i] = fl[--nfl];
            else
                i++;
        }
    }
    mshr_requester rq;
    while (cache_pop_ready(c, &rq, NULL, now))
        returned[rq.id] = 1;
    for (uint32_t id = 1; id <= OPS; id++)
        cr_assert_eq(waiting[id], returned[id], "requester %u", id);
    cr_assert_eq(cache_mshr_free(c), p->mshr_entries, "every MSHR free at the end");
    const cache_stats *s = cache_get_stats(c);
    cr_assert_eq(s->accesses, s->hits + s->hits_reserved + s->misses + s->store_hits +
                                  s->store_misses + s->bypassed);
    if (p->miss_taxonomy)
        cr_assert_eq(s->misses, s->misses_cold + s->misses_intra_warp + s->misses_inter_warp +
                                    s->misses_sector);
    cr_assert_eq(s->reservation_fails, s->fail[1] + s->fail[2] + s->fail[3] + s->fail[4]);
    cache_finish(c, now);
    run_out out = {.st = *s, .checksum = sum};
    cache_free(c);
    return out;
}

Test(cache_random, every_policy_combination)
{
    unsigned combos = 0;
    for (unsigned ix = 0; ix < G_N_ELEMENTS(indexes); ix++)
        for (unsigned rp = 0; rp < G_N_ELEMENTS(replacers); rp++)
            for (unsigned al = 0; al < 2; al++)
                for (unsigned wr = 0; wr < 3; wr++)
                    for (unsigned sec = 0; sec < 2; sec++) {
                        cache_params p = small_params(32, 4);
                        p.index = mem_policy("l1d.index", indexes[ix]);
                        p.replace = mem_policy("l1d.replace", replacers[rp]);
                        p.alloc = (cache_alloc_policy)al;
                        p.write = (cache_write_policy)wr;
                        p.sector_bytes = sec ? 32 : 128;
                        p.mshr_entries = 8;
                        p.mshr_merge = 3;
                        p.miss_queue = 4;
                        p.bypass = (ix + rp) % 2 ? CACHE_BYPASS_NO_VICTIM : CACHE_BYPASS_NEVER;
                        p.promote_by = !strcmp(replacers[rp], "lru") ? 1 : 0;
                        p.dacache_locality = 2;  /* of the 4 ways */
                        uint64_t seed = 0x9E3779B97F4A7C15ull + combos;
                        run_out a = run(&p, seed), b = run(&p, seed);
                        cr_assert_eq(a.checksum, b.checksum, "combo %u not deterministic", combos);
                        cr_assert(!memcmp(&a.st, &b.st, sizeof a.st), "combo %u stats differ", combos);
                        cr_assert_gt(a.st.hits + a.st.hits_reserved, 0, "combo %u saw no reuse", combos);
                        combos++;
                    }
    cr_expect_eq(combos, 6 * 4 * 2 * 3 * 2);
}
