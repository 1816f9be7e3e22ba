/* DRRIP (Jaleel et al., ISCA'10) as Wang's dissertation (section 4.3) uses it:
 * M-bit re-reference prediction values, SRRIP vs BRRIP insertion by set
 * dueling, frequency-priority promotion (a hit decrements the prediction). */
#include "mem/replace.h"

static unsigned rrpv_max(const replace *r)
{
    return (1u << r->p.rrip_bits) - 1;
}

static void rrip_insert(replace *r, unsigned set, unsigned way, int pos)
{
    (void)pos;  /* position hints are LRU-stack notions */
    unsigned max = rrpv_max(r);
    unsigned v = max > 0 ? max - 1 : 0;  /* SRRIP: "long" re-reference interval */
    if (replace_uses_second(r, set) && !replace_bimodal_tick(r))
        v = max;                           /* BRRIP: "distant", except 1 in 32 */
    r->pos[set * r->ways + way] = (uint8_t)v;
}

static void rrip_hit(replace *r, unsigned set, unsigned way)
{
    uint8_t *v = &r->pos[set * r->ways + way];
    if (*v > 0)
        (*v)--;
}

static void rrip_invalidate(replace *r, unsigned set, unsigned way)
{
    r->pos[set * r->ways + way] = (uint8_t)rrpv_max(r);
}

static int rrip_victim(replace *r, unsigned set, uint64_t allowed, uint64_t empty, unsigned min_pos)
{
    (void)min_pos;
    if (!allowed)
        return -1;
    uint64_t pick = empty & allowed;
    if (pick)
        return __builtin_ctzll(pick);  /* lowest empty way */
    uint8_t *v = r->pos + (size_t)set * r->ways;
    unsigned max = rrpv_max(r);
    for (;;) {
        for (unsigned w = 0; w < r->ways; w++)
            if ((allowed >> w & 1) && v[w] >= max)
                return (int)w;
        /* No allowed line predicted distant: age the whole set. Terminates:
         * every allowed line gains 1 per round until one reaches max. */
        for (unsigned w = 0; w < r->ways; w++)
            if (v[w] < max)
                v[w]++;
    }
}

/* Every line starts distant (RRPV 2^M-1). */
static bool rrip_init(replace *r)
{
    if (r->p.rrip_bits < 1 || r->p.rrip_bits > 8)
        return false;
    uint8_t distant = (uint8_t)((1u << r->p.rrip_bits) - 1);
    for (size_t i = 0; i < (size_t)r->sets * r->ways; i++)
        r->pos[i] = distant;
    return true;
}

const replace_ops replace_rrip_ops = {
    .init = rrip_init,
    .insert = rrip_insert,
    .hit = rrip_hit,
    .invalidate = rrip_invalidate,
    .victim = rrip_victim,
    .miss = replace_duel_miss,
};
