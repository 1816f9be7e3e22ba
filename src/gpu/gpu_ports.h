/* The ports between a chip's blocks, each made here with its capacity and
 * latency and handed to the blocks by their connect calls, so every port's
 * shape is set in one place (docs/architecture.md, "Blocks and ports").
 * The chip builder (chip.c, gpu_hier.c) uses these, and so do the blocks'
 * unit tests for their scripted peers. Latencies are in the clock given. */
#ifndef SIMTGRID_GPU_PORTS_H
#define SIMTGRID_GPU_PORTS_H

#include "mem/dram_block.h"
#include "simtgrid/cluster.h"
#include "simtgrid/core.h"
#include "simtgrid/des.h"
#include "simtgrid/xbar.h"

/* A port from `from` to `to` carrying `msg_size`-byte messages, `cycles`
 * cycles of `clk` long (at least 1). */
des_port *gpu_port(const char *name, size_t msg_size, unsigned capacity, const des_clock *clk,
                   unsigned cycles, des_actor *from, des_actor *to);

/* SM i <-> the CTA dispatcher: CTA starts take core.cta_launch_latency
 * cycles and queue up to max_ctas + 1; CTA ends take 1 cycle. */
void gpu_link_dispatch(dispatcher *d, sm *s, unsigned i, const core_params *p, const des_clock *core);

/* Into crossbar input i (the input buffer, 1 cycle from the sender) and out
 * of output o (the output buffer, icnt.latency cycles of traversal). */
des_port *gpu_link_xbar_in(xbar *x, unsigned i, des_actor *sender, const xbar_params *p,
                           const des_clock *icnt);
des_port *gpu_link_xbar_out(xbar *x, unsigned o, des_actor *receiver, const xbar_params *p,
                            const des_clock *icnt);

/* SM i of a cluster (1 cycle each way; `in_cap` and `out_cap` slots): its
 * requests in (*in, sent by `unit`) and its replies out (*out). */
void gpu_link_cluster_sm(noc_cluster *c, unsigned i, des_actor *unit, unsigned in_cap, unsigned out_cap,
                         const des_clock *icnt, des_port **in, des_port **out);

/* L2 slice i of a partition <-> its DRAM channel over a link of `link`
 * DRAM cycles each way: requests down (*down), replies up (*up). A link of
 * `link` cycles holds up to `link` packets in flight besides the
 * controller's own buffering (3 requests in, 15 replies out). */
void gpu_link_dram(dram_block *d, unsigned i, des_actor *slice, unsigned link, const des_clock *dram,
                   des_port **down, des_port **up);

#endif
