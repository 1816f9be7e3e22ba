/* Launch and CTA state: a CTA's threads live in one allocation (header plus
 * registers, fixed stride), its shared memory in another; both are reused
 * across CTAs by isa_cta_reset. */
#include <string.h>

#include "isa_internal.h"

#define ISA_MAX_CTA_THREADS 65536u

bool isa_launch_init(isa_launch *l, const isa_program *p, memimg *mem, const uint32_t grid[3],
                     const uint32_t block[3], unsigned warp_size, const uint64_t *params,
                     unsigned nparams, GError **err)
{
    memset(l, 0, sizeof *l);
    uint64_t threads = 1;
    for (int k = 0; k < 3; k++) {
        if (grid[k] == 0 || block[k] == 0) {
            g_set_error(err, ISA_ERROR, ISA_ERROR_INPUT,
                        "kernel %s: grid and block dimensions must be >= 1 (grid %ux%ux%u, block %ux%ux%u)",
                        p->name, grid[0], grid[1], grid[2], block[0], block[1], block[2]);
            return false;
        }
        threads *= block[k];
    }
    if (threads > ISA_MAX_CTA_THREADS) {
        g_set_error(err, ISA_ERROR, ISA_ERROR_INPUT, "kernel %s: %" G_GUINT64_FORMAT
                    " threads per CTA (at most %u)", p->name, threads, ISA_MAX_CTA_THREADS);
        return false;
    }
    if (warp_size < 1 || warp_size > ISA_MAX_LANES) {
        g_set_error(err, ISA_ERROR, ISA_ERROR_INPUT, "kernel %s: warp size %u (expected 1..%d)", p->name,
                    warp_size, ISA_MAX_LANES);
        return false;
    }
    if (nparams != p->nparams) {
        g_set_error(err, ISA_ERROR, ISA_ERROR_INPUT, "kernel %s: takes %u param%s, %u given", p->name,
                    p->nparams, p->nparams == 1 ? "" : "s", nparams);
        return false;
    }
    l->prog = p;
    l->mem = mem;
    memcpy(l->grid, grid, sizeof l->grid);
    memcpy(l->block, block, sizeof l->block);
    l->warp_size = warp_size;
    l->nparams = nparams;
    if (nparams) memcpy(l->params, params, nparams * sizeof(uint64_t));
    return true;
}

uint64_t isa_launch_ncta(const isa_launch *l)
{
    return (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
}

void isa_cta_reset(isa_cta *c, uint64_t cta_linear)
{
    const isa_launch *L = c->launch;
    c->ctaid[0] = (uint32_t)(cta_linear % L->grid[0]);
    c->ctaid[1] = (uint32_t)(cta_linear / L->grid[0] % L->grid[1]);
    c->ctaid[2] = (uint32_t)(cta_linear / ((uint64_t)L->grid[0] * L->grid[1]));
    c->clock = 0;
    memset(c->thread_mem, 0, (size_t)c->nthreads * c->thread_stride);
    if (c->shared_bytes) memset(c->shared, 0, c->shared_bytes);
    for (uint32_t i = 0; i < c->nthreads; i++) {
        isa_thread *t = isa_cta_thread(c, i);
        t->cta = c;
        t->tid_linear = i;
        t->tid[0] = i % L->block[0];
        t->tid[1] = i / L->block[0] % L->block[1];
        t->tid[2] = i / (L->block[0] * L->block[1]);
    }
}

isa_cta *isa_cta_new(const isa_launch *l, uint64_t cta_linear)
{
    isa_cta *c = g_new0(isa_cta, 1);
    c->launch = l;
    c->nthreads = l->block[0] * l->block[1] * l->block[2];
    c->shared_bytes = l->prog->shared_bytes;
    c->thread_stride = sizeof(isa_thread) + l->prog->nregs * sizeof(uint64_t);
    c->thread_mem = g_malloc((size_t)c->nthreads * c->thread_stride);
    c->shared = c->shared_bytes ? g_malloc(c->shared_bytes) : NULL;
    isa_cta_reset(c, cta_linear);
    return c;
}

void isa_cta_free(isa_cta *c)
{
    if (!c) return;
    g_free(c->thread_mem);
    g_free(c->shared);
    g_free(c);
}
