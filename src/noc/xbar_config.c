/* Crossbar parameters from a model (kept apart from xbar.c so the crossbar
 * itself can be built and tested from a plain struct). */
#include "simtgrid/config.h"
#include "simtgrid/xbar.h"

static const char *const arbiter_names[] = {[XBAR_RR] = "rr", [XBAR_ISLIP] = "islip", [XBAR_PIM] = "pim", NULL};

static const param_bind binds[] = {
    PB(xbar_params, "icnt.flit_bytes", flit_bytes, PF_UNSIGNED),
    PB(xbar_params, "icnt.flits_per_cycle", flits_per_cycle, PF_UNSIGNED),
    PB(xbar_params, "icnt.header_bytes", header_bytes, PF_UNSIGNED),
    PB(xbar_params, "icnt.latency", latency, PF_UNSIGNED),
    PB(xbar_params, "icnt.input_buffer", input_buffer, PF_UNSIGNED),
    PB(xbar_params, "icnt.output_buffer", output_buffer, PF_UNSIGNED),
    PB_ENUM(xbar_params, "icnt.arbiter", arbiter, arbiter_names),
    PB(xbar_params, "icnt.iterations", iterations, PF_UNSIGNED),
    PB(xbar_params, "icnt.req_data_bytes_per_cycle", data_bytes_per_cycle, PF_UNSIGNED),
    PB(xbar_params, "sim.seed", seed, PF_U64),
};

void xbar_params_from_config(xbar_params *p, const config *c)
{
    params_read(p, binds, G_N_ELEMENTS(binds), NULL, c, NULL);
}
