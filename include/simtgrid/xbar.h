/* Crossbar: one direction of the interconnect between SMs and memory
 * partitions (a chip has two: requests and replies).
 *
 * Packets (mem_pkt) arrive on one des_port per input and are sorted into
 * virtual output queues (one per input and output, sharing the input's
 * buffer of `input_buffer` packets), so a packet for a busy output does not
 * block one behind it for a free output. Every interconnect cycle the
 * arbiter matches inputs to outputs; a matched packet of F flits holds its
 * input and its output for ceil(F / flits_per_cycle) cycles, then goes into
 * the output's des_port (capacity output_buffer, latency `latency` cycles).
 * A full output port stalls that output: back-pressure reaches the inputs
 * through their buffers and ports.
 *
 * With data_bytes_per_cycle set, a packet of P payload bytes holds them
 * max(1, ceil(P / data_bytes_per_cycle)) cycles instead.
 *
 * Zero-load latency from the cycle a packet is delivered to the crossbar:
 * ceil(F / flits_per_cycle) + latency interconnect cycles. */
#ifndef SIMTGRID_XBAR_H
#define SIMTGRID_XBAR_H

#include "simtgrid/des.h"
#include "simtgrid/mempkt.h"
#include "simtgrid/stats.h"

typedef struct config config;

enum xbar_arbiter { XBAR_RR = 0, XBAR_ISLIP = 1, XBAR_PIM = 2 };

typedef struct xbar_params {
    unsigned inputs, outputs;
    unsigned flit_bytes;        /* bytes per flit */
    unsigned flits_per_cycle;   /* per port, per interconnect cycle */
    unsigned header_bytes;      /* bytes on the wire besides the payload */
    unsigned latency;           /* cycles from the end of a transfer to delivery */
    unsigned input_buffer;      /* packets buffered per input (all VOQs) */
    unsigned output_buffer;     /* packets in an output port (in flight or queued) */
    enum xbar_arbiter arbiter;
    unsigned iterations;        /* iSLIP / PIM matching iterations */
    uint64_t seed;              /* PIM's random choices */
    unsigned dst_group;         /* a packet goes to output dst / dst_group (0 or 1: dst);
                                 * the reply network of a chip with clusters of SMs */
    unsigned data_bytes_per_cycle; /* > 0: a packet holds its ports ceil(payload / this)
                                    * cycles (at least 1), the header on its own wires,
                                    * instead of the flit rule; the request network's
                                    * write-data path (icnt.req_data_bytes_per_cycle) */
} xbar_params;

typedef struct xbar xbar;

/* Reads icnt.* parameters. */
void xbar_params_from_config(xbar_params *p, const config *c);
/* `name` is the block path for statistics ("icnt.req"). Its ports are
 * created by the chip builder (src/gpu/gpu_ports.c) and connected here. */
xbar *xbar_new(des_engine *e, const char *name, const xbar_params *p, const des_clock *clk,
               stats *st);
des_actor *xbar_actor(xbar *x);
/* The port input i reads from (its capacity is the input buffer) and the
 * port output o writes to (its latency is the traversal, icnt.latency). */
void xbar_connect_input(xbar *x, unsigned i, des_port *p);
void xbar_connect_output(xbar *x, unsigned o, des_port *p);
/* After the run: derived statistics (utilisation over `end` ticks). */
void xbar_finish(xbar *x, des_time end);
/* Flits a packet occupies on the wire. */
unsigned xbar_flits(const xbar_params *p, const mem_pkt *m);

#endif
