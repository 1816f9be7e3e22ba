/* DIR/manifest.tsv: the state of every point of the run in DIR, one
 * tab-separated line each, readable by people, spreadsheets and pandas:
 *
 *   # simtgrid manifest
 *   # scenario  NAME
 *   point  state  hash  file  sweep  error
 *   0      done   9f..  t-p0.json  core.scheduler=lrr
 *   1      failed 3c..  t-p1.json  core.scheduler=gto  sm0: ...
 *
 * `file` is where the point's result is (or will be); errors are escaped
 * (\t, \n) so that every point stays on one line. It is rewritten whole,
 * through a temporary and a rename, each time a point ends, so a run stopped
 * at any moment leaves either the old or the new manifest, never half of one. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <glib/gstdio.h>

#include "cli/runner.h"
#include "config/config_lib.h"
#include "simtgrid/input.h"

#define MANIFEST "manifest.tsv"

bool manifest_write(const plan *pl, const char *dir, GError **err)
{
    GString *t = g_string_new("# simtgrid manifest: the state of each sweep point (docs/sweeps.md)\n");
    g_string_append_printf(t, "# scenario\t%s\n# json\t%s\n# csv\t%s\n", pl->name,
                           pl->json ? "true" : "false", pl->csv ? "true" : "false");
    g_string_append(t, "point\tstate\thash\tfile\tsweep\terror\n");
    for (unsigned i = 0; i < pl->n; i++) {
        const plan_point *p = &pl->p[i];
        char *e = p->error ? g_strescape(p->error, NULL) : g_strdup("");
        g_string_append_printf(t, "%u\t%s\t%s\t%s.json\t%s\t%s\n", i, point_state_name(p->state),
                               p->hash, p->base, p->label, e);
        g_free(e);
    }
    char *path = g_build_filename(dir, MANIFEST, NULL);
    /* g_file_set_contents writes a temporary beside it and renames it. */
    bool ok = g_file_set_contents(path, t->str, (gssize)t->len, err);
    g_free(path);
    g_string_free(t, TRUE);
    return ok;
}

static bool bad(GError **err, const char *path, unsigned line, const char *what)
{
    return input_error_at(err, path, line, "%s", what);
}

static bool parse_line(plan *pl, GArray *pts, char *line, const char *path, unsigned ln, GError **err)
{
    if (g_str_has_prefix(line, "# scenario\t")) {
        g_free(pl->name);
        pl->name = g_strdup(line + strlen("# scenario\t"));
        return true;
    }
    if (g_str_has_prefix(line, "# json\t") || g_str_has_prefix(line, "# csv\t")) {
        bool *flag = line[2] == 'j' ? &pl->json : &pl->csv;
        *flag = g_str_has_suffix(line, "\ttrue");
        return true;
    }
    if (!*line || line[0] == '#' || g_str_has_prefix(line, "point\t"))
        return true;
    char **f = g_strsplit(line, "\t", 6);
    bool ok = g_strv_length(f) == 6 && g_str_has_suffix(f[3], ".json");
    guint64 idx = 0;
    ok = ok && g_ascii_string_to_unsigned(f[0], 10, 0, G_MAXUINT32, &idx, NULL) && idx == pts->len;
    plan_point p = {0};
    if (ok) {
        p.state = !strcmp(f[1], "done") ? POINT_DONE : !strcmp(f[1], "failed") ? POINT_FAILED
                                                                              : POINT_MISSING;
        ok = p.state != POINT_MISSING || !strcmp(f[1], "missing");
    }
    if (ok) {
        p.hash = g_strdup(f[2]);
        p.base = g_strndup(f[3], strlen(f[3]) - 5);
        p.label = g_strdup(f[4]);
        p.error = *f[5] ? g_strcompress(f[5]) : NULL;
        g_array_append_val(pts, p);
    }
    g_strfreev(f);
    return ok || bad(err, path, ln, "expected 'point state hash file sweep error' (a damaged manifest: "
                                    "remove the folder or run with --force)");
}

/* DIR/.simtgrid/BASE.state: "done HASH" or "failed HASH", then the error.
 * Each point's own record, written by whichever process ran it (a local
 * run, or `run --point I` on a cluster node), so that point runs in
 * parallel never rewrite a shared file; the manifest gathers them. */
void state_write(const char *dir, const plan *pl, unsigned i)
{
    const plan_point *p = &pl->p[i];
    char *path = g_strdup_printf("%s/.simtgrid/%s.state", dir, p->base);
    if (p->state == POINT_MISSING) {
        g_unlink(path);
    } else {
        char *text = g_strdup_printf("%s %s\n%s", point_state_name(p->state), p->hash,
                                     p->error ? p->error : "");
        char *tmp = g_strdup_printf("%s.tmp", path);
        if (g_file_set_contents(tmp, text, -1, NULL))
            g_rename(tmp, path);
        g_free(tmp);
        g_free(text);
    }
    g_free(path);
}

/* The state files override the manifest's lines (they are newer). */
static void merge_states(plan *pl, const char *dir)
{
    for (unsigned i = 0; i < pl->n; i++) {
        plan_point *p = &pl->p[i];
        char *path = g_strdup_printf("%s/.simtgrid/%s.state", dir, p->base);
        char *text = NULL;
        size_t len = 0;
        char *why = input_read_why(path, 1 << 20, &text, &len);
        if (!why) {
            char *nl = strchr(text, '\n');
            if (nl)
                *nl = '\0';
            char **f = g_strsplit(text, " ", 2);
            if (f[0] && f[1] && (!strcmp(f[0], "done") || !strcmp(f[0], "failed"))) {
                p->state = !strcmp(f[0], "done") ? POINT_DONE : POINT_FAILED;
                g_free(p->hash);
                p->hash = g_strdup(f[1]);
                g_free(p->error);
                p->error = nl && nl[1] ? g_strdup(nl + 1) : NULL;
            }
            g_strfreev(f);
        }
        g_free(why);
        g_free(text);
        g_free(path);
    }
}

plan *manifest_read(const char *dir, GError **err)
{
    char *path = g_build_filename(dir, MANIFEST, NULL);
    if (!g_file_test(path, G_FILE_TEST_EXISTS)) {
        g_free(path);
        return NULL;
    }
    char *text = NULL;
    size_t len = 0;
    if (!input_read(path, INPUT_MAX_BYTES, &text, &len, err)) {
        g_free(path);
        return NULL;
    }
    plan *pl = g_new0(plan, 1);
    pl->json = pl->csv = true;
    GArray *pts = g_array_new(FALSE, TRUE, sizeof(plan_point));
    char **lines = g_strsplit(text, "\n", -1);
    bool ok = true;
    for (unsigned i = 0; ok && lines[i]; i++)
        ok = parse_line(pl, pts, lines[i], path, i + 1, err);
    g_strfreev(lines);
    g_free(text);
    pl->n = pts->len;
    pl->p = (plan_point *)g_array_free(pts, FALSE);
    if (ok && !pl->name)
        ok = bad(err, path, 1, "missing '# scenario NAME' line (a damaged manifest)");
    g_free(path);
    if (!ok) {
        plan_free(pl);
        return NULL;
    }
    merge_states(pl, dir);
    return pl;
}
