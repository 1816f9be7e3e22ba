/* Address translation: per-SM L1 TLB, shared group TLB, page walk (tlb.h).
 * Each TLB is set-associative with LRU replacement; an entry keeps the
 * cycle its translation is ready, so a later access to a page whose miss is
 * still in flight waits for it instead of missing again. An L1 miss costs
 * its SM's LD/ST port tlb.l1_miss_port_cycles (tlb_take_port_cycles) and
 * takes the group's shared TLB at its next free lookup slot
 * (tlb.group_lookups_per_cycle): the two limits ubench5 shows, one SM
 * alone and the SMs of a group together. */
#include "mem/tlb.h"

#include <math.h>

typedef struct tlb_array {
    unsigned sets, ways;
    uint64_t *page;    /* page + 1; 0 = empty */
    uint64_t *ready;
    uint64_t *stamp;   /* last use, for LRU */
    uint64_t clock;
} tlb_array;

struct tlb_group {
    tlb_array a;
    double free;       /* first cycle (fractional) the shared TLB takes a lookup */
};

struct tlb {
    const tlb_params *p;
    tlb_group *g;
    tlb_array a;
    unsigned shift;    /* log2 page_bytes */
    double port_debt;  /* port cycles owed by misses, not yet taken */
    uint64_t l1_hits, l1_misses, group_hits, walks, wait_cycles;
};

static const char *const map_words[] = {"consecutive", "h100", NULL};

static const param_bind binds[] = {
    PB(tlb_params, "tlb.l1_entries", l1_entries, PF_UNSIGNED),
    PB(tlb_params, "tlb.l1_ways", l1_ways, PF_UNSIGNED),
    PB(tlb_params, "tlb.page_bytes", page_bytes, PF_U64),
    PB(tlb_params, "tlb.l1_miss_port_cycles", l1_miss_port_cycles, PF_DOUBLE),
    PB(tlb_params, "tlb.group_sms", group_sms, PF_UNSIGNED),
    PB_ENUM(tlb_params, "tlb.group_map", group_map, map_words),
    PB(tlb_params, "tlb.group_entries", group_entries, PF_UNSIGNED),
    PB(tlb_params, "tlb.group_ways", group_ways, PF_UNSIGNED),
    PB(tlb_params, "tlb.group_hit_cycles", group_hit_cycles, PF_UNSIGNED),
    PB(tlb_params, "tlb.group_lookups_per_cycle", group_lookups_per_cycle, PF_DOUBLE),
    PB(tlb_params, "tlb.walk_cycles", walk_cycles, PF_UNSIGNED),
};

/* The measured H100's groups (ubench5 `tlbsm`, `cpc`: 655 SM pairs at
 * 1 GiB, those sharing a TLB at 0.56 loads per cycle each, the others at
 * 0.80). SM s is in TPC s/2; TPC t is in GPC t%8 for t < 32, 1+(t-32)%7 for
 * 32..59, 6 and 7 for 60 and 61, 0 for 62..65 (the CTA dispatch order of
 * `place` lists the GPCs); within its GPC, in TPC order, TPC k shares with
 * TPCs k+3 and k+6: group 3 x GPC + k%3. Every measured pair agrees. */
static const uint8_t h100_group[132] = {
    0, 0, 3, 3, 6, 6, 9, 9, 12, 12, 15, 15, 18, 18, 21, 21, 1, 1, 4, 4, 7, 7, 10, 10, 13, 13, 16, 16,
    19, 19, 22, 22, 2, 2, 5, 5, 8, 8, 11, 11, 14, 14, 17, 17, 20, 20, 23, 23, 0, 0, 3, 3, 6, 6, 9, 9,
    12, 12, 15, 15, 18, 18, 21, 21, 4, 4, 7, 7, 10, 10, 13, 13, 16, 16, 19, 19, 22, 22, 5, 5, 8, 8,
    11, 11, 14, 14, 17, 17, 20, 20, 23, 23, 3, 3, 6, 6, 9, 9, 12, 12, 15, 15, 18, 18, 21, 21, 4, 4,
    7, 7, 10, 10, 13, 13, 16, 16, 19, 19, 22, 22, 20, 20, 23, 23, 1, 1, 2, 2, 0, 0, 1, 1};
#define H100_GROUPS 24u

void tlb_params_default(tlb_params *p) { params_read(p, binds, G_N_ELEMENTS(binds), NULL, NULL, NULL); }

bool tlb_params_from_config(tlb_params *p, const config *c, GError **err)
{
    params_read(p, binds, G_N_ELEMENTS(binds), NULL, c, NULL);
    if (!p->l1_entries)
        return true;
    if (p->page_bytes & (p->page_bytes - 1))
        return cfg_blame(c, "tlb.page_bytes", "a power of two", err);
    if (p->l1_entries % p->l1_ways)
        return cfg_blame(c, "tlb.l1_ways", "a divisor of tlb.l1_entries", err);
    if (p->group_entries % p->group_ways)
        return cfg_blame(c, "tlb.group_ways", "a divisor of tlb.group_entries", err);
    /* Fewer SMs (a scaled-down chip, a sweep over gpu.sms) keep the first
     * SMs' measured groups; past 132 there is no measurement. */
    if (p->group_map == TLB_GROUP_H100 && cfg_int(c, "gpu.sms") > (int64_t)G_N_ELEMENTS(h100_group))
        return cfg_blame(c, "tlb.group_map", "h100 (the measured H100's groups) needs gpu.sms <= 132", err);
    return true;
}

unsigned tlb_ngroups(const tlb_params *p, unsigned nsms)
{
    return p->group_map == TLB_GROUP_H100 ? H100_GROUPS : (nsms + p->group_sms - 1) / p->group_sms;
}

unsigned tlb_group_of(const tlb_params *p, unsigned sm)
{
    return p->group_map == TLB_GROUP_H100 ? h100_group[sm] : sm / p->group_sms;
}

static void array_init(tlb_array *a, unsigned entries, unsigned ways)
{
    a->ways = ways;
    a->sets = entries / ways;
    a->page = g_new0(uint64_t, entries);
    a->ready = g_new0(uint64_t, entries);
    a->stamp = g_new0(uint64_t, entries);
}

static void array_free(tlb_array *a)
{
    g_free(a->page);
    g_free(a->ready);
    g_free(a->stamp);
}

/* The way of `page`, made most recently used, or -1. */
static long array_find(tlb_array *a, uint64_t page)
{
    size_t base = (size_t)(page % a->sets) * a->ways;
    for (unsigned w = 0; w < a->ways; w++)
        if (a->page[base + w] == page + 1) {
            a->stamp[base + w] = ++a->clock;
            return (long)(base + w);
        }
    return -1;
}

/* Puts `page` in its set over the least recently used way (an empty one first). */
static void array_insert(tlb_array *a, uint64_t page, uint64_t ready)
{
    size_t base = (size_t)(page % a->sets) * a->ways, v = base;
    for (unsigned w = 0; w < a->ways; w++)
        if (a->stamp[base + w] < a->stamp[v])
            v = base + w;
    a->page[v] = page + 1;
    a->ready[v] = ready;
    a->stamp[v] = ++a->clock;
}

tlb_group *tlb_group_new(const tlb_params *p)
{
    tlb_group *g = g_new0(tlb_group, 1);
    array_init(&g->a, p->group_entries, p->group_ways);
    return g;
}

void tlb_group_free(tlb_group *g)
{
    if (!g)
        return;
    array_free(&g->a);
    g_free(g);
}

tlb *tlb_new(const tlb_params *p, tlb_group *g)
{
    tlb *t = g_new0(tlb, 1);
    t->p = p;
    t->g = g;
    array_init(&t->a, p->l1_entries, p->l1_ways);
    while ((1ull << t->shift) < p->page_bytes)
        t->shift++;
    return t;
}

void tlb_free(tlb *t)
{
    if (!t)
        return;
    array_free(&t->a);
    g_free(t);
}

void tlb_register_stats(tlb *t, stats *st, const char *name)
{
    if (!st)
        return;
    stats_counter(st, name, "tlb_l1_hits", "accesses", "load accesses whose page the SM's L1 TLB held",
                  &t->l1_hits);
    stats_counter(st, name, "tlb_l1_misses", "accesses", "load accesses sent to the shared TLB", &t->l1_misses);
    stats_counter(st, name, "tlb_group_hits", "accesses", "L1 TLB misses the shared TLB held", &t->group_hits);
    stats_counter(st, name, "tlb_walks", "accesses", "L1 TLB misses that also missed the shared TLB (page walks)",
                  &t->walks);
    stats_counter(st, name, "tlb_wait_cycles", "cycles",
                  "cycles load accesses waited for their translation (queueing and latency)", &t->wait_cycles);
}

uint64_t tlb_translate(tlb *t, uint64_t addr, uint64_t cycle)
{
    uint64_t page = addr >> t->shift, ready;
    long i = array_find(&t->a, page);
    if (i >= 0) {
        t->l1_hits++;
        ready = MAX(cycle, t->a.ready[i]);
    } else {
        const tlb_params *p = t->p;
        t->l1_misses++;
        t->port_debt += p->l1_miss_port_cycles;
        double start = MAX((double)cycle, t->g->free);
        t->g->free = start + 1.0 / p->group_lookups_per_cycle;
        ready = (uint64_t)ceil(start) + p->group_hit_cycles;
        long j = array_find(&t->g->a, page);
        if (j >= 0) {
            t->group_hits++;
            ready = MAX(ready, t->g->a.ready[j]);
        } else {
            t->walks++;
            ready += p->walk_cycles;
            array_insert(&t->g->a, page, ready);
        }
        array_insert(&t->a, page, ready);
    }
    t->wait_cycles += ready - cycle;
    return ready;
}

unsigned tlb_take_port_cycles(tlb *t)
{
    unsigned n = (unsigned)t->port_debt;
    t->port_debt -= n;
    return n;
}
