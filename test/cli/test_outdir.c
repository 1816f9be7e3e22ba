/* A run owns its output folder: a second run does not replace or delete the
 * first one's results unless told to (--force, --resume), two runs cannot
 * write one folder at once, a failed or stopped sweep keeps the points it
 * finished with a manifest of every point's state, --resume runs only what
 * is missing or changed, a stopped run stops its running point too, and
 * --jobs does not change the results. Runs SIMTGRID_BIN. */
#include <signal.h>
#include <unistd.h>

#include "cli_util.h"

TestSuite(outdir, .init = setup);

static const char sweep3[] = "[sweep]\ncore.scheduler = lrr, gto, 2lev\n";

/* A kernel that never ends: thread 0 spins while r0 < 1, which stays true. */
static const char spin[] = ".kernel spin\n    mov r0, 0\nloop:\n    setp.lt.u64 p0, r0, 1\n"
                           "    @p0 bra loop\n    exit\n";

static void run_ok(const char *const *args)
{
    char *out = NULL, *err = NULL;
    int rc = simtgrid_argv(&out, &err, args);
    cr_assert_eq(rc, 0, "%s", err);
    g_free(out);
    g_free(err);
}

/* The manifest line of point i, without its hash (point, state, ...). */
static char *manifest_line(unsigned i)
{
    char *m = read_in("res/manifest.tsv");
    char *key = g_strdup_printf("\n%u\t", i);
    char *at = strstr(m, key);
    cr_assert_not_null(at, "no point %u in\n%s", i, m);
    char *end = strchr(at + 1, '\n');
    char *line = g_strndup(at + 1, end ? (size_t)(end - at - 1) : strlen(at + 1));
    g_free(key);
    g_free(m);
    return line;
}

Test(outdir, a_second_run_is_refused_and_the_first_results_stay)
{
    write_ok_scenario(sweep3);
    run_ok((const char *[]){"run", "s.ini", "-o", "res", "-q", NULL});
    char *before = read_in("res/t-p1.json");
    /* The second run would fail at point 1 (a CTA of 64 threads on an SM of
     * 32): today it deletes every t-pI.json, whoever wrote it. */
    write_ok_scenario("[sweep]\ncore.max_threads = 2048, 32\n");
    char *out = NULL, *err = NULL;
    cr_assert_eq(simtgrid(&out, &err, "run", "s.ini", "-o", "res", NULL), 2);
    cr_assert_not_null(strstr(err, "holds the results of a previous run"), "%s", err);
    cr_assert_not_null(strstr(err, "--force"), "%s", err);
    char *after = read_in("res/t-p1.json");
    cr_assert_str_eq(before, after);
    cr_assert(exists_in("res/t-p0.json") && exists_in("res/t-p2.json") && exists_in("res/t.csv"));
}

Test(outdir, results_not_written_by_simtgrid_are_not_overwritten)
{
    write_ok_scenario("");
    cr_assert_eq(g_mkdir(path_in("res"), 0755), 0);
    write_file("res/t.json", "mine\n");
    char *out = NULL, *err = NULL;
    cr_assert_eq(simtgrid(&out, &err, "run", "s.ini", "-o", "res", NULL), 2);
    cr_assert_not_null(strstr(err, "t.json"), "%s", err);
    char *t = read_in("res/t.json");
    cr_assert_str_eq(t, "mine\n");
    run_ok((const char *[]){"run", "s.ini", "-o", "res", "--force", "-q", NULL});
    t = read_in("res/t.json");
    cr_assert(g_str_has_prefix(t, "{"));
}

Test(outdir, force_replaces_only_the_previous_runs_files)
{
    write_ok_scenario(sweep3);
    run_ok((const char *[]){"run", "s.ini", "-o", "res", "-q", NULL});
    write_file("res/notes.txt", "keep me\n");
    /* A shorter sweep: today t-p2.json of the longer one stays beside the
     * new CSV. */
    write_ok_scenario("[sweep]\ncore.scheduler = lrr, gto\n");
    run_ok((const char *[]){"run", "s.ini", "-o", "res", "--force", "-q", NULL});
    cr_assert_not(exists_in("res/t-p2.json"));
    cr_assert(exists_in("res/t-p0.json") && exists_in("res/t-p1.json"));
    char *notes = read_in("res/notes.txt");
    cr_assert_str_eq(notes, "keep me\n");
    char *csv = read_in("res/t.csv");
    char **lines = g_strsplit(csv, "\n", -1);
    cr_assert_eq(g_strv_length(lines), 4);   /* header, 2 rows, final empty */
    g_strfreev(lines);
}

Test(outdir, a_failed_sweep_keeps_its_finished_points_and_says_why)
{
    /* Point 1 makes the CTA (64 threads) too big for an SM of 32 threads:
     * refused when its chip is built; point 0 is a complete result. */
    write_ok_scenario("[sweep]\ncore.max_threads = 2048, 32\n");
    char *out = NULL, *err = NULL;
    const char *args[] = {"run", "s.ini", "-o", "res", "--jobs", "1", NULL};
    cr_assert_eq(simtgrid_argv(&out, &err, args), 2);
    cr_assert(exists_in("res/t-p0.json"));
    cr_assert_not(exists_in("res/t-p1.json"));
    cr_assert_not(exists_in("res/t.csv"));   /* a table of part of a sweep would mislead */
    char *l0 = manifest_line(0), *l1 = manifest_line(1);
    cr_assert(g_str_has_prefix(l0, "0\tdone\t"), "%s", l0);
    cr_assert(g_str_has_prefix(l1, "1\tfailed\t"), "%s", l1);
    cr_assert_not_null(strstr(l1, "max_threads"), "the error is recorded: %s", l1);
}

Test(outdir, a_run_that_writes_nothing_leaves_no_folder)
{
    write_ok_scenario("[set]\ncore.max_threads = 32\n");
    char *out = NULL, *err = NULL;
    cr_assert_eq(simtgrid(&out, &err, "run", "s.ini", "-o", "res/deep", NULL), 2);
    cr_assert_not(exists_in("res/deep"), "an empty results folder was left");
}

Test(outdir, resume_runs_only_the_missing_points)
{
    write_ok_scenario(sweep3);
    run_ok((const char *[]){"run", "s.ini", "-o", "res", "-q", NULL});
    char *p0 = read_in("res/t-p0.json"), *p2 = read_in("res/t-p2.json"), *csv = read_in("res/t.csv");
    cr_assert_eq(g_unlink(path_in("res/t-p1.json")), 0);
    run_ok((const char *[]){"run", "s.ini", "-o", "res", "--resume", "-q", NULL});
    /* Points 0 and 2 were not run again: their documents, host times
     * included, are byte for byte the old ones. */
    char *q0 = read_in("res/t-p0.json"), *q2 = read_in("res/t-p2.json"), *csv2 = read_in("res/t.csv");
    cr_assert_str_eq(p0, q0);
    cr_assert_str_eq(p2, q2);
    cr_assert(exists_in("res/t-p1.json"));
    cr_assert_str_eq(csv, csv2);
    /* A changed configuration changes every point's hash: all run again. */
    run_ok((const char *[]){"run", "s.ini", "-o", "res", "--resume", "--set", "sim.seed=7", "-q", NULL});
    char *r0 = read_in("res/t-p0.json");
    cr_assert_not_null(strstr(r0, "\"sim.seed\": 7"));
    char *l2 = manifest_line(2);
    cr_assert(g_str_has_prefix(l2, "2\tdone\t"), "%s", l2);
}

Test(outdir, resume_needs_a_run_to_continue)
{
    write_ok_scenario("");
    char *out = NULL, *err = NULL;
    const char *args[] = {"run", "s.ini", "-o", "res", "--resume", NULL};
    cr_assert_eq(simtgrid_argv(&out, &err, args), 2);
    cr_assert_not_null(strstr(err, "no run to continue"), "%s", err);
    const char *both[] = {"run", "s.ini", "--force", "--resume", NULL};
    cr_assert_eq(simtgrid_argv(&out, &err, both), 2);
}

/* Any process of SIMTGRID_BIN still working in the test's folder. */
static pid_t find_simtgrid_in_dir(void)
{
    char *bin = realpath(g_getenv("SIMTGRID_BIN"), NULL), *here = realpath(dir, NULL);
    GDir *d = g_dir_open("/proc", 0, NULL);
    const char *n;
    pid_t found = 0;
    while (d && !found && (n = g_dir_read_name(d))) {
        if (!g_ascii_isdigit(n[0]))
            continue;
        char *cwd_l = g_strdup_printf("/proc/%s/cwd", n), *exe_l = g_strdup_printf("/proc/%s/exe", n);
        char *cwd = g_file_read_link(cwd_l, NULL), *exe = g_file_read_link(exe_l, NULL);
        if (cwd && exe && !strcmp(cwd, here) && !strcmp(exe, bin))
            found = (pid_t)atoi(n);
        g_free(cwd), g_free(exe), g_free(cwd_l), g_free(exe_l);
    }
    if (d)
        g_dir_close(d);
    free(bin);
    free(here);
    return found;
}

/* Start `simtgrid run s.ini -o res` in the background; returns once its
 * first point runs (the manifest is written before any point starts). */
static GPid start_run(void)
{
    const char *argv[] = {g_getenv("SIMTGRID_BIN"), "run", "s.ini", "-o", "res", "-q", "--jobs", "1",
                          NULL};
    GPid pid;
    GError *e = NULL;
    cr_assert(g_spawn_async(dir, (char **)argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD |
                            G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &pid, &e),
              "%s", e ? e->message : "");
    for (int i = 0; i < 1000 && !exists_in("res/manifest.tsv"); i++)
        g_usleep(10000);
    cr_assert(exists_in("res/manifest.tsv"));
    g_usleep(200000);   /* the point's child is running its endless kernel */
    return pid;
}

static int wait_status(GPid pid)
{
    int status = 0;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    return status;
}

Test(outdir, a_second_concurrent_run_gets_a_clear_error)
{
    write_file("spin.sasm", spin);
    write_ok_scenario("[set]\nsim.max_cycles = 0\n");
    write_file("k.sasm", spin);
    GPid pid = start_run();
    char *out = NULL, *err = NULL;
    int rc = simtgrid(&out, &err, "run", "s.ini", "-o", "res", "--force");
    kill(pid, SIGTERM);
    wait_status(pid);
    cr_assert_eq(rc, 2, "%s", err);
    cr_assert_not_null(strstr(err, "in use by another simtgrid run"), "%s", err);
}

Test(outdir, sigterm_stops_the_running_point_and_keeps_the_manifest)
{
    /* Point 0 stops at its cycle limit (a result); point 1 never ends. */
    write_ok_scenario("[sweep]\nsim.max_cycles = 1000, 0\n");
    write_file("k.sasm", spin);
    GPid pid = start_run();
    /* Point 0 takes a moment (longer under the sanitizers); then point 1
     * runs and never ends. */
    for (int i = 0; i < 6000 && !exists_in("res/t-p0.json"); i++)
        g_usleep(10000);
    cr_assert(exists_in("res/t-p0.json"));
    g_usleep(300000);
    kill(pid, SIGTERM);
    int status = wait_status(pid);
    cr_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM, "status %d", status);
    /* Today the point's process runs on after its parent died. */
    pid_t left = 0;
    for (int i = 0; i < 1000 && (left = find_simtgrid_in_dir()); i++)
        g_usleep(10000);
    if (left)
        kill(left, SIGKILL);
    cr_assert_eq(left, 0, "process %d still runs the point", left);
    char *l0 = manifest_line(0), *l1 = manifest_line(1);
    cr_assert(g_str_has_prefix(l0, "0\tdone\t"), "%s", l0);
    cr_assert(g_str_has_prefix(l1, "1\tmissing\t"), "%s", l1);
    cr_assert(exists_in("res/t-p0.json"));
    cr_assert_not(exists_in("res/t-p1.json"));
    cr_assert_not(exists_in("res/.simtgrid/t-p1.json.tmp"));
}

Test(outdir, jobs_do_not_change_the_results)
{
    write_ok_scenario("[sweep]\ncore.scheduler = lrr, gto, 2lev\ngpu.sms = 1, 2\n");
    run_ok((const char *[]){"run", "s.ini", "-o", "j1", "--jobs", "1", "-q", NULL});
    run_ok((const char *[]){"run", "s.ini", "-o", "j3", "--jobs", "3", "-q", NULL});
    char *a = read_in("j1/t.csv"), *b = read_in("j3/t.csv");
    cr_assert_str_eq(a, b);
    for (unsigned i = 0; i < 6; i++) {
        char *n1 = g_strdup_printf("j1/t-p%u.json", i), *n3 = g_strdup_printf("j3/t-p%u.json", i);
        char *x = read_in(n1), *y = read_in(n3);
        *strstr(x, "\"host\"") = 0;   /* wall and CPU times differ */
        *strstr(y, "\"host\"") = 0;
        cr_assert_str_eq(x, y, "point %u", i);
    }
    char *out = NULL, *err = NULL;
    const char *bad[] = {"run", "s.ini", "--jobs", "0", NULL};
    cr_assert_eq(simtgrid_argv(&out, &err, bad), 2);
    cr_assert_not_null(strstr(err, "--jobs: expected an integer from 1 to 1024, got '0'"), "%s", err);
}
