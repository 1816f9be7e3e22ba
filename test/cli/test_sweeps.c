/* Sweeps beyond one process tree: `run --point I` runs one point into a
 * folder other point runs share, `sweep list` prints a command per point,
 * `sweep collect` gathers them into the same manifest and the same CSV (bit
 * for bit) as a local run; a resubmission runs only what is missing. Runs
 * SIMTGRID_BIN. */
#include "cli_util.h"

TestSuite(sweeps, .init = setup);

static const char sweep4[] = "[sweep]\ncore.scheduler = lrr, gto\ngpu.sms = 1, 2\n";

static void run_ok(const char *const *args)
{
    char *out = NULL, *err = NULL;
    int rc = simtgrid_argv(&out, &err, args);
    cr_assert_eq(rc, 0, "%s", err);
    g_free(out);
    g_free(err);
}

/* The four point runs at once, as a job array would start them. */
static void run_points_in_parallel(const char *outdir)
{
    GPid pids[4];
    for (unsigned i = 0; i < 4; i++) {
        char num[8];
        g_snprintf(num, sizeof num, "%u", i);
        const char *argv[] = {g_getenv("SIMTGRID_BIN"), "run", "s.ini", "-o", outdir, "--point", num, "-q", NULL};
        cr_assert(g_spawn_async(dir, (char **)argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL, &pids[i], NULL));
    }
    for (unsigned i = 0; i < 4; i++) {
        int status = 0;
        cr_assert_eq(waitpid(pids[i], &status, 0), pids[i]);
        cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "point %u: status %d", i, status);
    }
}

Test(sweeps, point_runs_collected_equal_a_local_run)
{
    write_ok_scenario(sweep4);
    run_ok((const char *[]){"run", "s.ini", "-o", "local", "-q", NULL});
    run_points_in_parallel("pts");
    cr_assert_not(exists_in("pts/t.csv"), "point runs alone write no table");
    char *out = NULL, *err = NULL;
    cr_assert_eq(simtgrid(&out, &err, "sweep", "collect", "pts", NULL, NULL), 0, "%s%s", out, err);
    cr_assert_not_null(strstr(out, "4 of 4 points done, 0 failed, 0 missing"), "%s", out);
    char *a = read_in("local/t.csv"), *b = read_in("pts/t.csv");
    cr_assert_str_eq(a, b);
    /* The manifests agree too. */
    char *ma = read_in("local/manifest.tsv"), *mb = read_in("pts/manifest.tsv");
    cr_assert_str_eq(ma, mb);
}

Test(sweeps, a_resubmission_runs_only_missing_points)
{
    write_ok_scenario(sweep4);
    run_points_in_parallel("pts");
    char *p0 = read_in("pts/t-p0.json");
    /* Point 2 lost (its node died): collect says so and exits 1. */
    cr_assert_eq(g_unlink(path_in("pts/.simtgrid/t-p2.state")), 0);
    cr_assert_eq(g_unlink(path_in("pts/t-p2.json")), 0);
    char *out = NULL, *err = NULL;
    cr_assert_eq(simtgrid(&out, &err, "sweep", "collect", "pts", NULL, NULL), 1, "%s", err);
    cr_assert_not_null(strstr(out, "3 of 4 points done, 0 failed, 1 missing"), "%s", out);
    char *m = read_in("pts/manifest.tsv");
    cr_assert_not_null(strstr(m, "\n2\tmissing\t"), "%s", m);
    run_points_in_parallel("pts");
    cr_assert_str_eq(read_in("pts/t-p0.json"), p0, "point 0 was run again");
    cr_assert(exists_in("pts/t-p2.json"));
    cr_assert_eq(simtgrid(&out, &err, "sweep", "collect", "pts", NULL, NULL), 0, "%s", err);
    /* A whole run can resume a folder of point runs. */
    run_ok((const char *[]){"run", "s.ini", "-o", "pts", "--resume", "-q", NULL});
    cr_assert_str_eq(read_in("pts/t-p0.json"), p0);
}

Test(sweeps, list_prints_one_command_per_point)
{
    write_ok_scenario(sweep4);
    char *out = NULL, *err = NULL;
    const char *args[] = {"sweep", "list", "s.ini", "-o", "my dir", "--set", "sim.seed=3", NULL};
    cr_assert_eq(simtgrid_argv(&out, &err, args), 0, "%s", err);
    char **lines = g_strsplit(out, "\n", -1);
    cr_assert_eq(g_strv_length(lines), 5);   /* 4 lines and the final empty one */
    for (unsigned i = 0; i < 4; i++) {
        char *want = g_strdup_printf(" run 's.ini' -o 'my dir' --point %u --set 'sim.seed=3'", i);
        cr_assert_not_null(strstr(lines[i], want), "%s", lines[i]);
        g_free(want);
    }
    g_strfreev(lines);
}

Test(sweeps, bad_points_and_folders_are_refused)
{
    write_ok_scenario(sweep4);
    char *out = NULL, *err = NULL;
    const char *args[] = {"run", "s.ini", "-o", "pts", "--point", "4", NULL};
    cr_assert_eq(simtgrid_argv(&out, &err, args), 2);
    cr_assert_not_null(strstr(err, "--point 4: s.ini has 4 points (0 to 3)"), "%s", err);
    cr_assert_not(exists_in("pts"));
    cr_assert_eq(simtgrid(&out, &err, "sweep", "collect", "nowhere", NULL, NULL), 2);
    cr_assert_not_null(strstr(err, "nowhere: no such folder"), "%s", err);
    /* A point of another configuration into the same folder. */
    const char *p0[] = {"run", "s.ini", "-o", "pts", "--point", "0", "-q", NULL};
    run_ok(p0);
    const char *other[] = {"run", "s.ini", "-o", "pts", "--point", "1", "--set", "sim.seed=9", NULL};
    cr_assert_eq(simtgrid_argv(&out, &err, other), 2);
    cr_assert_not_null(strstr(err, "another scenario or configuration"), "%s", err);
}
