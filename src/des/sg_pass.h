/* The engine's hand-off to the blocks due at one tick (sg_pass.cpp, issue 20). */
#ifndef SIMTGRID_DES_SG_PASS_H
#define SIMTGRID_DES_SG_PASS_H

#include <simgrid/actor.h>

#ifdef __cplusplus
extern "C" {
#endif

/* In one simcall that does not block the caller: resumes the suspended
 * actors run[0..n). SimGrid runs them in that order in its next
 * scheduling sub-round, each switching straight to the next as it blocks,
 * and the caller after them. */
void des_sg_resume(sg_actor_t const *run, unsigned n);

#ifdef __cplusplus
}
#endif

#endif
