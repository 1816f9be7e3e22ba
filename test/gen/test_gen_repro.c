/* Generator reproducibility: the same profile and seed give the same bytes,
 * another seed gives other code, and every profile in workloads/profiles
 * generates the committed kernel in workloads/profiles/kernels, fits the
 * LWM baseline's register budget and runs to completion under the
 * reference runner. docs/generator.md lists every profile key. */
#include "gen_test_util.h"

static const char mixed[] =
    "[loop]\nshape = data\ntrips = 3\n"
    "[memory]\npattern = gather\nloads = 2\nfootprint = 65536\n"
    "[compute]\nops = 5\nint = 1\nfp = 1\nsfu = 1\n"
    "[branch]\nshape = nested\ncond = biased\nbias = 0.3\n";

Test(gen_repro, same_seed_gives_the_same_bytes)
{
    char *a = gen_text(mixed, 42), *b = gen_text(mixed, 42);
    cr_assert_str_eq(a, b);
    g_free(a);
    g_free(b);
}

/* The code after the header: a different seed must change the instructions
 * and the data seeds, not only the header comment that names the seed. */
static const char *body(const char *text)
{
    const char *k = strstr(text, ".kernel");
    cr_assert_not_null(k);
    return k;
}

Test(gen_repro, another_seed_gives_other_code)
{
    char *a = gen_text(mixed, 1), *b = gen_text(mixed, 2);
    cr_assert_str_neq(body(a), body(b));
    /* ... and both are valid kernels. */
    isa_program_free(gen_load(mixed, 1));
    isa_program_free(gen_load(mixed, 2));
    g_free(a);
    g_free(b);
}

Test(gen_repro, profile_seed_is_the_default_seed)
{
    gen_profile *p = profile_ok("[profile]\nseed = 77\n");
    cr_assert_eq(gen_profile_seed(p), 77);
    gen_profile_free(p);
    p = profile_ok("[loop]\ntrips = 2\n");
    cr_assert_eq(gen_profile_seed(p), 1, "table default");
    gen_profile_free(p);
}

Test(gen_repro, kernel_name_is_the_profile_name_or_file_name)
{
    isa_program *k = gen_load("[profile]\nname = my_kernel\n", 1);
    cr_assert_str_eq(isa_program_name(k), "my_kernel");
    isa_program_free(k);
    k = gen_load("[loop]\ntrips = 1\n", 1); /* written as p.ini */
    cr_assert_str_eq(isa_program_name(k), "p");
    isa_program_free(k);
}

static const char *const profiles[] = {"branch_divergent", "gather", "bfs", "stream", "chase",
                                       "tree_search", "columns", "bitonic", "blackscholes"};

Test(gen_repro, workload_profiles_match_their_committed_kernels_and_run)
{
    const char *root = g_getenv("SIMTGRID_SRC");
    cr_assert_not_null(root);
    for (size_t i = 0; i < G_N_ELEMENTS(profiles); i++) {
        char *ini = g_strdup_printf("%s/workloads/profiles/%s.ini", root, profiles[i]);
        char *sasm = g_strdup_printf("%s/workloads/profiles/kernels/%s.sasm", root, profiles[i]);
        GError *e = NULL;
        gen_profile *p = gen_profile_load(ini, &e);
        cr_assert_not_null(p, "%s", e ? e->message : "?");
        char *text = gen_kernel_text(p, gen_profile_seed(p));
        char *committed = NULL;
        cr_assert(g_file_get_contents(sasm, &committed, NULL, NULL), "missing %s", sasm);
        cr_assert_str_eq(text, committed, "%s is stale: regenerate it (workloads/profiles/README.md)", sasm);
        /* run-lwm.ini runs them 1024 threads at a time on the LWM baseline:
         * 16384 registers / 1024 threads = at most 16 each. */
        gen_launch g;
        isa_program *k = isa_program_parse(text, sasm, &e);
        cr_assert_not_null(k, "%s", e ? e->message : "?");
        cr_assert_leq(isa_program_nregs(k), 16, "%s uses %u registers", sasm, isa_program_nregs(k));
        launch_setup(&g, k, 2, 64);
        launch_run(&g);
        launch_free(&g);
        g_free(committed);
        g_free(text);
        gen_profile_free(p);
        g_free(ini);
        g_free(sasm);
    }
}

Test(gen_repro, docs_list_every_profile_key)
{
    const char *root = g_getenv("SIMTGRID_SRC");
    cr_assert_not_null(root);
    char *path = g_strdup_printf("%s/docs/generator.md", root), *doc = NULL;
    cr_assert(g_file_get_contents(path, &doc, NULL, NULL));
    size_t n = 0;
    const param_def *keys = gen_profile_keys(&n);
    cr_assert_gt(n, 30);
    for (size_t i = 0; i < n; i++) {
        char *row = g_strdup_printf("| `%s` |", keys[i].name);
        cr_assert(strstr(doc, row), "docs/generator.md lacks a row for %s", keys[i].name);
        g_free(row);
    }
    g_free(doc);
    g_free(path);
}

/* Every combination of pattern, loop shape, branch shape and condition, and
 * shared pattern (exchange with the barrier it needs): the profile checks
 * refuse exactly the combinations they should, and every other one gives a
 * kernel that loads and runs to completion. */
Test(gen_repro, every_knob_combination_runs_or_is_refused)
{
    static const char *const pats[] = {"none", "coalesced", "strided", "gather", "chase", "broadcast", "csr", "tree"};
    static const char *const loops[] = {"uniform", "lane_skew", "data"};
    static const char *const shapes[] = {"none", "ifelse", "nested", "predicated"};
    static const char *const conds[] = {"biased", "lane_parity", "data"};
    static const char *const shared[] = {"none", "private", "exchange"};
    unsigned ran = 0;
    for (size_t a = 0; a < G_N_ELEMENTS(pats); a++)
        for (size_t b = 0; b < G_N_ELEMENTS(loops); b++)
            for (size_t s = 0; s < G_N_ELEMENTS(shapes); s++)
                for (size_t d = 0; d < G_N_ELEMENTS(conds); d++)
                    for (size_t h = 0; h < G_N_ELEMENTS(shared); h++) {
                        bool barrier = h == 2;
                        /* a data condition needs a load; a barrier a uniform loop and no csr */
                        bool refused = (d == 2 && a == 0 && s != 0) || (barrier && (b != 0 || a == 6));
                        char *prof = g_strdup_printf(
                            "[loop]\nshape = %s\ntrips = 2\nspread = 2\nbarrier = %s\n"
                            "[memory]\npattern = %s\nfootprint = 65536\n[compute]\nops = 2\nfp = 1\nsfu = 1\n"
                            "[branch]\nshape = %s\ncond = %s\n[shared]\npattern = %s\n",
                            loops[b], barrier ? "true" : "false", pats[a], shapes[s], conds[d], shared[h]);
                        char *path = write_profile("p.ini", prof);
                        GError *e = NULL;
                        gen_profile *p = gen_profile_load(path, &e);
                        remove_profile(path);
                        cr_assert_eq(p == NULL, refused, "%s%s", prof, e ? e->message : "");
                        g_clear_error(&e);
                        if (p) {
                            char *text = gen_kernel_text(p, a * 1000 + b * 100 + s * 10 + d);
                            isa_program *k = isa_program_parse(text, "gen.sasm", &e);
                            cr_assert_not_null(k, "%s", e ? e->message : "");
                            gen_launch g;
                            launch_setup(&g, k, 2, 64);
                            launch_run(&g);
                            launch_free(&g);
                            g_free(text);
                            gen_profile_free(p);
                            ran++;
                        }
                        g_free(prof);
                    }
    /* 8*3*4*3*3 = 864. Refused: data condition without a pattern, 3 loops x 3
     * shapes x 3 shared = 27; exchange (barrier) with a non-uniform loop (8
     * patterns x 2 loops) or csr (1), 17 x 4 shapes x 3 conds = 204; counted
     * twice: 2 loops x 3 shapes = 6. 864 - 27 - 204 + 6 = 639. */
    cr_assert_eq(ran, 639);
}
