/* Helpers for the generator tests: write a profile to a temporary file,
 * generate its kernel, load it, and execute it (one thread alone, one warp
 * in lockstep, or the whole launch with the reference runner). */
#ifndef GEN_TEST_UTIL_H
#define GEN_TEST_UTIL_H

#include <criterion/criterion.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "simtgrid/gen.h"
#include "simtgrid/isa.h"

/* Writes `text` to a fresh temporary "name"; returns the path (g_free it). */
static inline char *write_profile(const char *name, const char *text)
{
    char *dir = g_dir_make_tmp("simtgrid-gen-XXXXXX", NULL);
    cr_assert_not_null(dir);
    char *path = g_build_filename(dir, name, NULL);
    cr_assert(g_file_set_contents(path, text, -1, NULL));
    g_free(dir);
    return path;
}

static inline void remove_profile(char *path)
{
    char *dir = g_path_get_dirname(path);
    g_remove(path);
    g_rmdir(dir);
    g_free(dir);
    g_free(path);
}

static inline gen_profile *profile_ok(const char *text)
{
    char *path = write_profile("p.ini", text);
    GError *e = NULL;
    gen_profile *p = gen_profile_load(path, &e);
    cr_assert_not_null(p, "profile failed: %s", e ? e->message : "?");
    remove_profile(path);
    return p;
}

/* The kernel text of a profile at a seed (g_free it). */
static inline char *gen_text(const char *profile, uint64_t seed)
{
    gen_profile *p = profile_ok(profile);
    char *t = gen_kernel_text(p, seed);
    gen_profile_free(p);
    return t;
}

static inline isa_program *gen_load(const char *profile, uint64_t seed)
{
    char *t = gen_text(profile, seed);
    GError *e = NULL;
    isa_program *k = isa_program_parse(t, "gen.sasm", &e);
    cr_assert_not_null(k, "generated kernel does not load: %s\n%s", e ? e->message : "?", t);
    g_free(t);
    return k;
}

static inline uint32_t label_pc(const isa_program *k, const char *label)
{
    for (uint32_t pc = 0; pc < isa_program_ninst(k); pc++) {
        const char *l = isa_program_label_at(k, pc);
        if (l && !strcmp(l, label))
            return pc;
    }
    cr_assert_fail("no label %s", label);
    return 0;
}

static inline uint64_t symbol(const isa_program *k, const char *name)
{
    uint64_t v = 0;
    cr_assert(isa_program_symbol(k, name, &v), "no symbol %s", name);
    return v;
}

/* One launch, not run: memory image (seed 1) and a CTA to execute by hand. */
typedef struct gen_launch {
    isa_program *k;
    memimg *mem;
    isa_launch launch;
    isa_cta *cta;
} gen_launch;

static inline void launch_setup(gen_launch *g, isa_program *k, uint32_t grid, uint32_t block)
{
    GError *e = NULL;
    memset(g, 0, sizeof *g);
    g->k = k;
    g->mem = isa_program_new_memimg(k, 1, &e);
    cr_assert_not_null(g->mem, "%s", e ? e->message : "?");
    uint32_t gd[3] = {grid, 1, 1}, bd[3] = {block, 1, 1};
    uint64_t params[1] = {0};
    cr_assert(isa_launch_init(&g->launch, k, g->mem, gd, bd, 32, params, 0, &e), "%s",
              e ? e->message : "?");
}

static inline void launch_free(gen_launch *g)
{
    if (g->cta)
        isa_cta_free(g->cta);
    memimg_free(g->mem);
    isa_program_free(g->k);
}

/* Runs the whole launch with the reference runner. */
static inline void launch_run(gen_launch *g)
{
    GError *e = NULL;
    isa_run_stats st = {0};
    cr_assert(isa_run_launch(&g->launch, 100000000, &st, &e), "run failed: %s", e ? e->message : "?");
}

/* Runs thread `t` alone to its exit; counts[pc] += 1 every time it reaches
 * pc (guard true or not), taken[pc] += 1 for every taken branch. */
static inline void run_thread(const isa_program *k, isa_thread *t, uint64_t *counts, uint64_t *taken)
{
    isa_thread *lanes[1] = {t};
    isa_exec_out o;
    uint32_t pc = 0;
    for (uint64_t steps = 0; pc != ISA_PC_EXIT; steps++) {
        cr_assert_lt(steps, 10000000, "thread runs away");
        isa_exec(k, pc, lanes, 1, &o);
        counts[pc]++;
        if (o.taken & 1)
            taken[pc]++;
        pc = isa_lane_next_pc(&o, pc, 0);
    }
}

/* Runs the lanes in `mask` of a warp together from `pc` while they agree on
 * the next pc; calls `each` after every issue. Returns the pc where they
 * split (the issue's output in *split) or ISA_PC_EXIT when they all left. */
typedef void (*issue_fn)(uint32_t pc, const isa_exec_out *o, void *arg);
static inline uint32_t run_warp(const isa_program *k, isa_thread *const *lanes, uint32_t mask,
                                uint32_t pc, issue_fn each, void *arg, isa_exec_out *split)
{
    isa_exec_out o;
    for (uint64_t steps = 0; pc != ISA_PC_EXIT; steps++) {
        cr_assert_lt(steps, 10000000, "warp runs away");
        isa_exec(k, pc, lanes, mask, &o);
        if (each)
            each(pc, &o, arg);
        uint32_t next = ISA_PC_EXIT;
        bool first = true;
        for (unsigned l = 0; l < 32; l++) {
            if (!(mask >> l & 1))
                continue;
            uint32_t n = isa_lane_next_pc(&o, pc, l);
            if (!first && n != next) {
                *split = o;
                return pc;
            }
            next = n, first = false;
        }
        pc = next;
    }
    return ISA_PC_EXIT;
}

#endif
