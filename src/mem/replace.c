/* LRU stack with positional insertion and promotion, DIP on top of it, and
 * the set-dueling helpers that dip and rrip share (replace.h). */
#include "mem/replace.h"

#include <glib.h>
#include <stdlib.h>

#define DUEL_LEADERS 4       /* leader sets per policy (Wang, section 4.3) */
#define DUEL_PSEL_BITS 10
#define BIMODAL_PERIOD 32    /* BIP / BRRIP: one insertion in 32 is the "near" one */

replace *replace_new(const replace_params *p, unsigned sets, unsigned ways)
{
    if (!sets || !ways || ways > REPLACE_MAX_WAYS)
        return NULL;
    const replace_ops *ops = p->ops;
    if (!ops)
        return NULL;
    replace *r = g_new0(replace, 1);
    r->pos = g_new(uint8_t, (size_t)sets * ways);
    r->ops = ops;
    r->p = *p;
    r->sets = sets;
    r->ways = ways;
    r->psel_max = (1u << DUEL_PSEL_BITS) - 1;
    r->psel = r->psel_max / 2;  /* 511: the first policy until leaders disagree */
    unsigned leaders = sets / 2 < DUEL_LEADERS ? sets / 2 : DUEL_LEADERS;
    r->leader_stride = leaders ? sets / leaders : 0;
    for (unsigned s = 0; s < sets; s++)
        for (unsigned w = 0; w < ways; w++)  /* way w at position w */
            r->pos[s * ways + w] = (uint8_t)w;
    if (ops->init && !ops->init(r)) {
        replace_free(r);
        return NULL;
    }
    return r;
}

void replace_free(replace *r)
{
    if (!r)
        return;
    g_free(r->pos);
    g_free(r);
}

unsigned replace_leader_kind(const replace *r, unsigned set)
{
    if (!r->leader_stride)
        return 0;
    unsigned m = set % r->leader_stride;
    return m == 0 ? 1 : m == 1 ? 2 : 0;
}

bool replace_uses_second(const replace *r, unsigned set)
{
    unsigned k = replace_leader_kind(r, set);
    if (k)
        return k == 2;
    return r->psel > r->psel_max / 2;  /* the first policy's leaders miss more */
}

bool replace_bimodal_tick(replace *r)
{
    return ++r->bimodal_count % BIMODAL_PERIOD == 0;
}

void replace_duel_miss(replace *r, unsigned set)
{
    unsigned k = replace_leader_kind(r, set);
    if (k == 1 && r->psel < r->psel_max)
        r->psel++;
    else if (k == 2 && r->psel > 0)
        r->psel--;
}

/* ---- LRU stack ---- */

/* Move `way` to stack position `to`, shifting the lines in between by one. */
void replace_stack_move(replace *r, unsigned set, unsigned way, unsigned to)
{
    uint8_t *pos = r->pos + (size_t)set * r->ways;
    unsigned from = pos[way];
    if (to >= r->ways)
        to = r->ways - 1;
    if (to < from) {
        for (unsigned w = 0; w < r->ways; w++)
            if (pos[w] >= to && pos[w] < from)
                pos[w]++;
    } else if (to > from) {
        for (unsigned w = 0; w < r->ways; w++)
            if (pos[w] > from && pos[w] <= to)
                pos[w]--;
    }
    pos[way] = (uint8_t)to;
}

void replace_lru_insert(replace *r, unsigned set, unsigned way, int pos)
{
    replace_stack_move(r, set, way, pos >= 0 ? (unsigned)pos : r->p.insert_pos);
}

void replace_lru_hit(replace *r, unsigned set, unsigned way)
{
    unsigned from = r->pos[set * r->ways + way];
    unsigned n = r->p.promote_by;
    replace_stack_move(r, set, way, n == 0 || n >= from ? 0 : from - n);
}

void replace_lru_invalidate(replace *r, unsigned set, unsigned way)
{
    replace_stack_move(r, set, way, r->ways - 1);
}

int replace_lru_victim(replace *r, unsigned set, uint64_t allowed, uint64_t empty, unsigned min_pos)
{
    const uint8_t *pos = r->pos + (size_t)set * r->ways;
    int best = -1;
    uint64_t pick = empty & allowed;
    if (!pick) {
        pick = allowed;
    } else {
        min_pos = 0;  /* an empty line evicts nothing: always allowed */
    }
    /* Only the candidate ways, in ascending order (the first of equal
     * positions wins, as a scan of every way gives). */
    unsigned best_pos = 0;
    if (r->ways < 64)
        pick &= (UINT64_C(1) << r->ways) - 1;
    for (uint64_t m = pick; m; m &= m - 1) {
        unsigned w = (unsigned)__builtin_ctzll(m), p = pos[w];
        if (p >= min_pos && (best < 0 || p > best_pos)) {
            best = (int)w;
            best_pos = p;
        }
    }
    return best;
}

const replace_ops replace_lru_ops = {
    .insert = replace_lru_insert,
    .hit = replace_lru_hit,
    .invalidate = replace_lru_invalidate,
    .victim = replace_lru_victim,
    .miss = NULL,
};

/* ---- DIP: LRU insertion vs BIP, by set dueling ---- */

static void dip_insert(replace *r, unsigned set, unsigned way, int pos)
{
    if (pos >= 0) {
        replace_stack_move(r, set, way, (unsigned)pos);
        return;
    }
    if (!replace_uses_second(r, set)) {
        replace_stack_move(r, set, way, r->p.insert_pos);
        return;
    }
    replace_stack_move(r, set, way, replace_bimodal_tick(r) ? 0 : r->ways - 1);
}

const replace_ops replace_dip_ops = {
    .insert = dip_insert,
    .hit = replace_lru_hit,
    .invalidate = replace_lru_invalidate,
    .victim = replace_lru_victim,
    .miss = replace_duel_miss,
};
