/* The simtgrid command end to end: exit codes, error messages that name the
 * file, line and key, no result files on error, sweep outputs, determinism.
 * Runs the built binary (SIMTGRID_BIN) on small scenarios written to a
 * temporary folder. */
#include <criterion/criterion.h>
#include <glib.h>
#include <glib/gstdio.h>

static char *dir;

static void setup(void)
{
    dir = g_dir_make_tmp("simtgrid-cli-XXXXXX", NULL);
    cr_assert_not_null(dir);
}

static char *path_in(const char *name) { return g_build_filename(dir, name, NULL); }

static void write_file(const char *name, const char *text)
{
    char *p = path_in(name);
    cr_assert(g_file_set_contents(p, text, -1, NULL));
    g_free(p);
}

/* Runs simtgrid with the arguments; returns its exit status. */
static int simtgrid(char **out, char **errout, const char *a1, const char *a2, const char *a3,
                    const char *a4, const char *a5)
{
    const char *bin = g_getenv("SIMTGRID_BIN");
    cr_assert_not_null(bin, "SIMTGRID_BIN is not set");
    const char *argv[] = {bin, a1, a2, a3, a4, a5, NULL};
    int status = 0;
    GError *e = NULL;
    cr_assert(g_spawn_sync(dir, (char **)argv, NULL, 0, NULL, NULL, out, errout, &status, &e),
              "%s", e ? e->message : "");
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

static unsigned count_files(const char *sub)
{
    char *p = path_in(sub);
    GDir *d = g_dir_open(p, 0, NULL);
    unsigned n = 0;
    if (d) {
        while (g_dir_read_name(d))
            n++;
        g_dir_close(d);
    }
    g_free(p);
    return n;
}

/* A kernel of known length: every thread runs 10 adds then exits. */
static const char kernel[] =
    ".kernel adds\n"
    "    mov r0, 0\n"
    "loop:\n"
    "    add r0, r0, 1\n"
    "    setp.lt.u64 p0, r0, 10\n"
    "    @p0 bra loop\n"
    "    exit\n";

static const char model[] =
    "[gpu]\nsms = 2\nmemory = ideal\n"
    "[core]\nwarp_size = 32\n";

static void write_ok_scenario(const char *extra)
{
    write_file("k.sasm", kernel);
    write_file("m.ini", model);
    char *s = g_strdup_printf("[scenario]\nmodel = m.ini\nname = t\n"
                              "[launch.main]\nkernel = k.sasm\ngrid = 2\nblock = 64\n%s", extra);
    write_file("s.ini", s);
    g_free(s);
}

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
    cr_assert_eq(count_files("res"), 0);
}

Test(cli, bad_kernel_names_its_line_and_writes_nothing, .init = setup)
{
    write_ok_scenario("");
    write_file("k.sasm", ".kernel bad\n    mov r0, 0\n    frob r1, r0\n    exit\n");
    char *out = NULL, *err = NULL;
    cr_assert_eq(simtgrid(&out, &err, "run", "s.ini", "-o", "res", NULL), 2);
    cr_assert_not_null(strstr(err, "k.sasm:3"), "%s", err);
    cr_assert_eq(count_files("res"), 0);
}

Test(cli, failing_sweep_point_removes_every_result, .init = setup)
{
    /* Point 1 makes the CTA (64 threads) too big for an SM of 32 threads: a
     * configuration refused when the chip is built, after point 0 already
     * wrote its JSON. */
    write_ok_scenario("[sweep]\ncore.max_threads = 2048, 32\n");
    char *out = NULL, *err = NULL;
    int rc = simtgrid(&out, &err, "run", "s.ini", "-o", "res", NULL);
    cr_assert_eq(rc, 2, "%s", err);
    cr_assert_eq(count_files("res"), 0, "partial results left");
}

Test(cli, sweep_writes_a_json_per_point_and_a_csv_row_per_point, .init = setup)
{
    write_ok_scenario("[sweep]\ncore.scheduler = lrr, gto, 2lev\n");
    char *out = NULL, *err = NULL;
    cr_assert_eq(simtgrid(&out, &err, "run", "s.ini", "-o", "res", NULL), 0, "%s", err);
    cr_assert_eq(count_files("res"), 4);   /* t-p0..2.json and t.csv */
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
