/* Every error path of scenario files and --set. Each case writes s.ini into
 * a fresh folder next to m.ini (a model), bad.ini (a model with an error),
 * k.sasm (a kernel) and kdir/ (a folder); "@" in an expected message stands
 * for that folder. Line numbers are counted in the texts below. */
#include "scen_test_util.h"
#include "simtgrid/scenario.h"

/* lines 1-2 */
#define HEAD "[scenario]\nmodel = m.ini\n"
/* four lines: [launch.a], kernel, grid, block */
#define LAUNCH_A "[launch.a]\nkernel = k.sasm\ngrid = 1\nblock = 1\n"

static char *expand(const char *pattern, const char *dir)
{
    char **parts = g_strsplit(pattern, "@", -1);
    char *s = g_strjoinv(dir, parts);
    g_strfreev(parts);
    return s;
}

static void expect_error_sets(const char *text, char *const *sets, const char *expected)
{
    char *dir = tmp_dir();
    write_file(dir, "m.ini", "[sim]\nseed = 9\n");
    write_file(dir, "bad.ini", "[sim]\n\nseed = x\n");
    write_file(dir, "k.sasm", "exit\n");
    write_file(dir, "kdir/x", "");
    char *path = write_file(dir, "s.ini", text);
    GError *err = NULL;
    scenario *s = scenario_load(path, sets, &err);
    char *want = expand(expected, dir);
    assert_error(s != NULL, err, want);
    g_free(want);
    g_free(path);
    rm_tree(dir);
    g_free(dir);
}

static void expect_error(const char *text, const char *expected)
{
    expect_error_sets(text, NULL, expected);
}

Test(scenario_errors, unreadable_and_syntax)
{
    char *dir = tmp_dir();
    char *path = g_build_filename(dir, "none.ini", NULL);
    GError *err = NULL;
    scenario *s = scenario_load(path, NULL, &err);
    char *want = g_strdup_printf("%s: cannot read file (No such file or directory)", path);
    assert_error(s != NULL, err, want);
    g_free(want);
    g_free(path);
    rm_tree(dir);
    g_free(dir);
    expect_error("[scenario\n", "@/s.ini:1: expected a group header like '[name]', got '[scenario'");
    expect_error(HEAD "model = m.ini\n", "@/s.ini:3: [scenario] key 'model' is set again (first at line 2): expected each key once");
}

Test(scenario_errors, unknown_groups_and_keys)
{
    expect_error("[scenari]\n", "@/s.ini:1: unknown group [scenari] (did you mean [scenario]?)");
    expect_error(HEAD "[launch]\n", "@/s.ini:3: unknown group [launch] (did you mean [launch.NAME]?)");
    expect_error(HEAD "[outputs]\n", "@/s.ini:3: unknown group [outputs] (did you mean [output]?)");
    /* model groups do not belong in a scenario: parameters go in [set] */
    expect_error(HEAD "[clock]\ncore_mhz = 5\n", "@/s.ini:3: unknown group [clock] (parameters go in [set] as 'clock.KEY = VALUE')");
    expect_error("[scenario]\nmodle = m.ini\n", "@/s.ini:2: [scenario] key 'modle': unknown key (did you mean 'model'?)");
    expect_error(HEAD "[output]\njsn = true\n", "@/s.ini:4: [output] key 'jsn': unknown key (did you mean 'json'?)");
}

Test(scenario_errors, scenario_group)
{
    expect_error(LAUNCH_A, "@/s.ini: missing group [scenario]: expected [scenario] with 'model = FILE'");
    expect_error("# x\n[scenario]\nname = x\n",
                 "@/s.ini:2: [scenario] key 'model' is missing: expected the path of a model file");
    expect_error("[scenario]\nmodel =\n", "@/s.ini:2: [scenario] key 'model': expected the path of a model file, got ''");
    expect_error("[scenario]\nmodel = nope.ini\n",
                 "@/s.ini:2: [scenario] key 'model': cannot read '@/nope.ini' (No such file or directory)");
    /* an error inside the model names the model's own line */
    expect_error("[scenario]\nmodel = bad.ini\n",
                 "@/bad.ini:3: [sim] key 'sim.seed': expected an integer from 0 to 9007199254740991, got 'x'");
    expect_error(HEAD "seed = -1\n",
                 "@/s.ini:3: [scenario] key 'seed': expected an integer from 0 to 9007199254740991, got '-1' (out of range)");
    expect_error(HEAD "name = a/b\n",
                 "@/s.ini:3: [scenario] key 'name': expected a non-empty name without '/' (it names the results folder), got 'a/b'");
    expect_error(HEAD "name =\n",
                 "@/s.ini:3: [scenario] key 'name': expected a non-empty name without '/' (it names the results folder), got ''");
}

Test(scenario_errors, set_group_and_output)
{
    expect_error(HEAD "[set]\nclock.core_mhx = 5\n",
                 "@/s.ini:4: [set] key 'clock.core_mhx': unknown parameter (did you mean 'clock.core_mhz'?)");
    expect_error(HEAD "[set]\nsim.on_limit = halt\n",
                 "@/s.ini:4: [set] key 'sim.on_limit': expected one of stop, fail, got 'halt'");
    expect_error(HEAD "[set]\nclock.core_mhz = 0\n",
                 "@/s.ini:4: [set] key 'clock.core_mhz': expected a number from 1 to 10000, got '0' (out of range)");
    expect_error(HEAD "[set]\nsim.verbose = perhaps\n",
                 "@/s.ini:4: [set] key 'sim.verbose': expected true or false (or yes/no, on/off, 1/0), got 'perhaps'");
    expect_error(HEAD "[output]\njson = maybe\n",
                 "@/s.ini:4: [output] key 'json': expected true or false (or yes/no, on/off, 1/0), got 'maybe'");
}

Test(scenario_errors, command_line_set)
{
    char *no_eq[] = {"clock.core_mhz", NULL};
    expect_error_sets(HEAD LAUNCH_A, no_eq, "--set 'clock.core_mhz': expected KEY=VALUE");
    char *no_key[] = {"sim.seed=1", " =5", NULL};
    expect_error_sets(HEAD LAUNCH_A, no_key, "--set ' =5': expected KEY=VALUE");
    char *unknown[] = {"clock.core=5", NULL};
    expect_error_sets(HEAD LAUNCH_A, unknown,
                      "--set key 'clock.core': unknown parameter (did you mean 'clock.core_mhz'?)");
    char *bad[] = {"sim.seed=x", NULL};
    expect_error_sets(HEAD LAUNCH_A, bad, "--set key 'sim.seed': expected an integer from 0 to 9007199254740991, got 'x'");
}

Test(scenario_errors, launch_names_and_keys)
{
    expect_error(HEAD, "@/s.ini: no [launch.NAME] group: expected at least one kernel launch");
    expect_error(HEAD "[launch.]\n",
                 "@/s.ini:3: group [launch.]: expected a launch name of letters, digits, '_' or '-' after 'launch.'");
    expect_error(HEAD "[launch.a b]\n",
                 "@/s.ini:3: group [launch.a b]: expected a launch name of letters, digits, '_' or '-' after 'launch.'");
    expect_error(HEAD LAUNCH_A "grdi = 4\n", "@/s.ini:7: [launch.a] key 'grdi': unknown key (did you mean 'grid'?)");
}

Test(scenario_errors, launch_missing_keys)
{
    expect_error(HEAD "[launch.a]\ngrid = 1\nblock = 1\n",
                 "@/s.ini:3: [launch.a] key 'kernel' is missing: expected the path of a kernel file");
    expect_error(HEAD "[launch.a]\nkernel = k.sasm\nblock = 1\n",
                 "@/s.ini:3: [launch.a] key 'grid' is missing: expected 1 to 3 positive integers (CTAs)");
    expect_error(HEAD "[launch.a]\nkernel = k.sasm\ngrid = 1\n",
                 "@/s.ini:3: [launch.a] key 'block' is missing: expected 1 to 3 positive integers (threads per CTA)");
}

Test(scenario_errors, launch_kernel)
{
    expect_error(HEAD "[launch.a]\nkernel = no.sasm\n",
                 "@/s.ini:4: [launch.a] key 'kernel': cannot read '@/no.sasm' (No such file or directory)");
    expect_error(HEAD "[launch.a]\nkernel = kdir\n", "@/s.ini:4: [launch.a] key 'kernel': cannot read '@/kdir' (it is a directory)");
    expect_error(HEAD "[launch.a]\nkernel =\n", "@/s.ini:4: [launch.a] key 'kernel': expected the path of a kernel file, got ''");
}

Test(scenario_errors, launch_dims)
{
    /* 70000 * 70000 = 4.9e9 > 2^32 - 1 */
    const char *bad[] = {"abc", "0", "1,2,3,4", "", "-1", "1,,2", "1.5", "70000,70000", "4294967296"};
    for (unsigned i = 0; i < G_N_ELEMENTS(bad); i++) {
        char *text = g_strdup_printf(HEAD "[launch.a]\nkernel = k.sasm\ngrid = %s\nblock = 1\n", bad[i]);
        char *want = g_strdup_printf("@/s.ini:5: [launch.a] key 'grid': expected 1 to 3 positive integers "
                                     "(x[,y[,z]], 4294967295 in all at most), got '%s'", bad[i]);
        expect_error(text, want);
        g_free(text);
        g_free(want);
        text = g_strdup_printf(HEAD "[launch.a]\nkernel = k.sasm\ngrid = 1\nblock = %s\n", bad[i]);
        want = g_strdup_printf("@/s.ini:6: [launch.a] key 'block': expected 1 to 3 positive integers "
                               "(x[,y[,z]], 4294967295 in all at most), got '%s'", bad[i]);
        expect_error(text, want);
        g_free(text);
        g_free(want);
    }
}

Test(scenario_errors, launch_sms_start_args)
{
    const char *bad_sms[] = {"3-1", "x", "0-", "-1", "65536", "", "1,,2", "1-2-3"};
    for (unsigned i = 0; i < G_N_ELEMENTS(bad_sms); i++) {
        char *text = g_strdup_printf(HEAD LAUNCH_A "sms = %s\n", bad_sms[i]);
        char *want = g_strdup_printf("@/s.ini:7: [launch.a] key 'sms': expected 'all' or SM numbers and ranges "
                                     "from 0 to 65535 like '0-3,7', got '%s'", bad_sms[i]);
        expect_error(text, want);
        g_free(text);
        g_free(want);
    }
    const char *bad_start[] = {"-5", "abc", "1.5", ""};
    for (unsigned i = 0; i < G_N_ELEMENTS(bad_start); i++) {
        char *text = g_strdup_printf(HEAD LAUNCH_A "start = %s\n", bad_start[i]);
        char *want = g_strdup_printf("@/s.ini:7: [launch.a] key 'start': expected a non-negative integer "
                                     "(core cycles), got '%s'", bad_start[i]);
        expect_error(text, want);
        g_free(text);
        g_free(want);
    }
    expect_error(HEAD LAUNCH_A "args = 1, x\n", "@/s.ini:7: [launch.a] key 'args': expected comma-separated integers, got '1, x'");
    expect_error(HEAD LAUNCH_A "args = 1,,2\n", "@/s.ini:7: [launch.a] key 'args': expected comma-separated integers, got '1,,2'");
}

Test(scenario_errors, launch_after)
{
    expect_error(HEAD LAUNCH_A "after =\n", "@/s.ini:7: [launch.a] key 'after': expected the name of another launch, got ''");
    /* lines: 7 [launch.b] ... 11 start, 12 after */
    expect_error(HEAD LAUNCH_A "[launch.b]\nkernel = k.sasm\ngrid = 1\nblock = 1\nstart = 5\nafter = a\n",
                 "@/s.ini:12: [launch.b] keys 'start' (line 11) and 'after' (line 12) are both given: expected one of them");
    expect_error(HEAD "[launch.first]\nkernel = k.sasm\ngrid = 1\nblock = 1\n"
                      "[launch.b]\nkernel = k.sasm\ngrid = 1\nblock = 1\nafter = frist\n",
                 "@/s.ini:11: [launch.b] key 'after': no launch named 'frist' (did you mean 'first'?)");
    /* a waits for itself */
    expect_error(HEAD LAUNCH_A "after = a\n", "@/s.ini:7: [launch.a] key 'after': launches wait for each other in a cycle: a -> a");
    /* c (lines 3-7) waits for a, which is in the cycle a (8-12) -> b (13-17) -> a:
     * reported at the first launch on the cycle, a, line 12 */
    expect_error(HEAD "[launch.c]\nkernel = k.sasm\ngrid = 1\nblock = 1\nafter = a\n"
                      "[launch.a]\nkernel = k.sasm\ngrid = 1\nblock = 1\nafter = b\n"
                      "[launch.b]\nkernel = k.sasm\ngrid = 1\nblock = 1\nafter = a\n",
                 "@/s.ini:12: [launch.a] key 'after': launches wait for each other in a cycle: a -> b -> a");
}

Test(scenario_errors, sweep)
{
    expect_error(HEAD LAUNCH_A "[sweep]\nclock.core_mhx = 1, 2\n",
                 "@/s.ini:8: [sweep] key 'clock.core_mhx': unknown parameter (did you mean 'clock.core_mhz'?)");
    expect_error(HEAD LAUNCH_A "[sweep]\nsim.seed =\n",
                 "@/s.ini:8: [sweep] key 'sim.seed': expected a non-empty comma-separated list of values");
    expect_error(HEAD LAUNCH_A "[sweep]\nsim.seed = 1,,2\n",
                 "@/s.ini:8: [sweep] key 'sim.seed': expected a comma-separated list of values, got '1,,2' (an empty item)");
    /* every value is checked at load time, not when its point runs */
    expect_error(HEAD LAUNCH_A "[sweep]\nsim.max_cycles = 10\nsim.seed = 1, x, 3\n",
                 "@/s.ini:9: [sweep] key 'sim.seed': value 2 of 3: expected an integer from 0 to 9007199254740991, got 'x'");
    expect_error(HEAD LAUNCH_A "[sweep]\nsim.on_limit = stop, halt\n",
                 "@/s.ini:8: [sweep] key 'sim.on_limit': value 2 of 2: expected one of stop, fail, got 'halt'");
}

Test(scenario_errors, sweep_too_large)
{
    /* 101 * 100 * 100 = 1,010,000 points > 1,000,000, found at the third axis (line 10) */
    GString *t = g_string_new(HEAD LAUNCH_A "[sweep]\n");
    const char *keys[] = {"sim.seed", "sim.max_cycles", "clock.core_mhz"};
    const unsigned counts[] = {101, 100, 100};
    for (unsigned k = 0; k < 3; k++) {
        g_string_append_printf(t, "%s = ", keys[k]);
        for (unsigned i = 1; i <= counts[k]; i++)
            g_string_append_printf(t, "%s%u", i > 1 ? "," : "", i);
        g_string_append_c(t, '\n');
    }
    expect_error(t->str, "@/s.ini:10: [sweep] key 'clock.core_mhz': the sweep would have more than 1000000 points: "
                         "expected fewer values");
    g_string_free(t, TRUE);
}

/* SMs beyond the chip's gpu.sms (a parameter of the core block). */
Test(scenario_errors, launch_sms_beyond_chip)
{
    if (!param_find("gpu.sms"))
        cr_skip_test("no gpu.sms parameter in the table");
    /* default gpu.sms = 1: only SM 0 exists */
    expect_error(HEAD LAUNCH_A "sms = 0-3\n",
                 "@/s.ini:7: [launch.a] key 'sms': SM 3 does not exist: expected SMs 0 to 0 (gpu.sms, from default)");
    expect_error(HEAD "[set]\ngpu.sms = 4\n" LAUNCH_A "sms = 2, 4\n",
                 "@/s.ini:9: [launch.a] key 'sms': SM 4 does not exist: expected SMs 0 to 3 (gpu.sms, from @/s.ini:4)");
    /* swept: the smallest value (2) must hold every SM named, whatever [set] says */
    expect_error(HEAD "[set]\ngpu.sms = 16\n" LAUNCH_A "sms = 0-2\n[sweep]\ngpu.sms = 8, 2, 4\n",
                 "@/s.ini:9: [launch.a] key 'sms': SM 2 does not exist: expected SMs 0 to 1 "
                 "(the smallest gpu.sms of the sweep at @/s.ini:11)");
}
