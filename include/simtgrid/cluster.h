/* A cluster of SMs sharing one port of each crossbar (gpu.sms_per_cluster),
 * as in GPGPU-Sim's SIMT core clusters: the cluster's LD/ST units take
 * turns (round-robin) on the cluster's request-crossbar input, and replies
 * for any of them arrive on the cluster's reply-crossbar output and are
 * handed to their SM (mem_pkt.dst is the SM index; the reply crossbar
 * routes dst / sms_per_cluster to the cluster).
 *
 * Timing, in interconnect cycles: one packet each way per cycle; every
 * port into and out of the cluster has a latency of 1 cycle, so a cluster
 * adds 1 cycle each way over an SM with its own crossbar ports. */
#ifndef SIMTGRID_CLUSTER_H
#define SIMTGRID_CLUSTER_H

#include "simtgrid/des.h"
#include "simtgrid/mempkt.h"
#include "simtgrid/stats.h"

typedef struct noc_cluster noc_cluster;

/* SMs first_sm .. first_sm + nsms - 1. Statistics under `name`. */
noc_cluster *noc_cluster_new(des_engine *e, const char *name, unsigned first_sm, unsigned nsms,
                             const des_clock *icnt, stats *st);
des_actor *noc_cluster_actor(noc_cluster *c);
/* SM i of the cluster (0-based): the port its requests come in on and the
 * port its replies go out on (made by the chip builder, src/gpu/gpu_ports.c). */
void noc_cluster_connect_sm(noc_cluster *c, unsigned i, des_port *in, des_port *out);
/* The crossbar side: requests out (into the request crossbar), replies in. */
void noc_cluster_connect(noc_cluster *c, des_port *to_xbar, des_port *from_xbar);
void noc_cluster_free(noc_cluster *c);

#endif
