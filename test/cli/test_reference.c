/* Regression and determinism check of whole runs: every scenario listed in
 * test/reference/scenarios.txt is run twice with the built binary from the
 * source root; the two result documents must be identical, and each must
 * equal the stored test/reference/<name>.json once its "host" section (wall
 * time and wake-up counts, which are not results) is removed. Any difference
 * fails and names the first differing key. tools/bench/update-reference
 * regenerates the references after an intended change of results. */
#include <criterion/criterion.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

/* The document without its "host" section, closed as update-reference
 * closes it. The JSON writer puts "host" last, at depth one. */
static char *strip_host(const char *json)
{
    const char *h = strstr(json, "\n \"host\": {");
    cr_assert_not_null(h, "a result document without a host section");
    cr_assert(h > json && h[-1] == ',', "host is not the last section");
    return g_strdup_printf("%.*s\n}\n", (int)(h - 1 - json), json);
}

/* The dotted key path of line `upto` of a pretty-printed document (one
 * member per line): the keys of the enclosing objects and arrays, then the
 * line's own key or array index. */
static char *key_path(char **lines, unsigned upto)
{
    GPtrArray *stack = g_ptr_array_new_with_free_func(g_free);
    GArray *index = g_array_new(FALSE, TRUE, sizeof(unsigned));
    char *result = NULL;
    for (unsigned i = 0; i <= upto && lines[i]; i++) {
        const char *l = lines[i];
        while (*l == ' ')
            l++;
        if (*l == '}' || *l == ']') {
            if (i == upto)
                break;
            if (stack->len) {
                g_ptr_array_remove_index(stack, stack->len - 1);
                g_array_set_size(index, index->len - 1);
            }
            continue;
        }
        char *key;
        if (*l == '"' && strstr(l, "\": ")) {
            key = g_strndup(l + 1, strstr(l, "\": ") - l - 1);
        } else {
            unsigned *n = index->len ? &g_array_index(index, unsigned, index->len - 1) : NULL;
            key = g_strdup_printf("[%u]", n ? (*n)++ : 0);
        }
        size_t len = strlen(l);
        while (len && (l[len - 1] == ',' || l[len - 1] == ' '))
            len--;
        bool opens = len && (l[len - 1] == '{' || l[len - 1] == '[');
        if (i == upto) {
            GString *s = g_string_new(NULL);
            for (unsigned k = 1; k < stack->len; k++)   /* 0: the document */
                g_string_append_printf(s, "%s.", (char *)g_ptr_array_index(stack, k));
            g_string_append(s, key);
            result = g_string_free(s, FALSE);
            g_free(key);
            break;
        }
        if (opens) {
            g_ptr_array_add(stack, key);
            unsigned zero = 0;
            g_array_append_val(index, zero);
        } else {
            g_free(key);
        }
    }
    g_ptr_array_free(stack, TRUE);
    g_array_free(index, TRUE);
    return result ? result : g_strdup("(end of document)");
}

/* NULL when equal, else a message naming the first differing key and both
 * lines. */
static char *first_difference(const char *want, const char *got)
{
    if (!strcmp(want, got))
        return NULL;
    char **a = g_strsplit(want, "\n", -1), **b = g_strsplit(got, "\n", -1);
    unsigned i = 0;
    while (a[i] && b[i] && !strcmp(a[i], b[i]))
        i++;
    char *key = key_path(a[i] ? a : b, i);
    char *msg = g_strdup_printf("first difference at key %s (line %u): expected '%s', got '%s'",
                                key, i + 1, a[i] ? g_strstrip(a[i]) : "(end)",
                                b[i] ? g_strstrip(b[i]) : "(end)");
    g_free(key);
    g_strfreev(a);
    g_strfreev(b);
    return msg;
}

static char *read_file(const char *path)
{
    char *text = NULL;
    GError *e = NULL;
    cr_assert(g_file_get_contents(path, &text, NULL, &e), "%s", e ? e->message : path);
    return text;
}

/* Runs `scenario` (relative to the source root) into `out`, with one
 * --set KEY=VALUE when `set` is not NULL. */
static void run_scenario(const char *src, const char *scenario, const char *out, const char *set)
{
    const char *bin = g_getenv("SIMTGRID_BIN");
    cr_assert_not_null(bin, "SIMTGRID_BIN is not set");
    const char *argv[] = {bin, "run", scenario, "-o", out, "-q", set ? "--set" : NULL, set, NULL};
    int status = 0;
    char *err = NULL;
    GError *e = NULL;
    cr_assert(g_spawn_sync(src, (char **)argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL,
                           &err, &status, &e), "%s", e ? e->message : "");
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s failed: %s", scenario, err);
    g_free(err);
}

/* The .json files of a folder, sorted. */
static GPtrArray *json_files(const char *dir)
{
    GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
    GDir *d = g_dir_open(dir, 0, NULL);
    cr_assert_not_null(d, "no folder %s", dir);
    const char *n;
    while ((n = g_dir_read_name(d)))
        if (g_str_has_suffix(n, ".json"))
            g_ptr_array_add(names, g_strdup(n));
    g_dir_close(d);
    g_ptr_array_sort(names, (GCompareFunc)g_strcmp0);
    return names;
}

Test(reference, examples_match_stored_statistics_and_repeat_exactly)
{
    const char *src = g_getenv("SIMTGRID_SRC");
    cr_assert_not_null(src, "SIMTGRID_SRC is not set");
    char *refdir = g_build_filename(src, "test", "reference", NULL);
    char *list_path = g_build_filename(refdir, "scenarios.txt", NULL);
    char *list = read_file(list_path);
    char *tmp = g_dir_make_tmp("simtgrid-ref-XXXXXX", NULL);
    cr_assert_not_null(tmp);
    char **lines = g_strsplit(list, "\n", -1);
    unsigned compared = 0;
    for (char **l = lines; *l; l++) {
        char *s = g_strstrip(*l);
        if (!*s || *s == '#')
            continue;
        char *o1 = g_build_filename(tmp, "a", NULL), *o2 = g_build_filename(tmp, "b", NULL);
        char *o3 = g_build_filename(tmp, "c", NULL);
        run_scenario(src, s, o1, NULL);
        run_scenario(src, s, o2, NULL);
        run_scenario(src, s, o3, "sim.simgrid_clock=exact");
        GPtrArray *names = json_files(o1);
        cr_assert_gt(names->len, 0, "%s wrote no result", s);
        for (unsigned i = 0; i < names->len; i++) {
            const char *n = g_ptr_array_index(names, i);
            char *p1 = g_build_filename(o1, n, NULL), *p2 = g_build_filename(o2, n, NULL);
            char *pr = g_build_filename(refdir, n, NULL);
            char *t1 = read_file(p1), *t2 = read_file(p2);
            char *g1 = strip_host(t1), *g2 = strip_host(t2);
            char *d = first_difference(g1, g2);
            cr_assert_null(d, "%s: two runs of the same scenario differ: %s", s, d);
            /* The exact SimGrid clock (lazy is the default) changes nothing
             * but its own echo. */
            char *p3 = g_build_filename(o3, n, NULL), *t3 = read_file(p3), *g3 = strip_host(t3);
            char *echo = strstr(g3, "\"sim.simgrid_clock\": \"exact\"");
            cr_assert_not_null(echo, "%s: no sim.simgrid_clock echo in the exact run", s);
            /* 21 = strlen("\"sim.simgrid_clock\": "), 28 = that + strlen("\"exact\"") */
            char *fixed = g_strdup_printf("%.*s\"lazy\"%s", (int)(echo - g3) + 21, g3, echo + 28);
            d = first_difference(g1, fixed);
            cr_assert_null(d, "%s: the exact SimGrid clock changed the results: %s", s, d);
            g_free(fixed);
            g_free(g3);
            g_free(t3);
            g_free(p3);
            cr_assert(g_file_test(pr, G_FILE_TEST_EXISTS),
                      "%s: no reference test/reference/%s: run tools/bench/update-reference", s, n);
            char *want = read_file(pr);
            d = first_difference(want, g1);
            cr_assert_null(d, "%s: %s differs from test/reference/%s: %s "
                           "(if intended, run tools/bench/update-reference)", s, n, n, d);
            compared++;
            g_free(want);
            g_free(g1);
            g_free(g2);
            g_free(t1);
            g_free(t2);
            g_free(p1);
            g_free(p2);
            g_free(pr);
            g_unlink(p1);
        }
        /* Clear both result folders for the next scenario. */
        for (unsigned k = 0; k < 3; k++) {
            const char *o = k == 0 ? o1 : k == 1 ? o2 : o3;
            GDir *d = g_dir_open(o, 0, NULL);
            const char *n;
            while (d && (n = g_dir_read_name(d))) {
                char *p = g_build_filename(o, n, NULL);
                g_unlink(p);
                g_free(p);
            }
            if (d)
                g_dir_close(d);
            g_rmdir(o);
        }
        g_ptr_array_free(names, TRUE);
        g_free(o1);
        g_free(o2);
        g_free(o3);
    }
    /* Every stored reference was compared: none is stale. */
    GPtrArray *refs = json_files(refdir);
    cr_assert_eq(refs->len, compared, "test/reference holds %u documents but the listed "
                 "scenarios wrote %u: run tools/bench/update-reference", refs->len, compared);
    g_ptr_array_free(refs, TRUE);
    g_strfreev(lines);
    g_rmdir(tmp);
    g_free(tmp);
    g_free(list);
    g_free(list_path);
    g_free(refdir);
}

/* The comparison itself: a change deep in the document is named by its full
 * key path, array elements by index; equal documents give no message. */
Test(reference, first_difference_names_the_key)
{
    const char *a = "{\n \"result\": {\n  \"cycles\": 10,\n  \"ipc\": 0.5\n },\n"
                    " \"stats\": {\n  \"sm0\": {\n   \"hist\": [\n    1,\n    2\n   ],\n"
                    "   \"n\": 3\n  }\n }\n}\n";
    cr_assert_null(first_difference(a, a));
    char *b = g_strdup(a);
    *strstr(b, "0.5") = '9';   /* ipc 0.5 -> 9.5 */
    char *d = first_difference(a, b);
    cr_assert_not_null(d);
    cr_assert_not_null(strstr(d, "key result.ipc (line 4)"), "%s", d);
    g_free(d);
    g_free(b);
    b = g_strdup(a);
    *strstr(b, "2\n") = '7';   /* the second histogram element */
    d = first_difference(a, b);
    cr_assert_not_null(strstr(d, "key stats.sm0.hist.[1]"), "%s", d);
    g_free(d);
    g_free(b);
    b = g_strdup(a);
    *strstr(b, "3\n") = '4';   /* after the array closed: back in sm0 */
    d = first_difference(a, b);
    cr_assert_not_null(strstr(d, "key stats.sm0.n"), "%s", d);
    g_free(d);
    g_free(b);
    char *s = strip_host("{\n \"a\": 1,\n \"host\": {\n  \"wall_seconds\": 1.5\n }\n}\n");
    cr_assert_str_eq(s, "{\n \"a\": 1\n}\n");
    g_free(s);
}

/* A run cut by sim.max_cycles ends at the limit even when every block is
 * asleep (waiting on memory) at that moment: the memory example on the LWM
 * baseline needs far more than 3000 cycles (test/reference/lwm-memory-p0.json)
 * and its warps wait 300 cycles per load, so at cycle 3000 no block has an
 * event; the run must stop "at the limit" (exit 0), not report a deadlock. */
Test(reference, run_cut_by_the_limit_while_asleep_is_not_a_deadlock)
{
    const char *src = g_getenv("SIMTGRID_SRC");
    const char *bin = g_getenv("SIMTGRID_BIN");
    cr_assert(src && bin, "SIMTGRID_SRC and SIMTGRID_BIN must be set");
    char *tmp = g_dir_make_tmp("simtgrid-ref-XXXXXX", NULL);
    char *out = g_build_filename(tmp, "o", NULL);
    const char *argv[] = {bin, "run", "workloads/lwm-baseline/memory.ini", "-o", out, "-q",
                          "--set", "sim.max_cycles=3000", NULL};
    int status = 0;
    char *err = NULL;
    cr_assert(g_spawn_sync(src, (char **)argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL,
                           &err, &status, NULL));
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "exit %d: %s", WEXITSTATUS(status), err);
    GPtrArray *names = json_files(out);
    cr_assert_eq(names->len, 2, "one result per sweep point");
    for (unsigned i = 0; i < names->len; i++) {
        char *p = g_build_filename(out, g_ptr_array_index(names, i), NULL);
        g_unlink(p);
        g_free(p);
    }
    g_ptr_array_free(names, TRUE);
    char *csv = g_build_filename(out, "lwm-memory.csv", NULL);
    g_unlink(csv);
    g_free(csv);
    g_rmdir(out);
    g_rmdir(tmp);
    g_free(err);
    g_free(out);
    g_free(tmp);
}
