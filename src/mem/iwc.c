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

double iwc_balance(const cache *c, const coalesce_access *acc, unsigned n)
{
    if (!n)
        return 0.0;
    unsigned set[COALESCE_MAX_ACCESSES], b[COALESCE_MAX_ACCESSES], k = 0;
    for (unsigned i = 0; i < n; i++) {
        unsigned s = cache_set_of(c, acc[i].line), j = 0;
        while (j < k && set[j] != s)
            j++;
        if (j == k) {
            set[k] = s;
            b[k++] = 0;
        }
        b[j]++;
    }
    double num = 0, m = n, sets = cache_get_params(c)->sets;
    for (unsigned j = 0; j < k; j++)
        num += b[j] * (b[j] + 1.0) / 2.0;
    return num / (m / (2.0 * sets) * (m + 2.0 * sets - 1.0));
}
