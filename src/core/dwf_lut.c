/* PC-warp LUT (dwf_lut.h). */
#include <glib.h>

#include "core/dwf_lut.h"

void dwf_lut_init(dwf_lut *l, unsigned sets, unsigned ways)
{
    l->sets = sets;
    l->ways = ways;
    l->e = g_new0(dwf_lut_entry, (size_t)sets * ways);
    l->stamp = 0;
    l->misses = l->evictions = 0;
}

void dwf_lut_free(dwf_lut *l) { g_free(l->e); }

static dwf_lut_entry *set_of(dwf_lut *l, uint64_t key)
{
    return &l->e[(size_t)((uint32_t)key % l->sets) * l->ways];
}

dwf_lut_entry *dwf_lut_lookup(dwf_lut *l, uint64_t key)
{
    dwf_lut_entry *s = set_of(l, key);
    for (unsigned w = 0; w < l->ways; w++)
        if (s[w].valid && s[w].key == key) {
            s[w].used = ++l->stamp;
            return &s[w];
        }
    l->misses++;
    return NULL;
}

dwf_lut_entry *dwf_lut_insert(dwf_lut *l, uint64_t key, unsigned idx)
{
    dwf_lut_entry *s = set_of(l, key), *v = NULL;
    for (unsigned w = 0; w < l->ways && !v; w++)
        if (!s[w].valid)
            v = &s[w];
    if (!v) {
        v = &s[0];
        for (unsigned w = 1; w < l->ways; w++)
            if (s[w].used < v->used)
                v = &s[w];
        l->evictions++;
    }
    *v = (dwf_lut_entry){.valid = true, .key = key, .idx = idx, .occ = 0, .used = ++l->stamp};
    return v;
}

void dwf_lut_invalidate(dwf_lut *l, uint64_t key, unsigned idx)
{
    dwf_lut_entry *s = set_of(l, key);
    for (unsigned w = 0; w < l->ways; w++)
        if (s[w].valid && s[w].key == key && s[w].idx == idx)
            s[w].valid = false;
}
