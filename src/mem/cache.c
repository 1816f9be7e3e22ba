/* Cache: construction, the tag array, victims, fills, the miss queue and
 * introspection (cache.h). The access paths are in cache_access.c. */
#include <glib.h>
#include <stdlib.h>
#include <string.h>

#include "mem/cache_internal.h"
#include "mem/coalesce.h"
#include "simtgrid/memport.h"

cache *cache_new(const cache_params *p)
{
    if (!cache_params_check(p, NULL, NULL, 0))
        return NULL;
    cache *c = g_new0(cache, 1);
    c->p = *p;
    char why[8];  /* cannot fail: cache_params_check ran the same check */
    set_index_init(&c->index, p->index, p->sets, p->line_bytes, p->index_prime_factor, why,
                   sizeof why);
    c->line_shift = (unsigned)__builtin_ctz(p->line_bytes);
    unsigned n_sectors = p->line_bytes / p->sector_bytes;
    c->full_mask = n_sectors >= 32 ? 0xFFFFFFFFu : (1u << n_sectors) - 1;
    size_t lines = (size_t)p->sets * p->ways;
    c->tag = g_new(uint64_t, lines);
    c->valid = g_new0(uint32_t, lines);
    c->dirty = g_new0(uint32_t, lines);
    c->partial = g_new0(uint32_t, lines);
    c->reserved = g_new0(uint8_t, lines);
    c->set_reserved = g_new0(uint64_t, p->sets);
    c->set_empty = g_new(uint64_t, p->sets);
    c->fetch_warp = g_new0(uint16_t, lines);
    c->fetch_pc = g_new0(uint32_t, lines);
    replace_params rp = {.ops = p->replace->ops, .insert_pos = p->insert_pos,
                         .promote_by = p->promote_by, .rrip_bits = p->rrip_bits,
                         .locality_ways = p->dacache_locality, .schedulers = p->dacache_schedulers,
                         .dacache_promote = p->dacache_promote_by, .stall = p->dacache_stall,
                         .constrained = p->dacache_constrained};
    c->repl = replace_new(&rp, p->sets, p->ways);
    c->mshr = mshr_new(p->mshr_entries, p->mshr_merge);
    c->q = g_new0(cache_req, p->miss_queue);
    /* The history remembers the last 8 x lines evictions (at least 128):
     * a line re-missed within eight cache capacities of evictions is
     * classified exactly; see docs/cache.md. */
    bool hist_ok = !p->miss_taxonomy || cache_history_init(&c->hist, 8 * lines > 128 ? 8 * lines : 128);
    if (!c->repl || !c->mshr || !hist_ok) {
        cache_free(c);
        return NULL;
    }
    for (size_t i = 0; i < lines; i++)
        c->tag[i] = CACHE_NO_TAG;
    for (unsigned s = 0; s < p->sets; s++)
        c->set_empty[s] = p->ways >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << p->ways) - 1;
    return c;
}

void cache_free(cache *c)
{
    if (!c)
        return;
    g_free(c->tag);
    g_free(c->valid);
    g_free(c->dirty);
    g_free(c->partial);
    g_free(c->words);
    g_free(c->reserved);
    g_free(c->set_reserved);
    g_free(c->set_empty);
    g_free(c->fetch_warp);
    g_free(c->fetch_pc);
    replace_free(c->repl);
    mshr_free(c->mshr);
    g_free(c->q);
    cache_history_free(&c->hist);
    g_free(c);
}

int cache_lookup(const cache *c, unsigned set, uint64_t line)
{
    const uint64_t *t = c->tag + cache_line_index(c, set, 0);
    for (unsigned w = 0; w < c->p.ways; w++)
        if (t[w] == line)
            return (int)w;
    return -1;
}

int cache_choose_victim(cache *c, unsigned set, unsigned floor)
{
    uint64_t ways = c->p.ways >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << c->p.ways) - 1;
    uint64_t allowed = ~c->set_reserved[set] & ways, empty = c->set_empty[set] & allowed;
    return replace_victim(c->repl, set, allowed, empty, floor);
}

void cache_missq_push(cache *c, const cache_req *rq)
{
    c->q[(c->q_head + c->q_len) % c->p.miss_queue] = *rq;
    c->q_len++;
}

void cache_set_byte_enables(cache *c, bool on)
{
    g_free(c->words);
    c->words = on && c->p.line_bytes <= 128 ? g_new0(uint32_t, (size_t)c->p.sets * c->p.ways) : NULL;
}

void cache_replace_line(cache *c, unsigned set, unsigned way, uint64_t line, uint16_t warp,
                        uint32_t pc, int pos, cache_result *r)
{
    size_t i = cache_line_index(c, set, way);
    if (c->tag[i] != CACHE_NO_TAG) {
        r->evicted = true;
        r->victim = c->tag[i];
        r->victim_warp = c->fetch_warp[i];
        r->victim_pc = c->fetch_pc[i];
        c->st.evictions++;
        if (c->p.miss_taxonomy)
            cache_history_put(&c->hist, c->tag[i], warp);
        if (c->dirty[i]) {
            r->writeback = true;
            c->st.writebacks++;
            cache_missq_push(c, &(cache_req){.line = c->tag[i], .sectors = c->dirty[i],
                                             .requester = 0, .pc = c->fetch_pc[i],
                                             .warp = c->fetch_warp[i], .op = MEM_STORE,
                                             .kind = CACHE_REQ_WRITEBACK,
                                             .partial32 = c->partial[i]});
        }
    }
    cache_set_tag(c, set, way, line);
    c->valid[i] = c->dirty[i] = c->partial[i] = 0;
    if (c->words)
        c->words[i] = 0;
    cache_set_reserved(c, set, way, false);
    c->fetch_warp[i] = warp;
    c->fetch_pc[i] = pc;
    replace_insert(c->repl, set, way, pos);
    r->way = (int)way;
}

unsigned cache_invalidate_clean(cache *c)
{
    unsigned n = 0;
    for (unsigned set = 0; set < c->p.sets; set++)
        for (unsigned way = 0; way < c->p.ways; way++) {
            size_t i = cache_line_index(c, set, way);
            if (c->tag[i] == CACHE_NO_TAG || c->reserved[i] || c->dirty[i])
                continue;
            cache_set_tag(c, set, way, CACHE_NO_TAG);
            c->valid[i] = c->partial[i] = 0;
            if (c->words)
                c->words[i] = 0;
            replace_invalidate(c->repl, set, way);
            c->st.invalidations++;
            n++;
        }
    return n;
}

cache_fill_result cache_fill(cache *c, uint64_t addr, uint32_t sectors, uint64_t now)
{
    cache_fill_result f = {.accepted = true};
    uint64_t line = addr & ~(uint64_t)(c->p.line_bytes - 1);
    sectors &= c->full_mask;
    if (!sectors)
        sectors = c->full_mask;
    unsigned set = set_index_of(&c->index, line);
    int way = cache_lookup(c, set, line);
    int e = mshr_find(c->mshr, line);
    if (way < 0 && e >= 0 && c->p.enabled) {
        /* Allocate-on-fill (or a line that left meanwhile): place it now. */
        const mshr_origin *o = mshr_origin_of(c->mshr, e);
        int v = cache_choose_victim(c, set, 0);
        if (v < 0) {
            c->st.fills_dropped++;  /* every line reserved: the data only feeds the requesters */
        } else {
            size_t vi = cache_line_index(c, set, (unsigned)v);
            if (c->dirty[vi] && cache_missq_room(c) < 1) {
                c->st.fill_retries++;
                return (cache_fill_result){.accepted = false};
            }
            cache_result r = {.way = -1};
            cache_replace_line(c, set, (unsigned)v, line, o->warp, o->pc, o->insert_pos, &r);
            f.evicted = r.evicted;
            f.writeback = r.writeback;
            f.victim = r.victim;
            f.victim_warp = r.victim_warp;
            f.victim_pc = r.victim_pc;
            way = v;
        }
    }
    bool complete = false;
    f.ready = mshr_fill(c->mshr, line, sectors, &complete, now);
    if (way >= 0) {
        size_t i = cache_line_index(c, set, (unsigned)way);
        c->valid[i] |= sectors;
        if (c->partial[i])   /* the fetched bytes complete a partly written segment */
            c->partial[i] &= ~sector_mask_regroup(sectors, c->p.sector_bytes, 32, c->p.line_bytes);
        if (complete || e < 0)
            cache_set_reserved(c, set, (unsigned)way, false);
        f.installed = true;
    }
    c->st.fills++;
    return f;
}

bool cache_pop_ready(cache *c, mshr_requester *out, uint64_t *line, uint64_t now)
{
    return mshr_pop_ready(c->mshr, out, line, now);
}

const cache_req *cache_missq_head(const cache *c)
{
    return c->q_len ? &c->q[c->q_head] : NULL;
}

void cache_missq_pop(cache *c)
{
    if (!c->q_len)
        return;
    c->q_head = (c->q_head + 1) % c->p.miss_queue;
    c->q_len--;
}

unsigned cache_missq_len(const cache *c)
{
    return c->q_len;
}

unsigned cache_missq_room(const cache *c)
{
    return c->p.miss_queue - c->q_len;
}

const cache_req *cache_missq_at(const cache *c, unsigned i)
{
    return &c->q[(c->q_head + i) % c->p.miss_queue];
}

void cache_count_refusal(cache *c, cache_fail why)
{
    c->st.reservation_fails++;
    c->st.fail[why]++;
}

cache_line_state cache_probe(const cache *c, uint64_t addr, int *way, uint32_t *valid_sectors)
{
    uint64_t line = addr & ~(uint64_t)(c->p.line_bytes - 1);
    unsigned set = set_index_of(&c->index, line);
    int w = cache_lookup(c, set, line);
    if (way)
        *way = w;
    if (valid_sectors)
        *valid_sectors = w >= 0 ? c->valid[cache_line_index(c, set, (unsigned)w)] : 0;
    if (w < 0)
        return CACHE_LINE_INVALID;
    size_t i = cache_line_index(c, set, (unsigned)w);
    if (c->reserved[i])
        return CACHE_LINE_RESERVED;
    if (!c->valid[i])
        return CACHE_LINE_INVALID;
    return c->dirty[i] ? CACHE_LINE_MODIFIED : CACHE_LINE_VALID;
}

unsigned cache_set_of(const cache *c, uint64_t addr)
{
    return set_index_of(&c->index, addr);
}

bool cache_set_all(const cache *c, uint64_t addr, bool (*pred)(const void *ctx, uint64_t line), const void *ctx)
{
    const uint64_t *t = c->tag + cache_line_index(c, set_index_of(&c->index, addr), 0);
    for (unsigned w = 0; w < c->p.ways; w++)
        if (t[w] != CACHE_NO_TAG && !pred(ctx, t[w]))
            return false;
    return true;
}

int cache_stack_pos(const cache *c, uint64_t addr)
{
    uint64_t line = addr & ~(uint64_t)(c->p.line_bytes - 1);
    unsigned set = set_index_of(&c->index, line);
    int w = cache_lookup(c, set, line);
    return w < 0 ? -1 : (int)replace_position(c->repl, set, (unsigned)w);
}

unsigned cache_mshr_free(const cache *c)
{
    return mshr_capacity(c->mshr) - mshr_in_use(c->mshr);
}

const mshr_table *cache_mshr(const cache *c)
{
    return c->mshr;
}

const cache_params *cache_get_params(const cache *c)
{
    return &c->p;
}

uint32_t cache_sector_mask(const cache *c, uint32_t mask, unsigned from_bytes)
{
    return sector_mask_regroup(mask, from_bytes, c->p.sector_bytes, c->p.line_bytes);
}

const cache_stats *cache_get_stats(const cache *c)
{
    return &c->st;
}

void cache_finish(cache *c, uint64_t now)
{
    mshr_occupancy_flush(c->mshr, now);
}

/* cache_stats holds only uint64_t counters, so it is a whole number of words. */
#define STATS_WORDS (sizeof(cache_stats) / sizeof(uint64_t))

size_t cache_stats_words(const cache *c) { return STATS_WORDS + mshr_occupancy_words(c->mshr); }

void cache_stats_save(const cache *c, uint64_t *buf)
{
    memcpy(buf, &c->st, sizeof c->st);
    mshr_occupancy_save(c->mshr, buf + STATS_WORDS);
}

void cache_finish_saved(cache *c, const uint64_t *buf, uint64_t now)
{
    memcpy(&c->st, buf, sizeof c->st);
    mshr_occupancy_flush_saved(c->mshr, buf + STATS_WORDS, now);
}
