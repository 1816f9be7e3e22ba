/* A launch of an Accel-Sim kernelslist.g (docs/traces.md): one launch per
 * listed trace, named and chained as worked out below, with each trace's
 * grid and block from its header; memcpy lines skipped; the errors. */
#include "scen_test_util.h"
#include "simtgrid/scenario.h"

#define HDR(grid, block) "-kernel name = k\n-grid dim = " grid "\n-block dim = " block "\n" \
                         "-accelsim tracer version = 4\n"

/* dir with kernel-1 (grid 4, block 256), kernel-2 (grid 2x3, block 32x2),
 * a kernelslist.g of both with copies around them, and the model. */
static char *fixture(void)
{
    char *d = tmp_dir();
    g_free(write_file(d, "kernel-1.traceg", HDR("(4,1,1)", "(256,1,1)") "#BEGIN_TB\n"));
    g_free(write_file(d, "kernel-2.traceg", HDR("(2,3,1)", "(32,2,1)")));
    g_free(write_file(d, "kernelslist.g", "MemcpyHtoD,0x10000000,4000\nkernel-1.traceg\n"
                                           "MemcpyHtoD,0x10001000,4000\nkernel-2.traceg\n"
                                           "MemcpyDtoH,0x10001000,4000\n"));
    char *model = src_path("models/test/base.ini");
    char *m = g_strdup_printf("[model]\ninclude = %s\n", model);
    g_free(write_file(d, "m.ini", m));
    g_free(m), g_free(model);
    return d;
}

static scenario *load(const char *d, const char *launches, GError **e)
{
    char *text = g_strdup_printf("[scenario]\nmodel = m.ini\nname = t\n%s", launches);
    char *p = write_file(d, "s.ini", text);
    scenario *s = scenario_load(p, NULL, e);
    g_free(text), g_free(p);
    return s;
}

static void assert_dims(const uint32_t *got, uint32_t x, uint32_t y, uint32_t z)
{
    cr_assert(got[0] == x && got[1] == y && got[2] == z, "(%u,%u,%u), expected (%u,%u,%u)", got[0], got[1],
              got[2], x, y, z);
}

Test(klist, one_launch_per_kernel_chained)
{
    char *d = fixture();
    GError *e = NULL;
    /* app: start 100 on SMs 0-1; post waits for app: for its last kernel. */
    scenario *s = load(d, "[set]\ngpu.sms = 2\n[launch.app]\nkernel = kernelslist.g\nsms = 0-1\nstart = 100\nargs = 7\n"
                          "[launch.post]\nkernel = kernel-1.traceg\ngrid = 4\nblock = 256\nafter = app\n", &e);
    cr_assert_not_null(s, "%s", e ? e->message : "");
    cr_assert_eq(s->nlaunches, 3);
    const launch *a1 = &s->launches[0], *a2 = &s->launches[1], *post = &s->launches[2];
    cr_assert_str_eq(a1->name, "app-1");
    cr_assert_str_eq(a2->name, "app-2");
    cr_assert_str_eq(post->name, "post");
    char *k1 = g_build_filename(d, "kernel-1.traceg", NULL), *k2 = g_build_filename(d, "kernel-2.traceg", NULL);
    cr_assert_str_eq(a1->kernel, k1);
    cr_assert_str_eq(a2->kernel, k2);
    assert_dims(a1->grid, 4, 1, 1);
    assert_dims(a1->block, 256, 1, 1);
    assert_dims(a2->grid, 2, 3, 1);
    assert_dims(a2->block, 32, 2, 1);
    cr_assert_eq(a1->start, 100);
    cr_assert_null(a1->after);
    cr_assert_str_eq(a2->after, "app-1");
    cr_assert_str_eq(post->after, "app-2");
    for (unsigned i = 0; i < 2; i++) {
        const launch *l = &s->launches[i];
        cr_assert(l->nsms == 2 && l->sms[0] == 0 && l->sms[1] == 1 && l->sm_first == 0 && l->sm_last == 1);
        cr_assert(l->nargs == 1 && l->args[0] == 7);
    }
    scenario_free(s);
    g_free(k1), g_free(k2);
    rm_tree(d);
    g_free(d);
}

Test(klist, errors)
{
    char *d = fixture();
    GError *e = NULL;
    char *s_ini = g_build_filename(d, "s.ini", NULL), *list = g_build_filename(d, "kernelslist.g", NULL);
    /* grid given: line 6 of s.ini ([scenario] 3 lines, [launch.a] at 4). */
    char *want = g_strdup_printf("%s:6: [launch.a] key 'grid': a kernelslist.g launch takes each kernel's grid "
                                 "and block from its trace's header: leave 'grid' out", s_ini);
    scenario *s = load(d, "[launch.a]\nkernel = kernelslist.g\ngrid = 4\n", &e);
    assert_error(s != NULL, e, want);
    g_free(want);
    /* A name of the expansion taken. */
    want = g_strdup_printf("%s:5: [launch.a] key 'kernel': its kernel 2 would be launch 'a-2', the name of "
                           "[launch.a-2]: rename one", s_ini);
    s = load(d, "[launch.a]\nkernel = kernelslist.g\n[launch.a-2]\nkernel = kernel-1.traceg\ngrid = 4\nblock = 256\n",
             &e);
    assert_error(s != NULL, e, want);
    g_free(want);
    /* A listed file without a header's grid: kernel-3.traceg:1. */
    g_free(write_file(d, "bad/kernelslist.g", "kernel-3.traceg\n"));
    g_free(write_file(d, "bad/kernel-3.traceg", "-block dim = (32,1,1)\n"));
    char *k3 = g_build_filename(d, "bad", "kernel-3.traceg", NULL);
    want = g_strdup_printf("%s:5: [launch.a] key 'kernel': %s:2: the header lacks '-grid dim' or '-block dim'",
                           s_ini, k3);
    s = load(d, "[launch.a]\nkernel = bad/kernelslist.g\n", &e);
    assert_error(s != NULL, e, want);
    g_free(want), g_free(k3);
    /* A list of copies only. */
    g_free(write_file(d, "none/kernelslist.g", "MemcpyHtoD,0x10000000,4\n"));
    char *none = g_build_filename(d, "none", "kernelslist.g", NULL);
    want = g_strdup_printf("%s:5: [launch.a] key 'kernel': %s lists no kernel", s_ini, none);
    s = load(d, "[launch.a]\nkernel = none/kernelslist.g\n", &e);
    assert_error(s != NULL, e, want);
    g_free(want), g_free(none);
    g_free(s_ini), g_free(list);
    rm_tree(d);
    g_free(d);
}
