/* The ideal memory block: answers every warp_mem_req (memport.h) after a
 * fixed latency, with a bandwidth limit, in FIFO order. It stands in for the
 * LD/ST unit + caches + DRAM in SM tests and in "ideal memory" models.
 *
 * Timing (core cycles; one FIFO pipe shared by every connected SM):
 *   a request arriving at cycle a that touches k distinct 128 B lines enters
 *   the pipe at s = max(a, end of the previous request's pipe time) and holds
 *   it for n = max(1, ceil(k / lines_per_cycle)) cycles; its response reaches
 *   the SM at  s + (n - 1) + latency - req_port_latency.
 * So an uncontended one-line request sent by the SM at cycle c is answered at
 * exactly c + latency (both port hops included), and a 32-line request at
 * 1 line/cycle at c + latency + 31. Requests flagged MEM_NO_REPLY take pipe
 * time but are not answered. Functional data is handled by the SM at issue;
 * this block only times. */
#ifndef SIMTGRID_IDEAL_MEM_H
#define SIMTGRID_IDEAL_MEM_H

#include "simtgrid/des.h"
#include "simtgrid/stats.h"

typedef struct ideal_mem ideal_mem;

/* `latency` >= 2 core cycles (mem.ideal_latency), `lines_per_cycle` > 0
 * (mem.ideal_lines_per_cycle). `name` is the statistics block ("mem"). */
ideal_mem *ideal_mem_new(des_engine *e, const char *name, const des_clock *core,
                         unsigned latency, double lines_per_cycle, stats *st);
des_actor *ideal_mem_actor(ideal_mem *m);
/* Attach one SM's pair of ports (request in, response out; both created with
 * this block's actor as receiver / sender). The request latency plus the
 * response latency must not exceed `latency` cycles; ideal_mem_port_latency
 * gives the split the builders use (1 cycle in, latency - 1 back, so the SM's
 * lookahead is as long as possible). Returns false on a bad pairing. */
bool ideal_mem_connect(ideal_mem *m, des_port *req_in, des_port *resp_out);
void ideal_mem_port_latency(unsigned latency, unsigned *req_cycles, unsigned *resp_cycles);
/* Slots for a response port of `resp_cycles` latency that never holds a
 * response back: the block sends at most one response per cycle per port,
 * and a slot is reusable one latency after the SM pops it, so a slot is
 * busy for 2 x resp_cycles cycles at most. (A smaller port delays
 * responses: back-pressure the ideal memory is not meant to have.) */
unsigned ideal_mem_resp_capacity(unsigned resp_cycles);
void ideal_mem_free(ideal_mem *m);

#endif
