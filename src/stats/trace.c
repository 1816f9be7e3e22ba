/* Chrome trace-event writer (JSON object format). One event per line:
 *
 *   {"traceEvents":[
 *   {"name":"process_name","ph":"M","pid":1,"tid":0,"args":{"name":"sm0"}},
 *   {"name":"ld","ph":"X","pid":1,"tid":1,"ts":1.5,"dur":2},
 *   ...
 *   ],"displayTimeUnit":"ns"}
 *
 * Tracks are resolved through hash tables (look-ups only); ids come from
 * first-use order and events from call order, so output is deterministic. */
#include "simtgrid/trace.h"
#include "simtgrid/json.h"

#include <errno.h>
#include <string.h>

typedef struct trace_track_rec {
    char *path;          /* "sm0.sched1" (owned) */
    int pid, tid;
} trace_track_rec;

struct trace {
    FILE *f;
    char *path;
    char *buf;           /* stdio buffer: large writes, few syscalls */
    bool first_event;
    GPtrArray *tracks;   /* trace_track_rec*, index = track id */
    GHashTable *track_ids;    /* path -> id + 1 (GINT_TO_POINTER) */
    GHashTable *process_ids;  /* process name (owned) -> pid */
    int n_processes;
    double win_lo, win_hi;    /* the time window, in us */
    GPtrArray *blocks;        /* GPatternSpec*: the block filter, or NULL */
};

#define TRACE_BUF_BYTES (1 << 20)

static void track_free(gpointer p)
{
    trace_track_rec *r = p;
    g_free(r->path);
    g_free(r);
}

trace *trace_open(const char *path, GError **err)
{
    if (!path) {
        g_set_error(err, G_FILE_ERROR, G_FILE_ERROR_INVAL, "trace: no file name given");
        return NULL;
    }
    FILE *f = fopen(path, "w");
    if (!f) {
        int e = errno;
        g_set_error(err, G_FILE_ERROR, g_file_error_from_errno(e),
                    "cannot open trace file '%s' for writing: %s", path, g_strerror(e));
        return NULL;
    }
    trace *t = g_new0(trace, 1);
    t->f = f;
    t->path = g_strdup(path);
    t->buf = g_malloc(TRACE_BUF_BYTES);
    setvbuf(f, t->buf, _IOFBF, TRACE_BUF_BYTES);
    t->first_event = true;
    t->win_lo = -G_MAXDOUBLE;
    t->win_hi = G_MAXDOUBLE;
    t->tracks = g_ptr_array_new_with_free_func(track_free);
    t->track_ids = g_hash_table_new(g_str_hash, g_str_equal);
    t->process_ids = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    fputs("{\"traceEvents\":[", f);
    return t;
}

/* Start an event line: a separating comma after the previous event. */
static void event_begin(trace *t)
{
    fputs(t->first_event ? "\n{" : ",\n{", t->f);
    t->first_event = false;
}

static void put_double(FILE *f, double v)
{
    char buf[JSON_DOUBLE_BUF];
    json_format_double(buf, v);
    fputs(buf, f);
}

/* Metadata ("ph":"M") naming a process or thread and fixing its place in
 * the viewer to first-use order. */
static void write_meta(trace *t, const char *what, int pid, int tid, const char *label,
                       int sort_index)
{
    event_begin(t);
    fprintf(t->f, "\"name\":\"%s_name\",\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"args\":{\"name\":",
            what, pid, tid);
    json_write_quoted(t->f, label);
    fputs("}}", t->f);
    event_begin(t);
    fprintf(t->f,
            "\"name\":\"%s_sort_index\",\"ph\":\"M\",\"pid\":%d,\"tid\":%d,"
            "\"args\":{\"sort_index\":%d}}",
            what, pid, tid, sort_index);
}

void trace_set_window(trace *t, double start_us, double end_us)
{
    if (!t)
        return;
    t->win_lo = start_us;
    t->win_hi = end_us;
}

void trace_set_blocks(trace *t, char *const *blocks)
{
    if (!t || !blocks)
        return;
    t->blocks = g_ptr_array_new_with_free_func((GDestroyNotify)g_pattern_spec_free);
    for (unsigned i = 0; blocks[i]; i++) {
        g_ptr_array_add(t->blocks, g_pattern_spec_new(blocks[i]));
        char *below = g_strconcat(blocks[i], ".*", NULL);
        g_ptr_array_add(t->blocks, g_pattern_spec_new(below));
        g_free(below);
    }
}

static bool track_selected(const trace *t, const char *track)
{
    if (!t->blocks)
        return true;
    for (guint i = 0; i < t->blocks->len; i++)
        if (g_pattern_spec_match_string(g_ptr_array_index(t->blocks, i), track))
            return true;
    return false;
}

/* A span [start, start + dur) overlaps the window [lo, hi); a point event
 * lies in it. The margin (1e-9 us, a femtosecond: far below any cycle)
 * absorbs the rounding of cycle counts converted to microseconds. */
static bool in_window(const trace *t, double start_us, double dur_us)
{
    const double eps = 1e-9;
    if (dur_us <= 0)
        return start_us >= t->win_lo - eps && start_us < t->win_hi - eps;
    return start_us < t->win_hi - eps && start_us + dur_us > t->win_lo + eps;
}

int trace_track(trace *t, const char *track)
{
    if (!t || !track)
        return -1;
    gpointer found = g_hash_table_lookup(t->track_ids, track);
    if (found)
        return GPOINTER_TO_INT(found) - 1;
    if (!track_selected(t, track))
        return -1;   /* callers resolve their tracks once: no need to remember */

    const char *dot = strchr(track, '.');
    char *process = dot ? g_strndup(track, (gsize)(dot - track)) : g_strdup(track);
    int pid = GPOINTER_TO_INT(g_hash_table_lookup(t->process_ids, process));
    if (pid == 0) {
        pid = ++t->n_processes;
        write_meta(t, "process", pid, 0, process, pid);
        g_hash_table_insert(t->process_ids, process, GINT_TO_POINTER(pid));
    } else {
        g_free(process);
    }

    trace_track_rec *r = g_new0(trace_track_rec, 1);
    r->path = g_strdup(track);
    r->pid = pid;
    r->tid = (int)t->tracks->len + 1;
    g_ptr_array_add(t->tracks, r);
    g_hash_table_insert(t->track_ids, r->path, GINT_TO_POINTER(r->tid));
    write_meta(t, "thread", pid, r->tid, track, r->tid);
    return r->tid - 1;
}

static const trace_track_rec *track_rec(const trace *t, int id)
{
    if (id < 0 || (guint)id >= t->tracks->len)
        return NULL;
    return g_ptr_array_index(t->tracks, (guint)id);
}

/* "name":...,"ph":"<ph>","pid":p,"tid":t,"ts":x — the part all events share. */
static void event_head(trace *t, const trace_track_rec *r, const char *name, const char *ph,
                       double ts_us)
{
    event_begin(t);
    fputs("\"name\":", t->f);
    json_write_quoted(t->f, name ? name : "");
    fprintf(t->f, ",\"ph\":\"%s\",\"pid\":%d,\"tid\":%d,\"ts\":", ph, r->pid, r->tid);
    put_double(t->f, ts_us);
}

void trace_complete_on(trace *t, int track_id, const char *name, double start_us,
                       double dur_us)
{
    if (!t)
        return;
    const trace_track_rec *r = track_rec(t, track_id);
    if (!r || !in_window(t, start_us, dur_us))
        return;
    event_head(t, r, name, "X", start_us);
    fputs(",\"dur\":", t->f);
    put_double(t->f, dur_us > 0 ? dur_us : 0);
    putc('}', t->f);
}

void trace_async_on(trace *t, int track_id, const char *name, uint64_t id, double start_us,
                    double end_us)
{
    if (!t)
        return;
    const trace_track_rec *r = track_rec(t, track_id);
    if (!r || !in_window(t, start_us, end_us - start_us))
        return;
    /* The category keeps ids of different tracks apart in the viewer. */
    event_head(t, r, name, "b", start_us);
    fputs(",\"cat\":", t->f);
    json_write_quoted(t->f, r->path);
    fprintf(t->f, ",\"id\":%" G_GUINT64_FORMAT "}", id);
    event_head(t, r, name, "e", end_us > start_us ? end_us : start_us);
    fputs(",\"cat\":", t->f);
    json_write_quoted(t->f, r->path);
    fprintf(t->f, ",\"id\":%" G_GUINT64_FORMAT "}", id);
}

void trace_spans_init(trace_spans *s, trace *t, const char *track, double us_per_cycle)
{
    s->track = trace_track(t, track);
    s->t = s->track >= 0 ? t : NULL;
    s->us_per_cycle = us_per_cycle;
    s->next_id = 0;
}

void trace_spans_add(trace_spans *s, const char *name, uint64_t from_cycle, uint64_t to_cycle)
{
    if (s->t)
        trace_async_on(s->t, s->track, name, s->next_id++, from_cycle * s->us_per_cycle,
                       to_cycle * s->us_per_cycle);
}

void trace_complete(trace *t, const char *track, const char *name, double start_us,
                    double dur_us)
{
    if (t)
        trace_complete_on(t, trace_track(t, track), name, start_us, dur_us);
}

void trace_instant(trace *t, const char *track, const char *name, double ts_us)
{
    if (!t)
        return;
    const trace_track_rec *r = track_rec(t, trace_track(t, track));
    if (!r || !in_window(t, ts_us, 0))
        return;
    event_head(t, r, name, "i", ts_us);
    fputs(",\"s\":\"t\"}", t->f);
}

void trace_counter(trace *t, const char *track, const char *name, double ts_us, double value)
{
    if (!t)
        return;
    const trace_track_rec *r = track_rec(t, trace_track(t, track));
    if (!r || !in_window(t, ts_us, 0))
        return;
    char *full = g_strconcat(r->path, ".", name ? name : "", NULL);
    event_head(t, r, full, "C", ts_us);
    g_free(full);
    fputs(",\"args\":{\"value\":", t->f);
    put_double(t->f, value);
    fputs("}}", t->f);
}

bool trace_close(trace *t, GError **err)
{
    if (!t)
        return true;
    fputs("\n],\"displayTimeUnit\":\"ns\"}\n", t->f);
    bool ok = fflush(t->f) == 0 && !ferror(t->f);
    int e = errno;
    if (fclose(t->f) != 0 && ok) {
        ok = false;
        e = errno;
    }
    if (!ok)
        g_set_error(err, G_FILE_ERROR, g_file_error_from_errno(e),
                    "error writing trace file '%s': %s", t->path, g_strerror(e));
    g_hash_table_destroy(t->track_ids);
    g_hash_table_destroy(t->process_ids);
    g_ptr_array_free(t->tracks, TRUE);
    if (t->blocks)
        g_ptr_array_free(t->blocks, TRUE);
    g_free(t->buf);      /* only after fclose: stdio used it until then */
    g_free(t->path);
    g_free(t);
    return ok;
}
