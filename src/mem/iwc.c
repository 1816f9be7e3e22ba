/* Intra-warp concentration: distinct sets of one instruction's accesses. */
#include "mem/iwc.h"

unsigned iwc_sets_touched(const cache *c, const coalesce_access *acc, unsigned n)
{
    unsigned seen[COALESCE_MAX_ACCESSES], k = 0;  /* n <= COALESCE_MAX_ACCESSES: a linear scan */
    for (unsigned i = 0; i < n; i++) {
        unsigned s = cache_set_of(c, acc[i].line), j = 0;
        while (j < k && seen[j] != s)
            j++;
        if (j == k)
            seen[k++] = s;
    }
    return k;
}
