/* The messages between the CTA dispatcher and the SMs, on their ports
 * (dispatcher.c makes the ports; sm_cta.c receives starts and reports ends),
 * and the launch state they point to. Only these cross between the two
 * actors: the dispatcher needs nothing else of the SM's internals. */
#ifndef SIMTGRID_CORE_CTA_MSG_H
#define SIMTGRID_CORE_CTA_MSG_H

#include <stdint.h>

#include "simtgrid/atrace.h"
#include "simtgrid/core.h"

#define NEVER_CYCLE UINT64_MAX

/* Launch state shared by the dispatcher and the SMs (owned by the dispatcher). */
typedef struct core_launch_rt {
    unsigned index;
    char *name;
    isa_launch il;
    unsigned nwarps;              /* warps per CTA */
    unsigned threads_alloc;       /* nwarps * warp_size */
    unsigned regs, smem;          /* per CTA */
    const atrace_kernel *trace;   /* trace-driven warps, or NULL */
} core_launch_rt;

/* Dispatcher -> SM: start this CTA. SM -> dispatcher: it finished. */
typedef struct cta_start_msg {
    const core_launch_rt *launch;
    uint64_t cta;
} cta_start_msg;

typedef struct cta_done_msg {
    uint32_t launch;
    uint32_t sm;
    uint64_t cta;
    uint64_t start_cycle, end_cycle;
} cta_done_msg;

/* The dispatcher hands SM `s` its ends of the two ports (sm.c). */
void sm_connect_dispatch(sm *s, des_port *cta_in, des_port *done_out);
/* The dispatcher's count of SMs holding CTAs (sent, resident or with their
 * report on its way back): an SM that is alone in it may run ahead of the
 * other SMs (sm.c). */
void sm_share_busy_count(sm *s, const unsigned *busy_sms);

#endif
