/* A temporary folder for tests that write small input files by hand. */
#ifndef TEST_FILES_UTIL_H
#define TEST_FILES_UTIL_H

#include <criterion/criterion.h>
#include <glib.h>
#include <glib/gstdio.h>

typedef struct tmp_dir {
    char *path;
    GPtrArray *files; /* written, removed by tmp_dir_free */
} tmp_dir;

static inline tmp_dir tmp_dir_new(void)
{
    GError *e = NULL;
    tmp_dir t = {g_dir_make_tmp("simtgrid-test-XXXXXX", &e), g_ptr_array_new_with_free_func(g_free)};
    cr_assert_not_null(t.path, "%s", e ? e->message : "?");
    return t;
}

/* Writes `len` bytes (len < 0: a C string) to t/name; returns the full path. */
static inline const char *tmp_write(tmp_dir *t, const char *name, const void *data, gssize len)
{
    char *p = g_build_filename(t->path, name, NULL);
    GError *e = NULL;
    cr_assert(g_file_set_contents(p, data, len, &e), "%s", e ? e->message : "?");
    g_ptr_array_add(t->files, p);
    return p;
}

static inline void tmp_dir_free(tmp_dir *t)
{
    for (guint i = 0; i < t->files->len; i++) g_remove(g_ptr_array_index(t->files, i));
    g_rmdir(t->path);
    g_ptr_array_free(t->files, TRUE);
    g_free(t->path);
}

#endif
