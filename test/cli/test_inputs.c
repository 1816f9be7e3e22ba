/* Inputs that could hang or explode the tool: devices, named pipes and
 * oversized files are refused; an include tree is read once per file and
 * its depth bounded; runs have a default cycle limit and a run cut by it
 * reports what it simulated; --help succeeds; clock errors name file:line
 * and the value as written. Runs SIMTGRID_BIN. */
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_util.h"

TestSuite(inputs, .init = setup);

static int check(char **err, const char *scenario)
{
    char *out = NULL;
    int rc = simtgrid(&out, err, "check", scenario, NULL, NULL, NULL);
    g_free(out);
    return rc;
}

Test(inputs, an_include_of_dev_zero_is_refused)
{
    write_ok_scenario("");
    write_file("m.ini", "[model]\ninclude = /dev/zero\n[gpu]\nsms = 2\nmemory = ideal\n");
    char *err = NULL;
    cr_assert_eq(check(&err, "s.ini"), 2);
    cr_assert_not_null(strstr(err, "m.ini:2: [model] key 'include': cannot read '/dev/zero' "
                                   "(not a regular file (a character device))"), "%s", err);
}

Test(inputs, named_pipes_are_refused_not_waited_on)
{
    write_ok_scenario("");
    char *k = path_in("k.sasm"), *s = path_in("pipe.ini");
    g_unlink(k);
    cr_assert_eq(mkfifo(k, 0644), 0);
    cr_assert_eq(mkfifo(s, 0644), 0);
    /* Today opening a pipe with no writer blocks for ever. */
    char *err = NULL;
    cr_assert_eq(check(&err, "s.ini"), 2);
    cr_assert_not_null(strstr(err, "[launch.main] key 'kernel': cannot read"), "%s", err);
    cr_assert_not_null(strstr(err, "not a regular file (a named pipe)"), "%s", err);
    cr_assert_eq(check(&err, "pipe.ini"), 2);
    cr_assert_not_null(strstr(err, "pipe.ini: cannot read file (not a regular file (a named pipe))"), "%s", err);
    cr_assert_eq(check(&err, "."), 2);
    cr_assert_not_null(strstr(err, "it is a directory"), "%s", err);
}

Test(inputs, an_input_over_64_mib_is_refused)
{
    write_ok_scenario("");
    /* A sparse file of 64 MiB + 1 byte: the limit is inclusive. */
    char *m = path_in("m.ini");
    int fd = open(m, O_WRONLY | O_TRUNC);
    cr_assert_geq(fd, 0);
    cr_assert_eq(ftruncate(fd, (64 << 20) + 1), 0);
    close(fd);
    char *err = NULL;
    cr_assert_eq(check(&err, "s.ini"), 2);
    cr_assert_not_null(strstr(err, "cannot read 'm.ini' (67108865 bytes, larger than the 64 MiB limit of "
                                   "an input file)") || strstr(err, "67108865 bytes, larger than the 64 MiB"),
                      "%s", err);
}

/* f0 includes f1 eight times, f1 includes f2 eight times, ... f7 includes f8
 * eight times: 8^8 = 16,777,216 paths to f8 (today each is a load). f8
 * sets gpu.sms = 3 and f4 sets core.max_threads = 1024; nothing overrides
 * them, so the machine has 3 SMs of 1024 threads. */
Test(inputs, an_include_tree_is_read_once_per_file)
{
    for (int i = 0; i <= 8; i++) {
        GString *t = g_string_new("[model]\n");
        if (i < 8) {
            g_string_append(t, "include = ");
            for (int k = 0; k < 8; k++)
                g_string_append_printf(t, "%sf%d.ini", k ? ", " : "", i + 1);
            g_string_append(t, "\n");
        } else {
            g_string_append(t, "name = leaf\n[gpu]\nsms = 3\nmemory = ideal\n");
        }
        if (i == 4)
            g_string_append(t, "[core]\nmax_threads = 1024\n");
        char *name = g_strdup_printf("f%d.ini", i);
        write_file(name, t->str);
        g_free(name);
        g_string_free(t, TRUE);
    }
    write_ok_scenario("");
    write_file("s.ini", "[scenario]\nmodel = f0.ini\nname = t\n[launch.main]\nkernel = k.sasm\ngrid = 2\nblock = 64\n");
    char *out = NULL, *err = NULL;
    cr_assert_eq(simtgrid(&out, &err, "run", "s.ini", "-o", "res", "-q"), 0, "%s", err);
    char *json = read_in("res/t.json");
    cr_assert_not_null(strstr(json, "\"gpu.sms\": 3,"));
    cr_assert_not_null(strstr(json, "\"core.max_threads\": 1024,"));
}

Test(inputs, includes_nest_at_most_32_deep)
{
    /* d0 -> d1 -> ... -> d32: 33 files, one more than the limit. */
    for (int i = 0; i <= 32; i++) {
        char *name = g_strdup_printf("d%d.ini", i);
        char *t = i < 32 ? g_strdup_printf("[model]\ninclude = d%d.ini\n", i + 1)
                         : g_strdup("[gpu]\nsms = 2\nmemory = ideal\n");
        write_file(name, t);
        g_free(name);
        g_free(t);
    }
    write_ok_scenario("");
    write_file("s.ini", "[scenario]\nmodel = d1.ini\nname = t\n[launch.main]\nkernel = k.sasm\ngrid = 2\nblock = 64\n");
    char *err = NULL;
    cr_assert_eq(check(&err, "s.ini"), 0, "32 files deep is allowed: %s", err);
    write_file("s.ini", "[scenario]\nmodel = d0.ini\nname = t\n[launch.main]\nkernel = k.sasm\ngrid = 2\nblock = 64\n");
    cr_assert_eq(check(&err, "s.ini"), 2);
    cr_assert_not_null(strstr(err, "d31.ini:2: [model] key 'include': includes nested deeper than 32 files "
                                   "(the limit) at"), "%s", err);
}

Test(inputs, runs_have_a_default_cycle_limit)
{
    char *out = NULL, *err = NULL;
    cr_assert_eq(simtgrid(&out, &err, "params", "--json", NULL, NULL, NULL), 0);
    char *at = strstr(out, "\"sim.max_cycles\"");
    cr_assert_not_null(at);
    char *def = strstr(at, "\"default\": ");
    cr_assert_not_null(def);
    cr_assert(g_str_has_prefix(def, "\"default\": 1000000000"), "%.80s", def);
}

/* The kernel spins for ever; the run stops at 300 cycles (on_limit = stop).
 * Today it reports core_cycles = 0 and warp_ipc = 0 beside the instructions
 * it did run. */
Test(inputs, a_run_cut_by_the_limit_reports_the_cycles_it_simulated)
{
    write_ok_scenario("[set]\nsim.max_cycles = 300\n");
    write_file("k.sasm", ".kernel spin\n    mov r0, 0\nloop:\n    setp.lt.u64 p0, r0, 1\n"
                         "    @p0 bra loop\n    exit\n");
    char *out = NULL, *err = NULL;
    cr_assert_eq(simtgrid(&out, &err, "run", "s.ini", "-o", "res", "-q"), 0, "%s", err);
    cr_assert_not_null(strstr(err, "stopped by sim.max_cycles = 300 with 2 CTA(s) unfinished"), "%s", err);
    char *json = read_in("res/t.json");
    cr_assert_not_null(strstr(json, "\"core_cycles\": 300,"), "%s", json);
    cr_assert_not_null(strstr(json, "\"truncated\": true"));
    cr_assert_not_null(strstr(json, "\"unfinished_ctas\": 2"));
    char *wi = strstr(json, "\"warp_instructions\": ");
    cr_assert_not_null(wi);
    unsigned long n = strtoul(wi + strlen("\"warp_instructions\": "), NULL, 10);
    cr_assert_gt(n, 0);
    char *ipc = strstr(json, "\"warp_ipc\": ");
    cr_assert_not_null(ipc);
    double v = g_ascii_strtod(ipc + strlen("\"warp_ipc\": "), NULL);
    cr_assert_float_eq(v, n / 300.0, 1e-12);
}

Test(inputs, help_exits_0_on_stdout)
{
    const char *cmds[][3] = {{"gen", "--help", NULL}, {"kernel", "--help", NULL},
                             {"kernel", "check", "--help"}, {"params", "--help", NULL},
                             {"run", "--help", NULL}, {"check", "-h", NULL}, {"--help", NULL, NULL}};
    for (unsigned i = 0; i < G_N_ELEMENTS(cmds); i++) {
        char *out = NULL, *err = NULL;
        int rc = simtgrid(&out, &err, cmds[i][0], cmds[i][1], cmds[i][2], NULL, NULL);
        cr_assert_eq(rc, 0, "%s %s: %s", cmds[i][0], cmds[i][1], err);
        cr_assert(g_str_has_prefix(out, "usage: simtgrid"), "%s: %s", cmds[i][0], out);
        cr_assert_str_eq(err, "");
    }
    char *out = NULL, *err = NULL;
    cr_assert_eq(simtgrid(&out, &err, "gen", "--frob", NULL, NULL, NULL), 2);
    cr_assert(g_str_has_prefix(err, "usage: simtgrid gen"), "%s", err);
}

Test(inputs, clock_errors_name_file_line_and_the_value_as_written)
{
    write_ok_scenario("");
    write_file("m.ini", "[gpu]\nsms = 2\nmemory = ideal\n[clock]\ncore_mhz = 9999.9999\n");
    char *err = NULL;
    cr_assert_eq(check(&err, "s.ini"), 2);
    cr_assert_not_null(strstr(err, "m.ini:5: key 'clock.core_mhz': expected a frequency with at most 3 "
                                   "decimals (kHz resolution), got '9999.9999'"), "%s", err);
    /* kHz-exact clocks whose common time base is too fine for 2^53 ticks. */
    write_file("m.ini", "[gpu]\nsms = 2\nmemory = ideal\n[clock]\ncore_mhz = 1000.001\nicnt_mhz = 999.999\n"
                        "l2_mhz = 997.003\ndram_mhz = 1231.017\n");
    cr_assert_eq(check(&err, "s.ini"), 2);
    cr_assert(strstr(err, "m.ini:5: key 'clock.core_mhz'") || strstr(err, "m.ini:6: key 'clock.icnt_mhz'") ||
              strstr(err, "m.ini:7: key 'clock.l2_mhz'") || strstr(err, "m.ini:8: key 'clock.dram_mhz'"), "%s", err);
    cr_assert_not_null(strstr(err, "no common time base"), "%s", err);
}

/* Found by tools/fuzz: GKeyFile returns a value for an invalid escape and
 * sets its error too; the error then leaked into the next key's read (a
 * GLib warning, "GError set over the top of a previous GError") and the
 * value "8\x" was accepted. Now the key is refused at its line. */
Test(inputs, an_invalid_escape_is_refused_at_its_line)
{
    write_ok_scenario("");
    /* Today "t\q" is accepted as a name, and the second invalid escape
     * sets the leaked error again (GLib's warning on stderr). */
    write_file("s.ini", "[scenario]\nmodel = m.ini\nname = t\\q\ndescription = x\\q\n"
                        "[launch.main]\nkernel = k.sasm\ngrid = 2\nblock = 64\n");
    char *out = NULL, *err = NULL;
    cr_assert_eq(simtgrid(&out, &err, "check", "s.ini", NULL, NULL, NULL), 2, "%s", out);
    cr_assert_not_null(strstr(err, "s.ini:3: [scenario] key 'name': "), "%s", err);
    cr_assert_null(strstr(err, "GError set over the top"), "%s", err);
}
