/* The engine's hand-off to the blocks due at one tick (issue 20), the one
 * C++ file of the project: SimGrid's C API resumes one actor per simcall,
 * and each simcall that answers its caller costs a scheduling sub-round
 * of SimGrid in which the resumed actor runs before the caller goes on, so
 * the blocks due at a tick could only run one sub-round each. Its public
 * C++ kernel interface (simcall_answered: simgrid/simix.hpp, from SimGrid
 * 3.36 on simgrid/simcall.hpp) runs a
 * function in SimGrid's kernel (maestro) in one simcall; there, resuming an
 * actor only appends it to the list SimGrid runs next, in order, switching
 * from each actor straight to the next as it blocks. */
#include <glib.h>
#if __has_include(<simgrid/simcall.hpp>)
#include <simgrid/simcall.hpp>   /* SimGrid 3.36 and later */
#else
#include <simgrid/simix.hpp>
#endif

#include "des/sg_pass.h"

void des_sg_resume(sg_actor_t const *run, unsigned n)
{
    simgrid::kernel::actor::simcall_answered([run, n] {
        for (unsigned i = 0; i < n; i++) {
            /* Resuming an actor that is not suspended does nothing: that
             * block would lose its turn. */
            if (!sg_actor_is_suspended(run[i]))
                g_error("des: %s was given a turn while not waiting for one", sg_actor_get_name(run[i]));
            sg_actor_resume(run[i]);
        }
    });
}
