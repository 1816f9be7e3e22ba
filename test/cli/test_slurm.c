/* `simtgrid sweep submit --slurm`: the points a submission selects, the
 * batch script it writes (src/cli/slurm.c, checked as text), and the whole
 * command with a stand-in sbatch on PATH whose array tasks the test runs
 * with bash, as Slurm would: the collected table equals a local run's, and
 * a resubmission runs only the missing or failed points. The real Slurm
 * test is tools/test-slurm. Runs SIMTGRID_BIN. */
#include "cli_util.h"
#include "cli/slurm.h"

TestSuite(slurm, .init = setup);

static plan *plan_of(const point_state *st, unsigned n)
{
    plan *pl = g_new0(plan, 1);
    pl->n = n;
    pl->p = g_new0(plan_point, n);
    for (unsigned i = 0; i < n; i++)
        pl->p[i].state = st[i];
    return pl;
}

Test(slurm, points_todo_are_those_not_done)
{
    /* done, missing, failed, done, missing -> points 1, 2, 4. */
    const point_state st[] = {POINT_DONE, POINT_MISSING, POINT_FAILED, POINT_DONE, POINT_MISSING};
    plan *pl = plan_of(st, 5);
    unsigned n = 0;
    unsigned *todo = slurm_points_todo(pl, &n);
    cr_assert_eq(n, 3);
    cr_assert_eq(todo[0], 1);
    cr_assert_eq(todo[1], 2);
    cr_assert_eq(todo[2], 4);
    g_free(todo);
    /* Every point done: nothing. */
    const point_state all[] = {POINT_DONE, POINT_DONE};
    plan *done = plan_of(all, 2);
    todo = slurm_points_todo(done, &n);
    cr_assert_eq(n, 0);
    g_free(todo);
    g_free(pl->p), g_free(pl), g_free(done->p), g_free(done);
}

Test(slurm, tasks_round_up)
{
    /* ceil(n / k): 4 points 1 per task: 4; 3 per task: 2 (3 + 1); 4 per
     * task: 1; 5 per task: 1; 7 points 2 per task: 4 (2 + 2 + 2 + 1). */
    cr_assert_eq(slurm_ntasks(4, 1), 4);
    cr_assert_eq(slurm_ntasks(4, 3), 2);
    cr_assert_eq(slurm_ntasks(4, 4), 1);
    cr_assert_eq(slurm_ntasks(4, 5), 1);
    cr_assert_eq(slurm_ntasks(7, 2), 4);
}

Test(slurm, script_text)
{
    const unsigned pts[] = {1, 2, 4};
    const char *sets[] = {"sim.seed=3", "l1d.sets=64", NULL};
    slurm_job j = {.name = "t", .bin = "/opt/sg/simtgrid", .scenario = "/home/a b/s.ini", .dir = "/scratch/r",
                   .sets = sets, .partition = "gpu", .time = "1:00:00", .chunk = 2, .points = pts, .npoints = 3};
    char *s = slurm_script(&j);
    /* 3 points, 2 per task: tasks 0 and 1 (points 1 2, then 4). */
    const char *want =
        "#!/bin/bash\n"
        "# Written by `simtgrid sweep submit --slurm` (docs/sweeps.md): 3 points of\n"
        "# /home/a b/s.ini, 2 per array task, into /scratch/r.\n"
        "#SBATCH --job-name=simtgrid-t\n"
        "#SBATCH --array=0-1\n"
        "#SBATCH --ntasks=1\n"
        "#SBATCH --output=%x-%A_%a.out\n"
        "#SBATCH --partition=gpu\n"
        "#SBATCH --time=1:00:00\n"
        "set -u\n"
        ": \"${SLURM_ARRAY_TASK_ID:?not an array task: submit this script with sbatch}\"\n"
        "points=(1 2 4)\n"
        "chunk=2\n"
        "rc=0\n"
        "for i in \"${points[@]:$((SLURM_ARRAY_TASK_ID * chunk)):chunk}\"; do\n"
        "  '/opt/sg/simtgrid' run '/home/a b/s.ini' -o '/scratch/r' --point \"$i\" --set 'sim.seed=3' "
        "--set 'l1d.sets=64' || rc=1\n"
        "done\n"
        "exit $rc\n";
    cr_assert_str_eq(s, want);
    g_free(s);
    /* No partition or time: the cluster's defaults; an odd name: no suffix. */
    j.partition = j.time = NULL;
    j.sets = NULL;
    j.name = "my sweep";
    j.chunk = 1;
    s = slurm_script(&j);
    cr_assert_not_null(strstr(s, "#SBATCH --job-name=simtgrid\n#SBATCH --array=0-2\n"), "%s", s);
    cr_assert_null(strstr(s, "--partition"));
    cr_assert_null(strstr(s, "--time"));
    cr_assert_not_null(strstr(s, "--point \"$i\" || rc=1\n"), "%s", s);
    g_free(s);
}

Test(slurm, words)
{
    cr_assert(slurm_word_ok("gpu-a100_x"));
    cr_assert(slurm_word_ok("1-12:00:00"));
    cr_assert_not(slurm_word_ok(""));
    cr_assert_not(slurm_word_ok("a b"));
    cr_assert_not(slurm_word_ok("x\n#SBATCH --mem=1"));
}

static const char sweep4[] = "[sweep]\ncore.scheduler = lrr, gto\ngpu.sms = 1, 2\n";

/* A stand-in sbatch: records the folder it ran in and its arguments. */
static void fake_sbatch(void)
{
    char *b = path_in("bin");
    cr_assert_eq(g_mkdir(b, 0755), 0);
    g_free(b);
    write_file("bin/sbatch", "#!/bin/sh\necho \"$PWD $*\" > \"$FAKE_LOG\"\necho 'Submitted batch job 42'\n");
    char *p = path_in("bin/sbatch");
    cr_assert_eq(g_chmod(p, 0755), 0);
    g_free(p);
    char *bin = path_in("bin"), *log = path_in("sbatch.log");
    g_setenv("PATH", bin, TRUE);
    g_setenv("FAKE_LOG", log, TRUE);
    g_free(bin), g_free(log);
}

/* Array task `task` of the submitted script, run by bash as Slurm would. */
static void run_task(const char *script, unsigned task)
{
    char *p = path_in(script), *t = g_strdup_printf("SLURM_ARRAY_TASK_ID=%u", task);
    const char *argv[] = {"/usr/bin/env", t, "/bin/bash", p, NULL};
    char *out = NULL, *err = NULL;
    int status = 0;
    cr_assert(g_spawn_sync(dir, (char **)argv, NULL, 0, NULL, NULL, &out, &err, &status, NULL));
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "task %u: %s%s", task, out, err);
    g_free(out), g_free(err), g_free(p), g_free(t);
}

Test(slurm, submit_runs_the_points_not_done)
{
    fake_sbatch();
    write_ok_scenario(sweep4);
    char *out = NULL, *err = NULL;
    cr_assert_eq(simtgrid_argv(&out, &err, (const char *[]){"run", "s.ini", "-o", "local", "-q", NULL}), 0, "%s", err);
    /* Points 0 and 3 run before (by hand, say); point 1 failed. */
    cr_assert_eq(simtgrid_argv(&out, &err, (const char *[]){"run", "s.ini", "-o", "r", "--point", "0", "-q", NULL}), 0);
    cr_assert_eq(simtgrid_argv(&out, &err, (const char *[]){"run", "s.ini", "-o", "r", "--point", "3", "-q", NULL}), 0);
    char *m = read_in("r/manifest.tsv");
    char **lines = g_strsplit(m, "\n", -1);
    /* Line 6 is point 1: "1\tmissing\tHASH\t...". */
    char **f = g_strsplit(lines[6], "\t", -1);
    cr_assert_str_eq(f[0], "1");
    char *failed = g_strdup_printf("failed %s\nsm0: out of luck", f[2]);
    write_file("r/.simtgrid/t-p1.state", failed);
    const char *sub[] = {"sweep", "submit", "s.ini", "-o", "r", "--slurm", "--partition", "p1", NULL};
    cr_assert_eq(simtgrid_argv(&out, &err, sub), 0, "%s", err);
    cr_assert_not_null(strstr(out, "2 of 4 points to run, 2 array tasks"), "%s", out);
    cr_assert_not_null(strstr(out, "Submitted batch job 42"), "%s", out);
    /* sbatch ran in the script's folder, on the script. */
    char *log = read_in("sbatch.log");
    char *want = g_strdup_printf("%s/r/.simtgrid/slurm t.sbatch\n", dir);
    cr_assert_str_eq(log, want);
    char *script = read_in("r/.simtgrid/slurm/t.sbatch");
    cr_assert_not_null(strstr(script, "\npoints=(1 2)\nchunk=1\n"), "%s", script);
    cr_assert_not_null(strstr(script, "#SBATCH --array=0-1\n"), "%s", script);
    cr_assert_not_null(strstr(script, "#SBATCH --partition=p1\n"), "%s", script);
    char *p0 = read_in("r/t-p0.json");
    run_task("r/.simtgrid/slurm/t.sbatch", 0);
    run_task("r/.simtgrid/slurm/t.sbatch", 1);
    cr_assert_eq(simtgrid(&out, &err, "sweep", "collect", "r", NULL, NULL), 0, "%s%s", out, err);
    char *a = read_in("local/t.csv"), *b = read_in("r/t.csv");
    cr_assert_str_eq(a, b);
    cr_assert_str_eq(read_in("r/t-p0.json"), p0, "point 0 was run again");
    /* All done: nothing submitted. */
    cr_assert_eq(g_unlink(path_in("sbatch.log")), 0);
    cr_assert_eq(simtgrid_argv(&out, &err, sub), 0, "%s", err);
    cr_assert_not_null(strstr(out, "all 4 points done, nothing to submit"), "%s", out);
    cr_assert_not(exists_in("sbatch.log"));
    g_strfreev(f), g_strfreev(lines);
    g_free(m), g_free(failed), g_free(log), g_free(want), g_free(script), g_free(p0), g_free(a), g_free(b);
}

Test(slurm, a_job_still_queued_is_not_submitted_again)
{
    fake_sbatch();
    /* A stand-in squeue: lists job 42 while the file `queued` exists. */
    char *q = path_in("queued");
    char *sq = g_strdup_printf("#!/bin/sh\n[ \"$3\" = 42 ] && [ -e '%s' ] && echo 42\nexit 0\n", q);
    write_file("bin/squeue", sq);
    char *p = path_in("bin/squeue");
    cr_assert_eq(g_chmod(p, 0755), 0);
    write_ok_scenario(sweep4);
    char *out = NULL, *err = NULL;
    const char *sub[] = {"sweep", "submit", "s.ini", "-o", "r", "--slurm", NULL};
    cr_assert_eq(simtgrid_argv(&out, &err, sub), 0, "%s", err);
    cr_assert_str_eq(read_in("r/.simtgrid/slurm/job"), "42\n");
    write_file("queued", "");
    cr_assert_eq(simtgrid_argv(&out, &err, sub), 2);
    cr_assert_not_null(strstr(err, "job 42, submitted into r before, is still queued or running (squeue -j 42)"),
                       "%s", err);
    /* Ended (squeue lists it no more): submitted again, all 4 points, as
     * none ran. */
    cr_assert_eq(g_unlink(q), 0);
    cr_assert_eq(simtgrid_argv(&out, &err, sub), 0, "%s", err);
    cr_assert_not_null(strstr(out, "4 of 4 points to run, 4 array tasks"), "%s", out);
    g_free(q), g_free(sq), g_free(p);
}

Test(slurm, chunks_and_dry_run)
{
    write_ok_scenario(sweep4);
    char *out = NULL, *err = NULL;
    /* --dry-run needs no sbatch. */
    g_setenv("PATH", dir, TRUE);
    const char *sub[] = {"sweep", "submit", "s.ini", "-o", "r", "--slurm", "--chunk", "3", "--dry-run", NULL};
    cr_assert_eq(simtgrid_argv(&out, &err, sub), 0, "%s", err);
    cr_assert_not_null(strstr(out, "4 of 4 points to run, 2 array tasks"), "%s", out);
    cr_assert_not_null(strstr(out, "not submitted (--dry-run); to submit it: cd "), "%s", out);
    char *script = read_in("r/.simtgrid/slurm/t.sbatch");
    cr_assert_not_null(strstr(script, "#SBATCH --array=0-1\n"), "%s", script);
    cr_assert_not_null(strstr(script, "\npoints=(0 1 2 3)\nchunk=3\n"), "%s", script);
    /* Task 1 runs point 3 alone (points[3..5] holds one). */
    run_task("r/.simtgrid/slurm/t.sbatch", 1);
    cr_assert(exists_in("r/t-p3.json"));
    cr_assert_not(exists_in("r/t-p0.json"));
    cr_assert_not(exists_in("r/t-p2.json"));
    g_free(script);
}

Test(slurm, refusals)
{
    write_ok_scenario(sweep4);
    char *out = NULL, *err = NULL;
    /* No sbatch on PATH: a clear error, nothing written. */
    g_setenv("PATH", dir, TRUE);
    const char *nosb[] = {"sweep", "submit", "s.ini", "-o", "r", "--slurm", NULL};
    cr_assert_eq(simtgrid_argv(&out, &err, nosb), 2);
    cr_assert_not_null(strstr(err, "sbatch not found: Slurm's sbatch is not on PATH"), "%s", err);
    cr_assert_not(exists_in("r"));
    const char *noslurm[] = {"sweep", "submit", "s.ini", "--dry-run", NULL};
    cr_assert_eq(simtgrid_argv(&out, &err, noslurm), 2);
    cr_assert_not_null(strstr(err, "name the scheduler: --slurm"), "%s", err);
    const char *chunk0[] = {"sweep", "submit", "s.ini", "--slurm", "--chunk", "0", "--dry-run", NULL};
    cr_assert_eq(simtgrid_argv(&out, &err, chunk0), 2);
    cr_assert_not_null(strstr(err, "--chunk '0'"), "%s", err);
    const char *part[] = {"sweep", "submit", "s.ini", "--slurm", "--partition", "a b", "--dry-run", NULL};
    cr_assert_eq(simtgrid_argv(&out, &err, part), 2);
    cr_assert_not_null(strstr(err, "--partition 'a b'"), "%s", err);
    cr_assert_not(exists_in("results"));
}
