/* [output] options that act: the timeline trace (Chrome trace-event JSON:
 * warp issue, memory requests with their latency, DRAM commands; a time
 * window and a block filter), the time series CSV, json = false, and the
 * progress line (off when stderr is not a terminal). Runs SIMTGRID_BIN. */
#include <math.h>

#include "cli_util.h"

TestSuite(outputs, .init = setup);

/* One warp of 32 threads, two independent loads of one 128 B line each. */
static const char two_loads[] =
    ".kernel two\n"
    ".data a u32[64] = iota(start=0, step=1)\n"
    "    mov r1, %tid.x\n"
    "    shl r2, r1, 2\n"
    "    ld.global.u32 r3, [r2+@a]\n"
    "    ld.global.u32 r4, [r2+@a]\n"
    "    exit\n";

/* Issue over one cycle (simd_width = warp_size), write-back depth 1, ALU
 * latency 4, LD/ST latency 2, ideal memory of 100 cycles, 1000 MHz: one
 * cycle is 0.001 us. */
static const char two_model[] =
    "[gpu]\nsms = 1\nmemory = ideal\n"
    "[core]\nwarp_size = 32\nsimd_width = 32\ndiscipline = scoreboard\npipeline_depth = 1\n"
    "alu_latency = 4\nldst_latency = 2\ncta_launch_latency = 10\n"
    "[mem]\nideal_latency = 100\n";

static void write_two_loads(const char *output)
{
    write_file("k.sasm", two_loads);
    write_file("m.ini", two_model);
    char *s = g_strdup_printf("[scenario]\nmodel = m.ini\nname = t\n"
                              "[launch.main]\nkernel = k.sasm\ngrid = 1\nblock = 32\n[output]\n%s", output);
    write_file("s.ini", s);
    g_free(s);
}

typedef struct ev {
    char name[32], ph[4];
    int pid, tid;
    bool has_ts, has_dur;
    double ts, dur;
    char id[32];
} ev;

static bool field_str(const char *line, const char *key, char *out, size_t n)
{
    char *k = g_strdup_printf("\"%s\":\"", key);
    const char *at = strstr(line, k);
    g_free(k);
    if (!at)
        return false;
    at += strlen(key) + 4;
    const char *end = strchr(at, '"');
    g_strlcpy(out, at, MIN(n, (size_t)(end - at) + 1));
    return true;
}

static bool field_num(const char *line, const char *key, double *out)
{
    char *k = g_strdup_printf("\"%s\":", key);
    const char *at = strstr(line, k);
    g_free(k);
    if (!at)
        return false;
    *out = g_ascii_strtod(at + strlen(key) + 3, NULL);
    return true;
}

/* The trace's events, one per line, with a structural check of the JSON:
 * the document's opening and closing, and braces balanced on every line. */
static GArray *read_events(const char *name)
{
    char *text = read_in(name);
    cr_assert(g_str_has_prefix(text, "{\"traceEvents\":["), "%.40s", text);
    cr_assert(g_str_has_suffix(text, "\n],\"displayTimeUnit\":\"ns\"}\n"));
    GArray *evs = g_array_new(FALSE, TRUE, sizeof(ev));
    char **lines = g_strsplit(text, "\n", -1);
    for (char **l = lines + 1; *l && **l != ']'; l++) {
        int depth = 0;
        for (const char *c = *l; *c; c++)
            depth += *c == '{' ? 1 : *c == '}' ? -1 : 0;
        cr_assert_eq(depth, 0, "unbalanced: %s", *l);
        cr_assert((*l)[0] == '{' || ((*l)[0] == ',' && (*l)[1] == '{'), "%s", *l);
        ev e = {0};
        double v;
        cr_assert(field_str(*l, "ph", e.ph, sizeof e.ph), "no ph: %s", *l);
        cr_assert(field_num(*l, "pid", &v), "no pid: %s", *l);
        e.pid = (int)v;
        cr_assert(field_num(*l, "tid", &v), "no tid: %s", *l);
        e.tid = (int)v;
        field_str(*l, "name", e.name, sizeof e.name);
        e.has_ts = field_num(*l, "ts", &e.ts);
        e.has_dur = field_num(*l, "dur", &e.dur);
        double id;
        if (field_num(*l, "id", &id))
            g_snprintf(e.id, sizeof e.id, "%.0f", id);
        if (strcmp(e.ph, "M"))
            cr_assert(e.has_ts, "no ts: %s", *l);
        if (!strcmp(e.ph, "X"))
            cr_assert(e.has_dur && e.dur >= 0, "duration: %s", *l);
        g_array_append_val(evs, e);
    }
    g_strfreev(lines);
    return evs;
}

/* Complete events of one track nest: sorted by start, each either inside
 * the enclosing one or after its end. */
static void check_nesting(GArray *evs)
{
    for (guint i = 0; i < evs->len; i++) {
        const ev *a = &g_array_index(evs, ev, i);
        for (guint j = 0; j < evs->len; j++) {
            const ev *b = &g_array_index(evs, ev, j);
            if (i == j || strcmp(a->ph, "X") || strcmp(b->ph, "X") || a->pid != b->pid || a->tid != b->tid)
                continue;
            bool disjoint = a->ts + a->dur <= b->ts + 1e-9 || b->ts + b->dur <= a->ts + 1e-9;
            bool a_in_b = a->ts >= b->ts - 1e-9 && a->ts + a->dur <= b->ts + b->dur + 1e-9;
            bool b_in_a = b->ts >= a->ts - 1e-9 && b->ts + b->dur <= a->ts + a->dur + 1e-9;
            cr_assert(disjoint || a_in_b || b_in_a, "%s at %g and %s at %g overlap", a->name, a->ts,
                      b->name, b->ts);
        }
    }
    /* Every async begin has its end, not before it. */
    for (guint i = 0; i < evs->len; i++) {
        const ev *b = &g_array_index(evs, ev, i);
        if (strcmp(b->ph, "b"))
            continue;
        const ev *e = NULL;
        for (guint j = 0; j < evs->len && !e; j++) {
            const ev *c = &g_array_index(evs, ev, j);
            if (!strcmp(c->ph, "e") && !strcmp(c->id, b->id) && c->pid == b->pid && c->tid == b->tid)
                e = c;
        }
        cr_assert_not_null(e, "no end for span %s", b->id);
        cr_assert_geq(e->ts, b->ts);
    }
}

static const ev *nth(GArray *evs, const char *ph, unsigned n)
{
    for (guint i = 0; i < evs->len; i++) {
        const ev *e = &g_array_index(evs, ev, i);
        if (!strcmp(e->ph, ph) && n-- == 0)
            return e;
    }
    return NULL;
}

static unsigned count_ph(GArray *evs, const char *ph)
{
    unsigned n = 0;
    for (guint i = 0; i < evs->len; i++)
        n += !strcmp(g_array_index(evs, ev, i).ph, ph);
    return n;
}

#define CYC 0.001   /* us per core cycle at 1000 MHz */

Test(outputs, the_trace_of_two_loads_is_worked_out_by_hand)
{
    write_two_loads("trace = on\n");
    char *out = NULL, *err = NULL;
    cr_assert_eq(simtgrid(&out, &err, "run", "s.ini", "-o", "res", "-q"), 0, "%s", err);
    GArray *evs = read_events("res/t.trace.json");
    check_nesting(evs);
    /* Five warp instructions, each holding the issue port one cycle, and
     * the scheduler's idle cycles between them as stall spans:
     *   mov  at 10 (the CTA reaches the SM cta_launch_latency = 10 cycles
     *        after the decision at 0); done = 10 + (1-1) + (4-1) = 13,
     *        r1 readable at 14: cycles 11-13 stall on the dependency;
     *   shl  at 14, done 17, r2 readable at 18: cycles 15-17 stall;
     *   ld   at 18: request leaves at 18 + (2-1) = 19, its response arrives
     *        100 cycles later at 119, data written at 119: span 18 .. 120;
     *   ld   at 19 (independent of the first: the next cycle), request at 20
     *        (the ideal memory serves a line a cycle: no wait), response at
     *        120: span 19 .. 121;
     *   exit at 20 (it reads no register); then the warp is gone and the
     *        scheduler empty (not drawn). */
    cr_assert_eq(count_ph(evs, "X"), 7);
    const char *names[] = {"mov", "stall: dependency", "shl", "stall: dependency", "ld", "ld", "exit"};
    double at[] = {10, 11, 14, 15, 18, 19, 20}, len[] = {1, 3, 1, 3, 1, 1, 1};
    for (unsigned i = 0; i < 7; i++) {
        /* The i-th span in time order. */
        const ev *e = NULL;
        for (unsigned j = 0; j < 7; j++) {
            const ev *c = nth(evs, "X", j);
            if (fabs(c->ts - at[i] * CYC) < 1e-9)
                e = c;
        }
        cr_assert_not_null(e, "nothing at cycle %g", at[i]);
        cr_assert_str_eq(e->name, names[i]);
        cr_assert_float_eq(e->dur, len[i] * CYC, 1e-12, "%s", e->name);
    }
    /* Two memory spans, begin and end each. */
    cr_assert_eq(count_ph(evs, "b"), 2);
    cr_assert_eq(count_ph(evs, "e"), 2);
    const ev *b0 = nth(evs, "b", 0), *e0 = nth(evs, "e", 0), *b1 = nth(evs, "b", 1), *e1 = nth(evs, "e", 1);
    cr_assert_str_eq(b0->name, "ld");
    cr_assert_float_eq(b0->ts, 18 * CYC, 1e-12);
    cr_assert_float_eq(e0->ts, 120 * CYC, 1e-12);
    cr_assert_float_eq(b1->ts, 19 * CYC, 1e-12);
    cr_assert_float_eq(e1->ts, 121 * CYC, 1e-12);
    g_array_free(evs, TRUE);
}

Test(outputs, the_trace_window_and_block_filter_bound_it)
{
    /* Only cycle 18: the first ld's issue and its memory span overlap it;
     * the stall of cycles 15-17 and shl (14) end before, the second ld (19)
     * starts after. */
    write_two_loads("trace = on\ntrace_start = 18\ntrace_end = 18\n");
    char *out = NULL, *err = NULL;
    cr_assert_eq(simtgrid(&out, &err, "run", "s.ini", "-o", "res", "-q"), 0, "%s", err);
    GArray *evs = read_events("res/t.trace.json");
    cr_assert_eq(count_ph(evs, "X"), 1);
    cr_assert_str_eq(nth(evs, "X", 0)->name, "ld");
    cr_assert_eq(count_ph(evs, "b"), 1);
    g_array_free(evs, TRUE);
    /* The memory track alone: no issue events. */
    write_two_loads("trace = on\ntrace_blocks = sm0.mem\n");
    cr_assert_eq(simtgrid(&out, &err, "run", "s.ini", "-o", "r2", "-q"), 0, "%s", err);
    evs = read_events("r2/t.trace.json");
    cr_assert_eq(count_ph(evs, "X"), 0);
    cr_assert_eq(count_ph(evs, "b"), 2);
    g_array_free(evs, TRUE);
    write_two_loads("trace = on\ntrace_end = 3\ntrace_start = 5\n");
    cr_assert_eq(simtgrid(&out, &err, "check", "s.ini", NULL, NULL, NULL), 2);
    cr_assert_not_null(strstr(err, "[output] key 'trace_end'"), "%s", err);
}

Test(outputs, the_time_series_rows_add_up_to_the_totals)
{
    write_two_loads("timeseries = on\ntimeseries_interval = 50\n");
    char *out = NULL, *err = NULL;
    cr_assert_eq(simtgrid(&out, &err, "run", "s.ini", "-o", "res", "-q"), 0, "%s", err);
    char *csv = read_in("res/t.series.csv");
    char **lines = g_strsplit(csv, "\n", -1);
    cr_assert(g_str_has_prefix(lines[0], "cycle,warp_instructions,"), "%s", lines[0]);
    /* Rows at 50 and 100 (both loads issued by cycle 19: all 5 instructions
     * but maybe exit in the first row), then the end of the run at 121 or
     * later: the last response is written at 120. */
    unsigned rows = 0, insts = 0, reqs = 0;
    unsigned long last = 0;
    char **head = g_strsplit(lines[0], ",", -1);
    int col_req = -1;
    for (int k = 0; head[k]; k++)
        if (!strcmp(head[k], "ideal_mem_requests"))
            col_req = k;
    cr_assert_geq(col_req, 0);
    for (char **l = lines + 1; *l && **l; l++) {
        char **f = g_strsplit(*l, ",", -1);
        unsigned long c = strtoul(f[0], NULL, 10);
        if (rows < 2)
            cr_assert_eq(c, 50 * (rows + 1));
        last = c;
        insts += (unsigned)strtoul(f[1], NULL, 10);
        reqs += (unsigned)strtoul(f[col_req], NULL, 10);
        rows++;
        g_strfreev(f);
    }
    cr_assert_eq(rows, 3);
    cr_assert_geq(last, 120);
    cr_assert_eq(insts, 5);
    cr_assert_eq(reqs, 2);
    g_strfreev(head);
    g_strfreev(lines);
}

Test(outputs, json_false_writes_no_document_and_no_progress_off_a_terminal)
{
    write_two_loads("json = false\n");
    char *out = NULL, *err = NULL;
    cr_assert_eq(simtgrid(&out, &err, "run", "s.ini", "-o", "res", NULL), 0, "%s", err);
    cr_assert_not(exists_in("res/t.json"));
    cr_assert(exists_in("res/t.csv"));
    char *m = read_in("res/manifest.tsv");
    cr_assert_not_null(strstr(m, "\n0\tdone\t"), "%s", m);
    /* stderr is a pipe here: no progress line. */
    cr_assert_null(strstr(err, "cycles/s"), "%s", err);
    cr_assert_null(strstr(err, "\r"));
}

/* On a terminal (a pseudo-terminal from util-linux `script`), a point
 * shows its progress line, and clears it when done; --quiet turns it off. */
Test(outputs, a_terminal_shows_the_progress_line)
{
    write_two_loads("");
    const char *bin = g_getenv("SIMTGRID_BIN");
    char *cmd = g_strdup_printf("'%s' run s.ini -o res", bin);
    const char *argv[] = {"script", "-qec", cmd, "/dev/null", NULL};
    char *out = NULL, *err = NULL;
    int status = 0;
    cr_assert(g_spawn_sync(dir, (char **)argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &err, &status,
                           NULL));
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s%s", out, err);
    /* One CTA, finished when the line is last drawn. */
    cr_assert_not_null(strstr(out, "point 1/1: "), "%s", out);
    cr_assert_not_null(strstr(out, "warp instructions"), "%s", out);
    cr_assert_not_null(strstr(out, "100.0% of CTAs done\r\033[K"), "%s", out);
    char *json = read_in("res/t.json");
    cr_assert_null(strstr(json, "CTAs done"));
    g_free(cmd);
    cmd = g_strdup_printf("'%s' run s.ini -o r2 --quiet", bin);
    argv[2] = cmd;
    cr_assert(g_spawn_sync(dir, (char **)argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &err, &status,
                           NULL));
    cr_assert_null(strstr(out, "CTAs done"), "%s", out);
}
