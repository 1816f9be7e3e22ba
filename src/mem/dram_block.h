/* The DRAM channel actor: one memory controller (memctrl.h) on ports.
 *
 * Requests (mem_pkt, op MEM_LOAD or MEM_STORE, addr, bytes, flags) arrive
 * from the L2 slices of its partition, one input port each. A read's reply
 * (the same packet with reply = 1) goes back on that slice's output port at
 * the DRAM cycle its last data beat finished; writes are not answered. The
 * actor wakes only at the controller's next event or a delivery. */
#ifndef SIMTGRID_MEM_DRAM_BLOCK_H
#define SIMTGRID_MEM_DRAM_BLOCK_H

#include "mem/memctrl.h"
#include "simtgrid/des.h"
#include "simtgrid/mempkt.h"

typedef struct dram_block dram_block;

/* `map` and `p` must outlive the block. `name` is the statistics block
 * ("part0.dram"). `ports` is the number of slices it serves. */
dram_block *dram_block_new(des_engine *e, const char *name, const dram_params *p, const addrmap *map,
                           unsigned channel, unsigned ports, const des_clock *dram_clk, stats *st);
des_actor *dram_block_actor(dram_block *d);
/* Slice i's ports: requests in, replies out (made by the chip builder,
 * src/gpu/gpu_ports.c). */
void dram_block_connect(dram_block *d, unsigned i, des_port *in, des_port *out);
void dram_block_finish(dram_block *d, des_time end);
void dram_block_free(dram_block *d);

#endif
