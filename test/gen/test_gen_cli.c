/* `simtgrid gen` end to end: a valid profile writes a kernel that `kernel
 * check` accepts; --seed makes it reproducible; every error exits 2 with the
 * file, line and key and leaves no output file; the profile kernels run
 * through the timing model (workloads/profiles/run-lwm.ini). Runs
 * SIMTGRID_BIN. */
#include <criterion/criterion.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char *dir;

static void setup(void)
{
    dir = g_dir_make_tmp("simtgrid-gencli-XXXXXX", NULL);
    cr_assert_not_null(dir);
}

/* Removes a folder and everything in it (the test's own temporary one). */
static void remove_tree(const char *path)
{
    GDir *d = g_dir_open(path, 0, NULL);
    const char *n;
    while (d && (n = g_dir_read_name(d))) {
        char *p = g_build_filename(path, n, NULL);
        if (g_file_test(p, G_FILE_TEST_IS_DIR))
            remove_tree(p);
        else
            g_remove(p);
        g_free(p);
    }
    if (d)
        g_dir_close(d);
    g_rmdir(path);
}

static void teardown(void)
{
    remove_tree(dir);
    g_free(dir);
}

static char *in_dir(const char *name) { return g_build_filename(dir, name, NULL); }

static void write_file(const char *name, const char *text)
{
    char *p = in_dir(name);
    cr_assert(g_file_set_contents(p, text, -1, NULL));
    g_free(p);
}

static bool exists(const char *name)
{
    char *p = in_dir(name);
    bool e = g_file_test(p, G_FILE_TEST_EXISTS);
    g_free(p);
    return e;
}

static char *contents(const char *name)
{
    char *p = in_dir(name), *t = NULL;
    cr_assert(g_file_get_contents(p, &t, NULL, NULL), "cannot read %s", p);
    g_free(p);
    return t;
}

/* Runs simtgrid with up to 6 arguments (NULL-terminated) in dir. */
static int simtgrid(char **errout, const char *const *args)
{
    const char *bin = g_getenv("SIMTGRID_BIN");
    cr_assert_not_null(bin, "SIMTGRID_BIN is not set");
    const char *argv[8] = {bin};
    for (int i = 0; args[i] && i < 6; i++)
        argv[i + 1] = args[i];
    int status = 0;
    char *out = NULL;
    GError *e = NULL;
    cr_assert(g_spawn_sync(dir, (char **)argv, NULL, 0, NULL, NULL, &out, errout, &status, &e), "%s",
              e ? e->message : "");
    g_free(out);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

static const char good[] = "[loop]\ntrips = 3\n[memory]\npattern = gather\n[compute]\nops = 4\nfp = 1\n"
                           "[branch]\nshape = ifelse\n";

TestSuite(gen_cli, .init = setup, .fini = teardown);

Test(gen_cli, writes_a_kernel_that_checks)
{
    write_file("good.ini", good);
    char *err = NULL;
    cr_assert_eq(simtgrid(&err, (const char *[]){"gen", "good.ini", "-o", "k.sasm", NULL}), 0, "%s", err);
    g_free(err);
    cr_assert_eq(simtgrid(&err, (const char *[]){"kernel", "check", "k.sasm", NULL}), 0, "%s", err);
    g_free(err);
}

Test(gen_cli, seed_makes_it_reproducible)
{
    write_file("good.ini", good);
    char *err = NULL;
    cr_assert_eq(simtgrid(&err, (const char *[]){"gen", "good.ini", "-o", "a.sasm", "--seed", "5", NULL}), 0);
    g_free(err);
    cr_assert_eq(simtgrid(&err, (const char *[]){"gen", "--seed", "5", "good.ini", "-o", "b.sasm", NULL}), 0);
    g_free(err);
    cr_assert_eq(simtgrid(&err, (const char *[]){"gen", "good.ini", "-o", "c.sasm", "--seed", "6", NULL}), 0);
    g_free(err);
    char *a = contents("a.sasm"), *b = contents("b.sasm"), *c = contents("c.sasm");
    cr_assert_str_eq(a, b);
    cr_assert_str_neq(a, c);
    g_free(a);
    g_free(b);
    g_free(c);
}

Test(gen_cli, bad_profile_exits_2_without_output)
{
    write_file("bad.ini", "[memory]\npattern = gather\nloads = 99\n");
    char *err = NULL;
    cr_assert_eq(simtgrid(&err, (const char *[]){"gen", "bad.ini", "-o", "k.sasm", NULL}), 2);
    cr_assert(strstr(err, "bad.ini:3: [memory] key 'loads'"), "%s", err);
    cr_assert_not(exists("k.sasm"));
    g_free(err);
}

Test(gen_cli, bad_arguments_exit_2_without_output)
{
    write_file("good.ini", good);
    char *err = NULL;
    cr_assert_eq(simtgrid(&err, (const char *[]){"gen", "good.ini", "-o", "k.sasm", "--seed", "-1", NULL}), 2);
    cr_assert(strstr(err, "--seed: expected an unsigned integer"), "%s", err);
    g_free(err);
    cr_assert_eq(simtgrid(&err, (const char *[]){"gen", "good.ini", NULL}), 2);
    cr_assert(strstr(err, "usage: simtgrid gen"), "%s", err);
    g_free(err);
    cr_assert_eq(simtgrid(&err, (const char *[]){"gen", "missing.ini", "-o", "k.sasm", NULL}), 2);
    cr_assert(strstr(err, "missing.ini: cannot read file"), "%s", err);
    g_free(err);
    cr_assert_eq(simtgrid(&err, (const char *[]){"gen", "good.ini", "-o", "no/such/dir/k.sasm", NULL}), 2);
    cr_assert(strstr(err, "cannot write"), "%s", err);
    g_free(err);
    cr_assert_not(exists("k.sasm"));
}

/* -o onto anything but a regular file is refused and the target left as it
 * was (today a symbolic link or a device node is replaced by a file). */
Test(gen_cli, writes_only_regular_files)
{
    write_file("good.ini", good);
    write_file("real.sasm", "keep\n");
    char *link = in_dir("link.sasm"), *fifo = in_dir("fifo.sasm");
    cr_assert_eq(symlink("real.sasm", link), 0);
    cr_assert_eq(mkfifo(fifo, 0644), 0);
    char *err = NULL;
    cr_assert_eq(simtgrid(&err, (const char *[]){"gen", "good.ini", "-o", "link.sasm", NULL}), 2);
    cr_assert(strstr(err, "-o 'link.sasm': a symbolic link; only regular files are written"), "%s", err);
    g_free(err);
    cr_assert_eq(simtgrid(&err, (const char *[]){"gen", "good.ini", "-o", "fifo.sasm", NULL}), 2);
    cr_assert(strstr(err, "a named pipe"), "%s", err);
    g_free(err);
    GStatBuf st;
    cr_assert_eq(g_lstat(link, &st), 0);
    cr_assert(S_ISLNK(st.st_mode));
    cr_assert_eq(g_lstat(fifo, &st), 0);
    cr_assert(S_ISFIFO(st.st_mode));
    cr_assert_str_eq(contents("real.sasm"), "keep\n");
    /* A regular file is replaced as before. */
    cr_assert_eq(simtgrid(&err, (const char *[]){"gen", "good.ini", "-o", "real.sasm", NULL}), 0, "%s", err);
    cr_assert(g_str_has_prefix(contents("real.sasm"), "//") || strstr(contents("real.sasm"), ".kernel"));
    g_free(link);
    g_free(fifo);
}

/* Every generated profile kernel through the whole timing model: the
 * scenario runs (both sweep points) and writes its results. */
Test(gen_cli, profile_kernels_run_in_a_scenario)
{
    const char *root = g_getenv("SIMTGRID_SRC");
    cr_assert_not_null(root);
    char *scen = g_strdup_printf("%s/workloads/profiles/run-lwm.ini", root), *err = NULL;
    cr_assert_eq(simtgrid(&err, (const char *[]){"run", scen, "-o", "res", NULL}), 0, "%s", err);
    g_free(err);
    cr_assert(exists("res/profiles-lwm-p0.json") && exists("res/profiles-lwm-p1.json") &&
              exists("res/profiles-lwm.csv"));
    g_free(scen);
}
