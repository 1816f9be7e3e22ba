/* Helpers for the isa tests: load a kernel from text or from workloads/,
 * run it with the reference runner, read results back. */
#ifndef ISA_TEST_UTIL_H
#define ISA_TEST_UTIL_H

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "simtgrid/isa.h"

static inline isa_program *load_ok(const char *text)
{
    GError *e = NULL;
    isa_program *p = isa_program_parse(text, "t.sasm", &e);
    cr_assert_not_null(p, "parse failed: %s", e ? e->message : "?");
    return p;
}

/* Parses text that must fail; returns the message (g_free it). */
static inline char *load_err(const char *text)
{
    GError *e = NULL;
    isa_program *p = isa_program_parse(text, "t.sasm", &e);
    cr_assert_null(p, "expected a parse error for:\n%s", text);
    cr_assert_not_null(e);
    cr_assert_eq(e->domain, ISA_ERROR);
    cr_assert_eq(e->code, ISA_ERROR_INPUT);
    char *m = g_strdup(e->message);
    g_error_free(e);
    return m;
}

/* Asserts that `text` fails with a message containing every fragment. */
#define expect_err(text, ...)                                                          \
    do {                                                                               \
        char *m_ = load_err(text);                                                     \
        const char *frags_[] = {__VA_ARGS__};                                          \
        for (size_t i_ = 0; i_ < sizeof frags_ / sizeof frags_[0]; i_++)               \
            cr_expect(strstr(m_, frags_[i_]) != NULL, "message '%s' lacks '%s'", m_,     \
                      frags_[i_]);                                                     \
        g_free(m_);                                                                    \
    } while (0)

static inline isa_program *load_kernel_file(const char *name)
{
    const char *root = getenv("SIMTGRID_SRC");
    char *path = g_strdup_printf("%s/workloads/kernels/%s", root ? root : ".", name);
    GError *e = NULL;
    isa_program *p = isa_program_load_file(path, &e);
    cr_assert_not_null(p, "load %s failed: %s", path, e ? e->message : "?");
    g_free(path);
    return p;
}

typedef struct test_run {
    isa_program *prog;
    memimg *mem;
    isa_launch launch;
    isa_run_stats st;
} test_run;

/* Runs a 1-D launch (grid x block threads, warp size 32) to completion. */
static inline void run_1d(test_run *r, isa_program *p, uint32_t grid, uint32_t block,
                          const uint64_t *params, unsigned nparams)
{
    GError *e = NULL;
    memset(r, 0, sizeof *r);
    r->prog = p;
    r->mem = isa_program_new_memimg(p, 1, &e);
    cr_assert_not_null(r->mem, "%s", e ? e->message : "?");
    uint32_t g[3] = {grid, 1, 1}, b[3] = {block, 1, 1};
    cr_assert(isa_launch_init(&r->launch, p, r->mem, g, b, 32, params, nparams, &e), "%s",
              e ? e->message : "?");
    cr_assert(isa_run_launch(&r->launch, 100000000, &r->st, &e), "run failed: %s", e ? e->message : "?");
}

static inline void run_free(test_run *r)
{
    memimg_free(r->mem);
    isa_program_free(r->prog);
}

static inline uint64_t sym(const isa_program *p, const char *name)
{
    uint64_t v = 0;
    cr_assert(isa_program_symbol(p, name, &v), "no symbol %s", name);
    return v;
}

static inline uint32_t rd_u32(test_run *r, const char *array, uint64_t i)
{
    return (uint32_t)memimg_read(r->mem, sym(r->prog, array) + 4 * i, 4);
}

static inline float rd_f32(test_run *r, const char *array, uint64_t i)
{
    uint32_t u = rd_u32(r, array, i);
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* A single CTA of `n` threads for executing single instructions by hand. */
typedef struct test_cta {
    isa_program *prog;
    memimg *mem;
    isa_launch launch;
    isa_cta *cta;
    isa_thread *lanes[32];
} test_cta;

static inline void cta_setup(test_cta *c, const char *text, uint32_t n)
{
    GError *e = NULL;
    memset(c, 0, sizeof *c);
    c->prog = load_ok(text);
    c->mem = isa_program_new_memimg(c->prog, 1, &e);
    cr_assert_not_null(c->mem);
    uint32_t g[3] = {1, 1, 1}, b[3] = {n, 1, 1};
    uint64_t params[ISA_MAX_PARAMS] = {0};
    cr_assert(isa_launch_init(&c->launch, c->prog, c->mem, g, b, 32, params,
                              isa_program_nparams(c->prog), &e), "%s", e ? e->message : "?");
    c->cta = isa_cta_new(&c->launch, 0);
    for (uint32_t i = 0; i < n && i < 32; i++) c->lanes[i] = isa_cta_thread(c->cta, i);
}

static inline void cta_free(test_cta *c)
{
    isa_cta_free(c->cta);
    memimg_free(c->mem);
    isa_program_free(c->prog);
}

/* Executes pc for `mask` lanes. */
static inline void cta_exec(test_cta *c, uint32_t pc, uint32_t mask, isa_exec_out *o)
{
    isa_exec(c->prog, pc, c->lanes, mask, o);
}

static inline float as_f32(uint64_t v)
{
    uint32_t u = (uint32_t)v;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static inline uint64_t of_float(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

#endif
