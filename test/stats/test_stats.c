/* The statistics registry: registration order and grouping, the exact JSON
 * and CSV it writes, look-ups, sums over a glob and replacement. */
#include <criterion/criterion.h>
#include <math.h>

#include "simtgrid/json.h"
#include "simtgrid/stats.h"
#include "test_util.h"

/* A tiny machine: two L1Ds and a core. Registration order interleaves the
 * blocks; output must group by block in order of first registration:
 * sm0.l1d {hits, misses, latency, hit_rate}, sm1.l1d {hits},
 * sm0.core {occupancy}. */
typedef struct tiny {
    stats *s;
    uint64_t hits0, misses0, hits1;
    stats_hist latency;
} tiny;

static void tiny_build(tiny *t)
{
    t->s = stats_new();
    t->hits0 = 10;
    t->misses0 = 3;
    t->hits1 = 7;
    /* latency buckets [1-7] [8-15]: 2 -> b0; 9, 9 -> b1; 100 overflows.
     * samples 4, mean (2 + 9 + 9 + 100) / 4 = 30. */
    uint64_t bounds[] = {1, 7, 8, 15};
    stats_hist_init_ranges(&t->latency, 2, bounds);
    stats_hist_add(&t->latency, 2);
    stats_hist_add_n(&t->latency, 9, 2);
    stats_hist_add(&t->latency, 100);

    stats_counter(t->s, "sm0.l1d", "hits", "accesses", "L1D hits", &t->hits0);
    stats_counter(t->s, "sm1.l1d", "hits", "accesses", "L1D hits", &t->hits1);
    stats_counter(t->s, "sm0.l1d", "misses", "accesses", "L1D misses", &t->misses0);
    stats_series *occ = stats_series_new(t->s, "sm0.core", "occupancy", "warps",
                                         "resident warps", 100);
    stats_series_push(occ, 4);
    stats_series_push(occ, 2.5);
    stats_histogram(t->s, "sm0.l1d", "latency", "cycles", "load latency", &t->latency);
    stats_derived(t->s, "sm0.l1d", "hit_rate", "ratio", "hits / accesses", 0.75);
}

static const char *tiny_json =
    "{\"blocks\":{"
    "\"sm0.l1d\":{\"hits\":10,\"misses\":3,"
    "\"latency\":{\"buckets\":[{\"range\":\"1-7\",\"count\":1},{\"range\":\"8-15\",\"count\":2}],"
    "\"overflow\":1,\"samples\":4,\"mean\":30},"
    "\"hit_rate\":0.75},"
    "\"sm1.l1d\":{\"hits\":7},"
    "\"sm0.core\":{\"occupancy\":{\"interval\":100,\"values\":[4,2.5]}}},"
    "\"schema\":{"
    "\"sm0.l1d\":{\"hits\":{\"unit\":\"accesses\",\"desc\":\"L1D hits\"},"
    "\"misses\":{\"unit\":\"accesses\",\"desc\":\"L1D misses\"},"
    "\"latency\":{\"unit\":\"cycles\",\"desc\":\"load latency\"},"
    "\"hit_rate\":{\"unit\":\"ratio\",\"desc\":\"hits / accesses\"}},"
    "\"sm1.l1d\":{\"hits\":{\"unit\":\"accesses\",\"desc\":\"L1D hits\"}},"
    "\"sm0.core\":{\"occupancy\":{\"unit\":\"warps\",\"desc\":\"resident warps\"}}}}";

Test(stats, tiny_registry_json_exact)
{
    tiny t;
    tiny_build(&t);
    capture c;
    stats_write_json(t.s, capture_open(&c), 0);
    const char *got = capture_text(&c);
    cr_assert_str_eq(got, tiny_json);
    cr_assert(json_valid(got));
    capture_free(&c);
    stats_free(t.s);
}

Test(stats, values_are_read_at_write_time)
{
    /* The registry keeps pointers: a counter bumped after registration shows
     * its final value. hits0 10 -> 11. */
    tiny t;
    tiny_build(&t);
    t.hits0++;
    capture c;
    stats_write_json(t.s, capture_open(&c), 0);
    cr_assert(strstr(capture_text(&c), "{\"sm0.l1d\":{\"hits\":11,"));
    capture_free(&c);
    uint64_t v = 0;
    cr_assert(stats_get_counter(t.s, "sm0.l1d", "hits", &v));
    cr_assert_eq(v, 11);
    stats_free(t.s);
}

Test(stats, pretty_json_exact)
{
    /* One counter, one empty histogram (mean null), one derived NaN (null),
     * indent 2. */
    stats *s = stats_new();
    uint64_t n = 5;
    stats_hist h;
    stats_hist_init_exact(&h, 1);
    stats_counter(s, "gpu", "cycles", "cycles", NULL, &n);
    stats_histogram(s, "gpu", "lanes", NULL, "active lanes", &h);
    stats_derived(s, "gpu", "ipc", "instr/cycle", "IPC", NAN);
    const char *expected =
        "{\n"
        "  \"blocks\": {\n"
        "    \"gpu\": {\n"
        "      \"cycles\": 5,\n"
        "      \"lanes\": {\n"
        "        \"buckets\": [\n"
        "          {\n"
        "            \"range\": \"0\",\n"
        "            \"count\": 0\n"
        "          }\n"
        "        ],\n"
        "        \"overflow\": 0,\n"
        "        \"samples\": 0,\n"
        "        \"mean\": null\n"
        "      },\n"
        "      \"ipc\": null\n"
        "    }\n"
        "  },\n"
        "  \"schema\": {\n"
        "    \"gpu\": {\n"
        "      \"cycles\": {\n"
        "        \"unit\": \"cycles\",\n"
        "        \"desc\": \"\"\n"
        "      },\n"
        "      \"lanes\": {\n"
        "        \"unit\": \"\",\n"
        "        \"desc\": \"active lanes\"\n"
        "      },\n"
        "      \"ipc\": {\n"
        "        \"unit\": \"instr/cycle\",\n"
        "        \"desc\": \"IPC\"\n"
        "      }\n"
        "    }\n"
        "  }\n"
        "}";
    capture c;
    stats_write_json(s, capture_open(&c), 2);
    const char *got = capture_text(&c);
    cr_assert_str_eq(got, expected);
    cr_assert(json_valid(got));
    capture_free(&c);
    stats_free(s);
}

Test(stats, empty_registry)
{
    stats *s = stats_new();
    capture c;
    stats_write_json(s, capture_open(&c), 0);
    cr_assert_str_eq(capture_text(&c), "{\"blocks\":{},\"schema\":{}}");
    capture_free(&c);
    stats_write_csv_header(s, capture_open(&c));
    stats_write_csv_row(s, c.f);
    cr_assert_str_eq(capture_text(&c), "\n\n");
    capture_free(&c);
    stats_free(s);
    stats_free(NULL);   /* allowed, like free(NULL) */
}

Test(stats, json_nests_in_a_callers_document)
{
    /* {"run":1,"stats":<registry>,"ok":true}: commas around the nested value
     * come from the caller's writer. */
    stats *s = stats_new();
    uint64_t x = 2;
    stats_counter(s, "b", "x", "u", "d", &x);
    capture c;
    json_writer w;
    json_init(&w, capture_open(&c), 0);
    json_begin_object(&w);
    json_kv_uint(&w, "run", 1);
    json_key(&w, "stats");
    stats_write_json_to(s, &w);
    json_kv_bool(&w, "ok", true);
    json_end_object(&w);
    json_end(&w);
    cr_assert_str_eq(capture_text(&c),
                     "{\"run\":1,\"stats\":{\"blocks\":{\"b\":{\"x\":2}},"
                     "\"schema\":{\"b\":{\"x\":{\"unit\":\"u\",\"desc\":\"d\"}}}},\"ok\":true}\n");
    capture_free(&c);
    stats_free(s);
}

Test(stats, csv_counters_and_derived_only)
{
    /* tiny: CSV columns are the counters and derived values in block order:
     * sm0.l1d.hits, sm0.l1d.misses, sm0.l1d.hit_rate, sm1.l1d.hits
     * (the histogram and the series are not columns). */
    tiny t;
    tiny_build(&t);
    capture c;
    stats_write_csv_header(t.s, capture_open(&c));
    stats_write_csv_row(t.s, c.f);
    cr_assert_str_eq(capture_text(&c),
                     "sm0.l1d.hits,sm0.l1d.misses,sm0.l1d.hit_rate,sm1.l1d.hits\n"
                     "10,3,0.75,7\n");
    capture_free(&c);
    stats_free(t.s);
}

Test(stats, csv_quoting_and_non_finite)
{
    /* Column `we"ird.a,b` holds a quote and a comma: quoted, inner quote
     * doubled -> "we""ird.a,b". A NaN derived value is an empty field; 0.1
     * prints as in JSON. */
    stats *s = stats_new();
    uint64_t v = 1;
    stats_counter(s, "we\"ird", "a,b", NULL, NULL, &v);
    stats_derived(s, "d", "nan", NULL, NULL, NAN);
    stats_derived(s, "d", "tenth", NULL, NULL, 0.1);
    capture c;
    stats_write_csv_header(s, capture_open(&c));
    stats_write_csv_row(s, c.f);
    cr_assert_str_eq(capture_text(&c),
                     "\"we\"\"ird.a,b\",d.nan,d.tenth\n"
                     "1,,0.10000000000000001\n");
    capture_free(&c);
    stats_free(s);
}

Test(stats, csv_field_rfc4180)
{
    capture c;
    FILE *f = capture_open(&c);
    const char *fields[] = {"plain", "a,b", "q\"", "l\nm", "cr\r", "", NULL};
    for (unsigned i = 0; i < 7; i++) {
        stats_write_csv_field(f, fields[i]);
        fputc('|', f);
    }
    /* Quoted only for comma, quote, CR or LF; empty and NULL write nothing. */
    cr_assert_str_eq(capture_text(&c), "plain|\"a,b\"|\"q\"\"\"|\"l\nm\"|\"cr\r\"|||");
    capture_free(&c);
}

Test(stats, sum_over_glob)
{
    /* hits: sm0.l1d 1, sm1.l1d 2, sm12.l1d 4, sm1.l2 8, l2s0 32; sm2.l1d has
     * a derived "hits" (16) that sums must ignore. */
    stats *s = stats_new();
    uint64_t v[] = {1, 2, 4, 8, 32};
    stats_counter(s, "sm0.l1d", "hits", NULL, NULL, &v[0]);
    stats_counter(s, "sm1.l1d", "hits", NULL, NULL, &v[1]);
    stats_counter(s, "sm12.l1d", "hits", NULL, NULL, &v[2]);
    stats_counter(s, "sm1.l2", "hits", NULL, NULL, &v[3]);
    stats_derived(s, "sm2.l1d", "hits", NULL, NULL, 16);
    stats_counter(s, "l2s0", "hits", NULL, NULL, &v[4]);
    cr_assert_eq(stats_sum(s, "sm*.l1d", "hits"), 1 + 2 + 4);
    cr_assert_eq(stats_sum(s, "sm?.l1d", "hits"), 1 + 2);
    cr_assert_eq(stats_sum(s, "*", "hits"), 1 + 2 + 4 + 8 + 32);
    cr_assert_eq(stats_sum(s, "sm1.*", "hits"), 2 + 8);
    cr_assert_eq(stats_sum(s, "nomatch", "hits"), 0);
    cr_assert_eq(stats_sum(s, "*", "misses"), 0);
    cr_assert_eq(stats_sum(s, NULL, "hits"), 0);
    cr_assert_eq(stats_sum(NULL, "*", "hits"), 0);
    stats_free(s);
}

Test(stats, derived_replacement_keeps_position)
{
    /* ipc registered first, then cycles; re-registering ipc replaces value
     * and unit but keeps it first in its block. */
    stats *s = stats_new();
    uint64_t cyc = 9;
    stats_derived(s, "sm0", "ipc", "old", "old desc", 1.0);
    stats_counter(s, "sm0", "cycles", "cycles", "core cycles", &cyc);
    stats_derived(s, "sm0", "ipc", "instr/cycle", "IPC", 2.5);
    double d = 0;
    cr_assert(stats_get_derived(s, "sm0", "ipc", &d));
    cr_assert_float_eq(d, 2.5, 0);
    capture c;
    stats_write_json(s, capture_open(&c), 0);
    cr_assert_str_eq(capture_text(&c),
                     "{\"blocks\":{\"sm0\":{\"ipc\":2.5,\"cycles\":9}},"
                     "\"schema\":{\"sm0\":{\"ipc\":{\"unit\":\"instr/cycle\",\"desc\":\"IPC\"},"
                     "\"cycles\":{\"unit\":\"cycles\",\"desc\":\"core cycles\"}}}}");
    capture_free(&c);
    stats_free(s);
}

Test(stats, counter_reregistration_and_kind_change)
{
    stats *s = stats_new();
    uint64_t a = 1, b = 2;
    stats_counter(s, "x", "n", NULL, NULL, &a);
    stats_counter(s, "x", "n", NULL, NULL, &b);   /* now points at b */
    uint64_t v = 0;
    cr_assert(stats_get_counter(s, "x", "n", &v));
    cr_assert_eq(v, 2);
    stats_derived(s, "x", "n", NULL, NULL, 0.5);  /* now a derived value */
    cr_assert_not(stats_get_counter(s, "x", "n", &v));
    cr_assert(stats_get_derived(s, "x", "n", NULL));
    stats_free(s);
}

Test(stats, lookups_that_fail)
{
    stats *s = stats_new();
    uint64_t a = 1;
    stats_counter(s, "x", "c", NULL, NULL, &a);
    stats_derived(s, "x", "d", NULL, NULL, 1);
    uint64_t u = 77;
    double d = 77;
    cr_assert_not(stats_get_counter(s, "x", "d", &u), "derived is not a counter");
    cr_assert_not(stats_get_derived(s, "x", "c", &d), "counter is not derived");
    cr_assert_not(stats_get_counter(s, "y", "c", &u), "unknown block");
    cr_assert_not(stats_get_counter(s, "x", "zz", &u), "unknown name");
    cr_assert_not(stats_get_counter(s, NULL, "c", &u));
    cr_assert_not(stats_get_derived(NULL, "x", "d", &d));
    cr_assert_eq(u, 77, "outputs untouched on failure");
    cr_assert_float_eq(d, 77, 0);
    stats_free(s);
}

Test(stats, null_arguments_register_nothing)
{
    /* Programming errors: logged by GLib, ignored, never a crash. */
    stats *s = stats_new();
    uint64_t a = 1;
    stats_counter(s, NULL, "c", NULL, NULL, &a);
    stats_counter(s, "b", NULL, NULL, NULL, &a);
    stats_counter(s, "b", "c", NULL, NULL, NULL);
    stats_histogram(s, "b", "h", NULL, NULL, NULL);
    stats_derived(NULL, "b", "d", NULL, NULL, 1);
    cr_assert_null(stats_series_new(s, NULL, "t", NULL, NULL, 1));
    stats_series_push(NULL, 1);
    cr_assert_eq(stats_series_len(NULL), 0);
    capture c;
    stats_write_json(s, capture_open(&c), 0);
    cr_assert_str_eq(capture_text(&c), "{\"blocks\":{},\"schema\":{}}");
    capture_free(&c);
    stats_free(s);
}

Test(stats, series_growth_and_replacement)
{
    /* 200 pushes of i: past the first 64-slot allocation, twice. */
    stats *s = stats_new();
    stats_series *ts = stats_series_new(s, "sm0", "ipc", NULL, NULL, 1000);
    for (unsigned i = 0; i < 200; i++)
        stats_series_push(ts, i);
    cr_assert_eq(stats_series_len(ts), 200);
    cr_assert_float_eq(stats_series_values(ts)[199], 199.0, 0);
    /* Registering the name again gives a fresh, empty series; the old one
     * stays valid (pushing to it is harmless) until stats_free. */
    stats_series *ts2 = stats_series_new(s, "sm0", "ipc", NULL, NULL, 0.5);
    stats_series_push(ts, 1);
    stats_series_push(ts2, 7);
    capture c;
    stats_write_json(s, capture_open(&c), 0);
    cr_assert(strstr(capture_text(&c),
                     "{\"blocks\":{\"sm0\":{\"ipc\":{\"interval\":0.5,\"values\":[7]}}}"));
    capture_free(&c);
    stats_free(s);
}

Test(stats, identical_registries_identical_bytes)
{
    tiny a, b;
    tiny_build(&a);
    tiny_build(&b);
    capture ca, cb;
    stats_write_json(a.s, capture_open(&ca), 3);
    stats_write_json(b.s, capture_open(&cb), 3);
    cr_assert_str_eq(capture_text(&ca), capture_text(&cb));
    cr_assert(json_valid(ca.buf));
    capture_free(&ca);
    capture_free(&cb);
    stats_free(a.s);
    stats_free(b.s);
}
