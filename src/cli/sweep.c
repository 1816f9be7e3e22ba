/* Running the points of a plan in child processes, `jobs` at a time, and
 * assembling the sweep table. The parent only forks, waits and keeps the
 * manifest: every result byte comes from a child that ran one point alone,
 * so the results are the same whatever the number of jobs. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "cli/runner.h"
#include "simtgrid/input.h"

/* The children running now, for the signal handler (kill() is
 * async-signal-safe; nothing else is done there). */
#define MAX_JOBS 1024
static volatile pid_t running[MAX_JOBS];
static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
    stop_signal = sig;
    for (unsigned k = 0; k < MAX_JOBS; k++)
        if (running[k] > 0)
            kill(running[k], SIGTERM);
}

static void catch_stops(struct sigaction *old_int, struct sigaction *old_term)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0;   /* no SA_RESTART: waitpid returns at once */
    sigaction(SIGINT, &sa, old_int);
    sigaction(SIGTERM, &sa, old_term);
}

static pid_t start_point(const scenario *s, const plan *pl, unsigned i, const point_opts *o)
{
    fflush(stdout);
    fflush(stderr);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid != 0)
        return pid;
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    /* If the runner dies (even by SIGKILL), the point dies with it. */
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != parent || stop_signal)
        _exit(1);
    _exit(point_run(s, pl, i, o));
}

/* Point i's error message, written by its child. */
static char *take_error(const char *dir, const char *base, int rc, int status)
{
    if (WIFSIGNALED(status))
        return g_strdup_printf("the point's process was killed by signal %d", WTERMSIG(status));
    char *p = g_strdup_printf("%s/.simtgrid/%s.err", dir, base);
    char *text = NULL;
    size_t len = 0;
    char *why = input_read_why(p, 1 << 20, &text, &len);
    g_free(why);
    g_unlink(p);
    g_free(p);
    return text ? text : g_strdup_printf("exit status %d", rc);
}

static void save_manifest(const plan *pl, const point_opts *o)
{
    GError *err = NULL;
    if (o->dir && !manifest_write(pl, o->dir, &err)) {
        fprintf(stderr, "simtgrid: %s\n", err->message);
        g_error_free(err);
    }
}

/* Records how point i's child ended (done, missing after a stop, or failed
 * with its error) and saves its state; returns the failure's exit status or 0. */
static int point_ended(plan *pl, const point_opts *o, unsigned i, int status)
{
    plan_point *p = &pl->p[i];
    int prc = WIFEXITED(status) ? WEXITSTATUS(status) : 1, rc = 0;
    if (stop_signal && prc != 0) {
        /* Stopped half-way: the point is missing, not failed. */
        if (o->dir)
            outdir_remove_point(o->dir, pl, i);
        p->state = POINT_MISSING;
    } else if (prc == 0 && WIFEXITED(status)) {
        p->state = o->check_only ? POINT_MISSING : POINT_DONE;
    } else {
        g_free(p->error);
        p->error = o->dir ? take_error(o->dir, p->base, prc, status)
                          : g_strdup_printf("exit status %d", prc);
        if (WIFSIGNALED(status))
            fprintf(stderr, "simtgrid: point %u crashed (signal %d)\n", i, WTERMSIG(status));
        p->state = POINT_FAILED;
        rc = prc ? prc : 1;
    }
    if (o->dir && !o->check_only)
        state_write(o->dir, pl, i);
    return rc;
}

int sweep_run(const scenario *s, plan *pl, const point_opts *o, unsigned jobs, int only, int *stopped_by)
{
    if (jobs < 1)
        jobs = 1;
    if (jobs > MAX_JOBS)
        jobs = MAX_JOBS;
    struct sigaction old_int, old_term;
    stop_signal = 0;
    catch_stops(&old_int, &old_term);
    int rc = 0;
    unsigned next = 0, active = 0;
    int *slot_point = g_new(int, jobs);
    for (;;) {
        /* Start points while there are free slots; stop starting after a
         * failure or a signal (the running ones finish or are stopped). */
        while (active < jobs && !rc && !stop_signal) {
            while (next < pl->n && (pl->p[next].state == POINT_DONE || (only >= 0 && next != (unsigned)only)))
                next++;
            if (next >= pl->n)
                break;
            unsigned k = 0;
            while (running[k] > 0)
                k++;
            pid_t pid = start_point(s, pl, next, o);
            if (pid < 0) {
                fprintf(stderr, "simtgrid: fork failed: %s\n", g_strerror(errno));
                rc = 1;
                break;
            }
            running[k] = pid;
            slot_point[k] = (int)next++;
            active++;
        }
        if (!active)
            break;
        int status = 0;
        pid_t pid = waitpid(-1, &status, 0);
        if (pid < 0 && errno == EINTR)
            continue;   /* a signal: the handler has stopped the children */
        if (pid < 0) {
            fprintf(stderr, "simtgrid: waiting for the sweep points: %s\n", g_strerror(errno));
            rc = rc ? rc : 1;
            break;
        }
        unsigned k = 0;
        while (k < jobs && running[k] != pid)
            k++;
        if (k == jobs)
            continue;
        running[k] = 0;
        active--;
        int prc = point_ended(pl, o, (unsigned)slot_point[k], status);
        if (prc && !rc)
            rc = prc;
        if (only < 0)
            save_manifest(pl, o);
    }
    g_free(slot_point);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    *stopped_by = stop_signal;
    return rc;
}

/* The sweep values of a point from its label "k1=v1,k2=v2" (values never
 * hold a comma: sweep lists are split at commas). */
static char **label_values(const char *label, char ***keys_out)
{
    char **items = *label ? g_strsplit(label, ",", -1) : g_new0(char *, 1);
    guint n = g_strv_length(items);
    char **vals = g_new0(char *, n + 1), **keys = g_new0(char *, n + 1);
    for (guint i = 0; i < n; i++) {
        char *eq = strchr(items[i], '=');
        keys[i] = eq ? g_strndup(items[i], (size_t)(eq - items[i])) : g_strdup(items[i]);
        vals[i] = g_strdup(eq ? eq + 1 : "");
    }
    g_strfreev(items);
    *keys_out = keys;
    return vals;
}

/* The sweep CSV, one row per point, columns united in first-seen order
 * (points of a sweep over the chip size have different blocks). */
/* Reads the one-row CSV of a finished point (header, values) and adds its
 * column names not seen yet to cols/index (index maps a name to 1 + its
 * column). False, said on stderr, when the file cannot be read. */
static bool read_point_row(const char *dir, const char *base, char ***head, char ***row,
                           GPtrArray *cols, GHashTable *index)
{
    char *p = g_strdup_printf("%s/.simtgrid/%s.csv", dir, base);
    char *text = NULL;
    size_t len = 0;
    char *why = input_read_why(p, INPUT_MAX_BYTES, &text, &len);
    if (why) {
        fprintf(stderr, "simtgrid: cannot read %s (%s)\n", p, why);
    } else {
        char **lines = g_strsplit(text, "\n", 3);
        if (lines[0] && lines[1]) {
            *head = g_strsplit(lines[0], ",", -1);
            *row = g_strsplit(lines[1], ",", -1);
            for (char **h = *head; *h; h++)
                if (!g_hash_table_contains(index, *h)) {
                    g_ptr_array_add(cols, g_strdup(*h));
                    g_hash_table_insert(index, g_ptr_array_index(cols, cols->len - 1),
                                        GUINT_TO_POINTER(cols->len));
                }
        }
        g_strfreev(lines);
    }
    bool ok = why == NULL;
    g_free(why);
    g_free(text);
    g_free(p);
    return ok;
}

/* One line of the sweep's table: the point's number, its labels, then its
 * value of every column (empty where it has none). */
static void write_point_row(FILE *f, unsigned i, const char *label, char **head, char **row,
                            const GPtrArray *cols, GHashTable *index)
{
    char **keys = NULL;
    char **vals = label_values(label, &keys);
    fprintf(f, "%u", i);
    for (unsigned a = 0; vals[a]; a++)
        fprintf(f, ",%s", vals[a]);
    g_strfreev(keys);
    g_strfreev(vals);
    char **vrow = g_new0(char *, cols->len + 1);
    for (unsigned k = 0; head && head[k] && row[k]; k++)
        vrow[GPOINTER_TO_UINT(g_hash_table_lookup(index, head[k])) - 1] = row[k];
    for (unsigned c = 0; c < cols->len; c++)
        fprintf(f, ",%s", vrow[c] ? vrow[c] : "");
    fputc('\n', f);
    g_free(vrow);
}

bool sweep_write_csv(const plan *pl, const char *dir)
{
    unsigned n = pl->n;
    GPtrArray *cols = g_ptr_array_new_with_free_func(g_free);
    GHashTable *index = g_hash_table_new(g_str_hash, g_str_equal);
    char ***rows = g_new0(char **, n);
    char ***heads = g_new0(char **, n);
    bool ok = true;
    for (unsigned i = 0; i < n && ok; i++)
        ok = read_point_row(dir, pl->p[i].base, &heads[i], &rows[i], cols, index);
    char *path = g_strdup_printf("%s/%s.csv", dir, pl->name);
    char *tmp = g_strdup_printf("%s/.simtgrid/%s.csv.all.tmp", dir, pl->name);
    FILE *f = ok ? fopen(tmp, "w") : NULL;
    ok = f != NULL;
    if (f) {
        char **keys = NULL;
        char **vals = label_values(n ? pl->p[0].label : "", &keys);
        fprintf(f, "point");
        for (unsigned a = 0; keys[a]; a++)
            fprintf(f, ",%s", keys[a]);
        g_strfreev(keys);
        g_strfreev(vals);
        for (unsigned c = 0; c < cols->len; c++)
            fprintf(f, ",%s", (char *)g_ptr_array_index(cols, c));
        fputc('\n', f);
        for (unsigned i = 0; i < n; i++)
            write_point_row(f, i, pl->p[i].label, heads[i], rows[i], cols, index);
        ok = !ferror(f);
        ok = fclose(f) == 0 && ok && g_rename(tmp, path) == 0;
        if (!ok) {
            fprintf(stderr, "simtgrid: cannot write %s: %s\n", path, g_strerror(errno));
            g_unlink(tmp);
        }
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
    g_free(path);
    return ok;
}
