/* Crossbar parameters from a model (kept apart from xbar.c so the crossbar
 * itself can be built and tested from a plain struct). */
#include "simtgrid/config.h"
#include "simtgrid/xbar.h"

void xbar_params_from_config(xbar_params *p, const config *c)
{
    p->flit_bytes = (unsigned)cfg_int(c, "icnt.flit_bytes");
    p->flits_per_cycle = (unsigned)cfg_int(c, "icnt.flits_per_cycle");
    p->header_bytes = (unsigned)cfg_int(c, "icnt.header_bytes");
    p->latency = (unsigned)cfg_int(c, "icnt.latency");
    p->input_buffer = (unsigned)cfg_int(c, "icnt.input_buffer");
    p->output_buffer = (unsigned)cfg_int(c, "icnt.output_buffer");
    p->arbiter = (enum xbar_arbiter)cfg_enum(c, "icnt.arbiter");
    p->iterations = (unsigned)cfg_int(c, "icnt.iterations");
    p->seed = (uint64_t)cfg_int(c, "sim.seed");
}
