/* Helpers of the end-to-end tests of the simtgrid command: a temporary
 * folder per test, files in it, and the built binary (SIMTGRID_BIN) run in
 * it. */
#ifndef SIMTGRID_TEST_CLI_UTIL_H
#define SIMTGRID_TEST_CLI_UTIL_H

#include <criterion/criterion.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/wait.h>

static char *dir;

static void setup(void)
{
    dir = g_dir_make_tmp("simtgrid-cli-XXXXXX", NULL);
    cr_assert_not_null(dir);
}

__attribute__((unused)) static char *path_in(const char *name) { return g_build_filename(dir, name, NULL); }

__attribute__((unused)) static void write_file(const char *name, const char *text)
{
    char *p = path_in(name);
    cr_assert(g_file_set_contents(p, text, -1, NULL));
    g_free(p);
}

__attribute__((unused)) static bool exists_in(const char *name)
{
    char *p = path_in(name);
    bool e = g_file_test(p, G_FILE_TEST_EXISTS);
    g_free(p);
    return e;
}

__attribute__((unused)) static char *read_in(const char *name)
{
    char *p = path_in(name), *t = NULL;
    cr_assert(g_file_get_contents(p, &t, NULL, NULL), "cannot read %s", p);
    g_free(p);
    return t;
}

/* Runs simtgrid with the NULL-terminated arguments; returns its exit status
 * (128 + the signal when killed). */
__attribute__((unused)) static int simtgrid_argv(char **out, char **errout, const char *const *args)
{
    const char *bin = g_getenv("SIMTGRID_BIN");
    cr_assert_not_null(bin, "SIMTGRID_BIN is not set");
    const char *argv[32] = {bin};
    for (int i = 0; args[i] && i < 30; i++)
        argv[i + 1] = args[i];
    int status = 0;
    GError *e = NULL;
    cr_assert(g_spawn_sync(dir, (char **)argv, NULL, 0, NULL, NULL, out, errout, &status, &e),
              "%s", e ? e->message : "");
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* The same with up to five arguments (NULL ends them). */
__attribute__((unused)) static int simtgrid(char **out, char **errout, const char *a1, const char *a2, const char *a3,
                    const char *a4, const char *a5)
{
    const char *args[] = {a1, a2, a3, a4, a5, NULL};
    return simtgrid_argv(out, errout, args);
}

__attribute__((unused)) static unsigned count_files(const char *sub)
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
__attribute__((unused)) static const char kernel[] =
    ".kernel adds\n"
    "    mov r0, 0\n"
    "loop:\n"
    "    add r0, r0, 1\n"
    "    setp.lt.u64 p0, r0, 10\n"
    "    @p0 bra loop\n"
    "    exit\n";

__attribute__((unused)) static const char model[] =
    "[gpu]\nsms = 2\nmemory = ideal\n"
    "[core]\nwarp_size = 32\n";

__attribute__((unused)) static void write_ok_scenario(const char *extra)
{
    write_file("k.sasm", kernel);
    write_file("m.ini", model);
    char *s = g_strdup_printf("[scenario]\nmodel = m.ini\nname = t\n"
                              "[launch.main]\nkernel = k.sasm\ngrid = 2\nblock = 64\n%s", extra);
    write_file("s.ini", s);
    g_free(s);
}

#endif
