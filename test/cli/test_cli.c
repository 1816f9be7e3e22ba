/* The simtgrid command end to end: exit codes, error messages that name the
 * file, line and key, no result files on error, sweep outputs, determinism.
 * Runs the built binary (SIMTGRID_BIN) on small scenarios written to a
 * temporary folder. */
#include "cli_util.h"

Test(cli, version_and_help, .init = setup)
{
    char *out = NULL, *err = NULL;
    cr_assert_eq(simtgrid(&out, &err, "--version", NULL, NULL, NULL, NULL), 0);
    cr_assert(g_str_has_prefix(out, "simtgrid "));
    cr_assert_eq(simtgrid(&out, &err, "--help", NULL, NULL, NULL, NULL), 0);
    cr_assert_not_null(strstr(out, "run SCENARIO"));
    cr_assert_eq(simtgrid(&out, &err, "frobnicate", NULL, NULL, NULL, NULL), 2);
    cr_assert_not_null(strstr(err, "unknown command 'frobnicate'"));
}

Test(cli, run_writes_json_and_counts_instructions, .init = setup)
{
    write_ok_scenario("");
    char *out = NULL, *err = NULL;
    int rc = simtgrid(&out, &err, "run", "s.ini", "-o", "res", NULL);
    cr_assert_eq(rc, 0, "%s", err);
    char *json = NULL;
    char *p = path_in("res/t.json");
    cr_assert(g_file_get_contents(p, &json, NULL, NULL));
    /* 2 CTAs x 64 threads = 4 warps; each runs mov + 10 x (add, setp, bra)
     * + exit = 32 warp instructions: 128 in all, 128 x 32 thread ones. */
    cr_assert_not_null(strstr(json, "\"warp_instructions\": 128"), "%s", json);
    cr_assert_not_null(strstr(json, "\"thread_instructions\": 4096"));
    cr_assert_not_null(strstr(out, "simulation rate"));
}

Test(cli, unknown_key_names_file_line_and_nearest, .init = setup)
{
    write_ok_scenario("[set]\ngpu.smz = 4\n");
    char *out = NULL, *err = NULL;
    cr_assert_eq(simtgrid(&out, &err, "run", "s.ini", "-o", "res", NULL), 2);
    /* Lines 1-7 are [scenario] and [launch.main]; [set] is line 8, the key 9. */
    cr_assert_not_null(strstr(err, "s.ini:9"), "%s", err);
    cr_assert_not_null(strstr(err, "gpu.smz"));
    cr_assert_not_null(strstr(err, "did you mean 'gpu.sms'"));
    cr_assert_not(exists_in("res"), "a failed run left its folder");
}

Test(cli, bad_kernel_names_its_line_and_writes_nothing, .init = setup)
{
    write_ok_scenario("");
    write_file("k.sasm", ".kernel bad\n    mov r0, 0\n    frob r1, r0\n    exit\n");
    char *out = NULL, *err = NULL;
    cr_assert_eq(simtgrid(&out, &err, "run", "s.ini", "-o", "res", NULL), 2);
    cr_assert_not_null(strstr(err, "k.sasm:3"), "%s", err);
    cr_assert_not(exists_in("res"), "a failed run left its folder");
}


Test(cli, sweep_writes_a_json_per_point_and_a_csv_row_per_point, .init = setup)
{
    write_ok_scenario("[sweep]\ncore.scheduler = lrr, gto, 2lev\n");
    char *out = NULL, *err = NULL;
    cr_assert_eq(simtgrid(&out, &err, "run", "s.ini", "-o", "res", NULL), 0, "%s", err);
    /* t-p0..2.json, t.csv, manifest.tsv and the private .simtgrid */
    cr_assert_eq(count_files("res"), 6);
    char *csv = NULL, *p = path_in("res/t.csv");
    cr_assert(g_file_get_contents(p, &csv, NULL, NULL));
    char **lines = g_strsplit(csv, "\n", -1);
    cr_assert_eq(g_strv_length(lines), 5);   /* header, 3 rows, final empty */
    cr_assert(g_str_has_prefix(lines[0], "point,core.scheduler,"));
    cr_assert(g_str_has_prefix(lines[2], "1,gto,"));
}

static char *strip_host(char *json)
{
    char *h = strstr(json, "\"host\"");
    cr_assert_not_null(h);
    *h = 0;
    return json;
}

Test(cli, same_inputs_same_results, .init = setup)
{
    write_ok_scenario("");
    char *out = NULL, *err = NULL, *a = NULL, *b = NULL;
    cr_assert_eq(simtgrid(&out, &err, "run", "s.ini", "-o", "r1", NULL), 0, "%s", err);
    cr_assert_eq(simtgrid(&out, &err, "run", "s.ini", "-o", "r2", NULL), 0, "%s", err);
    cr_assert(g_file_get_contents(path_in("r1/t.json"), &a, NULL, NULL));
    cr_assert(g_file_get_contents(path_in("r2/t.json"), &b, NULL, NULL));
    cr_assert_str_eq(strip_host(a), strip_host(b));
}

Test(cli, check_validates_without_writing, .init = setup)
{
    write_ok_scenario("");
    char *out = NULL, *err = NULL;
    cr_assert_eq(simtgrid(&out, &err, "check", "s.ini", NULL, NULL, NULL), 0, "%s", err);
    cr_assert_not_null(strstr(out, "ok"));
    cr_assert_eq(count_files("results"), 0);
    cr_assert_eq(simtgrid(&out, &err, "run", "s.ini", "--set", "gpu.sms", NULL), 2);
    cr_assert_not_null(strstr(err, "gpu.sms"), "%s", err);
}

Test(cli, params_lists_every_parameter, .init = setup)
{
    char *out = NULL, *err = NULL;
    cr_assert_eq(simtgrid(&out, &err, "params", NULL, NULL, NULL, NULL), 0);
    cr_assert_not_null(strstr(out, "l1d.sets"));
    cr_assert_not_null(strstr(out, "dram.tRCD"));
    cr_assert_eq(simtgrid(&out, &err, "params", "--json", NULL, NULL, NULL), 0);
    cr_assert(g_str_has_prefix(out, "{"));
}
