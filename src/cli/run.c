/* `simtgrid run` and `simtgrid check`.
 *
 * SimGrid allows one engine per process, so every sweep point runs in a
 * forked child that builds the chip, simulates and writes its JSON (through a
 * temporary name, renamed when complete). The parent collects the CSV rows.
 * If any point fails, every file this run wrote is removed: no partial
 * results. */
#include <errno.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "simtgrid/gpu.h"
#include "simtgrid/json.h"
#include "simtgrid/scenario.h"

typedef struct run_opts {
    const char *scenario;
    const char *outdir;
    GPtrArray *sets;   /* "k=v" strings, NULL-terminated on use */
    bool check_only;
    bool quiet;
} run_opts;

static int parse_args(int argc, char **argv, run_opts *o)
{
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-o") || !strcmp(a, "--out")) {
            if (++i >= argc) {
                fprintf(stderr, "simtgrid: %s needs a directory\n", a);
                return 2;
            }
            o->outdir = argv[i];
        } else if (!strcmp(a, "--set")) {
            if (++i >= argc) {
                fprintf(stderr, "simtgrid: --set needs KEY=VALUE\n");
                return 2;
            }
            g_ptr_array_add(o->sets, argv[i]);
        } else if (!strncmp(a, "--set=", 6)) {
            g_ptr_array_add(o->sets, (char *)a + 6);
        } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
            o->quiet = true;
        } else if (a[0] == '-') {
            fprintf(stderr, "simtgrid: unknown option '%s'\n", a);
            return 2;
        } else if (!o->scenario) {
            o->scenario = a;
        } else {
            fprintf(stderr, "simtgrid: unexpected argument '%s'\n", a);
            return 2;
        }
    }
    if (!o->scenario) {
        fprintf(stderr, "simtgrid: %s needs a scenario file\n", o->check_only ? "check" : "run");
        return 2;
    }
    return 0;
}

/* CPU time of this process: on a shared machine it measures the simulation
 * where wall time also counts the other processes' turns. */
static double cpu_seconds(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0)
        return 0;
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static char *point_base(const scenario *s, unsigned i)
{
    return scenario_npoints(s) > 1 ? g_strdup_printf("%s-p%u", s->name, i) : g_strdup(s->name);
}

static void write_document(const scenario *s, unsigned i, const config *c, stats *st,
                           const gpu *g, const gpu_result *r, double wall, double cpu,
                           FILE *f)
{
    json_writer w;
    json_init(&w, f, 1);
    json_begin_object(&w);
    json_kv_string(&w, "simtgrid", SIMTGRID_VERSION);
    json_key(&w, "scenario");
    json_begin_object(&w);
    json_kv_string(&w, "name", s->name);
    json_kv_string(&w, "file", s->path);
    json_kv_string(&w, "model", s->model_path);
    json_kv_uint(&w, "point", i);
    json_kv_uint(&w, "points", scenario_npoints(s));
    char *label = scenario_point_label(s, i);
    json_kv_string(&w, "sweep", label);
    g_free(label);
    json_end_object(&w);
    json_key(&w, "config");
    config_write_json(c, &w);
    json_key(&w, "result");
    json_begin_object(&w);
    json_kv_uint(&w, "core_cycles", r->core_cycles);
    json_kv_uint(&w, "warp_instructions", r->warp_insts);
    json_kv_uint(&w, "thread_instructions", r->thread_insts);
    json_kv_double(&w, "warp_ipc", r->core_cycles ? (double)r->warp_insts / r->core_cycles : 0);
    json_kv_double(&w, "thread_ipc", r->core_cycles ? (double)r->thread_insts / r->core_cycles : 0);
    json_kv_double(&w, "simulated_us", r->core_cycles / r->core_mhz);
    json_end_object(&w);
    if (s->dump) {
        json_key(&w, "arrays");
        gpu_write_arrays(g, &w);
    }
    json_key(&w, "stats");
    stats_write_json_to(st, &w);
    /* The only part that differs between identical runs. */
    json_key(&w, "host");
    json_begin_object(&w);
    json_kv_double(&w, "wall_seconds", wall);
    json_kv_double(&w, "cpu_seconds", cpu);
    json_kv_uint(&w, "simgrid_wakeups", r->des.wakeups);
    json_kv_uint(&w, "simgrid_timestamps", r->des.timestamps);
    json_kv_uint(&w, "block_events", r->des.events);
    json_kv_uint(&w, "inline_runs", r->des.inline_runs);
    json_end_object(&w);
    json_end_object(&w);
    json_end(&w);
}

/* Child: one sweep point. Writes DIR/BASE.json and DIR/.BASE.csv. */
static int run_point(const scenario *s, unsigned i, const run_opts *o)
{
    GError *err = NULL;
    config *c = scenario_point(s, i, &err);
    if (!c) {
        fprintf(stderr, "simtgrid: %s\n", err->message);
        return 2;
    }
    stats *st = stats_new();
    gpu *g = gpu_build(c, s, st, &err);
    if (!g) {
        fprintf(stderr, "simtgrid: %s\n", err->message);
        return 2;
    }
    if (o->check_only)
        return 0;
    gpu_result r;
    gint64 t0 = g_get_monotonic_time();
    double cpu0 = cpu_seconds();
    bool ok = gpu_run(g, &r, &err);
    double wall = (g_get_monotonic_time() - t0) / 1e6;
    double cpu = cpu_seconds() - cpu0;
    if (!ok) {
        fprintf(stderr, "simtgrid: %s: %s\n", s->path, err->message);
        return 1;
    }
    char *base = point_base(s, i);
    char *label = scenario_point_label(s, i);
    if (!o->quiet) {
        printf("== %s, point %u of %u%s%s\n", s->name, i + 1, scenario_npoints(s), *label ? ": " : "",
               label);
        gpu_print_summary(g, &r, stdout);
        double sim_s = r.core_cycles / r.core_mhz / 1e6;
        printf("  simulation rate: %.3g warp-instructions/s, %.3g thread-instructions/s, "
               "%.3g cycles/s; %.3g s wall, slowdown %.3gx vs the modelled silicon\n",
               r.warp_insts / wall, r.thread_insts / wall, r.core_cycles / wall, wall,
               sim_s > 0 ? wall / sim_s : 0);
    }
    int rc = 0;
    char *json = g_strdup_printf("%s/%s.json", o->outdir, base);
    char *tmp = g_strdup_printf("%s.tmp", json);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        fprintf(stderr, "simtgrid: cannot write %s: %s\n", tmp, g_strerror(errno));
        rc = 2;
    } else {
        write_document(s, i, c, st, g, &r, wall, cpu, f);
        if (fclose(f) != 0 || g_rename(tmp, json) != 0) {
            fprintf(stderr, "simtgrid: cannot write %s: %s\n", json, g_strerror(errno));
            g_unlink(tmp);
            rc = 2;
        }
    }
    char *csv = g_strdup_printf("%s/.%s.csv", o->outdir, base);
    f = rc ? NULL : fopen(csv, "w");
    if (f) {
        stats_write_csv_header(st, f);
        stats_write_csv_row(st, f);
        fclose(f);
    }
    if (!o->quiet && !rc)
        printf("  results: %s\n", json);
    fflush(stdout);
    return rc;
}

/* Parent: the sweep CSV, one row per point, columns united in first-seen
 * order (points of a sweep over the chip size have different blocks). */
static bool write_sweep_csv(const scenario *s, const run_opts *o, char **path_out)
{
    unsigned n = scenario_npoints(s);
    GPtrArray *cols = g_ptr_array_new_with_free_func(g_free);
    GHashTable *index = g_hash_table_new(g_str_hash, g_str_equal);
    char ***rows = g_new0(char **, n);
    char ***heads = g_new0(char **, n);
    for (unsigned i = 0; i < n; i++) {
        char *base = point_base(s, i);
        char *tmp = g_strdup_printf("%s/.%s.csv", o->outdir, base);
        char *text = NULL;
        if (g_file_get_contents(tmp, &text, NULL, NULL)) {
            char **lines = g_strsplit(text, "\n", 3);
            if (lines[0] && lines[1]) {
                heads[i] = g_strsplit(lines[0], ",", -1);
                rows[i] = g_strsplit(lines[1], ",", -1);
                for (char **h = heads[i]; *h; h++)
                    if (!g_hash_table_contains(index, *h)) {
                        g_ptr_array_add(cols, g_strdup(*h));
                        g_hash_table_insert(index, g_ptr_array_index(cols, cols->len - 1),
                                            GUINT_TO_POINTER(cols->len));
                    }
            }
            g_strfreev(lines);
            g_free(text);
        }
        g_unlink(tmp);
        g_free(tmp);
        g_free(base);
    }
    char *path = g_strdup_printf("%s/%s.csv", o->outdir, s->name);
    char *tmp = g_strdup_printf("%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    bool ok = f != NULL;
    if (f) {
        fprintf(f, "point");
        for (unsigned a = 0; a < s->naxes; a++)
            fprintf(f, ",%s", s->axes[a].key);
        for (unsigned c = 0; c < cols->len; c++)
            fprintf(f, ",%s", (char *)g_ptr_array_index(cols, c));
        fputc('\n', f);
        for (unsigned i = 0; i < n; i++) {
            fprintf(f, "%u", i);
            unsigned rest = i;
            /* Axis values of point i: the last axis varies fastest. */
            const char **vals = g_new0(const char *, s->naxes + 1);
            for (int a = (int)s->naxes - 1; a >= 0; a--) {
                vals[a] = s->axes[a].values[rest % s->axes[a].nvalues];
                rest /= s->axes[a].nvalues;
            }
            for (unsigned a = 0; a < s->naxes; a++)
                fprintf(f, ",%s", vals[a]);
            g_free(vals);
            char **vrow = g_new0(char *, cols->len + 1);
            for (unsigned k = 0; heads[i] && heads[i][k] && rows[i][k]; k++)
                vrow[GPOINTER_TO_UINT(g_hash_table_lookup(index, heads[i][k])) - 1] = rows[i][k];
            for (unsigned c = 0; c < cols->len; c++)
                fprintf(f, ",%s", vrow[c] ? vrow[c] : "");
            fputc('\n', f);
            g_free(vrow);
        }
        ok = fclose(f) == 0 && g_rename(tmp, path) == 0;
    }
    for (unsigned i = 0; i < n; i++) {
        g_strfreev(rows[i]);
        g_strfreev(heads[i]);
    }
    g_free(rows);
    g_free(heads);
    g_hash_table_destroy(index);
    g_ptr_array_free(cols, TRUE);
    g_free(tmp);
    *path_out = path;
    return ok;
}

static void remove_outputs(const scenario *s, const run_opts *o)
{
    for (unsigned i = 0; i < scenario_npoints(s); i++) {
        char *base = point_base(s, i);
        const char *fmt[] = {"%s/%s.json", "%s/%s.json.tmp", "%s/.%s.csv"};
        for (unsigned k = 0; k < 3; k++) {
            char *p = g_strdup_printf(fmt[k], o->outdir, base);
            g_unlink(p);
            g_free(p);
        }
        g_free(base);
    }
}

int cli_run(int argc, char **argv, bool check_only)
{
    run_opts o = {.sets = g_ptr_array_new(), .check_only = check_only};
    int rc = parse_args(argc, argv, &o);
    if (rc)
        return rc;
    g_ptr_array_add(o.sets, NULL);
    GError *err = NULL;
    scenario *s = scenario_load(o.scenario, (char *const *)o.sets->pdata, &err);
    if (!s) {
        fprintf(stderr, "simtgrid: %s\n", err->message);
        return 2;
    }
    char *outdir = o.outdir ? g_strdup(o.outdir) : g_strdup_printf("results/%s", s->name);
    o.outdir = outdir;
    if (!check_only && g_mkdir_with_parents(outdir, 0755) != 0) {
        fprintf(stderr, "simtgrid: cannot create %s: %s\n", outdir, g_strerror(errno));
        return 2;
    }
    unsigned n = scenario_npoints(s);
    for (unsigned i = 0; i < n && rc == 0; i++) {
        fflush(stdout);
        fflush(stderr);
        pid_t pid = fork();
        if (pid < 0) {
            fprintf(stderr, "simtgrid: fork failed: %s\n", g_strerror(errno));
            rc = 1;
            break;
        }
        if (pid == 0)
            _exit(run_point(s, i, &o));
        int status = 0;
        waitpid(pid, &status, 0);
        if (WIFEXITED(status))
            rc = WEXITSTATUS(status);
        else {
            fprintf(stderr, "simtgrid: point %u crashed (signal %d)\n", i, WTERMSIG(status));
            rc = 1;
        }
    }
    if (check_only) {
        if (!rc)
            printf("%s: ok (%u point%s)\n", o.scenario, n, n == 1 ? "" : "s");
    } else if (rc) {
        remove_outputs(s, &o);
    } else if (s->out_csv) {
        char *csv = NULL;
        if (!write_sweep_csv(s, &o, &csv)) {
            fprintf(stderr, "simtgrid: cannot write %s\n", csv);
            remove_outputs(s, &o);
            g_unlink(csv);
            rc = 2;
        } else if (!o.quiet) {
            printf("sweep table: %s\n", csv);
        }
        g_free(csv);
    } else {
        for (unsigned i = 0; i < n; i++) {
            char *base = point_base(s, i);
            char *p = g_strdup_printf("%s/.%s.csv", outdir, base);
            g_unlink(p);
            g_free(p);
            g_free(base);
        }
    }
    scenario_free(s);
    g_free(outdir);
    g_ptr_array_free(o.sets, TRUE);
    return rc;
}
