/* The parameter table: validity of the real table, the checks that reject a
 * malformed one, lookups and suggestions, value parsing, and `simtgrid params`. */
#include <stdio.h>

#include "scen_test_util.h"
#include "scenario/scenario_internal.h"
#include "simtgrid/params_print.h"

Test(table, real_table_is_valid)
{
    GError *err = NULL;
    bool ok = param_table_check(param_table, param_table_len, &err);
    cr_assert(ok, "real table rejected: %s", err ? err->message : "");
    /* des/params.def has 4 clock keys and scenario/params.def 4 sim keys. */
    cr_assert_geq(param_table_len, 8);
}

Test(table, find_returns_rows)
{
    const param_def *p = param_find("clock.core_mhz");
    cr_assert_not_null(p);
    cr_assert_eq(p->type, PT_FLOAT);
    cr_assert_str_eq(p->unit, "MHz");
    cr_assert_str_eq(p->def, "1000");
    p = param_find("sim.on_limit");
    cr_assert_not_null(p);
    cr_assert_eq(p->type, PT_ENUM);
    cr_assert_str_eq(p->choices, "stop|fail");
    cr_assert_null(param_find("clock"));
    cr_assert_null(param_find("clock.core"));
    cr_assert_null(param_find(""));
    cr_assert_eq(param_index("sim.seed"), (int)(param_find("sim.seed") - param_table));
}

Test(table, groups)
{
    cr_assert(param_group_exists("clock"));
    cr_assert(param_group_exists("sim"));
    cr_assert_not(param_group_exists("clock.core_mhz"));
    cr_assert_not(param_group_exists("clk"));
    /* "clk" -> "clock": 2 insertions; "sim" is 3 substitutions away. */
    cr_assert_str_eq(param_nearest_group("clk"), "clock");
}

Test(table, nearest_name)
{
    /* one substitution each */
    cr_assert_str_eq(param_nearest("clock.core_mhx"), "clock.core_mhz");
    cr_assert_str_eq(param_nearest("sim.sead"), "sim.seed");
    /* one deletion */
    cr_assert_str_eq(param_nearest("sim.max_cycle"), "sim.max_cycles");
    /* a transposition costs 2 with plain Levenshtein; still the closest */
    cr_assert_str_eq(param_nearest("sim.verobse"), "sim.verbose");
}

Test(table, edit_distance_values)
{
    cr_assert_eq(edit_distance("kitten", "sitting"), 3);   /* k->s, e->i, +g */
    cr_assert_eq(edit_distance("flaw", "lawn"), 2);        /* -f, +n */
    cr_assert_eq(edit_distance("", "abc"), 3);
    cr_assert_eq(edit_distance("abc", ""), 3);
    cr_assert_eq(edit_distance("same", "same"), 0);
    static const char *const c[] = {"aa", "bb", "ab"};
    /* "ab" vs aa=1, bb=1, ab=0 */
    cr_assert_str_eq(nearest_of("ab", c, 3), "ab");
    /* "ba" vs aa=1, bb=1, ab=2: tie goes to the earliest */
    cr_assert_str_eq(nearest_of("ba", c, 3), "aa");
    cr_assert_null(nearest_of("x", c, 0));
}

/* The one integer parser (config/num_parse.c), each value worked by hand. */
Test(table, num_parse_values)
{
    uint64_t m = 0;
    bool neg = false;
    cr_assert_eq(num_parse("-0x1F", 0, NUM_SIGN, &m, &neg), NUM_OK);
    cr_assert(m == 31 && neg);                                      /* 1*16 + 15 */
    cr_assert_eq(num_parse("0b101", 0, NUM_BIN, &m, NULL), NUM_OK);
    cr_assert_eq(m, 5);                                             /* 4 + 1 */
    cr_assert_eq(num_parse("1_000", 0, NUM_SEP, &m, NULL), NUM_OK);
    cr_assert_eq(m, 1000);
    cr_assert_eq(num_parse("ff", 16, 0, &m, NULL), NUM_OK);         /* trace pcs: no prefix */
    cr_assert_eq(m, 255);
    cr_assert_eq(num_parse("0x10", 16, 0, &m, NULL), NUM_OK);
    cr_assert_eq(m, 16);
    /* 2^64 = 18446744073709551616 is one past UINT64_MAX: out of range, not malformed */
    cr_assert_eq(num_parse("18446744073709551615", 0, 0, &m, NULL), NUM_OK);
    cr_assert_eq(m, UINT64_MAX);
    cr_assert_eq(num_parse("18446744073709551616", 0, 0, &m, NULL), NUM_RANGE);
    cr_assert_eq(num_parse("18446744073709551616x", 0, 0, &m, NULL), NUM_BAD);
    /* no sign, separator or binary unless the format has them; no blanks */
    cr_assert_eq(num_parse("-1", 0, 0, &m, NULL), NUM_BAD);
    cr_assert_eq(num_parse("1_0", 0, 0, &m, NULL), NUM_BAD);
    cr_assert_eq(num_parse("0b1", 0, 0, &m, NULL), NUM_BAD);
    cr_assert_eq(num_parse(" 1", 0, 0, &m, NULL), NUM_BAD);
    cr_assert_eq(num_parse("0x", 0, 0, &m, NULL), NUM_BAD);
    cr_assert_eq(num_parse("", 0, 0, &m, NULL), NUM_BAD);
    cr_assert_eq(num_parse("12a", 10, 0, &m, NULL), NUM_BAD);
}

/* ---- a malformed table is refused, naming the row ----------------------- */

static void check_bad(const param_def *rows, size_t n, const char *expected)
{
    GError *err = NULL;
    bool ok = param_table_check(rows, n, &err);
    assert_error(ok, err, expected);
}

#define ROW_INT(name, def) {name, PT_INT, "", def, 0, 10, NULL, "d"}

Test(table_check, duplicate_name)
{
    param_def t[] = {ROW_INT("a.x", "1"), ROW_INT("a.y", "1"), ROW_INT("a.x", "2")};
    check_bad(t, 3, "parameter table row 3 ('a.x'): duplicate name");
}

Test(table_check, bad_names)
{
    const char *want = "name must be dotted words of [A-Za-z0-9_] (e.g. 'l1d.sets')";
    const char *names[] = {"nodot", "a..b", ".a", "a.", "a.b-c", "", "a.b c"};
    for (unsigned i = 0; i < G_N_ELEMENTS(names); i++) {
        param_def t[] = {ROW_INT(names[i], "1")};
        char *m = g_strdup_printf("parameter table row 1 ('%s'): %s", names[i], want);
        check_bad(t, 1, m);
        g_free(m);
    }
    param_def t[] = {ROW_INT(NULL, "1")};
    char *m = g_strdup_printf("parameter table row 1 ('(null)'): %s", want);
    check_bad(t, 1, m);
    g_free(m);
}

Test(table_check, reserved_groups)
{
    const char *names[] = {"model.x", "scenario.x", "set.x", "sweep.x", "output.x", "launch.x", "launch.a.x"};
    for (unsigned i = 0; i < G_N_ELEMENTS(names); i++) {
        param_def t[] = {ROW_INT(names[i], "1")};
        char *m = g_strdup_printf("parameter table row 1 ('%s'): group is reserved for model/scenario files",
                                  names[i]);
        check_bad(t, 1, m);
        g_free(m);
    }
}

Test(table_check, bad_defaults)
{
    param_def t1[] = {ROW_INT("a.x", "abc")};
    check_bad(t1, 1, "parameter table row 1 ('a.x'): bad default: expected an integer from 0 to 10, got 'abc'");
    param_def t2[] = {ROW_INT("a.ok", "0"), ROW_INT("a.x", "11")};
    check_bad(t2, 2,
              "parameter table row 2 ('a.x'): bad default: expected an integer from 0 to 10, got '11' (out of range)");
    param_def t3[] = {{"a.f", PT_FLOAT, "", "-0.5", 0, 1, NULL, "d"}};
    check_bad(t3, 1, "parameter table row 1 ('a.f'): bad default: expected a number from 0 to 1, got '-0.5' (out of range)");
    param_def t4[] = {{"a.e", PT_ENUM, "", "c", 0, 0, "a|b", "d"}};
    check_bad(t4, 1, "parameter table row 1 ('a.e'): bad default: expected one of a, b, got 'c'");
    param_def t5[] = {{"a.b", PT_BOOL, "", "maybe", 0, 0, NULL, "d"}};
    check_bad(t5, 1,
              "parameter table row 1 ('a.b'): bad default: expected true or false (or yes/no, on/off, 1/0), got 'maybe'");
}

Test(table_check, bad_rows)
{
    const char *choices_msg = "enum choices must be non-empty distinct words separated by '|'";
    const char *bad_choices[] = {"a||b", "a|a", "", "|a", NULL};
    for (unsigned i = 0; i < G_N_ELEMENTS(bad_choices); i++) {
        param_def t[] = {{"a.e", PT_ENUM, "", "a", 0, 0, bad_choices[i], "d"}};
        char *m = g_strdup_printf("parameter table row 1 ('a.e'): %s", choices_msg);
        check_bad(t, 1, m);
        g_free(m);
    }
    param_def t1[] = {{"a.x", PT_INT, "", "5", 10, 0, NULL, "d"}};
    check_bad(t1, 1, "parameter table row 1 ('a.x'): min must not exceed max");
    param_def t2[] = {{"a.x", PT_INT, "", "5", 0, 10, NULL, ""}};
    check_bad(t2, 1, "parameter table row 1 ('a.x'): unit, default and description must be given");
    param_def t3[] = {{"a.x", PT_INT, NULL, "5", 0, 10, NULL, "d"}};
    check_bad(t3, 1, "parameter table row 1 ('a.x'): unit, default and description must be given");
    param_def t4[] = {{"a.x", PT_INT, "", NULL, 0, 10, NULL, "d"}};
    check_bad(t4, 1, "parameter table row 1 ('a.x'): unit, default and description must be given");
    param_def t5[] = {{"a.x", (param_type)9, "", "5", 0, 10, NULL, "d"}};
    check_bad(t5, 1, "parameter table row 1 ('a.x'): unknown type");
}

Test(table_check, good_synthetic_table)
{
    param_def t[] = {
        ROW_INT("a.x", "10"),
        {"a.f", PT_FLOAT, "ns", "0.25", 0, 1, NULL, "d"},
        {"a.b", PT_BOOL, "", "yes", 0, 0, NULL, "d"},
        {"a.e", PT_ENUM, "", "b", 0, 0, "a|b", "d"},
        {"b.s", PT_STRING, "", "", 0, 0, NULL, "d"},
    };
    GError *err = NULL;
    cr_assert(param_table_check(t, G_N_ELEMENTS(t), &err));
    cr_assert_null(err);
}

/* ---- values ------------------------------------------------------------- */

static const param_def p_int = {"t.i", PT_INT, "", "0", -10, 10, NULL, "d"};
static const param_def p_big = {"t.big", PT_INT, "", "0", -9.3e18, 9.3e18, NULL, "d"};
static const param_def p_flt = {"t.f", PT_FLOAT, "", "0", 0, 2000, NULL, "d"};
static const param_def p_bool = {"t.b", PT_BOOL, "", "false", 0, 0, NULL, "d"};
static const param_def p_enum = {"t.e", PT_ENUM, "", "lrr", 0, 0, "lrr|gto|2lev", "d"};
static const param_def p_str = {"t.s", PT_STRING, "", "", 0, 0, NULL, "d"};

static void parse_ok(const param_def *p, const char *text, const char *canon_want, param_value *v)
{
    char *canon = NULL;
    char *why = param_parse(p, text, v, &canon);
    cr_assert_null(why, "'%s' refused: %s", text, why);
    cr_assert_str_eq(canon, canon_want);
    g_free(canon);
}

static void parse_bad(const param_def *p, const char *text, const char *want)
{
    param_value v;
    char *why = param_parse(p, text, &v, NULL);
    cr_assert_not_null(why, "'%s' accepted", text);
    cr_assert_str_eq(why, want);
    g_free(why);
}

Test(value, ints)
{
    param_value v;
    parse_ok(&p_int, "7", "7", &v);
    cr_assert_eq(v.i, 7);
    parse_ok(&p_int, "-10", "-10", &v);
    cr_assert_eq(v.i, -10);
    /* blanks around a value are refused, not trimmed (file layout and
     * "--set KEY = VALUE" are trimmed before the value is parsed) */
    parse_bad(&p_int, " -10 ", "expected a value without blanks around it, got ' -10 '");
    parse_bad(&p_int, "7 ", "expected a value without blanks around it, got '7 '");
    parse_ok(&p_int, "+3", "3", &v);
    cr_assert_eq(v.i, 3);
    parse_ok(&p_int, "0xA", "10", &v);   /* hex: 0xA = 10, the max */
    cr_assert_eq(v.i, 10);
    parse_ok(&p_big, "-9223372036854775808", "-9223372036854775808", &v);
    cr_assert_eq(v.i, INT64_MIN);
    parse_bad(&p_int, "1.5", "expected an integer from -10 to 10, got '1.5'");
    parse_bad(&p_int, "abc", "expected an integer from -10 to 10, got 'abc'");
    parse_bad(&p_int, "", "expected an integer from -10 to 10, got ''");
    parse_bad(&p_int, "0x", "expected an integer from -10 to 10, got '0x'");
    parse_bad(&p_int, "12abc", "expected an integer from -10 to 10, got '12abc'");
    parse_bad(&p_int, "11", "expected an integer from -10 to 10, got '11' (out of range)");
    parse_bad(&p_int, "-11", "expected an integer from -10 to 10, got '-11' (out of range)");
    /* 1e20 > 2^64: does not fit 64 bits; bounds beyond 2^53 print as %g */
    parse_bad(&p_big, "99999999999999999999",
              "expected an integer from -9.3e+18 to 9.3e+18, got '99999999999999999999' (out of range)");
}

Test(value, floats)
{
    param_value v;
    parse_ok(&p_flt, "1.5", "1.5", &v);
    cr_assert_eq(v.f, 1.5);
    parse_ok(&p_flt, "1e3", "1000", &v);
    cr_assert_eq(v.f, 1000.0);
    parse_ok(&p_flt, "0.1", "0.1", &v);   /* shortest text that reads back */
    cr_assert_eq(v.f, 0.1);
    parse_ok(&p_flt, "2000", "2000", &v);
    parse_bad(&p_flt, "fast", "expected a number from 0 to 2000, got 'fast'");
    parse_bad(&p_flt, "nan", "expected a number from 0 to 2000, got 'nan'");
    parse_bad(&p_flt, "inf", "expected a number from 0 to 2000, got 'inf'");
    parse_bad(&p_flt, "1.5x", "expected a number from 0 to 2000, got '1.5x'");
    parse_bad(&p_flt, "", "expected a number from 0 to 2000, got ''");
    parse_bad(&p_flt, "2000.5", "expected a number from 0 to 2000, got '2000.5' (out of range)");
}

Test(value, bools)
{
    param_value v;
    const char *yes[] = {"true", "YES", "On", "1"}, *no[] = {"false", "no", "OFF", "0"};
    for (unsigned i = 0; i < 4; i++) {
        parse_ok(&p_bool, yes[i], "true", &v);
        cr_assert(v.b);
        parse_ok(&p_bool, no[i], "false", &v);
        cr_assert_not(v.b);
    }
    parse_bad(&p_bool, "maybe", "expected true or false (or yes/no, on/off, 1/0), got 'maybe'");
    parse_bad(&p_bool, "2", "expected true or false (or yes/no, on/off, 1/0), got '2'");
}

Test(value, enums)
{
    param_value v;
    parse_ok(&p_enum, "lrr", "lrr", &v);
    cr_assert_eq(v.e, 0);
    parse_ok(&p_enum, "2lev", "2lev", &v);
    cr_assert_eq(v.e, 2);
    parse_bad(&p_enum, "GTO", "expected one of lrr, gto, 2lev, got 'GTO'");
    parse_bad(&p_enum, "gt", "expected one of lrr, gto, 2lev, got 'gt'");
    cr_assert_eq(param_choice_index("lrr|gto|2lev", "gto"), 1);
    cr_assert_eq(param_choice_index("lrr|gto|2lev", "lr"), -1);
    cr_assert_eq(param_choice_index(NULL, "lrr"), -1);
}

Test(value, strings_kept_verbatim)
{
    param_value v;
    parse_ok(&p_str, "a b", "a b", &v);
    parse_ok(&p_str, "", "", &v);
}

Test(value, number_format)
{
    char b[40];
    param_format_number(b, sizeof b, 9007199254740991.0);   /* 2^53 - 1 */
    cr_assert_str_eq(b, "9007199254740991");
    param_format_number(b, sizeof b, -3);
    cr_assert_str_eq(b, "-3");
    param_format_number(b, sizeof b, 0.25);
    cr_assert_str_eq(b, "0.25");
    param_format_number(b, sizeof b, 1e300);                 /* integral but beyond 2^53 */
    cr_assert_str_eq(b, "1e+300");
}

/* ---- simtgrid params ------------------------------------------------------ */

static char *capture(void (*print)(FILE *))
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    print(f);
    fclose(f);
    return buf;
}

/* The line of `name` split on runs of two or more spaces. */
static char **columns_of(char **lines, const char *name)
{
    for (unsigned i = 0; lines[i]; i++)
        if (g_str_has_prefix(lines[i], name) && lines[i][strlen(name)] == ' ')
            return g_regex_split_simple("  +", lines[i], 0, 0);
    return NULL;
}

Test(print, text_table)
{
    char *out = capture(params_print_text);
    char **lines = g_strsplit(out, "\n", -1);
    /* header, one line per parameter, the count, and "" after the last \n */
    cr_assert_eq(g_strv_length(lines), param_table_len + 3);
    cr_assert(g_str_has_prefix(lines[0], "NAME "));
    char *count = g_strdup_printf("%zu parameters", param_table_len);
    cr_assert_str_eq(lines[param_table_len + 1], count);
    g_free(count);

    char **c = columns_of(lines, "clock.core_mhz");
    cr_assert_not_null(c);
    const char *want[] = {"clock.core_mhz", "float", "MHz", "1000", "1 .. 10000", "SM (core) clock frequency"};
    cr_assert_eq(g_strv_length(c), 6);
    for (unsigned k = 0; k < 6; k++)
        cr_assert_str_eq(c[k], want[k]);
    g_strfreev(c);

    /* enum: empty unit column, choices as range */
    c = columns_of(lines, "sim.on_limit");
    cr_assert_not_null(c);
    cr_assert_str_eq(c[1], "enum");
    cr_assert_str_eq(c[2], "stop");      /* unit is blank: the default follows */
    cr_assert_str_eq(c[3], "stop|fail");
    g_strfreev(c);
    g_strfreev(lines);
    free(out);
}

Test(print, json_table)
{
    char *out = capture(params_print_json);
    cr_assert(g_str_has_prefix(out, "{\n  \"parameters\": [\n    {\n"));
    cr_assert(g_str_has_suffix(out, "\n  ]\n}\n"));
    /* One "name" member per parameter. */
    unsigned n = 0;
    for (const char *p = out; (p = strstr(p, "\"name\": ")); p++)
        n++;
    cr_assert_eq(n, param_table_len);
    cr_assert_not_null(strstr(out,
        "      \"name\": \"sim.on_limit\",\n"
        "      \"type\": \"enum\",\n"
        "      \"unit\": \"\",\n"
        "      \"default\": \"stop\",\n"
        "      \"choices\": [\n"
        "        \"stop\",\n"
        "        \"fail\"\n"
        "      ],\n"
        "      \"description\": \"when sim.max_cycles is reached: stop and report, or fail the run (exit 1)\"\n"));
    /* ints keep their type; the max 2^53 - 1 is exact */
    cr_assert_not_null(strstr(out,
        "      \"name\": \"sim.seed\",\n"
        "      \"type\": \"int\",\n"
        "      \"unit\": \"\",\n"
        "      \"default\": 1,\n"
        "      \"min\": 0,\n"
        "      \"max\": 9007199254740991,\n"));
    cr_assert_not_null(strstr(out,
        "      \"name\": \"sim.verbose\",\n"
        "      \"type\": \"bool\",\n"
        "      \"unit\": \"\",\n"
        "      \"default\": false,\n"
        "      \"description\": "));
    free(out);
}
