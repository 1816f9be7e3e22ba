/* The Chrome trace-event writer: exact file text for a small timeline, track
 * numbering in first-use order, valid JSON, and every error path. */
#include <criterion/criterion.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>

#include "simtgrid/trace.h"
#include "test_util.h"

/* A fresh temporary directory per test; returns the trace path in it. */
static char *temp_trace_path(char **dir)
{
    GError *err = NULL;
    *dir = g_dir_make_tmp("simtgrid-trace-XXXXXX", &err);
    cr_assert_not_null(*dir, "%s", err ? err->message : "");
    return g_build_filename(*dir, "t.json", NULL);
}

static char *read_all(const char *path)
{
    char *text = NULL;
    GError *err = NULL;
    cr_assert(g_file_get_contents(path, &text, NULL, &err), "%s", err ? err->message : "");
    return text;
}

static void remove_temp(char *dir, char *path)
{
    g_remove(path);
    g_rmdir(dir);
    g_free(path);
    g_free(dir);
}

Test(trace, small_timeline_exact_text)
{
    char *dir, *path = temp_trace_path(&dir);
    GError *err = NULL;
    trace *t = trace_open(path, &err);
    cr_assert_not_null(t, "%s", err ? err->message : "");
    /* Tracks in first-use order: sm0.sched1 (pid 1 "sm0", tid 1),
     * sm0.sched0 (pid 1, tid 2), sm1.l1d (pid 2 "sm1", tid 3), dram (no dot:
     * its own process, pid 3, tid 4). Each new process and thread first gets
     * its name and sort-index metadata. */
    trace_complete(t, "sm0.sched1", "ld", 1.5, 2);
    trace_complete(t, "sm0.sched0", "alu", 0, 0.25);
    trace_counter(t, "sm1.l1d", "mshr", 3, 7);
    trace_instant(t, "dram", "refresh", 10);
    trace_complete(t, "sm0.sched1", "st \"x\"", 4, -1);   /* dur < 0 -> 0 */
    cr_assert(trace_close(t, &err), "%s", err ? err->message : "");

    const char *expected =
        "{\"traceEvents\":[\n"
        "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"tid\":0,\"args\":{\"name\":\"sm0\"}},\n"
        "{\"name\":\"process_sort_index\",\"ph\":\"M\",\"pid\":1,\"tid\":0,\"args\":{\"sort_index\":1}},\n"
        "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":1,\"args\":{\"name\":\"sm0.sched1\"}},\n"
        "{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":1,\"tid\":1,\"args\":{\"sort_index\":1}},\n"
        "{\"name\":\"ld\",\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":1.5,\"dur\":2},\n"
        "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":2,\"args\":{\"name\":\"sm0.sched0\"}},\n"
        "{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":1,\"tid\":2,\"args\":{\"sort_index\":2}},\n"
        "{\"name\":\"alu\",\"ph\":\"X\",\"pid\":1,\"tid\":2,\"ts\":0,\"dur\":0.25},\n"
        "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":2,\"tid\":0,\"args\":{\"name\":\"sm1\"}},\n"
        "{\"name\":\"process_sort_index\",\"ph\":\"M\",\"pid\":2,\"tid\":0,\"args\":{\"sort_index\":2}},\n"
        "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":2,\"tid\":3,\"args\":{\"name\":\"sm1.l1d\"}},\n"
        "{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":2,\"tid\":3,\"args\":{\"sort_index\":3}},\n"
        "{\"name\":\"sm1.l1d.mshr\",\"ph\":\"C\",\"pid\":2,\"tid\":3,\"ts\":3,\"args\":{\"value\":7}},\n"
        "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":3,\"tid\":0,\"args\":{\"name\":\"dram\"}},\n"
        "{\"name\":\"process_sort_index\",\"ph\":\"M\",\"pid\":3,\"tid\":0,\"args\":{\"sort_index\":3}},\n"
        "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":3,\"tid\":4,\"args\":{\"name\":\"dram\"}},\n"
        "{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":3,\"tid\":4,\"args\":{\"sort_index\":4}},\n"
        "{\"name\":\"refresh\",\"ph\":\"i\",\"pid\":3,\"tid\":4,\"ts\":10,\"s\":\"t\"},\n"
        "{\"name\":\"st \\\"x\\\"\",\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":4,\"dur\":0}\n"
        "],\"displayTimeUnit\":\"ns\"}\n";
    char *text = read_all(path);
    cr_assert_str_eq(text, expected);
    cr_assert(json_valid(text));
    g_free(text);
    remove_temp(dir, path);
}

Test(trace, track_ids_and_resolved_tracks)
{
    char *dir, *path = temp_trace_path(&dir);
    trace *t = trace_open(path, NULL);
    cr_assert_not_null(t);
    /* ids are 0-based in first-use order and stable on repeat. */
    cr_assert_eq(trace_track(t, "a.x"), 0);
    cr_assert_eq(trace_track(t, "a.y"), 1);
    cr_assert_eq(trace_track(t, "a.x"), 0);
    cr_assert_eq(trace_track(t, NULL), -1);
    trace_complete_on(t, 1, "op", 0.5, 1);
    trace_complete_on(t, 7, "bad id", 0, 1);     /* unknown id: nothing */
    trace_complete_on(t, -1, "bad id", 0, 1);
    cr_assert(trace_close(t, NULL));
    char *text = read_all(path);
    cr_assert(json_valid(text));
    cr_assert(strstr(text, "{\"name\":\"op\",\"ph\":\"X\",\"pid\":1,\"tid\":2,\"ts\":0.5,\"dur\":1}"));
    cr_assert_null(strstr(text, "bad id"));
    g_free(text);
    remove_temp(dir, path);
}

Test(trace, empty_trace_is_valid_json)
{
    char *dir, *path = temp_trace_path(&dir);
    trace *t = trace_open(path, NULL);
    cr_assert(trace_close(t, NULL));
    char *text = read_all(path);
    cr_assert_str_eq(text, "{\"traceEvents\":[\n],\"displayTimeUnit\":\"ns\"}\n");
    cr_assert(json_valid(text));
    g_free(text);
    remove_temp(dir, path);
}

Test(trace, picosecond_times_and_odd_names)
{
    /* 1 ps = 1e-6 us, not exact in binary: %.17g gives 9.9999999999999995e-07.
     * A newline in a name is escaped; a NaN counter value is null. */
    char *dir, *path = temp_trace_path(&dir);
    trace *t = trace_open(path, NULL);
    trace_complete(t, "sm0", "a\nb", 1e-6, 1e-6);
    trace_counter(t, "sm0", "q", 0, NAN);
    cr_assert(trace_close(t, NULL));
    char *text = read_all(path);
    cr_assert(json_valid(text), "%s", text);
    cr_assert(strstr(text, "{\"name\":\"a\\u000ab\",\"ph\":\"X\",\"pid\":1,\"tid\":1,"
                           "\"ts\":9.9999999999999995e-07,\"dur\":9.9999999999999995e-07}"));
    cr_assert(strstr(text, "\"name\":\"sm0.q\",\"ph\":\"C\",\"pid\":1,\"tid\":1,\"ts\":0,"
                           "\"args\":{\"value\":null}}"));
    g_free(text);
    remove_temp(dir, path);
}

Test(trace, null_trace_does_nothing)
{
    /* Tracing off: every call accepts NULL. */
    trace_complete(NULL, "sm0", "x", 0, 1);
    trace_complete_on(NULL, 0, "x", 0, 1);
    trace_instant(NULL, "sm0", "x", 0);
    trace_counter(NULL, "sm0", "x", 0, 1);
    cr_assert_eq(trace_track(NULL, "sm0"), -1);
    cr_assert(trace_close(NULL, NULL));
}

Test(trace, open_failure_names_the_path)
{
    GError *err = NULL;
    trace *t = trace_open("/nonexistent-simtgrid-dir/t.json", &err);
    cr_assert_null(t);
    cr_assert_not_null(err);
    cr_assert(g_error_matches(err, G_FILE_ERROR, G_FILE_ERROR_NOENT));
    cr_assert(strstr(err->message, "cannot open trace file '/nonexistent-simtgrid-dir/t.json'"),
              "%s", err->message);
    g_clear_error(&err);
    cr_assert_null(trace_open(NULL, &err));
    cr_assert(g_error_matches(err, G_FILE_ERROR, G_FILE_ERROR_INVAL));
    g_clear_error(&err);
    cr_assert_null(trace_open("/nonexistent-simtgrid-dir/t.json", NULL), "NULL err allowed");
}

Test(trace, write_failure_reported_at_close)
{
    /* /dev/full accepts open but fails every write with ENOSPC; the 1 MiB
     * buffer defers the failure to the flush in trace_close. */
    if (!g_file_test("/dev/full", G_FILE_TEST_EXISTS))
        cr_skip_test("no /dev/full");
    GError *err = NULL;
    trace *t = trace_open("/dev/full", &err);
    cr_assert_not_null(t, "%s", err ? err->message : "");
    trace_complete(t, "sm0", "x", 0, 1);
    cr_assert_not(trace_close(t, &err));
    cr_assert(g_error_matches(err, G_FILE_ERROR, G_FILE_ERROR_NOSPC), "%s", err->message);
    cr_assert(strstr(err->message, "error writing trace file '/dev/full'"), "%s", err->message);
    g_clear_error(&err);
}
