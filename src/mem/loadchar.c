/* Memory-divergence characterisation statistics (loadchar.h). */
#include <glib.h>
#include <string.h>

#include "mem/loadchar.h"

struct loadchar {
    unsigned divergent_after;
    GHashTable *kernels;              /* kernel name -> (pc -> loadpc) */
    stats_hist issue_by_prio, mshr_by_prio;
    /* Fig 2.6: occlusion cycles over L1D access time, coherent and divergent */
    uint64_t occl[2], access[2];
};

loadchar *loadchar_new(unsigned divergent_after)
{
    loadchar *lc = g_new0(loadchar, 1);
    lc->divergent_after = divergent_after;
    lc->kernels = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, (GDestroyNotify)g_hash_table_destroy);
    stats_hist_init_exact(&lc->issue_by_prio, LOADCHAR_PRIOS);
    stats_hist_init_exact(&lc->mshr_by_prio, LOADCHAR_PRIOS);
    return lc;
}

void loadchar_free(loadchar *lc)
{
    if (!lc)
        return;
    g_hash_table_destroy(lc->kernels);
    g_free(lc);
}

loadpc *loadchar_pc(loadchar *lc, const char *kernel, uint32_t pc)
{
    /* keyed by name: launches of one kernel share its PCs' records */
    kernel = kernel ? kernel : "";
    GHashTable *pcs = g_hash_table_lookup(lc->kernels, kernel);
    if (!pcs) {
        pcs = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free);
        g_hash_table_insert(lc->kernels, (gpointer)kernel, pcs);
    }
    loadpc *r = g_hash_table_lookup(pcs, GUINT_TO_POINTER(pc));
    if (!r) {
        r = g_new0(loadpc, 1);
        r->kernel = kernel;
        r->pc = pc;
        g_hash_table_insert(pcs, GUINT_TO_POINTER(pc), r);
    }
    return r;
}

void loadchar_load(loadchar *lc, loadpc *r, unsigned accesses, unsigned sets, double balance)
{
    r->loads++;
    r->divergent += accesses > lc->divergent_after;
    r->accesses += accesses;
    if (sets) {
        r->iwc_sum += (double)accesses / sets;
        r->balance_sum += balance;
    }
}

void loadchar_miss(loadchar *lc, loadpc *r, unsigned prio, cache_miss_class k)
{
    r->misses++;
    r->misses_cold += k == CACHE_MISS_COLD;
    r->misses_intra_warp += k == CACHE_MISS_INTRA_WARP;
    r->misses_inter_warp += k == CACHE_MISS_INTER_WARP;
    stats_hist_add(&lc->mshr_by_prio, MIN(prio, LOADCHAR_PRIOS - 1u));
}

void loadchar_done(loadchar *lc, loadpc *r, unsigned accesses, unsigned misses, uint64_t unit,
                   uint64_t access)
{
    if (!accesses)
        return;
    if (!misses)
        r->fully_cached++;
    else if (misses < accesses)
        r->partially_cached++;
    else
        r->fully_missed++;
    /* N accesses leave the unit after N cycles; any more is occlusion */
    uint64_t occl = unit > accesses ? unit - accesses : 0;
    r->occlusion_cycles += occl;
    r->access_cycles += access;
    bool div = accesses > lc->divergent_after;
    lc->occl[div] += occl;
    lc->access[div] += access;
}

stats_hist *loadchar_issue_hist(loadchar *lc) { return &lc->issue_by_prio; }

const stats_hist *loadchar_mshr_hist(const loadchar *lc) { return &lc->mshr_by_prio; }

static double ratio(uint64_t a, uint64_t b) { return b ? (double)a / (double)b : 0.0; }

static gint by_kernel_pc(gconstpointer a, gconstpointer b)
{
    const loadpc *p = a, *q = b;
    int k = strcmp(p->kernel, q->kernel);
    return k ? k : p->pc < q->pc ? -1 : p->pc > q->pc;
}

static void write_pc(stats *st, loadpc *r)
{
    g_autofree char *blk = *r->kernel ? g_strdup_printf("loadpc.%s.%u", r->kernel, r->pc)
                                      : g_strdup_printf("loadpc.%u", r->pc);
    stats_counter(st, blk, "loads", "instructions", "dynamic load instructions of this PC", &r->loads);
    stats_counter(st, blk, "divergent_loads", "instructions", "of which divergent (more than 2 accesses)",
                  &r->divergent);
    stats_counter(st, blk, "accesses", "accesses", "line accesses the coalescer produced", &r->accesses);
    stats_counter(st, blk, "fully_cached", "instructions", "loads with no L1 miss (MPLI 0)", &r->fully_cached);
    stats_counter(st, blk, "partially_cached", "instructions", "loads with some but not all accesses missing",
                  &r->partially_cached);
    stats_counter(st, blk, "fully_missed", "instructions", "loads whose every access missed", &r->fully_missed);
    stats_counter(st, blk, "misses", "accesses", "L1 misses (MSHR allocations)", &r->misses);
    stats_counter(st, blk, "misses_cold", "accesses", "misses to a line never evicted", &r->misses_cold);
    stats_counter(st, blk, "misses_intra_warp", "accesses", "misses to a line last evicted by the same warp",
                  &r->misses_intra_warp);
    stats_counter(st, blk, "misses_inter_warp", "accesses", "misses to a line last evicted by another warp",
                  &r->misses_inter_warp);
    stats_counter(st, blk, "stall_coal", "cycles", "LDST_COAL cycles of this PC", &r->stall_coal);
    stats_counter(st, blk, "stall_mshr", "cycles", "LDST_MSHR cycles of this PC", &r->stall_mshr);
    stats_counter(st, blk, "stall_icnt", "cycles", "LDST_ICNT cycles of this PC", &r->stall_icnt);
    stats_counter(st, blk, "stall_set_reserved", "cycles", "cycles waiting for a set with every line reserved",
                  &r->stall_set);
    stats_counter(st, blk, "access_cycles", "cycles", "L1D access time summed: entering the unit to the last data",
                  &r->access_cycles);
    stats_counter(st, blk, "occlusion_cycles", "cycles", "unit time beyond one cycle per access, summed",
                  &r->occlusion_cycles);
    double n = (double)r->loads;
    stats_derived(st, blk, "mean_accesses", "accesses", "accesses per load (coherent <= 2, divergent > 2)",
                  n ? (double)r->accesses / n : 0.0);
    stats_derived(st, blk, "mean_iwc", "accesses/set", "mean intra-warp concentration (Wang Eq 3.1)",
                  n ? r->iwc_sum / n : 0.0);
    stats_derived(st, blk, "mean_balance", "ratio", "mean balance of the accesses over the sets (Wang Eq 3.2)",
                  n ? r->balance_sum / n : 0.0);
    stats_derived(st, blk, "occlusion_share", "ratio", "occlusion cycles over L1D access time (Fig 2.6)",
                  ratio(r->occlusion_cycles, r->access_cycles));
}

void loadchar_write(loadchar *lc, stats *st, uint64_t sm_cycles)
{
    GList *all = NULL;
    GHashTableIter it;
    gpointer pcs;
    g_hash_table_iter_init(&it, lc->kernels);
    while (g_hash_table_iter_next(&it, NULL, &pcs))
        all = g_list_concat(g_hash_table_get_values(pcs), all);
    all = g_list_sort(all, by_kernel_pc);   /* kernel then PC order: deterministic */
    loadpc t = {0};
    uint64_t coh_loads = 0, coh_cached = 0;
    for (GList *l = all; l; l = l->next) {
        loadpc *r = l->data;
        write_pc(st, r);
        t.loads += r->loads;
        t.divergent += r->divergent;
        t.accesses += r->accesses;
        t.iwc_sum += r->iwc_sum;
        t.balance_sum += r->balance_sum;
        t.misses += r->misses;
        t.misses_intra_warp += r->misses_intra_warp;
        t.misses_inter_warp += r->misses_inter_warp;
        t.stall_coal += r->stall_coal;
        t.stall_mshr += r->stall_mshr;
        t.stall_icnt += r->stall_icnt;
        /* a PC is divergent if most of its loads are (Fig 2.2 counts by PC class) */
        if (2 * r->divergent > r->loads) {
            t.fully_cached += r->fully_cached;
            t.partially_cached += r->partially_cached;
        } else {
            coh_loads += r->loads;
            coh_cached += r->fully_cached;
        }
    }
    g_list_free(all);
    const char *b = "loads";
    stats_histogram(st, b, "issue_by_prio", "issues",
                    "warp instructions issued by the warp's GTO priority in its scheduler (Fig 2.3; 0 = oldest)",
                    &lc->issue_by_prio);
    stats_histogram(st, b, "mshr_by_prio", "accesses",
                    "L1D misses (MSHR allocations) by the warp's GTO priority in its scheduler (Fig 2.7)",
                    &lc->mshr_by_prio);
    uint64_t top3 = 0;
    for (unsigned i = 0; i < 3 && i < lc->issue_by_prio.n; i++)
        top3 += lc->issue_by_prio.count[i];
    uint64_t div_loads = t.divergent, all_loads = t.loads;
    stats_derived(st, b, "divergent_share", "ratio", "divergent loads over all loads", ratio(div_loads, all_loads));
    double n = (double)all_loads;
    stats_derived(st, b, "mean_accesses", "accesses", "accesses per load, all loads", n ? (double)t.accesses / n : 0.0);
    stats_derived(st, b, "mean_iwc", "accesses/set", "mean intra-warp concentration, all loads (Wang Eq 3.1)",
                  n ? t.iwc_sum / n : 0.0);
    stats_derived(st, b, "mean_balance", "ratio", "mean balance, all loads (Wang Eq 3.2)",
                  n ? t.balance_sum / n : 0.0);
    stats_derived(st, b, "fully_cached_divergent", "ratio",
                  "loads of divergent PCs with no L1 miss, over those loads (Figs 2.2, 5.6)",
                  ratio(t.fully_cached, t.loads - coh_loads));
    stats_derived(st, b, "partially_cached_divergent", "ratio",
                  "loads of divergent PCs with some accesses missing, over those loads (Fig 2.2)",
                  ratio(t.partially_cached, t.loads - coh_loads));
    stats_derived(st, b, "fully_cached_coherent", "ratio", "loads of coherent PCs with no L1 miss, over those loads",
                  ratio(coh_cached, coh_loads));
    stats_derived(st, b, "intra_warp_miss_share", "ratio", "intra-warp misses over all L1D load misses (Fig 2.4)",
                  ratio(t.misses_intra_warp, t.misses));
    stats_derived(st, b, "inter_warp_miss_share", "ratio", "inter-warp misses over all L1D load misses (Fig 2.4)",
                  ratio(t.misses_inter_warp, t.misses));
    stats_derived(st, b, "issue_top3_share", "ratio",
                  "issues by the 3 highest GTO priorities of each scheduler, over all issues (Fig 2.3)",
                  ratio(top3, lc->issue_by_prio.samples));
    stats_derived(st, b, "ldst_coal_share", "ratio", "LDST_COAL cycles of loads over all SMs' cycles (Fig 2.5)",
                  ratio(t.stall_coal, sm_cycles));
    stats_derived(st, b, "ldst_mshr_share", "ratio", "LDST_MSHR cycles of loads over all SMs' cycles (Fig 2.5)",
                  ratio(t.stall_mshr, sm_cycles));
    stats_derived(st, b, "ldst_icnt_share", "ratio", "LDST_ICNT cycles of loads over all SMs' cycles (Fig 2.5)",
                  ratio(t.stall_icnt, sm_cycles));
    stats_derived(st, b, "occlusion_share_coherent", "ratio",
                  "occlusion cycles over L1D access time, coherent loads (Fig 2.6)", ratio(lc->occl[0], lc->access[0]));
    stats_derived(st, b, "occlusion_share_divergent", "ratio",
                  "occlusion cycles over L1D access time, divergent loads (Fig 2.6)", ratio(lc->occl[1], lc->access[1]));
}
