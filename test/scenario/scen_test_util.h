/* Helpers for the scenario tests: fixture paths, temporary files, errors. */
#ifndef SCEN_TEST_UTIL_H
#define SCEN_TEST_UTIL_H

#include <criterion/criterion.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "simtgrid/config.h"

/* The source tree: $SIMTGRID_SRC (set by meson test), else derived from this
 * file's path (meson passes it relative to the build folder). */
static inline char *src_path(const char *rel)
{
    const char *root = g_getenv("SIMTGRID_SRC");
    if (root)
        return g_build_filename(root, rel, NULL);
    char *dir = g_path_get_dirname(__FILE__);           /* .../test/scenario */
    char *p = g_build_filename(dir, "..", "..", rel, NULL);
    g_free(dir);
    return p;
}

/* A fresh temporary folder for one test. */
static inline char *tmp_dir(void)
{
    GError *e = NULL;
    char *d = g_dir_make_tmp("simtgrid-scen-XXXXXX", &e);
    cr_assert(d, "cannot make a temporary folder: %s", e ? e->message : "?");
    return d;
}

/* Write `text` to dir/name (name may contain one subfolder); returns the path. */
static inline char *write_file(const char *dir, const char *name, const char *text)
{
    char *p = g_build_filename(dir, name, NULL);
    char *parent = g_path_get_dirname(p);
    g_mkdir_with_parents(parent, 0700);
    g_free(parent);
    cr_assert(g_file_set_contents(p, text, -1, NULL), "cannot write %s", p);
    return p;
}

/* Remove a temporary folder made by tmp_dir (files and one level of folders). */
static inline void rm_tree(const char *dir)
{
    GDir *d = g_dir_open(dir, 0, NULL);
    const char *n;
    while (d && (n = g_dir_read_name(d))) {
        char *p = g_build_filename(dir, n, NULL);
        if (g_file_test(p, G_FILE_TEST_IS_DIR) && !g_file_test(p, G_FILE_TEST_IS_SYMLINK))
            rm_tree(p);
        else
            g_unlink(p);
        g_free(p);
    }
    if (d)
        g_dir_close(d);
    g_rmdir(dir);
}

/* The call failed with exactly this message. */
#define assert_error(ok, err, expected)                                                     \
    do {                                                                                    \
        cr_assert(!(ok), "expected a failure");                                             \
        cr_assert((err) != NULL, "no error set");                                           \
        cr_assert(g_error_matches((err), SIMTGRID_ERROR, SIMTGRID_ERROR_INPUT));            \
        cr_assert_str_eq((err)->message, (expected));                                       \
        g_clear_error(&(err));                                                              \
    } while (0)

#endif
