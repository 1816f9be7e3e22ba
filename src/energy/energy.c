/* The activity-based energy estimate (docs/energy.md): dynamic energy is
 * events x energy per event, read from counters the blocks already keep;
 * static energy is power x simulated time, which is why a faster run saves
 * energy even with the same work (Meng et al., DWS, sec. 6.5). */
#include "energy/energy.h"

#include <glib.h>

static const param_bind energy_param_binds[] = {
    PB(energy_params, "energy.issue_pj", issue_pj, PF_DOUBLE),
    PB(energy_params, "energy.lane_pj", lane_pj, PF_DOUBLE),
    PB(energy_params, "energy.rf_pj", rf_pj, PF_DOUBLE),
    PB(energy_params, "energy.rf_read_pj", rf_read_pj, PF_DOUBLE),
    PB(energy_params, "energy.rf_write_pj", rf_write_pj, PF_DOUBLE),
    PB(energy_params, "energy.l1_access_pj", l1_access_pj, PF_DOUBLE),
    PB(energy_params, "energy.l2_access_pj", l2_access_pj, PF_DOUBLE),
    PB(energy_params, "energy.icnt_flit_pj", icnt_flit_pj, PF_DOUBLE),
    PB(energy_params, "energy.dram_activate_pj", dram_activate_pj, PF_DOUBLE),
    PB(energy_params, "energy.dram_byte_pj", dram_byte_pj, PF_DOUBLE),
    PB(energy_params, "energy.dram_access_pj", dram_access_pj, PF_DOUBLE),
    PB(energy_params, "energy.sm_static_mw", sm_static_mw, PF_DOUBLE),
    PB(energy_params, "energy.chip_static_mw", chip_static_mw, PF_DOUBLE),
};

void energy_params_read(energy_params *p, const config *c)
{
    /* Only PF_DOUBLE fields: params_read cannot fail on them. */
    params_read(p, energy_param_binds, G_N_ELEMENTS(energy_param_binds), NULL, c, NULL);
}

static double sum(const stats *st, const char *glob, const char *name)
{
    return (double)stats_sum(st, glob, name);
}

void energy_report(const energy_params *p, stats *st, unsigned nsms, uint64_t core_cycles,
                   double core_mhz)
{
    /* The SMs are blocks "smN"; "sm*" also matches their sub-blocks, which
     * keep no warp_insts/thread_insts. */
    double warp = sum(st, "sm*", "warp_insts"), lanes = sum(st, "sm*", "thread_insts");
    double e[] = {
        warp * p->issue_pj,
        lanes * p->lane_pj,
        lanes * p->rf_pj + sum(st, "sm*", "rf_reads") * p->rf_read_pj + sum(st, "sm*", "rf_writes") * p->rf_write_pj,
        sum(st, "sm*.l1d", "accesses") * p->l1_access_pj,
        sum(st, "l2s*", "accesses") * p->l2_access_pj,
        sum(st, "icnt*", "flits") * p->icnt_flit_pj,
        sum(st, "dram*", "activations") * p->dram_activate_pj +
            (sum(st, "dram*", "bytes_read") + sum(st, "dram*", "bytes_written")) * p->dram_byte_pj +
            (sum(st, "dram*", "reads") + sum(st, "dram*", "writes")) * p->dram_access_pj,
    };
    /* mW x us = nJ; the others are pJ. */
    double us = core_mhz > 0 ? (double)core_cycles / core_mhz : 0;
    double static_nj = (nsms * p->sm_static_mw + p->chip_static_mw) * us;
    static const char *const names[] = {"issue_nj", "lanes_nj", "rf_nj", "l1_nj",
                                        "l2_nj", "icnt_nj", "dram_nj"};
    static const char *const descs[] = {
        "warp instructions issued x energy.issue_pj (fetch, decode, schedule)",
        "active lanes of issued instructions x energy.lane_pj (datapath)",
        "register file: active lanes x energy.rf_pj + reads x energy.rf_read_pj + writes x energy.rf_write_pj",
        "L1 data cache accesses x energy.l1_access_pj",
        "L2 slice accesses x energy.l2_access_pj",
        "crossbar flits x energy.icnt_flit_pj",
        "DRAM activations, bytes and requests x their energies",
    };
    double total = 0;
    for (size_t i = 0; i < G_N_ELEMENTS(names); i++) {
        double nj = e[i] / 1000;
        total += nj;
        stats_derived(st, "energy", names[i], "nJ", descs[i], nj);
    }
    stats_derived(st, "energy", "static_nj", "nJ",
                  "(SMs x energy.sm_static_mw + energy.chip_static_mw) x simulated time", static_nj);
    total += static_nj;
    stats_derived(st, "energy", "total_nj", "nJ", "dynamic and static energy of the run", total);
    /* nJ / us = mW. */
    stats_derived(st, "energy", "avg_power_w", "W", "total energy / simulated time",
                  us > 0 ? total / us / 1000 : 0);
}
