/* A set-associative, optionally sectored cache with MSHRs and a miss queue:
 * the machinery of the L1D (one per SM) and of every L2 slice. A pure data
 * structure: time is an integer cycle passed in, nothing here knows about
 * actors or ports, so a thin actor wrapper puts it on ports:
 *
 *   each cycle the LD/ST unit has an access (one per cycle, single port):
 *       r = cache_try_access(c, &acc, now);
 *       CACHE_FAIL      -> replay it next cycle (r.fail says why; counted)
 *       CACHE_HIT       -> data ready at r.ready
 *       CACHE_HIT_RESERVED, CACHE_MISS -> wait: the requester comes back
 *                          from cache_pop_ready after the fill
 *       CACHE_BYPASSED  -> the reply from below goes straight to the requester
 *   while cache_missq_head(c) and the port below has room: send it, pop it
 *   when a fill reply arrives: cache_fill(c, line, sectors, now)
 *       (not accepted: retry next cycle, a dirty victim had no queue room)
 *   each cycle (fill port): cache_pop_ready(c, &rq, &line, now) -> requester rq.id done
 *
 * Nothing is allocated per access except the miss-taxonomy history, which
 * grows (amortised, rarely) when a line is evicted for the first time.
 * docs/cache.md describes the flow, the parameters and every policy. */
#ifndef SIMTGRID_MEM_CACHE_H
#define SIMTGRID_MEM_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mem/l1d_index.h"
#include "mem/mshr.h"
#include "mem/registry.h"
#include "mem/replace.h"
#include "simtgrid/stats.h"

typedef struct config config;
typedef struct _GError GError;

/* Read by name (cache_params.c), so the order is free. */
typedef enum cache_alloc_policy { CACHE_ALLOC_ON_MISS = 0, CACHE_ALLOC_ON_FILL } cache_alloc_policy;
typedef enum cache_write_policy {
    CACHE_WRITE_EVICT = 0,  /* invalidate the written sectors, send the write down */
    CACHE_WRITE_THROUGH,    /* update a present line, send the write down */
    CACHE_WRITE_BACK,       /* allocate (no fetch), mark dirty; write back dirty victims */
} cache_write_policy;
typedef enum cache_bypass_policy {
    CACHE_BYPASS_NEVER = 0,
    CACHE_BYPASS_NO_VICTIM, /* a load with no replaceable line goes down uncached */
} cache_bypass_policy;

typedef enum cache_dacache_partition {
    CACHE_DACACHE_DYNAMIC = 0,  /* FCW trained by fully cached divergent loads (Fig 4.3) */
    CACHE_DACACHE_STATIC,       /* the locality region stays dacache_locality ways */
} cache_dacache_partition;
typedef struct cache_params {
    bool enabled;
    unsigned sets, ways, line_bytes, sector_bytes, hit_latency;
    const policy *index;       /* set_index_ops row (src/mem/registry.def) */
    unsigned index_prime_factor;
    const policy *replace;     /* replace_ops row */
    unsigned insert_pos, promote_by, rrip_bits;
    unsigned dacache_locality, dacache_schedulers, dacache_promote_by;  /* replace=dacache */
    bool dacache_stall, dacache_constrained, dacache_coherent;
    cache_dacache_partition dacache_partition;
    cache_alloc_policy alloc;
    cache_write_policy write;
    unsigned mshr_entries, mshr_merge, miss_queue;
    unsigned fetch_bytes;      /* a read miss fetches whole aligned blocks of this size (0: its sectors) */
    cache_bypass_policy bypass;
    bool miss_taxonomy;
} cache_params;

/* `level` is the parameter group, "l1d" or "l2": every field at its default
 * from params.def (the one source of defaults). */
void cache_params_default(cache_params *p, const char *level);
/* Ranges and relations the cache relies on. On failure returns false, sets
 * *key to the parameter's suffix ("sets", "sector_bytes", ...) and writes
 * what was expected to why. */
bool cache_params_check(const cache_params *p, const char **key, char *why, size_t why_len);
/* Whether the replacement policy of `p` places lines by the issuing warp's
 * priority (a `place` hook): only then must requests carry it. */
bool cache_params_use_priority(const cache_params *p);
/* Reads the `level`.* parameters and checks them; an error names where the
 * value came from (file:line), the key and what was expected. */
bool cache_params_from_config(cache_params *p, const config *c, const char *level, GError **err);

typedef enum cache_outcome {
    CACHE_HIT,           /* the data is here: ready at result.ready */
    CACHE_HIT_RESERVED,  /* pending hit: merged into the MSHR entry of an in-flight line */
    CACHE_MISS,          /* MSHR entry taken (or widened), fill request queued */
    CACHE_BYPASSED,      /* sent down without touching the cache */
    CACHE_FAIL,          /* reservation failure: nothing changed, replay; see result.fail */
} cache_outcome;

typedef enum cache_fail {
    CACHE_FAIL_NONE = 0,
    CACHE_FAIL_SET_ALL_RESERVED,  /* allocate-on-miss: every line of the set awaits a fill */
    CACHE_FAIL_MSHR_FULL,         /* no free MSHR entry */
    CACHE_FAIL_MSHR_MERGE_LIMIT,  /* the line's entry holds mshr_merge accesses already */
    CACHE_FAIL_MISS_QUEUE_FULL,   /* no room below (miss queue / interconnect) */
    CACHE_FAIL_COUNT
} cache_fail;

typedef enum cache_miss_class {
    CACHE_MISS_NONE = 0,     /* not a miss, or taxonomy off */
    CACHE_MISS_COLD,         /* the line was never evicted from this cache */
    CACHE_MISS_INTRA_WARP,   /* last evicted by the missing warp itself */
    CACHE_MISS_INTER_WARP,   /* last evicted by another warp */
    CACHE_MISS_SECTOR,       /* line present or in flight, other sectors missing */
} cache_miss_class;

/* One access, as the coalescer produced it. Zero-initialise and fill in:
 * every zero field means "the default". */
typedef struct cache_access {
    uint64_t addr;         /* any byte of the line */
    uint32_t sectors;      /* in this cache's sectors (cache_sector_mask); 0 = the whole line */
    uint32_t requester;    /* caller's id, handed back by cache_pop_ready / in bypass requests */
    uint32_t pc;           /* for per-line PC (DaCache sampling) and requests below */
    uint16_t warp;         /* issuing warp: miss taxonomy, evictor of the victim */
    uint8_t op;            /* enum mem_op: MEM_LOAD, MEM_STORE; MEM_ATOMIC always goes down */
    uint8_t flags;         /* enum mem_flags: MEM_L2_ONLY goes down, MEM_STREAM inserts at LRU */
    bool bypass;           /* go down uncached (a caller's bypass decision) */
    bool insert_hint;      /* allocate at stack position insert_pos instead of the policy's */
    uint8_t insert_pos;
    uint8_t victim_floor;  /* lru/dip: victims only at stack positions >= this */
    uint8_t prio;          /* issuing warp's GTO priority in its scheduler (dacache) */
    uint8_t dc_class;      /* dacache: enum dacache_class of the load (0: Eq 4.1 only) */
    uint8_t dc_region;     /* dacache: locality region in ways + 1 (0: dacache_locality) */
    uint32_t seg32;        /* the 32-B segments of the line it needs (bit i: bytes 32i..);
                            * a shrunk bypass asks only these, a store writes only
                            * these (sent down in its write); 0 = all of `sectors` */
    uint32_t partial32;    /* a store: the 32-B segments it writes only in part
                            * (coalesce_partial32) */
    uint32_t words32;      /* ... and the 4-B words it writes whole (coalesce_words32) */
    uint16_t mshr_keep;    /* a miss needing a new MSHR entry fails (MSHR_FULL) unless
                            * more than this many are free: entries kept for others */
    bool whole;            /* a load that needs whole sectors: a sector holding partly
                            * written 32-B segments is fetched first (its written bytes
                            * kept), lazy fetch-on-read; false: served from them */
} cache_access;

typedef struct cache_result {
    cache_outcome outcome;    /* stores: CACHE_HIT (line present), CACHE_MISS, or FAIL/BYPASSED */
    cache_fail fail;
    cache_miss_class miss_class;
    bool evicted;             /* a valid line was evicted: its address is `victim` */
    bool writeback;           /* ... it was dirty: a write-back was queued */
    uint64_t victim;
    uint16_t victim_warp;     /* warp and PC whose miss had brought the victim in */
    uint32_t victim_pc;       /* (DaCache's victim-cache sampling) */
    uint64_t ready;           /* CACHE_HIT: cycle the data is ready */
    unsigned set;
    int way;                  /* line hit or allocated; -1 none */
} cache_result;

/* Requests waiting to go below, oldest first. */
typedef enum cache_req_kind {
    CACHE_REQ_FILL,       /* read `sectors` of `line`; answer with cache_fill */
    CACHE_REQ_BYPASS,     /* uncached load or atomic: the reply goes to `requester` */
    CACHE_REQ_WRITE,      /* store data (write-evict, write-through, bypassed store) */
    CACHE_REQ_WRITEBACK,  /* dirty victim's `sectors` */
} cache_req_kind;

typedef struct cache_req {
    uint64_t line;        /* line-aligned address */
    uint32_t sectors;     /* this cache's sectors */
    uint32_t requester;   /* the access's id (fills: the first requester's) */
    uint32_t pc;
    uint16_t warp;
    uint8_t op;           /* enum mem_op */
    uint8_t kind;         /* enum cache_req_kind */
    uint32_t seg32;       /* CACHE_REQ_BYPASS shrunk to 32-B segments, or the segments a
                           * CACHE_REQ_WRITE writes; 0 = `sectors` */
    uint32_t partial32;   /* WRITE / WRITEBACK: 32-B segments whose bytes were written
                           * only in part (the rest never fetched) */
    uint32_t words32;     /* WRITE: the store's whole 4-B words (cache_access.words32) */
} cache_req;

typedef struct cache_fill_result {
    bool accepted;        /* false: retry later (no miss-queue room for the dirty victim) */
    bool installed;       /* the line holds the data now */
    bool evicted, writeback;
    uint64_t victim;
    uint16_t victim_warp;
    uint32_t victim_pc;
    unsigned ready;       /* requesters made ready (take them with cache_pop_ready) */
} cache_fill_result;

/* Counters of one cache (cache_register_stats names and documents them).
 * hits, hits_reserved and misses count loads; stores are store_hits and
 * store_misses; a failed attempt counts only in reservation_fails. */
typedef struct cache_stats {
    uint64_t accesses;              /* accepted accesses of every kind */
    uint64_t hits, hits_reserved, misses;
    uint64_t misses_cold, misses_intra_warp, misses_inter_warp, misses_sector;
    uint64_t store_hits, store_misses;
    uint64_t bypassed, bypassed_no_victim, bypassed_shrunk;
    uint64_t fills, fills_dropped, fill_retries;
    uint64_t evictions, writebacks, invalidations;
    uint64_t reservation_fails;     /* all causes */
    uint64_t fail[CACHE_FAIL_COUNT]; /* by cause (index 0 unused) */
} cache_stats;

typedef struct cache cache;

/* `p` must pass cache_params_check; NULL otherwise. */
cache *cache_new(const cache_params *p);
void cache_free(cache *c);
/* Byte enables (l2.byte_enables, docs/dram.md): the cache keeps, per line,
 * the 4-B words that partial stores wrote (cache_access.words32), and a
 * partly written 32-B segment whose eight words are all written is whole
 * (its write-back needs no read first). Lines above 128 B: no effect. */
void cache_set_byte_enables(cache *c, bool on);

cache_result cache_try_access(cache *c, const cache_access *a, uint64_t now);
cache_fill_result cache_fill(cache *c, uint64_t addr, uint32_t sectors, uint64_t now);
/* The oldest requester whose data is complete; false when none. */
bool cache_pop_ready(cache *c, mshr_requester *out, uint64_t *line, uint64_t now);

const cache_req *cache_missq_head(const cache *c);  /* NULL when empty */
void cache_missq_pop(cache *c);
unsigned cache_missq_len(const cache *c);
unsigned cache_missq_room(const cache *c);
/* The i-th request from the head (i < cache_missq_len). */
const cache_req *cache_missq_at(const cache *c, unsigned i);
/* An access refused again for `why` without being replayed: the counters
 * a replay would change (a refused access changes nothing else). For a
 * caller that knows the replay's answer (the LD/ST unit, ldst.c). */
void cache_count_refusal(cache *c, cache_fail why);

/* Introspection, for wrappers, schedulers (OAWS reads the free MSHRs) and tests. */
typedef enum cache_line_state {
    CACHE_LINE_INVALID, CACHE_LINE_VALID, CACHE_LINE_RESERVED, CACHE_LINE_MODIFIED
} cache_line_state;
/* State of the line holding `addr` (RESERVED wins over MODIFIED); *way and
 * *valid_sectors (may be NULL) get its way (-1) and valid sectors. */
cache_line_state cache_probe(const cache *c, uint64_t addr, int *way, uint32_t *valid_sectors);
unsigned cache_set_of(const cache *c, uint64_t addr);
/* Whether `pred(ctx, line)` holds for the line of every way of `addr`'s set
 * that holds one (valid or reserved); empty ways are skipped. */
bool cache_set_all(const cache *c, uint64_t addr, bool (*pred)(const void *ctx, uint64_t line), const void *ctx);
/* Replacement position of the line of `addr` (stack position, 0 = MRU; RRPV
 * for rrip); -1 when absent. */
int cache_stack_pos(const cache *c, uint64_t addr);
unsigned cache_mshr_free(const cache *c);
const mshr_table *cache_mshr(const cache *c);
const cache_params *cache_get_params(const cache *c);
/* A mask in `from_bytes` sectors as this cache's sectors. */
uint32_t cache_sector_mask(const cache *c, uint32_t mask, unsigned from_bytes);

const cache_stats *cache_get_stats(const cache *c);
/* Registers every counter and the MSHR occupancy histogram under `block`
 * ("sm0.l1d", "l2s3"). */
void cache_register_stats(cache *c, stats *st, const char *block);
/* Drops every line with no dirty sector and no fill coming (counted in
 * invalidations): a cache emptied at a kernel launch (l1d.launch_invalidate).
 * Returns the number of lines dropped. */
unsigned cache_invalidate_clean(cache *c);
/* At the end of the run: closes the occupancy histogram at cycle `now`. */
void cache_finish(cache *c, uint64_t now);
/* The statistics as they stand (counters and MSHR occupancy record),
 * saved in cache_stats_words words; cache_finish_saved puts them back and
 * closes the run with them: for a block that ran past the end of the run
 * (issue 20, l2slice_hold.c). The lines and entries are not touched. */
size_t cache_stats_words(const cache *c);
void cache_stats_save(const cache *c, uint64_t *buf);
void cache_finish_saved(cache *c, const uint64_t *buf, uint64_t now);

#endif
