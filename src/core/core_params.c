/* The core.* parameters bound to the fields of core_params (the one reader,
 * params_read), and the values resolved from others. */
#include <string.h>

#include "simtgrid/core.h"

static const char *const discipline_names[] = {[CORE_BARREL] = "barrel", [CORE_SCOREBOARD] = "scoreboard", NULL};
static const char *const dwf_policy_names[] = {[DWF_POL_MAJ] = "maj", [DWF_POL_MIN] = "min", [DWF_POL_TIME] = "time",
                                               [DWF_POL_PC] = "pc", [DWF_POL_PDPRI] = "pdpri", NULL};
static const char *const dwf_rf_names[] = {[DWF_RF_LAS] = "las", [DWF_RF_IDEAL] = "ideal", [DWF_RF_BANKS] = "banks", NULL};
static const char *const dwf_pd_names[] = {[DWF_PD_COND] = "cond", [DWF_PD_ANY] = "any", NULL};
static const char *const dwf_merge_names[] = {[DWF_MERGE_LUT] = "lut", [DWF_MERGE_ANY] = "any", NULL};
static const char *const dwf_bank_names[] = {[DWF_BANK_LANE] = "lane", [DWF_BANK_PASS] = "pass", NULL};
static const char *const dwf_home_names[] = {[DWF_HOME_SLOT] = "slot", [DWF_HOME_PIPE] = "pipe", NULL};
static const char *const dwf_swz_names[] = {[DWF_SWZ_XOR] = "xor", [DWF_SWZ_ROTATE] = "rotate", NULL};
static const char *const dwf_place_names[] = {[DWF_PLACE_LOW] = "low", [DWF_PLACE_HOME] = "home", NULL};
static const char *const dwf_bar_names[] = {[DWF_BAR_LOOKUP] = "lookup", [DWF_BAR_BYPASS] = "bypass", NULL};
static const char *const dwf_tie_names[] = {[DWF_TIE_POSITION] = "position", [DWF_TIE_PC] = "pc", NULL};
static const char *const dws_mem_names[] = {[CORE_DWS_MEM_OFF] = "off", [CORE_DWS_AGGRESS] = "aggress",
                                             [CORE_DWS_LAZY] = "lazy", [CORE_DWS_REVIVE] = "revive",
                                             [CORE_DWS_SLIP] = "slip", NULL};
static const char *const dispatch_order_names[] = {[CORE_DISPATCH_RR] = "rr", [CORE_DISPATCH_H100] = "h100", NULL};
static const char *const trigger_names[] = {[CORE_2LEV_LONGLAT] = "longlat", [CORE_2LEV_NOFETCH] = "nofetch", NULL};
static const char *const select_names[] = {[CORE_2LEV_NEXT] = "next", [CORE_2LEV_FETCHABLE] = "fetchable", NULL};

#define U(field) PB(core_params, "core." #field, field, PF_UNSIGNED)
#define B(field) PB(core_params, "core." #field, field, PF_BOOL)
/* A functional-unit class: core.<name>_units, _lanes, _latency, _ii. */
#define UNIT(name, u)                                                          \
    PB(core_params, "core." #name "_units", unit[u].count, PF_UNSIGNED),       \
    PB(core_params, "core." #name "_lanes", unit[u].lanes, PF_UNSIGNED),       \
    PB(core_params, "core." #name "_latency", unit[u].latency, PF_UNSIGNED),   \
    PB(core_params, "core." #name "_ii", unit[u].ii, PF_UNSIGNED)
static const param_bind binds[] = {
    U(warp_size), U(simd_width), U(max_warps), U(max_threads), U(max_ctas), U(regs), U(smem_bytes),
    B(one_cta_at_a_time), B(dispatch_restart), PB_ENUM(core_params, "core.dispatch_order", dispatch_order, dispatch_order_names),
    U(cta_launch_latency), PB(core_params, "core.dispatch_interval", dispatch_interval, PF_DOUBLE), U(dispatch_burst),
    U(schedulers), U(issue_width),
    PB_POLICY(core_params, "core.scheduler", scheduler, core_policy),
    U(fetch_group),
    PB_ENUM(core_params, "core.2lev_trigger", two_level_trigger, trigger_names),
    PB_ENUM(core_params, "core.2lev_select", two_level_select, select_names),
    PB(core_params, "core.2lev_timeout", two_level_timeout, PF_U64),
    U(oaws_smr), U(swl_limit), U(mascar_reexec),
    PB_ENUM(core_params, "core.discipline", discipline, discipline_names),
    U(refetch_latency), U(pipeline_depth),
    PB_POLICY(core_params, "core.reconv", reconv, core_policy),
    U(mem_pending_per_warp), B(wait_for_stores),
    B(lwm_jump_opt), B(lwm_memdiv_opt), B(lwm_pred_pack),
    PB_ENUM(core_params, "core.dwf_policy", dwf_policy, dwf_policy_names),
    PB_ENUM(core_params, "core.dwf_rf", dwf_rf, dwf_rf_names),
    PB_ENUM(core_params, "core.dwf_pdpri_count", dwf_pdpri_count, dwf_pd_names),
    PB_ENUM(core_params, "core.dwf_las_merge", dwf_las_merge, dwf_merge_names),
    PB_ENUM(core_params, "core.dwf_bank_cost", dwf_bank_cost, dwf_bank_names),
    PB_ENUM(core_params, "core.dwf_home_lane", dwf_home_lane, dwf_home_names),
    PB_ENUM(core_params, "core.dwf_swizzle_map", dwf_swizzle_map, dwf_swz_names),
    PB_ENUM(core_params, "core.dwf_bank_place", dwf_bank_place, dwf_place_names),
    PB_ENUM(core_params, "core.dwf_barrier_lut", dwf_barrier_lut, dwf_bar_names),
    PB_ENUM(core_params, "core.dwf_heap_tie", dwf_heap_tie, dwf_tie_names),
    B(dwf_swizzle), U(dwf_pool_entries), U(dwf_lut_entries), U(dwf_lut_assoc), U(dwf_lut_lookups),
    U(dwf_heap_entries), U(dwf_mheap_lut_entries), U(dwf_mheap_lut_assoc), U(dwf_heap_ports),
    U(dws_wst_entries), U(dws_slots), U(dws_block_limit), B(dws_branch_split), B(dws_nested_split), B(dws_loop_split), B(dws_pc_merge), B(dws_pc_merge_resume),
    B(dws_branch_limited), B(dws_ready_queue), PB_ENUM(core_params, "core.dws_mem_split", dws_mem_split, dws_mem_names),
    U(dws_slip_limit), PB(core_params, "core.dws_slip_interval", dws_slip_interval, PF_U64), U(dws_slip_mem_pct),
    U(dws_slip_active_pct), U(oracle_dp_cells), U(mimd_pack_memory),
    UNIT(alu, CORE_UNIT_ALU),
    UNIT(sfu, CORE_UNIT_SFU),
    UNIT(ldst, CORE_UNIT_LDST),
    UNIT(smem, CORE_UNIT_SMEM),
    UNIT(branch, CORE_UNIT_BRANCH),
    UNIT(cvt, CORE_UNIT_CVT),
    UNIT(bar, CORE_UNIT_BAR),
    U(sfu_sin_latency), U(sfu_ex2_latency), U(sfu_rsqrt_latency),
    B(units_per_scheduler), B(issue_rotate), U(smem_banks), U(smem_bank_bytes), B(smem_atomic_uniform), B(smem_atomic_serial), U(smem_atomic_replay), B(smem_atomic_half_warps), U(smem_queue), U(l1d_banks), U(l1d_bank_bytes), U(ldst_line_bytes), U(barrier_latency), U(rf_banks),
    U(cond_acc_levels_per_cycle),
};
#undef U
#undef B
#undef UNIT

/* Rows of warp_size threads in the `key` threads (large warps, TBC blocks);
 * an error when the policy that uses it (`used`) cannot have them. */
static bool rows_of(const config *c, const char *key, bool used, unsigned warp_size, unsigned *rows,
                    GError **err)
{
    unsigned threads = (unsigned)cfg_int(c, key);
    *rows = threads / warp_size;
    if (used && (threads % warp_size || *rows == 0 || *rows > 16)) {
        g_set_error(err, SIMTGRID_ERROR, SIMTGRID_ERROR_INPUT,
                    "%s = %u (%s) must be 1 to 16 times core.warp_size = %u (%s)", key, threads,
                    cfg_origin(c, key), warp_size, cfg_origin(c, "core.warp_size"));
        return false;
    }
    return true;
}

/* DWF: one scheduler (one warp pool), the barrel discipline (a thread has at
 * most one instruction in flight, thesis chapter 5), whole LUT sets. */
static bool dwf_params_check(const config *c, const core_params *p, GError **err)
{
    const char *bad = NULL, *key = NULL;
    if (p->discipline != CORE_BARREL)
        bad = "needs core.discipline = barrel", key = "core.discipline";
    else if (p->schedulers != 1)
        bad = "needs core.schedulers = 1 (one warp pool per SM)", key = "core.schedulers";
    else if (p->dwf_lut_entries % p->dwf_lut_assoc)
        bad = "needs core.dwf_lut_entries to be a multiple of core.dwf_lut_assoc", key = "core.dwf_lut_entries";
    else if (p->dwf_mheap_lut_entries % p->dwf_mheap_lut_assoc)
        bad = "needs core.dwf_mheap_lut_entries to be a multiple of core.dwf_mheap_lut_assoc",
        key = "core.dwf_mheap_lut_entries";
    else if (p->dwf_home_lane == DWF_HOME_PIPE && (p->simd_width > p->warp_size || p->warp_size % p->simd_width))
        bad = "needs core.warp_size to be a multiple of core.simd_width for core.dwf_home_lane = pipe",
        key = "core.dwf_home_lane";
    if (!bad)
        return true;
    g_set_error(err, SIMTGRID_ERROR, SIMTGRID_ERROR_INPUT, "core.reconv = dwf (%s) %s (%s)",
                cfg_origin(c, "core.reconv"), bad, cfg_origin(c, key));
    return false;
}

bool core_params_from_config(const config *c, core_params *p, GError **err)
{
    memset(p, 0, sizeof *p);
    params_read(p, binds, G_N_ELEMENTS(binds), NULL, c, NULL);
    /* two-word enums kept as flags by the LWM code */
    p->lwm_relaxed = cfg_is(c, "core.lwm_refetch", "relaxed");
    p->lwm_any = cfg_is(c, "core.lwm_pack", "any");
    p->dwf_heap_infinite = cfg_is(c, "core.dwf_heap", "infinite");
    for (unsigned u = 0; u < CORE_UNIT_KINDS; u++)
        if (p->unit[u].lanes == 0)
            p->unit[u].lanes = p->simd_width;
    unsigned sfu = p->unit[CORE_UNIT_SFU].latency;
    if (p->sfu_sin_latency == 0)
        p->sfu_sin_latency = sfu;
    if (p->sfu_ex2_latency == 0)
        p->sfu_ex2_latency = sfu;
    if (p->sfu_rsqrt_latency == 0)
        p->sfu_rsqrt_latency = sfu;
    unsigned levels = 0;   /* ceil(log2(warp size)): the adder tree's depth */
    while ((1u << levels) < p->warp_size)
        levels++;
    unsigned per_cycle = p->cond_acc_levels_per_cycle;
    p->scan_cycles = per_cycle ? (levels + per_cycle - 1) / per_cycle : 0;
    if (p->one_cta_at_a_time)
        p->max_ctas = 1;
    /* Thread slots are allocated a whole warp at a time. */
    if (p->max_threads < p->warp_size) {
        g_set_error(err, SIMTGRID_ERROR, SIMTGRID_ERROR_INPUT,
                    "core.max_threads = %u (%s) is smaller than core.warp_size = %u (%s): "
                    "no warp fits an SM",
                    p->max_threads, cfg_origin(c, "core.max_threads"), p->warp_size,
                    cfg_origin(c, "core.warp_size"));
        return false;
    }
    /* Large warps and TBC blocks: rows of warp_size threads, at most 16 (the
     * wide stack, pdom_wide.h); barrel only (no per-row scoreboard). */
    bool lwm = !strcmp(p->reconv->name, "lwm"), tbc = !strcmp(p->reconv->name, "tbc");
    if (!rows_of(c, "core.large_warp_threads", lwm, p->warp_size, &p->lw_rows, err) ||
        !rows_of(c, "core.tbc_block_threads", tbc, p->warp_size, &p->tbc_rows, err))
        return false;
    bool dwf = !strcmp(p->reconv->name, "dwf");
    if (dwf && !dwf_params_check(c, p, err))
        return false;
    if (p->dws_slots == 0)
        p->dws_slots = 2 * p->max_warps;   /* twice Conv's slots (DWS paper, section 3.3) */
    bool dws = !strcmp(p->reconv->name, "dws");
    if ((lwm || tbc || dws) && p->discipline != CORE_BARREL) {
        g_set_error(err, SIMTGRID_ERROR, SIMTGRID_ERROR_INPUT,
                    "core.reconv = %s (%s) needs core.discipline = barrel (%s)", p->reconv->name,
                    cfg_origin(c, "core.reconv"), cfg_origin(c, "core.discipline"));
        return false;
    }
    return true;
}
