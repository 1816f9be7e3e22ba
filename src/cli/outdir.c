/* Taking the output folder of a run: create it, lock it, and refuse to mix
 * this run's results with another's (runner.h gives the layout). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "cli/runner.h"

static void unlink_in(const char *dir, const char *fmt, const char *base)
{
    char *name = g_strdup_printf(fmt, base);
    char *p = g_build_filename(dir, name, NULL);
    g_unlink(p);
    g_free(p);
    g_free(name);
}

void outdir_remove_point(const char *dir, const plan *pl, unsigned i)
{
    const char *b = pl->p[i].base;
    unlink_in(dir, "%s.json", b);
    unlink_in(dir, "%s.trace.json", b);
    unlink_in(dir, "%s.series.csv", b);
    const char *priv[] = {".simtgrid/%s.csv", ".simtgrid/%s.err", ".simtgrid/%s.state", ".simtgrid/%s.json.tmp",
                          ".simtgrid/%s.csv.tmp", ".simtgrid/%s.trace.json.tmp",
                          ".simtgrid/%s.series.csv.tmp"};
    for (unsigned k = 0; k < G_N_ELEMENTS(priv); k++)
        unlink_in(dir, priv[k], b);
}

static bool exists_in(const char *dir, const char *fmt, const char *base)
{
    char *name = g_strdup_printf(fmt, base);
    char *p = g_build_filename(dir, name, NULL);
    bool e = g_file_test(p, G_FILE_TEST_EXISTS);
    g_free(p);
    g_free(name);
    return e;
}

/* flock on DIR/.simtgrid/lock. The file may be removed by a run that ends
 * while we open it; a lock on a removed file protects nothing, so check that
 * the locked file is still the one at the path, else try again. */
static int take_lock(outdir *od, int how, const char *cmd)
{
    char *path = g_build_filename(od->priv, "lock", NULL);
    int rc = 2;
    for (int tries = 0; tries < 100; tries++) {
        int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        if (fd < 0) {
            fprintf(stderr, "simtgrid %s: cannot create %s: %s\n", cmd, path, g_strerror(errno));
            break;
        }
        if (flock(fd, how | LOCK_NB) != 0) {
            char pid[32] = "";
            ssize_t got = pread(fd, pid, sizeof pid - 1, 0);
            pid[got > 0 ? got : 0] = '\0';
            g_strstrip(pid);
            fprintf(stderr, "simtgrid %s: %s is in use by another simtgrid run%s%s%s: wait for it to "
                    "end, or write elsewhere with -o DIR\n", cmd, od->dir, *pid ? " (process " : "",
                    pid, *pid ? ")" : "");
            close(fd);
            break;
        }
        struct stat a, b;
        if (fstat(fd, &a) == 0 && stat(path, &b) == 0 && a.st_ino == b.st_ino && a.st_dev == b.st_dev) {
            char pid[32];
            int n = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
            /* The pid is only for the message of a second run; shared
             * holders (point runs) leave it alone. */
            if (how == LOCK_EX && (ftruncate(fd, 0) != 0 || pwrite(fd, pid, (size_t)n, 0) != n))
                fprintf(stderr, "simtgrid %s: warning: cannot write %s\n", cmd, path);
            od->lock_fd = fd;
            rc = 0;
            break;
        }
        close(fd);
    }
    g_free(path);
    return rc;
}

static int refuse(const char *cmd, const char *what)
{
    fprintf(stderr, "simtgrid %s: %s\n", cmd, what);
    return 2;
}

/* A folder without a manifest: refuse if any file this run would write is
 * there already (results of an older simtgrid, or someone's files). */
static int check_collisions(const outdir *od, const plan *pl, const char *cmd)
{
    const char *hit = NULL;
    if (exists_in(od->dir, "%s.csv", pl->name))
        hit = pl->name;
    for (unsigned i = 0; !hit && i < pl->n; i++)
        if (exists_in(od->dir, "%s.json", pl->p[i].base))
            hit = pl->p[i].base;
    if (!hit)
        return 0;
    char *m = g_strdup_printf("%s already holds results (%s.%s) that this run did not write: "
                              "--force replaces them", od->dir, hit, hit == pl->name ? "csv" : "json");
    refuse(cmd, m);
    g_free(m);
    return 2;
}

static int find_base(const plan *pl, const char *base)
{
    for (unsigned i = 0; i < pl->n; i++)
        if (!strcmp(pl->p[i].base, base))
            return (int)i;
    return -1;
}

/* --resume: keep the old run's finished points whose configuration is
 * unchanged and whose files are all there; remove the files of the others. */
static void resume_from(const outdir *od, const plan *old, plan *pl)
{
    for (unsigned j = 0; j < old->n; j++) {
        const plan_point *o = &old->p[j];
        int i = find_base(pl, o->base);
        bool keep = i >= 0 && o->state == POINT_DONE && !strcmp(o->hash, pl->p[i].hash) &&
                    exists_in(od->dir, ".simtgrid/%s.csv", o->base) &&
                    (!pl->json || exists_in(od->dir, "%s.json", o->base));
        if (keep)
            pl->p[i].state = POINT_DONE;
        else
            outdir_remove_point(od->dir, old, j);
    }
    unlink_in(od->dir, "%s.csv", old->name);
}

static int check_owner(outdir *od, outdir_mode mode, plan *pl, const char *cmd)
{
    GError *err = NULL;
    plan *old = manifest_read(od->dir, &err);
    if (err) {
        refuse(cmd, err->message);
        g_error_free(err);
        return 2;
    }
    int rc = 0;
    if (mode == OUTDIR_NEW) {
        char *m = g_strdup_printf("%s holds the results of a previous run (%s/manifest.tsv): "
                                  "--resume continues it, --force replaces it", od->dir, od->dir);
        rc = old ? refuse(cmd, m) : check_collisions(od, pl, cmd);
        g_free(m);
    } else if (mode == OUTDIR_RESUME && !old) {
        char *m = g_strdup_printf("--resume: %s holds no run to continue (no manifest.tsv)", od->dir);
        rc = refuse(cmd, m);
        g_free(m);
    } else if (mode == OUTDIR_RESUME && strcmp(old->name, pl->name)) {
        char *m = g_strdup_printf("--resume: %s holds the results of scenario '%s', not '%s': "
                                  "--force replaces them", od->dir, old->name, pl->name);
        rc = refuse(cmd, m);
        g_free(m);
    } else if (mode == OUTDIR_RESUME) {
        resume_from(od, old, pl);
    } else if (old) {   /* --force: remove the old run's files, and only those */
        for (unsigned j = 0; j < old->n; j++)
            outdir_remove_point(od->dir, old, j);
        unlink_in(od->dir, "%s.csv", old->name);
    }
    plan_free(old);
    return rc;
}

/* Create DIR (remembering whether we did) and DIR/.simtgrid. */
static int prepare(outdir *od, const char *dir, bool create, const char *cmd)
{
    memset(od, 0, sizeof *od);
    od->lock_fd = -1;
    od->dir = g_strdup(dir);
    od->priv = g_build_filename(dir, ".simtgrid", NULL);
    if (!g_file_test(dir, G_FILE_TEST_EXISTS)) {
        if (!create) {
            fprintf(stderr, "simtgrid %s: %s: no such folder\n", cmd, dir);
            return 2;
        }
        if (g_mkdir_with_parents(dir, 0755) != 0) {
            fprintf(stderr, "simtgrid %s: cannot create %s: %s\n", cmd, dir, g_strerror(errno));
            return 2;
        }
        od->created_dir = true;
    } else if (!g_file_test(dir, G_FILE_TEST_IS_DIR)) {
        fprintf(stderr, "simtgrid %s: %s exists and is not a folder\n", cmd, dir);
        return 2;
    }
    if (g_mkdir(od->priv, 0755) == 0)
        od->created_priv = true;
    else if (errno != EEXIST || !g_file_test(od->priv, G_FILE_TEST_IS_DIR)) {
        fprintf(stderr, "simtgrid %s: cannot create %s: %s\n", cmd, od->priv,
                errno == EEXIST ? "a file of that name is in the way" : g_strerror(errno));
        return 2;
    }
    return 0;
}

/* Undo a failed open: only what this call created goes. */
static int abandon(outdir *od, const plan *pl, int rc)
{
    if (od->lock_fd >= 0 && od->created_priv) {
        char *lock = g_build_filename(od->priv, "lock", NULL);
        g_unlink(lock);
        g_free(lock);
    }
    outdir_close(od, pl, true);
    return rc;
}

int outdir_open(outdir *od, const char *dir, outdir_mode mode, plan *pl, const char *cmd)
{
    int rc = prepare(od, dir, true, cmd);
    if (!rc)
        rc = take_lock(od, LOCK_EX, cmd);
    if (!rc)
        rc = check_owner(od, mode, pl, cmd);
    return rc ? abandon(od, pl, rc) : 0;
}

/* Same scenario and configuration: every point's hash agrees. */
static bool same_plan(const plan *a, const plan *b)
{
    if (strcmp(a->name, b->name) || a->n != b->n)
        return false;
    for (unsigned i = 0; i < a->n; i++)
        if (strcmp(a->p[i].base, b->p[i].base) || strcmp(a->p[i].hash, b->p[i].hash))
            return false;
    return true;
}

int outdir_open_shared(outdir *od, const char *dir, plan *pl, const char *cmd)
{
    int rc = prepare(od, dir, true, cmd);
    if (!rc)
        rc = take_lock(od, LOCK_SH, cmd);
    if (rc)
        return abandon(od, pl, rc);
    /* The manifest is read and, by the first point run, written under a
     * second lock held only that long (point runs wait for each other here,
     * never for a whole point). */
    char *path = g_build_filename(od->priv, "manifest.lock", NULL);
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    g_free(path);
    if (fd < 0 || flock(fd, LOCK_EX) != 0) {
        fprintf(stderr, "simtgrid %s: cannot lock %s/.simtgrid/manifest.lock: %s\n", cmd, dir, g_strerror(errno));
        if (fd >= 0)
            close(fd);
        return abandon(od, pl, 2);
    }
    GError *err = NULL;
    plan *old = manifest_read(dir, &err);
    if (err) {
        rc = refuse(cmd, err->message);
        g_error_free(err);
    } else if (!old) {
        rc = check_collisions(od, pl, cmd);
        if (!rc && !manifest_write(pl, dir, &err)) {
            rc = refuse(cmd, err->message);
            g_error_free(err);
        }
    } else if (!same_plan(old, pl)) {
        char *m = g_strdup_printf("%s holds a run of another scenario or configuration (its manifest's "
                                  "points or hashes differ): point runs must all come from the same "
                                  "scenario and --set values", dir);
        rc = refuse(cmd, m);
        g_free(m);
    } else {
        for (unsigned i = 0; i < pl->n; i++)
            if (old->p[i].state == POINT_DONE && exists_in(dir, ".simtgrid/%s.csv", pl->p[i].base) &&
                (!pl->json || exists_in(dir, "%s.json", pl->p[i].base)))
                pl->p[i].state = POINT_DONE;
    }
    plan_free(old);
    close(fd);
    return rc ? abandon(od, pl, rc) : 0;
}

int outdir_open_collect(outdir *od, const char *dir, plan **pl, const char *cmd)
{
    *pl = NULL;
    int rc = prepare(od, dir, false, cmd);
    if (!rc)
        rc = take_lock(od, LOCK_EX, cmd);
    GError *err = NULL;
    if (!rc && !(*pl = manifest_read(dir, &err))) {
        char *m = err ? g_strdup(err->message) : g_strdup_printf("%s holds no run (no manifest.tsv)", dir);
        rc = refuse(cmd, m);
        g_free(m);
        g_clear_error(&err);
    }
    if (rc) {
        plan empty = {0};
        return abandon(od, &empty, rc);
    }
    return 0;
}

void outdir_close(outdir *od, const plan *pl, bool keep)
{
    if (!keep) {
        for (unsigned i = 0; i < pl->n; i++)
            outdir_remove_point(od->dir, pl, i);
        char *m = g_build_filename(od->dir, "manifest.tsv", NULL);
        g_unlink(m);
        g_free(m);
        char *lock = g_build_filename(od->priv, "lock", NULL);
        g_unlink(lock);
        g_free(lock);
    }
    if (!keep || od->created_priv)
        g_rmdir(od->priv);   /* only when empty */
    if (od->created_dir)
        g_rmdir(od->dir);    /* only when empty */
    if (od->lock_fd >= 0)
        close(od->lock_fd);
    od->lock_fd = -1;
    g_free(od->dir);
    g_free(od->priv);
    od->dir = od->priv = NULL;
}
