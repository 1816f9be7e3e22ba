/* The access paths of a cache: loads, stores, and what goes down uncached.
 *
 * A load checks, in order (GPGPU-Sim's order, so failure causes compare):
 *   hit                    every wanted sector valid
 *   pending hit            every missing sector already requested by the
 *                          line's MSHR entry: merge (MSHR_MERGE_LIMIT)
 *   miss                   needs a victim when allocating on miss
 *                          (SET_ALL_RESERVED, or a bypass with no_victim),
 *                          miss-queue room for the request and a dirty
 *                          victim's write-back (MISS_QUEUE_FULL), then an
 *                          entry to merge into (MSHR_MERGE_LIMIT) or a free
 *                          one (MSHR_FULL; more than a->mshr_keep free).
 * A failed access changes nothing but the failure counters, so the caller
 * replays it as is. A pending hit needs no miss-queue room (GPGPU-Sim also
 * rejects it when the queue is full; it sends nothing, so we do not). */
#include "mem/cache_internal.h"
#include "mem/coalesce.h"
#include "simtgrid/memport.h"

static cache_result fail(cache *c, cache_result r, cache_fail why)
{
    r.outcome = CACHE_FAIL;
    r.fail = why;
    r.way = -1;
    cache_count_refusal(c, why);
    return r;
}

/* `seg32`: a load bypass shrunk to these 32-B segments (0: all of `sectors`).
 * A store sends down only the 32-B segments it writes (a->seg32), not the
 * whole cache sector: a partial store moves only its data (DWF, Fung thesis
 * sec. 4.1 compares write traffic across reconvergence schemes). */
static cache_result go_down(cache *c, cache_result r, const cache_access *a, uint64_t line,
                            uint32_t sectors, uint32_t seg32)
{
    if (cache_missq_room(c) < 1)
        return fail(c, r, CACHE_FAIL_MISS_QUEUE_FULL);
    cache_missq_push(c, &(cache_req){.line = line, .sectors = sectors, .requester = a->requester,
                                     .pc = a->pc, .warp = a->warp, .op = a->op,
                                     .kind = a->op == MEM_STORE ? CACHE_REQ_WRITE : CACHE_REQ_BYPASS,
                                     .seg32 = a->op == MEM_STORE ? a->seg32 : seg32,
                                     .partial32 = a->op == MEM_STORE ? a->partial32 : 0,
                                     .words32 = a->op == MEM_STORE ? a->words32 : 0});
    c->st.accesses++;
    c->st.bypassed++;
    r.outcome = CACHE_BYPASSED;
    return r;
}

static int insert_pos_of(const cache *c, const cache_access *a)
{
    if (a->insert_hint)
        return a->insert_pos;
    if (a->flags & MEM_STREAM)
        return (int)c->p.ways - 1;  /* evict-first */
    return -1;
}

static cache_miss_class classify(const cache *c, uint64_t line, uint16_t warp)
{
    if (!c->p.miss_taxonomy)
        return CACHE_MISS_NONE;
    uint16_t evictor;
    if (!cache_history_get(&c->hist, line, &evictor))
        return CACHE_MISS_COLD;
    return evictor == warp ? CACHE_MISS_INTRA_WARP : CACHE_MISS_INTER_WARP;
}

static void count_miss(cache *c, cache_miss_class k)
{
    c->st.misses++;
    c->st.misses_cold += k == CACHE_MISS_COLD;
    c->st.misses_intra_warp += k == CACHE_MISS_INTRA_WARP;
    c->st.misses_inter_warp += k == CACHE_MISS_INTER_WARP;
    c->st.misses_sector += k == CACHE_MISS_SECTOR;
}

/* The sectors a read miss fetches: every sector of each aligned fetch_bytes
 * block that holds one of `need` (the caller drops those present or in
 * flight). A DRAM access returns more than a sector; a cache that keeps
 * the whole of it finds the neighbour there (docs/chip.md, "fetch_bytes"). */
static uint32_t fetch_blocks(const cache *c, uint32_t need)
{
    unsigned per = c->p.fetch_bytes / c->p.sector_bytes;
    if (per <= 1)
        return need;
    uint32_t block = per >= 32 ? 0xFFFFFFFFu : (1u << per) - 1, out = 0;
    for (unsigned s = 0; s < c->p.line_bytes / c->p.sector_bytes; s += per)
        if (need & (block << s))
            out |= block << s;
    return out & c->full_mask;
}

static cache_result load(cache *c, cache_result r, const cache_access *a, uint64_t line,
                         uint32_t want, uint64_t now)
{
    int way = cache_lookup(c, r.set, line);
    size_t li = way >= 0 ? cache_line_index(c, r.set, (unsigned)way) : 0;
    uint32_t have = way >= 0 ? c->valid[li] : 0;
    if (a->whole && way >= 0 && c->partial[li])   /* only some bytes of these: fetch the rest */
        have &= ~sector_mask_regroup(c->partial[li], 32, c->p.sector_bytes, c->p.line_bytes);
    if (way >= 0 && !(want & ~have)) {
        replace_hit(c->repl, r.set, (unsigned)way);
        c->st.accesses++;
        c->st.hits++;
        r.outcome = CACHE_HIT;
        r.way = way;
        r.ready = now + c->p.hit_latency;
        return r;
    }
    uint32_t missing = want & ~have;
    mshr_requester rq = {.id = a->requester, .sectors = missing, .warp = a->warp};
    int e = mshr_find(c->mshr, line);
    uint32_t in_flight = e >= 0 ? mshr_pending(c->mshr, e) : 0;
    if (e >= 0 && !(missing & ~in_flight)) {
        if (!mshr_can_merge(c->mshr, e))
            return fail(c, r, CACHE_FAIL_MSHR_MERGE_LIMIT);
        mshr_add(c->mshr, e, &rq, 0);
        if (way >= 0)
            replace_hit(c->repl, r.set, (unsigned)way);
        c->st.accesses++;
        c->st.hits_reserved++;
        r.outcome = CACHE_HIT_RESERVED;
        r.way = way;
        return r;
    }
    uint32_t need = fetch_blocks(c, missing & ~in_flight) & ~have & ~in_flight;
    /* DaCache places by the warp's priority; other policies take the hints. */
    replace_place pl = {.pos = insert_pos_of(c, a), .floor = a->victim_floor};
    bool shrink = c->repl->ops->place != NULL;
    if (shrink)
        pl = c->repl->ops->place(c->repl, &(replace_hint){.prio = a->prio, .cls = a->dc_class,
                                                          .region = a->dc_region});
    int victim = -1;
    if (way < 0 && c->p.alloc == CACHE_ALLOC_ON_MISS) {
        victim = cache_choose_victim(c, r.set, pl.floor);
        if (victim < 0) {
            if (c->p.bypass == CACHE_BYPASS_NO_VICTIM || pl.bypass) {
                uint32_t seg = shrink && pl.bypass ? a->seg32 : 0;
                cache_result b = go_down(c, r, a, line, want, seg);
                c->st.bypassed_no_victim += b.outcome == CACHE_BYPASSED;
                c->st.bypassed_shrunk += b.outcome == CACHE_BYPASSED && seg;
                return b;
            }
            return fail(c, r, CACHE_FAIL_SET_ALL_RESERVED);
        }
    }
    bool dirty_victim = victim >= 0 && c->dirty[cache_line_index(c, r.set, (unsigned)victim)];
    if (cache_missq_room(c) < 1u + dirty_victim)
        return fail(c, r, CACHE_FAIL_MISS_QUEUE_FULL);
    if (e >= 0 && !mshr_can_merge(c->mshr, e))
        return fail(c, r, CACHE_FAIL_MSHR_MERGE_LIMIT);
    if (e < 0 && mshr_in_use(c->mshr) + a->mshr_keep >= mshr_capacity(c->mshr))
        return fail(c, r, CACHE_FAIL_MSHR_FULL);

    /* Accepted: commit. */
    cache_miss_class k = way >= 0 || e >= 0 ? CACHE_MISS_SECTOR : classify(c, line, a->warp);
    int pos = pl.pos;
    if (e >= 0) {
        mshr_add(c->mshr, e, &rq, need);
    } else {
        mshr_origin o = {.warp = a->warp, .insert_pos = (int16_t)pos, .pc = a->pc};
        mshr_allocate(c->mshr, line, need, &rq, &o, now);
    }
    if (victim >= 0) {
        cache_replace_line(c, r.set, (unsigned)victim, line, a->warp, a->pc, pos, &r);
        cache_set_reserved(c, r.set, (unsigned)victim, true);
    } else if (way >= 0) {
        if (c->p.alloc == CACHE_ALLOC_ON_MISS)
            cache_set_reserved(c, r.set, (unsigned)way, true);  /* a sector miss pins the line until its fill */
        replace_hit(c->repl, r.set, (unsigned)way);
        r.way = way;
    }
    cache_missq_push(c, &(cache_req){.line = line, .sectors = need, .requester = a->requester,
                                     .pc = a->pc, .warp = a->warp, .op = MEM_LOAD,
                                     .kind = CACHE_REQ_FILL});
    replace_miss(c->repl, r.set);
    c->st.accesses++;
    count_miss(c, k);
    r.outcome = CACHE_MISS;
    r.miss_class = k;
    return r;
}

/* A write-back line's record of partly written 32-B segments after a store:
 * a segment the store covers whole is complete; one it covers in part stays
 * (or becomes) partial unless the line already held all of its bytes. With
 * byte enables, a partial segment whose eight 4-B words the stores have
 * written between them is complete too (NVIDIA, US patent 9,110,809,
 * claims 2-3: partial writes that make a full write go to memory whole). */
static void note_partial(cache *c, size_t li, const cache_access *a, uint32_t want, uint32_t valid_before)
{
    if (!a->partial32 && !c->partial[li])
        return;
    unsigned lb = c->p.line_bytes, sb = c->p.sector_bytes;
    uint32_t w32 = a->seg32 ? a->seg32 : sector_mask_regroup(want, sb, 32, lb);
    uint32_t part = a->partial32 & w32;
    uint32_t whole = sector_mask_regroup(valid_before, sb, 32, lb) & ~c->partial[li];
    c->partial[li] = (c->partial[li] & ~(w32 & ~part)) | (part & ~whole);
    if (!c->words)
        return;
    c->words[li] |= a->words32;
    for (uint32_t t = c->partial[li]; t; t &= t - 1) {
        unsigned s = (unsigned)__builtin_ctz(t);
        if ((c->words[li] >> (8 * s) & 0xFFu) == 0xFFu) {
            c->partial[li] &= ~(1u << s);
            c->words[li] &= ~(0xFFu << (8 * s));
        }
    }
}

/* Drop `sectors` of a line; a line left with nothing valid and no fill
 * coming is invalidated (and remembered as evicted by `warp`). */
static void evict_sectors(cache *c, unsigned set, unsigned way, uint32_t sectors, uint16_t warp)
{
    size_t i = cache_line_index(c, set, way);
    c->valid[i] &= ~sectors;
    c->dirty[i] &= ~sectors;
    if (c->valid[i] || c->reserved[i])
        return;
    if (c->p.miss_taxonomy)
        cache_history_put(&c->hist, c->tag[i], warp);
    cache_set_tag(c, set, way, CACHE_NO_TAG);
    replace_invalidate(c->repl, set, way);
    c->st.invalidations++;
}

static cache_result store(cache *c, cache_result r, const cache_access *a, uint64_t line,
                          uint32_t want)
{
    int way = cache_lookup(c, r.set, line);
    size_t li = way >= 0 ? cache_line_index(c, r.set, (unsigned)way) : 0;
    if (c->p.write == CACHE_WRITE_BACK) {
        if (way < 0) {
            int v = cache_choose_victim(c, r.set, a->victim_floor);
            if (v < 0) {
                if (c->p.bypass == CACHE_BYPASS_NO_VICTIM)
                    return go_down(c, r, a, line, want, 0);
                return fail(c, r, CACHE_FAIL_SET_ALL_RESERVED);
            }
            if (c->dirty[cache_line_index(c, r.set, (unsigned)v)] && cache_missq_room(c) < 1)
                return fail(c, r, CACHE_FAIL_MISS_QUEUE_FULL);
            /* Write-allocate without fetching: only the written sectors become valid. */
            cache_replace_line(c, r.set, (unsigned)v, line, a->warp, a->pc, insert_pos_of(c, a), &r);
            li = cache_line_index(c, r.set, (unsigned)v);
            c->st.store_misses++;
            r.outcome = CACHE_MISS;
        } else {
            replace_hit(c->repl, r.set, (unsigned)way);
            c->st.store_hits++;
            r.outcome = CACHE_HIT;
            r.way = way;
        }
        note_partial(c, li, a, want, c->valid[li]);
        c->valid[li] |= want;
        c->dirty[li] |= want;
        c->st.accesses++;
        return r;
    }
    /* write-evict and write-through send the data down */
    if (cache_missq_room(c) < 1)
        return fail(c, r, CACHE_FAIL_MISS_QUEUE_FULL);
    if (way >= 0) {
        if (c->p.write == CACHE_WRITE_EVICT) {
            evict_sectors(c, r.set, (unsigned)way, want, a->warp);
        } else {
            c->valid[li] |= want;  /* sector writes fill whole sectors */
            replace_hit(c->repl, r.set, (unsigned)way);
        }
        c->st.store_hits++;
        r.outcome = CACHE_HIT;
        r.way = way;
    } else {
        c->st.store_misses++;
        r.outcome = CACHE_MISS;
    }
    cache_missq_push(c, &(cache_req){.line = line, .sectors = want, .requester = a->requester,
                                     .pc = a->pc, .warp = a->warp, .op = MEM_STORE,
                                     .kind = CACHE_REQ_WRITE, .seg32 = a->seg32,
                                     .partial32 = a->partial32, .words32 = a->words32});
    c->st.accesses++;
    return r;
}

cache_result cache_try_access(cache *c, const cache_access *a, uint64_t now)
{
    uint64_t line = a->addr & ~(uint64_t)(c->p.line_bytes - 1);
    uint32_t want = a->sectors & c->full_mask;
    if (!want)
        want = c->full_mask;
    cache_result r = {.way = -1, .set = set_index_of(&c->index, line)};
    if (!c->p.enabled || a->bypass || (a->flags & MEM_L2_ONLY) || a->op == MEM_ATOMIC)
        return go_down(c, r, a, line, want, 0);
    if (a->op == MEM_STORE)
        return store(c, r, a, line, want);
    return load(c, r, a, line, want, now);
}
