/* Every port between a chip's blocks (gpu_ports.h). */
#include "gpu/gpu_ports.h"

#include <stdio.h>

#include "core/cta_msg.h"
#include "simtgrid/mempkt.h"

des_port *gpu_port(const char *name, size_t msg_size, unsigned capacity, const des_clock *clk,
                   unsigned cycles, des_actor *from, des_actor *to)
{
    return des_port_new(des_actor_engine(from), name, msg_size, capacity, des_cycles(clk, cycles ? cycles : 1),
                        from, to);
}

void gpu_link_dispatch(dispatcher *d, sm *s, unsigned i, const core_params *p, const des_clock *core)
{
    char name[64];
    snprintf(name, sizeof name, "dispatcher->sm%u", i);
    des_port *to = gpu_port(name, sizeof(cta_start_msg), p->max_ctas + 1, core, p->cta_launch_latency,
                            dispatcher_actor(d), sm_actor(s));
    snprintf(name, sizeof name, "sm%u->dispatcher", i);
    des_port *from = gpu_port(name, sizeof(cta_done_msg), 2 * p->max_ctas + 2, core, 1, sm_actor(s),
                              dispatcher_actor(d));
    dispatcher_connect_sm(d, i, to, from);
    sm_connect_dispatch(s, to, from);
}

des_port *gpu_link_xbar_in(xbar *x, unsigned i, des_actor *sender, const xbar_params *p,
                           const des_clock *icnt)
{
    char name[96];
    snprintf(name, sizeof name, "%s.in%u", des_actor_name(xbar_actor(x)), i);
    des_port *port = gpu_port(name, sizeof(mem_pkt), p->input_buffer, icnt, 1, sender, xbar_actor(x));
    xbar_connect_input(x, i, port);
    return port;
}

des_port *gpu_link_xbar_out(xbar *x, unsigned o, des_actor *receiver, const xbar_params *p,
                            const des_clock *icnt)
{
    char name[96];
    snprintf(name, sizeof name, "%s.out%u", des_actor_name(xbar_actor(x)), o);
    des_port *port = gpu_port(name, sizeof(mem_pkt), p->output_buffer, icnt, p->latency, xbar_actor(x), receiver);
    xbar_connect_output(x, o, port);
    return port;
}

void gpu_link_cluster_sm(noc_cluster *c, unsigned i, des_actor *unit, unsigned in_cap, unsigned out_cap,
                         const des_clock *icnt, des_port **in, des_port **out)
{
    char name[96];
    const char *cn = des_actor_name(noc_cluster_actor(c));
    snprintf(name, sizeof name, "%s.in%u", cn, i);
    *in = gpu_port(name, sizeof(mem_pkt), in_cap, icnt, 1, unit, noc_cluster_actor(c));
    snprintf(name, sizeof name, "%s.out%u", cn, i);
    *out = gpu_port(name, sizeof(mem_pkt), out_cap, icnt, 1, noc_cluster_actor(c), unit);
    noc_cluster_connect_sm(c, i, *in, *out);
}

void gpu_link_dram(dram_block *d, unsigned i, des_actor *slice, unsigned link, const des_clock *dram,
                   des_port **down, des_port **up)
{
    char name[96];
    const char *dn = des_actor_name(dram_block_actor(d));
    snprintf(name, sizeof name, "%s.in%u", dn, i);
    *down = gpu_port(name, sizeof(mem_pkt), 3 + link, dram, link, slice, dram_block_actor(d));
    snprintf(name, sizeof name, "%s.out%u", dn, i);
    *up = gpu_port(name, sizeof(mem_pkt), 15 + link, dram, link, dram_block_actor(d), slice);
    dram_block_connect(d, i, *down, *up);
}
