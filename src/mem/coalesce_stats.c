/* Memory-instruction statistics of the LD/ST unit: accesses per load,
 * divergence, MPLI (coalesce.h). */
#include "mem/coalesce.h"
#include "simtgrid/memport.h"
#include "simtgrid/bits.h"

void coalesce_stats_init(coalesce_stats *s)
{
    *s = (coalesce_stats){0};
    uint64_t per_load[2 * 32];
    for (unsigned i = 0; i < 31; i++)
        per_load[2 * i] = per_load[2 * i + 1] = i + 1;
    per_load[62] = 32;
    per_load[63] = COALESCE_MAX_ACCESSES;
    stats_hist_init_ranges(&s->accesses_per_load, 32, per_load);
    /* Wang's dissertation, Fig. 2.2: 0 / 1 / 2 / 3-31 / 32 (32+ with
     * misaligned lanes) */
    static const uint64_t mpli[] = {0, 0, 1, 1, 2, 2, 3, 31, 32, COALESCE_MAX_ACCESSES};
    stats_hist_init_ranges(&s->mpli_coherent, 5, mpli);
    stats_hist_init_ranges(&s->mpli_divergent, 5, mpli);
    /* Wang's Fig 3.7 plots IWC 1..32: powers of two as buckets */
    static const uint64_t iwc[] = {1, 1, 2, 2, 3, 4, 5, 8, 9, 16, 17, 32, 33, COALESCE_MAX_ACCESSES};
    stats_hist_init_ranges(&s->load_iwc, 7, iwc);
}

void coalesce_count_iwc(coalesce_stats *s, unsigned accesses, unsigned sets)
{
    if (!accesses || !sets)
        return;
    stats_hist_add(&s->load_iwc, accesses / sets);
    s->iwc_sum += (double)accesses / sets;
}

void coalesce_count(coalesce_stats *s, const coalesce_params *p, unsigned op,
                    const coalesce_access *acc, unsigned n)
{
    if (op == MEM_LOAD) {
        s->loads++;
        s->divergent_loads += coalesce_is_divergent(p, n);
        stats_hist_add(&s->accesses_per_load, n);
    } else if (op == MEM_STORE) {
        s->stores++;
    } else {
        s->atomics++;
    }
    s->accesses += n;
    for (unsigned i = 0; i < n; i++)
        s->sectors += (unsigned)sg_popcount32(acc[i].sectors);
}

void coalesce_count_mpli(coalesce_stats *s, const coalesce_params *p, unsigned accesses,
                         unsigned misses)
{
    bool divergent = coalesce_is_divergent(p, accesses);
    stats_hist_add(divergent ? &s->mpli_divergent : &s->mpli_coherent, misses);
    if (!misses) {
        if (divergent)
            s->fully_cached_divergent++;
        else
            s->fully_cached_coherent++;
    }
}

void coalesce_register_stats(coalesce_stats *s, stats *st, const char *block)
{
    stats_counter(st, block, "loads", "instructions", "global load warp instructions coalesced",
                  &s->loads);
    stats_counter(st, block, "stores", "instructions", "global store warp instructions coalesced",
                  &s->stores);
    stats_counter(st, block, "atomics", "instructions", "global atomic warp instructions coalesced",
                  &s->atomics);
    stats_counter(st, block, "accesses", "accesses",
                  "line accesses the coalescer produced (one per distinct line per instruction)",
                  &s->accesses);
    stats_counter(st, block, "sectors", "sectors", "sectors touched by those accesses", &s->sectors);
    stats_counter(st, block, "divergent_loads", "instructions",
                  "loads with more accesses than coalesce.divergent_after", &s->divergent_loads);
    stats_counter(st, block, "fully_cached_coherent", "instructions",
                  "coherent loads with no L1 miss (MPLI 0)", &s->fully_cached_coherent);
    stats_counter(st, block, "fully_cached_divergent", "instructions",
                  "divergent loads with no L1 miss (MPLI 0)", &s->fully_cached_divergent);
    stats_histogram(st, block, "accesses_per_load", "accesses",
                    "line accesses per load instruction", &s->accesses_per_load);
    stats_histogram(st, block, "mpli_coherent", "misses",
                    "L1 misses (and pending hits) per coherent load instruction",
                    &s->mpli_coherent);
    stats_histogram(st, block, "mpli_divergent", "misses",
                    "L1 misses (and pending hits) per divergent load instruction",
                    &s->mpli_divergent);
    stats_histogram(st, block, "load_iwc", "accesses/set",
                    "loads by intra-warp concentration, accesses over distinct L1 sets (Wang "
                    "Eq 3.1), rounded down", &s->load_iwc);
}
