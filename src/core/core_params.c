/* Reading the core.* parameters into a core_params. */
#include <string.h>

#include "simtgrid/core.h"

static const char *const unit_key[CORE_UNIT_KINDS] = {"alu", "sfu", "ldst", "smem", "branch", "cvt"};

bool core_params_from_config(const config *c, core_params *p, GError **err)
{
    p->warp_size = (unsigned)cfg_int(c, "core.warp_size");
    p->simd_width = (unsigned)cfg_int(c, "core.simd_width");
    p->max_warps = (unsigned)cfg_int(c, "core.max_warps");
    p->max_threads = (unsigned)cfg_int(c, "core.max_threads");
    p->max_ctas = (unsigned)cfg_int(c, "core.max_ctas");
    p->regs = (unsigned)cfg_int(c, "core.regs");
    p->smem_bytes = (unsigned)cfg_int(c, "core.smem_bytes");
    p->one_cta_at_a_time = cfg_bool(c, "core.one_cta_at_a_time");
    p->cta_launch_latency = (unsigned)cfg_int(c, "core.cta_launch_latency");
    p->schedulers = (unsigned)cfg_int(c, "core.schedulers");
    p->issue_width = (unsigned)cfg_int(c, "core.issue_width");
    p->scheduler = core_policy("core.scheduler", cfg_str(c, "core.scheduler"));
    p->fetch_group = (unsigned)cfg_int(c, "core.fetch_group");
    p->two_level_nofetch = cfg_is(c, "core.2lev_trigger", "nofetch");
    p->two_level_timeout = (uint64_t)cfg_int(c, "core.2lev_timeout");
    p->discipline = cfg_is(c, "core.discipline", "scoreboard") ? CORE_SCOREBOARD : CORE_BARREL;
    p->refetch_latency = (unsigned)cfg_int(c, "core.refetch_latency");
    p->pipeline_depth = (unsigned)cfg_int(c, "core.pipeline_depth");
    p->reconv = core_policy("core.reconv", cfg_str(c, "core.reconv"));
    p->lwm_relaxed = cfg_is(c, "core.lwm_refetch", "relaxed");
    p->lwm_jump_opt = cfg_bool(c, "core.lwm_jump_opt");
    p->lwm_memdiv_opt = cfg_bool(c, "core.lwm_memdiv_opt");
    p->lwm_pred_pack = cfg_bool(c, "core.lwm_pred_pack");
    p->lwm_any = cfg_is(c, "core.lwm_pack", "any");
    p->mem_pending_per_warp = (unsigned)cfg_int(c, "core.mem_pending_per_warp");
    p->wait_for_stores = cfg_bool(c, "core.wait_for_stores");
    for (unsigned u = 0; u < CORE_UNIT_KINDS; u++) {
        char key[64];
        g_snprintf(key, sizeof key, "core.%s_units", unit_key[u]);
        p->unit[u].count = (unsigned)cfg_int(c, key);
        g_snprintf(key, sizeof key, "core.%s_lanes", unit_key[u]);
        p->unit[u].lanes = (unsigned)cfg_int(c, key);
        if (p->unit[u].lanes == 0)
            p->unit[u].lanes = p->simd_width;
        g_snprintf(key, sizeof key, "core.%s_latency", unit_key[u]);
        p->unit[u].latency = (unsigned)cfg_int(c, key);
        g_snprintf(key, sizeof key, "core.%s_ii", unit_key[u]);
        p->unit[u].ii = (unsigned)cfg_int(c, key);
    }
    unsigned sfu = p->unit[CORE_UNIT_SFU].latency;
    p->sfu_sin_latency = (unsigned)cfg_int(c, "core.sfu_sin_latency");
    p->sfu_ex2_latency = (unsigned)cfg_int(c, "core.sfu_ex2_latency");
    p->sfu_rsqrt_latency = (unsigned)cfg_int(c, "core.sfu_rsqrt_latency");
    if (p->sfu_sin_latency == 0)
        p->sfu_sin_latency = sfu;
    if (p->sfu_ex2_latency == 0)
        p->sfu_ex2_latency = sfu;
    if (p->sfu_rsqrt_latency == 0)
        p->sfu_rsqrt_latency = sfu;
    p->units_per_scheduler = cfg_bool(c, "core.units_per_scheduler");
    p->smem_banks = (unsigned)cfg_int(c, "core.smem_banks");
    p->smem_bank_bytes = (unsigned)cfg_int(c, "core.smem_bank_bytes");
    p->barrier_latency = (unsigned)cfg_int(c, "core.barrier_latency");
    p->rf_banks = (unsigned)cfg_int(c, "core.rf_banks");
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
    /* Large warps: rows of warp_size threads, at most 16 (the wide stack,
     * pdom_wide.h); barrel only (no per-row scoreboard). */
    bool lwm = !strcmp(p->reconv->name, "lwm");
    const char *key = "core.large_warp_threads";
    unsigned threads = (unsigned)cfg_int(c, key), rows = threads / p->warp_size;
    p->lw_rows = rows;
    if (lwm && (threads % p->warp_size || rows == 0 || rows > 16)) {
        g_set_error(err, SIMTGRID_ERROR, SIMTGRID_ERROR_INPUT,
                    "%s = %u (%s) must be 1 to 16 times core.warp_size = %u (%s)", key, threads,
                    cfg_origin(c, key), p->warp_size, cfg_origin(c, "core.warp_size"));
        return false;
    }
    if (lwm && p->discipline != CORE_BARREL) {
        g_set_error(err, SIMTGRID_ERROR, SIMTGRID_ERROR_INPUT,
                    "core.reconv = %s (%s) needs core.discipline = barrel (%s)", p->reconv->name,
                    cfg_origin(c, "core.reconv"), cfg_origin(c, "core.discipline"));
        return false;
    }
    return true;
}
